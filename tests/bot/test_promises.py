"""What the README promises about storage and the AI, each checked where it can be seen from
outside: a second connection, a second host on the same database (SQLite and PostgreSQL), the
operating system's clock of the bot's own process."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import asyncpg
import pytest

import engines
from bot.ai import AIRunner
from bot.host import Host
from bot.model import Event, Reply
from bot.session import Conflict
from bot.storage import open_storage
from tests.conftest import ALICE, BOB, BOTH, Clock, close_table, open_table

BACKENDS = BOTH


async def moves_seen_by_another_connection(db: Path | str) -> int:
    if isinstance(db, str) and db.startswith("postgresql://"):
        other = await asyncpg.connect(db)
        try:
            return await other.fetchval("SELECT COUNT(*) FROM moves")
        finally:
            await other.close()
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT COUNT(*) FROM moves").fetchone()[0]


async def test_each_accepted_move_is_committed_before_its_reply_is_handed_over(database: Path | str) -> None:
    table = await open_table(database, Clock())
    try:
        await table.say(ALICE, "/nim start 3 4 5")
        await table.say(BOB, "/join")
        seen: list[int] = []

        async def respond(replies: list[Reply]) -> None:
            seen.append(await moves_seen_by_another_connection(table.db))

        await table.host.handle(Event(table.channel, ALICE, "/take 1 2"), respond)
        await table.host.handle(Event(table.channel, BOB, "/take 2 1"), respond)
        assert seen == [1, 2]
    finally:
        await close_table(table)


async def test_a_stale_write_changes_nothing(database: Path | str) -> None:
    table = await open_table(database, Clock())
    try:
        await table.say(ALICE, "/nim start 3 4 5")
        await table.say(BOB, "/join")
        first, second = await table.store.active(table.channel), await table.store.active(table.channel)
        assert first is not None and second is not None and first.version == second.version
        first.state = {**first.state, "heaps": [1, 4, 5]}
        await table.store.save(first)
        second.state = {**second.state, "heaps": [3, 0, 5]}
        with pytest.raises(Conflict):
            await table.store.save(second)
        stored = await table.store.active(table.channel)
        assert stored.state["heaps"] == [1, 4, 5] and stored.version == first.version
    finally:
        await close_table(table)


async def test_two_hosts_on_one_database_apply_a_move_once(database: Path | str) -> None:
    db = database
    table = await open_table(db, Clock())
    other_store = await open_storage(str(db))
    other = Host(other_store, AIRunner(0), clock=table.clock)
    try:
        await table.say(ALICE, "/nim start 3 4 5")
        await table.say(BOB, "/join")
        # Alice's click arrives at both processes at once (a retried webhook, two shards).
        here, there = await asyncio.gather(
            table.host.handle(Event(table.channel, ALICE, "/take 1 2")),
            other.handle(Event(table.channel, ALICE, "/take 1 2")),
        )
        texts = [r.text for r in (*here, *there)]
        assert sum("Alice took 2 stones from heap 1" in t for t in texts) == 1, texts
        assert await moves_seen_by_another_connection(db) == 1
        assert (await table.store.active(table.channel)).state["heaps"] == [1, 4, 5]
    finally:
        await other_store.close()
        other.ai.close()
        await close_table(table)


async def test_the_ai_thinks_in_another_process() -> None:
    """A thread would spend its CPU in this process; a worker process spends it elsewhere. The
    searches go on until they have spent enough CPU between them (not for a while on the wall
    clock: a busy machine gives a search less CPU in the same time), so the test asks no spare CPU."""
    gomoku = engines.get("gomoku")
    state = gomoku.new_state({}, 2, 1)
    for point in ("h8", "h9", "i8", "g8", "j9"):
        seat = gomoku.to_move(state)
        state = gomoku.apply(state, seat, gomoku.parse_move(state, seat, point))
    ai = AIRunner(1)
    try:
        await ai.warm_up()
        mine, theirs = time.process_time(), 0.0
        for seed in range(200):
            text, info = await ai.move("gomoku", gomoku.to_json(state), gomoku.to_move(state), "hard", seed)
            assert text
            theirs += info["cpu"]
            if theirs >= 0.2:  # the searches really worked
                break
        spent_here = time.process_time() - mine
        assert theirs >= 0.2 and spent_here < theirs / 4, (spent_here, theirs)
    finally:
        ai.close()
