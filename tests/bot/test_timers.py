"""Timers fire through the host's own timer loop, also after a restart. Nothing here calls
`expire_due`: the test moves the injected clock and wakes the loop (as a commit does), and waits
for what the loop delivers; a host whose loop never started, or stopped, fails every test."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ALICE, BOB, CAROL, Clock, Table, close_table, open_table, until
from tests.support.relay import install as install_relay


def said(table: Table, text: str) -> bool:
    return any(text in r.text for r in table.delivered)


def time_passes(table: Table, clock: Clock, seconds: float) -> None:
    clock.advance(seconds)
    table.host.autoplay.wake()


async def test_an_empty_table_closes_by_itself(table: Table, clock: Clock) -> None:
    await table.say(ALICE, "/nim start")
    time_passes(table, clock, 901)
    await until(lambda: said(table, "Nobody came"), 20)
    assert (await table.session()).status == "cancelled"


async def test_a_player_whose_time_runs_out_loses_by_itself(table: Table, clock: Clock) -> None:
    await table.say(ALICE, "/nim start 3 4 5 timer=1m")
    await table.say(BOB, "/join")
    await table.say(ALICE, "/take 1 1")
    time_passes(table, clock, 61)
    await until(lambda: said(table, "Alice wins: Bob ran out of time"), 20)
    assert (await table.session()).status == "finished"


async def test_in_a_game_of_three_a_bot_takes_the_seat_by_itself(tmp_path: Path, clock: Clock) -> None:
    install_relay()
    table = await open_table(tmp_path / "relay.db", clock)
    try:
        await table.say(ALICE, "/relay start")
        await table.say(BOB, "/join")
        await table.say(CAROL, "/join")
        await table.say(ALICE, "/move 1")
        time_passes(table, clock, 301)
        await until(lambda: said(table, "Bob ran out of time; a bot plays for them"), 20)
        await until(lambda: said(table, "Carol, your move."), 20)
        session = await table.session()
        assert session.seats[1].away and session.ply == 2
    finally:
        await close_table(table)


async def test_a_timer_that_ran_out_while_the_host_was_down_fires_when_it_starts(tmp_path: Path,
                                                                                clock: Clock) -> None:
    table = await open_table(tmp_path / "g.db", clock)
    await table.say(ALICE, "/nim start 3 4 5")
    await table.say(BOB, "/join")
    await close_table(table)
    clock.advance(400)  # the host was down while Alice's time ran out
    table = await open_table(tmp_path / "g.db", clock)  # nobody wakes its loop: starting is enough
    try:
        await until(lambda: said(table, "Alice ran out of time"), 20)
        assert (await table.session()).status == "finished"
    finally:
        await close_table(table)


async def test_a_timer_kept_across_a_restart_fires_later(tmp_path: Path, clock: Clock) -> None:
    table = await open_table(tmp_path / "g.db", clock)
    await table.say(ALICE, "/nim start 3 4 5 timer=2m")
    await table.say(BOB, "/join")
    await table.say(ALICE, "/take 1 1")
    await close_table(table)
    clock.advance(60)
    table = await open_table(tmp_path / "g.db", clock)
    try:
        assert (await table.session()).status == "playing"
        time_passes(table, clock, 61)  # Bob's two minutes, counted from his turn's start
        await until(lambda: said(table, "Alice wins: Bob ran out of time"), 20)
    finally:
        await close_table(table)
