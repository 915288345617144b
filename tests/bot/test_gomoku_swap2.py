"""Gomoku's swap2 opening through the host, which knows nothing of it: a time-out in the opening, an undo
against the bot, a rematch that hands the opening to the other player, and the results credited to the
people whatever colour they ended with."""

from __future__ import annotations

from tests.conftest import ALICE, BOB, Clock, Table, until


def said(table: Table, text: str) -> bool:
    return any(text in r.text for r in table.delivered)


async def opened(table: Table) -> None:
    await table.say(ALICE, "/gomoku start swap2 timer=1m")
    await table.say(BOB, "/join")
    for point in ("h8", "h9", "j10"):
        await table.say(ALICE, f"/move {point}")


async def wins(table: Table, user_id: str) -> int:
    return sum(row["result"] == "win" for row in await table.store.game_results("gomoku") if row["user_id"] == user_id)


async def test_the_chooser_who_lets_the_time_run_out_loses(table: Table, clock: Clock) -> None:
    await opened(table)
    clock.advance(61)
    table.host.autoplay.wake()
    await until(lambda: said(table, "Alice wins: Bob ran out of time"), 20)
    assert await wins(table, ALICE.id) == 1 and await wins(table, BOB.id) == 0


async def test_five_by_the_seat_that_took_black_is_its_win_and_a_rematch_hands_over_the_opening(table: Table) -> None:
    await opened(table)
    text = await table.text(BOB, "/swap black")
    assert "Bob takes black: the other player plays white and moves now." in text
    assert "Alice, your move (white)." in text
    for alice, bob in (("a1", "o3"), ("a3", "o4"), ("a5", "o5"), ("a7", "o6"), ("a9", "o7")):
        await table.say(ALICE, f"/move {alice}")
        text = await table.text(BOB, f"/move {bob}")
    assert "🏆 Bob wins: five in a row: o3 o4 o5 o6 o7" in text
    assert await wins(table, BOB.id) == 1 and await wins(table, ALICE.id) == 0

    await table.say(ALICE, "/rematch")
    text = await table.text(BOB, "/accept")
    assert "Gomoku begins: Bob vs Alice." in text and "Bob, swap2 opening: place stone 1 of 3 (black)" in text


async def test_an_undo_in_the_opening_against_the_bot(table: Table) -> None:
    await table.say(ALICE, "/gomoku solo easy swap2")
    await table.say(ALICE, "/move h8")
    text = await table.text(ALICE, "/move h9")
    assert "Alice, swap2 opening: place stone 3 of 3 (black)" in text
    text = await table.text(ALICE, "/undo")
    assert "Alice took back a move." in text and "Alice, swap2 opening: place stone 2 of 3 (white)" in text
    assert (await table.session()).state["moves"] == ["h8"]
