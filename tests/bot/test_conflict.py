"""A stale write changes nothing, with two hosts on one SQLite file whose reads and writes are
interleaved on purpose: both read the session before either writes. Without the store's version
check both moves would be applied; with it the second host's write raises Conflict, which it
answers "try again". (tests/bot/test_promises.py has the store-level case and a free race.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.ai import AIRunner
from bot.host import Host
from bot.model import Event
from bot.storage import open_storage
from tests.bot.test_promises import moves_seen_by_another_connection
from tests.conftest import ALICE, BOB, BOTH, Clock, close_table, open_table

BACKENDS = BOTH


# On PostgreSQL a channel's lock is the database's (an advisory lock): the second host cannot read
# before the first has written, so this interleaving cannot happen there (test_promises.py races
# two hosts on both).
@pytest.mark.backends("sqlite")
async def test_the_second_of_two_interleaved_hosts_gets_a_conflict_and_changes_nothing(database: Path | str) -> None:
    db = database
    table = await open_table(db, Clock())
    other_store = await open_storage(str(db))
    other = Host(other_store, AIRunner(0), clock=table.clock)
    try:
        await table.say(ALICE, "/nim start 3 4 5")
        await table.say(BOB, "/join")
        other_read, first_saved = asyncio.Event(), asyncio.Event()
        read_there, save_here, save_there = other_store.enter, table.store.save, other_store.save

        async def entered_there(channel: str):  # a command's read: the session and the channel's settings
            found = await read_there(channel)
            other_read.set()
            return found

        async def saving_here(*args, **kwargs):
            await other_read.wait()  # the other host has read the session this write makes stale
            await save_here(*args, **kwargs)
            first_saved.set()

        async def saving_there(*args, **kwargs):
            await first_saved.wait()
            await save_there(*args, **kwargs)

        other_store.enter, table.store.save, other_store.save = entered_there, saving_here, saving_there
        # Alice's click reaches both processes (a retried webhook); both take from heap 1.
        here, there = await asyncio.wait_for(asyncio.gather(
            table.host.handle(Event(table.channel, ALICE, "/take 1 2")),
            other.handle(Event(table.channel, ALICE, "/take 1 3")),
        ), 60)
        assert any("Alice took 2 stones from heap 1" in r.text for r in here)
        assert [r.text for r in there] == ["The game changed at the same moment; please try again."]
        assert await moves_seen_by_another_connection(db) == 1
        assert (await table.store.active(table.channel)).state["heaps"] == [1, 4, 5]
    finally:
        table.store.save = save_here
        await other_store.close()
        other.ai.close()
        await close_table(table)
