"""/review through the host, on SQLite and PostgreSQL: stored once and served again without thinking
again, an earlier game by its number, a Dou Dizhu endgame error found exactly, a watched bot game, the
button of the result message, everyone's to see."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.model import EVERYONE
from tests.conftest import ALICE, BOB, CAROL, Table
from tests.engines.test_review import DDZ_MOVES
from tests.support.pictures import picture

BACKENDS = ("sqlite", "postgres")


def counting(table: Table) -> list[Any]:
    """The reviews the AI workers were asked for."""
    asked: list[Any] = []
    run = table.host.ai.review

    async def review(record: Any) -> Any:
        asked.append(record)
        return await run(record)

    table.host.ai.review = review  # type: ignore[method-assign]
    return asked


async def nim(table: Table, *moves: str) -> None:
    await table.say(ALICE, "/nim start 3 4 5")
    await table.say(BOB, "/join")
    for i, move in enumerate(moves):
        await table.say(ALICE if i % 2 == 0 else BOB, f"/take {move}")


async def test_a_review_is_stored_once_and_served_again(table: Table) -> None:
    asked = counting(table)
    await nim(table, "1 1", "2 4", "3 5", "1 2")  # each side lets the win go in turn; Bob takes the last
    first = await table.say(CAROL, "/review")
    assert len(asked) == 1 and first[0].audience == EVERYONE
    assert first[0].text.startswith("Move 3, Alice took 5 from heap 3 and left the other a win (taking 3 from heap 3")
    assert "Bob won from there." in first[0].text and "Mistakes found: Alice 2, Bob 1." in first[0].text
    picture(first[0].image)
    session = await table.session()
    assert await table.store.review(session.id) is not None
    again = await table.say(ALICE, "/review 1")
    assert len(asked) == 1 and again[0].text == first[0].text and again[0].image is not None


async def test_a_first_review_thinks_without_holding_the_channel(table: Table) -> None:
    """While a first review thinks, the channel's other commands are answered: it is made before the
    channel is locked, and the locked command finds it stored."""
    await nim(table, "1 1", "2 4", "3 5", "1 2")
    run, thinking, go_on = table.host.ai.review, asyncio.Event(), asyncio.Event()
    asked: list[Any] = []

    async def slow(record: Any) -> Any:
        asked.append(record)
        thinking.set()
        await go_on.wait()
        return await run(record)

    table.host.ai.review = slow  # type: ignore[method-assign]
    reviewing = asyncio.ensure_future(table.text(CAROL, "/review"))
    await asyncio.wait_for(thinking.wait(), 10)
    started = await asyncio.wait_for(table.text(ALICE, "/nim start 3 4"), 10)  # not behind the review
    assert started.startswith("Alice opened a table for Nim.") and not reviewing.done()
    go_on.set()
    assert (await reviewing).startswith("Move 3, Alice took 5 from heap 3") and len(asked) == 1


async def test_review_is_refused_while_a_game_is_played_and_n_names_an_earlier_game(table: Table) -> None:
    await nim(table, "1 3", "2 4", "3 5")  # Alice takes the last stones
    await table.say(ALICE, "/rematch")
    await table.say(BOB, "/accept")
    refused = await table.say(ALICE, "/review")
    assert [r.text for r in refused] == ["A review is only for a finished game: this one is still being played."]
    await table.say(BOB, "/resign")  # the rematch: Bob moves first and resigns
    latest = await table.text(ALICE, "/review")  # the rematch: no move was made
    assert latest == "The review found no mistake its search could prove or estimate.\nAlice won."
    assert (await table.text(ALICE, "/review 2")).startswith("Move 2, Bob took 4 from heap 2 and left the other a win")
    assert (await table.text(ALICE, "/review 3")) == "Use /review N with N from 1 (the latest finished game) to 2."


async def test_a_dou_dizhu_endgame_error_is_found_exactly(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.core.secrets.randbits", lambda bits: 0)  # the deal of tests.engines.test_review
    await table.say(ALICE, "/ddz start")
    await table.say(BOB, "/join")
    await table.say(CAROL, "/join")
    people = (ALICE, BOB, CAROL)
    for seat, move in DDZ_MOVES:
        said = await table.say(people[seat], f"/move {move}")
        assert said and said[0].audience == EVERYONE, (seat, move, [r.text for r in said])
    session = await table.session()
    assert session.status.value == "finished"
    text = await table.text(CAROL, "/review")
    assert text.startswith("Move 39, Alice passed and turned a won endgame into a lost one (2 kept the win")
    assert "Bob won from there." in text


async def test_a_watched_bot_game_and_the_button_of_its_result(table: Table) -> None:
    await table.say(ALICE, "/nim watch easy hard every=1 4 5")
    session = await table.session()
    for _ in range(40):  # the bots move as the clock goes
        table.clock.advance(1)
        await table.host.expire_due()
        await table.host.idle()
    result = next(r for r in table.delivered if r.session == session.id and r.over)
    assert [b.command for b in result.buttons] == ["/review"]  # no rematch of a watched game
    button = next(b for b in result.buttons if b.command == "/review")
    pressed = await table.press(BOB, button.id)
    assert pressed[0].audience == EVERYONE and pressed[0].image is not None
    assert "won" in pressed[0].text or "draw" in pressed[0].text
