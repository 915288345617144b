"""Ratings measure unaided play: a game in which a player asked for a hint or took a move back
is not rated for them (told once, at the first), the others' results stand where they were not
won by the help (`bot.rating_model`), the mark survives a restart, `/stats` shows such games apart,
and a rebuild of the ratings gives the same numbers. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engines
from bot.ai import AIRunner
from bot.model import Private
from bot.session import Aid
from engines.base import AIInfo, Limit
from tests.conftest import ALICE, BOB, BOTH, Clock, Table, close_table, open_table
from tests.support.postgres import rows

BACKENDS = BOTH
NOTICE = "this game will not be rated for you"


class Scripted(AIRunner):
    """The bot plays `script`'s moves at its level (the test needs a game the person wins, not a
    strong bot: what is rated is who played which level); anything else, a hint among them,
    thinks for real within a small budget."""

    def __init__(self, level: str, script: list[str]) -> None:
        super().__init__(0)
        self.level, self.script = level, list(script)

    async def move(self, game: str, state: Any, seat: int, level: str, seed: int,
                   limit: Limit | None = None) -> tuple[str, AIInfo]:
        if level == self.level:
            return self.script.pop(0), AIInfo(work=1)
        return await super().move(game, state, seat, level, seed, Limit(300, 5.0))


async def table_with(database: Path | str, clock: Clock, ai: AIRunner, **options: Any) -> Table:
    table = await open_table(database, clock, **options)
    table.host.ai.close()
    table.host.ai = ai
    return table


async def ratings(table: Table, game: str) -> dict[str, float]:
    return {p: s.ordinal for p, s in (await table.store.skills(game)).items()}


async def master_game(table: Table, aid: str | None) -> list[str]:
    """Alice (black) against a scripted `master` makes five in a row h8-h12, with one hint or one
    take-back (or none) on the way; what she was told privately and in public."""
    said = [await table.text(ALICE, "/gomoku solo master")]
    for n, point in enumerate(("h8", "h9", "h10", "h11", "h12")):
        if n == 2 and aid == "hint":
            hint = await table.say(ALICE, "/hint")
            assert len(hint) == 1 and hint[0].audience == Private(ALICE.id)
            said.append(hint[0].text)
        said.append(await table.text(ALICE, "/move " + point))
        await table.host.idle()
        if n == 1 and aid == "undo":
            said.append(await table.text(ALICE, "/undo"))  # h9 and the bot's answer taken back
            said.append(await table.text(ALICE, "/move " + point))
            await table.host.idle()
    said.append(await table.text(ALICE, "/hint"))  # after the end: no game, no mark
    return said


@pytest.mark.parametrize("aid", [None, "hint", "undo"])
async def test_against_master_one_hint_or_one_take_back_and_the_win_changes_no_rating(
        database: Path | str, clock: Clock, aid: str | None) -> None:
    table = await table_with(database, clock, Scripted("master", ["a1", "c1", "e1", "g1", "a3", "c3"]))
    try:
        said = await master_game(table, aid)
        assert any("Alice wins" in s or "🏆 Alice" in s for s in said), said
        session = await table.session()
        results = await rows(table.store, "SELECT user_id, result, aided FROM results ORDER BY seat")
        rated = await ratings(table, "gomoku")
        if aid is None:  # unaided, the same win lifts Alice and drops the level
            assert results == [{"user_id": ALICE.id, "result": "win", "aided": None},
                               {"user_id": "ai:master", "result": "loss", "aided": None}]
            assert rated[ALICE.id] > 0 > rated["ai:master"] and session.aided == {}
            assert not any("not be rated" in s for s in said)
            return
        assert session.aided == {0: Aid(aid)} and results[0]["aided"] == aid
        assert rated == {}, rated  # nobody moved: not Alice, not the level she beat with help
        changes = await rows(table.store, "SELECT player, rating_from, rating_to FROM rating_changes")
        assert all(c["rating_from"] == c["rating_to"] for c in changes) and len(changes) == 2
        told = [s for s in said if "not be rated" in s]
        assert len(told) == 1, said  # once
        if aid == "hint":
            assert told[0].startswith("Hint: ") and NOTICE in told[0]
        else:
            assert "Alice took back 2 moves." in told[0] and "This game will not be rated for Alice" in told[0]
    finally:
        await close_table(table)


async def test_following_the_hints_against_the_perfect_nim_bot_wins_and_rates_nobody(table: Table) -> None:
    """Nim's hint is the perfect bot's move: typing each hint wins a winning position, with the
    real AI. Not rated; `/stats` says why; the same win unaided is rated."""
    await table.say(ALICE, "/nim solo hard 3 4 5")
    hints = []
    while (await table.session()).status == "playing":
        [hint] = await table.say(ALICE, "/hint")
        hints.append(hint.text)
        await table.say(ALICE, "/move " + hint.text.removeprefix("Hint: ").split(" (")[0])
        await table.host.idle()
    assert "🏆 Alice wins" in table.delivered[-1].text or (await table.session()).outcome.ranks[0] == 1
    assert NOTICE in hints[0] and not any(NOTICE in h for h in hints[1:])
    assert await ratings(table, "nim") == {}
    [card] = await table.say(ALICE, "/stats")
    assert "1 won · 0 lost" in card.text_board and "1 game unrated: hint or take-back" in card.text_board
    # the same position, the perfect moves found without asking the host: rated
    await table.say(ALICE, "/nim solo hard 3 4 5")
    while (session := await table.session()).status == "playing":
        move, _ = engines.think("nim", session.state, 0, "hard", 1)
        await table.say(ALICE, "/move " + move)
        await table.host.idle()
    assert (await table.session()).outcome.ranks[0] == 1
    assert (await ratings(table, "nim"))[ALICE.id] > 0
    [card] = await table.say(ALICE, "/stats")
    assert "2 won · 0 lost" in card.text_board and "1 game unrated" in card.text_board


async def two_people_nim(table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4 5")
    await table.say(BOB, "/join")


@pytest.mark.parametrize("alice_wins", [True, False])
async def test_two_people_and_only_alice_used_a_hint(table: Table, alice_wins: bool) -> None:
    """Alice asked for a hint, Bob did not. Alice wins: not rated for her, and Bob's loss to help
    is not rated either. Alice loses: not rated for her; Bob's win over a helped player counts."""
    await two_people_nim(table)
    [hint] = await table.say(ALICE, "/hint")
    assert NOTICE in hint.text and hint.audience == Private(ALICE.id)
    assert "not your turn" in await table.text(BOB, "/hint")  # refused: no mark for Bob
    await table.say(ALICE, "/take 1 1")
    assert "not be rated" not in await table.text(BOB, "/take 2 1")
    await table.say(BOB if alice_wins else ALICE, "/resign")
    session = await table.session()
    assert session.aided == {0: Aid.HINT} and session.status == "finished"
    results = await rows(table.store, "SELECT user_id, result, aided FROM results ORDER BY seat")
    assert [(r["user_id"], r["aided"]) for r in results] == [(ALICE.id, "hint"), (BOB.id, None)]
    rated = await ratings(table, "nim")
    if alice_wins:
        assert rated == {}  # Bob lost to help: not rated for him either
    else:
        assert rated[ALICE.id] == pytest.approx(0.0)  # as new
        assert rated[BOB.id] > 0  # he beat a player who had help: that counts


async def test_the_mark_survives_a_restart_of_the_bot(database: Path | str, clock: Clock) -> None:
    """Alice asks for a hint; the bot stops and starts again (a new host on the same database):
    the game goes on unrated for her, and she is not told a second time."""
    table = await table_with(database, clock, Scripted("master", ["a1", "c1", "e1", "g1"]))
    try:
        await table.say(ALICE, "/gomoku solo master")
        await table.say(ALICE, "/move h8")
        await table.host.idle()
        assert NOTICE in await table.text(ALICE, "/hint")
    finally:
        await close_table(table)
    table = await table_with(database, clock, Scripted("master", ["e1", "g1", "a3"]))
    try:
        assert (await table.session()).aided == {0: Aid.HINT}
        again = await table.text(ALICE, "/hint")
        assert again.startswith("Hint: ") and NOTICE not in again
        for point in ("h9", "h10", "h11", "h12"):
            await table.say(ALICE, "/move " + point)
            await table.host.idle()
        assert (await table.session()).outcome.ranks[0] == 1 and await ratings(table, "gomoku") == {}
    finally:
        await close_table(table)


async def test_a_restart_against_the_bot_alone_is_help_and_one_people_agree_to_is_not(table: Table) -> None:
    """Against the bot, which cannot refuse, `/restart` throws away a game going badly: help, once
    the asker has moved. Between people it needs everyone's yes: a new game, still rated."""
    await table.say(ALICE, "/nim solo hard 3 4 5")
    await table.say(ALICE, "/restart")  # before any move of hers: nothing taken back
    assert (await table.session()).aided == {}
    await table.say(ALICE, "/take 1 1")
    await table.host.idle()
    said = await table.text(ALICE, "/restart")
    assert "The game starts again." in said and "This game will not be rated for Alice" in said
    assert (await table.session()).aided == {0: Aid.UNDO}
    await table.say(ALICE, "/resign")
    await two_people_nim(table)
    await table.say(ALICE, "/take 1 1")
    await table.say(BOB, "/restart")
    said = await table.text(ALICE, "/accept")
    assert "The game starts again." in said and "not be rated" not in said
    assert (await table.session()).aided == {}


async def test_a_move_taken_back_with_consent_marks_the_asker_alone(table: Table) -> None:
    await two_people_nim(table)
    await table.say(ALICE, "/take 1 1")
    await table.say(BOB, "/take 2 1")
    await table.say(BOB, "/undo")
    said = await table.text(ALICE, "/accept")
    assert "Bob took back a move." in said and "This game will not be rated for Bob: they took moves back." in said
    await table.say(BOB, "/take 2 2")
    await table.say(ALICE, "/take 3 1")
    await table.say(BOB, "/undo")
    assert "not be rated" not in await table.text(ALICE, "/accept")  # told once
    assert (await table.session()).aided == {1: Aid.UNDO}


RATINGS = "SELECT game, player, mu, sigma FROM ratings ORDER BY game, player"  # the epoch's number left out
CHANGES = "SELECT session_id, player, game, rating_from, rating_to, at FROM rating_changes ORDER BY session_id, player"


async def test_a_rebuild_gives_the_same_numbers_with_the_help_kept_in_the_results(table: Table) -> None:
    """`gamehost --rebuild-ratings` reads the help from the results: the same ratings, the same changes."""
    for helped, loser in ((ALICE, BOB), (None, ALICE), (BOB, BOB), (None, BOB), (ALICE, ALICE)):
        await two_people_nim(table)
        if helped is BOB:
            await table.say(ALICE, "/take 1 1")
        if helped is not None:
            assert NOTICE in await table.text(helped, "/hint")
        await table.say(loser, "/resign")
        table.clock.advance(3 * 3600)
    before = (await rows(table.store, RATINGS), await rows(table.store, CHANGES))
    assert len({r["rating_to"] for r in before[1]}) > 2  # games were rated, some of them
    assert await table.store.rebuild_ratings() == 5
    after = (await rows(table.store, RATINGS), await rows(table.store, CHANGES))
    assert after == before


async def test_the_notices_in_chinese(database: Path | str, clock: Clock) -> None:
    table = await open_table(database, clock, language="zh")
    try:
        await table.say(ALICE, "/拈 人机 hard 3 4 5")
        [hint] = await table.say(ALICE, "/提示")
        assert hint.text.startswith("提示：") and hint.text.endswith("（你用了提示，这局将不计入你的等级分）")
        await table.say(ALICE, "/认输")
        await table.say(ALICE, "/拈 人机 hard 3 4 5")
        await table.say(ALICE, "/取 1 1")
        await table.host.idle()
        said = await table.text(ALICE, "/悔棋")
        assert "Alice 悔了 2 步。" in said and "Alice 悔了棋，这局将不计入 Alice 的等级分。" in said
        await table.say(ALICE, "/认输")
        [card] = await table.say(ALICE, "/战绩")
        assert "负 2" in card.text_board and "2 局不计分：用了提示或悔棋" in card.text_board
    finally:
        await close_table(table)
