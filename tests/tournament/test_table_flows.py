"""Round robin and knockout at tables of three through the host on the console's kind of channel
(games one after another in the channel): a Dou Dizhu round robin of bots in which every pair
meets, a Chinese Checkers knockout whose first table ends in a tie and plays again."""

from __future__ import annotations

import asyncio
import threading
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import pytest

from bot.tournament import tables
from bot.tournament.model import EventStatus
from tests.conftest import ALICE, BOB, CAROL, Clock, close_table, open_table, until
from tests.tournament.test_flows import finished, of_bots


async def test_a_dou_dizhu_round_robin_of_bots_at_tables_of_three(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        said = await table.text(ALICE, "/doudizhu tournament roundrobin")
        assert "round robin tournament" in said and "two-player" not in said
        await table.say(ALICE, "/withdraw")
        for _ in range(7):
            await table.say(BOB, "/join bot easy")
        rounds = len(tables.schedule(7, 3))
        said = await table.text(ALICE, "/go")
        assert f"begins: 7 entrants, {rounds} rounds" in said and f"Round 1 of {rounds}" in said
        assert "Table 2:" in said and ": a bye" in said
        event = await finished(table)
        assert event.status == EventStatus.FINISHED and event.round == rounds
        ids = sorted(e.entrant for e in event.entries)
        met = set()
        byes = []
        for r in range(1, rounds + 1):
            games = [g for g in event.games if g.round == r]
            assert sorted(p for g in games for p in g.players) == ids  # everyone once a round
            assert sorted(len(g.players) for g in games) == [1, 3, 3]
            for g in games:
                assert g.over and (g.bye or g.session_id is not None)
                met |= {frozenset(p) for p in combinations(g.players, 2)}
            byes += [g.players[0] for g in games if g.bye]
        assert met == {frozenset(p) for p in combinations(ids, 2)}  # every pair shared a table
        assert max(byes.count(p) for p in ids) - min(byes.count(p) for p in ids) <= 1
        # Dou Dizhu settles in points: each game's points are its settlement's (they sum to nothing).
        for g in event.games:
            if not g.bye:
                assert g.points is not None and sum(g.points) == 0 and any(g.points)
        await until(lambda: any(r.image_name == "podium.png" for r in table.delivered))
        heads = [r.text for r in table.delivered if r.image_name == "standings.png"]
        assert len(heads) == rounds and "final standings" in heads[-1]
    finally:
        await close_table(table)


async def test_the_round_robin_schedule_is_made_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                    ) -> None:
    """A round robin's schedule at tables (seconds for 64 entrants) is made in a thread at /go and,
    when the runner pairs a round and finds it not made (a new process), there too: never in the
    event loop's thread."""
    made_in: list[int] = []
    make = tables.schedule.__wrapped__

    @lru_cache
    def schedule(n: int, seats: int) -> tuple[tables.Round, ...]:
        made_in.append(threading.get_ident())
        return make(n, seats)

    monkeypatch.setattr(tables, "schedule", schedule)
    loop = threading.get_ident()
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        said = await of_bots(table, "/doudizhu tournament roundrobin", 4)
        assert "begins: 4 entrants" in said and len(made_in) == 1
        schedule.cache_clear()  # as in a process started after /go: the runner makes it again
        event = await finished(table)
        assert event.status == EventStatus.FINISHED and event.round == len(schedule(4, 3)) > 1
        assert len(made_in) == 2 and loop not in made_in
    finally:
        await close_table(table)


async def test_a_checkers_knockout_at_tables_of_three_with_a_tie(tmp_path: Path) -> None:
    """Five at tables of three: the two top seeds (the bots: equal ratings go by id) have a bye,
    the three people play; the winner joins them at the final. Whoever has a move resigns at once,
    so the others tie (equal distances to go): the table plays again, seats moved on."""
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        said = await table.text(ALICE, "/checkers tournament knockout players=3")
        assert "knockout tournament" in said and "two-player" not in said
        for user, text in ((BOB, "/join"), (CAROL, "/join"), (ALICE, "/join bot easy"), (ALICE, "/join bot easy")):
            await table.say(user, text)
        said = await table.text(ALICE, "/go")
        assert "begins: 5 entrants, 2 rounds" in said
        assert "the winner of each table goes on" in said and "Table 1: Alice vs Bob vs Carol" in said
        async with asyncio.timeout(120):
            while (await table.store.event_latest(table.channel)).status.active:
                for user in (ALICE, BOB, CAROL):
                    if await table.host.legal_moves(table.channel, user.id):
                        await table.say(user, "/resign")
                        break
                else:
                    await table.host.idle()
                    await asyncio.sleep(0.02)
        event = await table.store.event_latest(table.channel)
        assert event.status == EventStatus.FINISHED and event.round == 2
        first = [g for g in event.games if g.round == 1]
        assert [g.players for g in first] == [("console:alice", "console:bob", "console:carol"),
                                              ("console:bob", "console:carol", "console:alice")]
        assert first[0].points == (0.0, 0.75, 0.75)  # Alice resigned; Bob and Carol tied for first
        assert first[1].points[1] > first[1].points[0]  # Bob resigned the decider: Carol goes on
        # The decider is announced as the table it is, playing again, not as a table of its own.
        again = [r.text for r in table.delivered if "plays again" in (r.text or "")]
        assert again and "Table 1 plays again (tie for the place that goes on): Bob vs Carol vs Alice" in again[0]
        assert not any("Table 2" in r.text for r in table.delivered if r.text and "Round 1" in r.text)
        final = [g for g in event.games if g.round == 2]
        assert set(final[0].players) == {"bot:1", "bot:2", "console:carol"}
        await until(lambda: any(r.image_name == "podium.png" for r in table.delivered))
        bracket = next(r for r in reversed(table.delivered) if r.image_name == "bracket.png")
        lines = bracket.text_board.splitlines()
        assert lines[0] == "Round 1 · the winner of each table goes on"
        # each game's points; the table tied and played again
        assert lines[1] == "Table 1, played again after a tie: ✓ Carol 0.75 0.75 · Bob 0.75 0 · Alice 0 0.75"
        assert "Through without playing: 🤖 Bot 1 (easy), 🤖 Bot 2 (easy)" in lines
        assert "Round 2 · the final table: its winner takes the event" in lines
        assert lines[-1].startswith("🏆 🤖 Bot")
        podium = next(r for r in table.delivered if r.image_name == "podium.png")
        assert podium.text_board.startswith("1. " + lines[-1].removeprefix("🏆 "))
        # The final standings go by how far each went: the final table's order, then Bob (second at
        # his table in round one), then Alice (last there), whatever their points.
        standings = next(r for r in table.delivered if r.image_name == "standings.png").text_board.splitlines()
        names = [line.split(". ", 1)[1].split(" — ")[0] for line in standings]
        assert names[2:] == ["Carol", "Bob", "Alice"]
        places = [line.split(". ", 1)[1].split(" · ")[0] for line in podium.text_board.splitlines()]
        assert places == names[:3]
        assert bracket.image is not None and podium.image is not None
    finally:
        await close_table(table)
