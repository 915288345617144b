"""Two hosts sharing one PostgreSQL database run one tournament: each round is paired once and each
game played once, whichever process gets there first; when one stops, the other carries on."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.tournament.model import EventStatus
from tests.conftest import ALICE, BOB, Clock, close_table, open_table

BACKENDS = ("postgres",)


async def test_two_processes_pair_each_round_once(database: Path | str) -> None:
    one = await open_table(database, Clock(), lease_seconds=0.6)
    two = await open_table(database, Clock(), lease_seconds=0.6)
    try:
        await one.say(ALICE, "/nim tournament rounds=3 2 3")
        await one.say(ALICE, "/withdraw")
        for _ in range(6):
            await two.say(BOB, "/join bot easy")
        said = await two.text(BOB, "/join bot hard")
        assert "(7 entrants)" in said
        await one.say(ALICE, "/go")  # (the organiser left before the start; a moderator may /go too)
        async with asyncio.timeout(120):
            while (event := await one.store.event_latest(one.channel)).status.active:
                await asyncio.sleep(0.05)
                if event.round == 2:
                    await close_table(one)  # one process stops in the middle: the other goes on
                    one = None
                    break
            while (event := await two.store.event_latest(two.channel)).status.active:
                await asyncio.sleep(0.05)
        assert event.status == EventStatus.FINISHED and event.round == 3
        for r in (1, 2, 3):
            games = [g for g in event.games if g.round == r]
            assert len(games) == 4 and sum(g.bye for g in games) == 1  # three tables and a bye, once
        sessions = [g.session_id for g in event.games if not g.bye]
        assert len(set(sessions)) == 9 and None not in sessions
        assert (await two.store.latest(two.channel)).id == max(sessions)  # no game begun twice
        rows = await two.store.event_get(event.id or 0)
        assert rows == event
    finally:
        if one is not None:
            await close_table(one)
        await close_table(two)
