"""Nothing is lost: every game, timer, offer and pending AI turn survives a restart, on SQLite
and on PostgreSQL; the schema is versioned and migrated once, however many processes start."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from bot.storage import MIGRATIONS, open_storage
from tests.conftest import ALICE, BOB, BOTH, Clock, close_table, open_table
from tests.support.postgres import scalar

BACKENDS = BOTH


async def test_a_restart_resumes_the_game_exactly_where_it_was(database: Path | str) -> None:
    clock = Clock()
    table = await open_table(database, clock)
    await table.say(ALICE, "/nim start 3 4 5")
    await table.say(BOB, "/join")
    await table.say(ALICE, "/take 2 3")
    before = await table.session()
    await close_table(table)

    table = await open_table(database, clock)
    try:
        after = await table.session()
        assert (after.state, after.version, after.ply, after.status) == (
            before.state, before.version, before.ply, before.status)
        assert await table.text(ALICE, "/take 1 1") == "It is Bob's turn."
        await table.say(BOB, "/take 3 5")
        assert (await table.session()).state["heaps"] == [3, 1, 0]
        assert "2 moves" in await table.text(BOB, "/record")
    finally:
        await close_table(table)


async def test_offers_survive_a_restart(database: Path | str) -> None:
    clock = Clock()
    table = await open_table(database, clock)
    await table.say(ALICE, "/nim start 3 4 5")
    await table.say(BOB, "/join")
    await table.say(ALICE, "/take 1 1")
    await table.say(ALICE, "/undo")
    await close_table(table)
    table = await open_table(database, clock)
    try:
        await table.say(BOB, "/accept")
        assert (await table.session()).state["heaps"] == [3, 4, 5]
    finally:
        await close_table(table)


async def test_timers_survive_a_restart(database: Path | str) -> None:
    clock = Clock()
    table = await open_table(database, clock)
    await table.say(ALICE, "/nim start 3 4 5")
    await table.say(BOB, "/join")
    await close_table(table)
    clock.advance(400)  # the bot was down while Alice's time ran out
    table = await open_table(database, clock)
    try:
        await table.host.expire_due()
        assert (await table.session()).status == "finished"
        assert "Alice ran out of time" in table.delivered[-1].text
    finally:
        await close_table(table)


async def test_an_ai_turn_pending_at_shutdown_is_played_after_the_restart(database: Path | str) -> None:
    clock = Clock()
    table = await open_table(database, clock)
    await table.say(ALICE, "/nim solo 3 4 5")
    session = await table.session()
    # Simulate dying right after Alice's move was committed, before the bot answered.
    await table.host.stop()
    state = {"heaps": [2, 4, 5], "start": [3, 4, 5], "max": None, "misere": False,
             "last": {"heap": 0, "count": 1, "seat": 0}, "turn": 1}
    session.state, session.ply = state, 1
    await table.store.save(session)
    table.host.ai.close()
    await table.store.close()

    table = await open_table(database, clock)
    try:
        await table.host.idle()
        after = await table.session()
        assert after.ply == 2 and "Alice, your move." in table.delivered[-1].text
    finally:
        await close_table(table)


async def test_schema_is_versioned_and_migrations_run_once(database: Path | str) -> None:
    store = await open_storage(str(database))
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    store = await open_storage(str(database))  # opening again changes nothing
    assert await store.schema_version() == len(MIGRATIONS)
    if hasattr(store, "pool"):
        assert await scalar(store, "SELECT COUNT(*) FROM schema_version") == len(MIGRATIONS)  # one row each
    else:
        assert await scalar(store, "PRAGMA journal_mode") == "wal"
    await store.close()


async def test_processes_starting_together_migrate_once(database: Path | str) -> None:
    """Four processes' worth of stores open a new database at the same moment: one migrates
    (under the lock, reading the version again inside it), the others find it done."""
    stores = await asyncio.gather(*(open_storage(str(database)) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
    finally:
        for store in stores:
            await store.close()


@pytest.mark.backends("sqlite")
async def test_processes_opening_a_new_sqlite_file_together_are_never_refused(tmp_path: Path) -> None:
    """SQLite answers "database is locked" at once (not after the busy timeout) to a connection turning
    a new file to WAL while another does: 3 in 60 such starts failed before `_into_wal` tried again."""
    for n in range(60):
        stores = await asyncio.gather(*(open_storage(str(tmp_path / f"{n}.db")) for _ in range(6)))
        for store in stores:
            await store.close()


async def test_one_active_session_per_channel_is_enforced_by_the_database(database: Path | str) -> None:
    table = await open_table(database, Clock())
    try:
        await table.say(ALICE, "/nim start")
        with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
            await scalar(
                table.store,
                "INSERT INTO sessions (channel, game, status, options, seed, version, starter, turn_seconds,"
                " created_at, updated_at) VALUES (?, 'nim', 'lobby', '{}', 1, 0, 'x', 300, 0, 0)",
                table.channel,
            )
    finally:
        await close_table(table)


def test_kill_minus_nine_mid_game_then_start_again_resumes(tmp_path: Path, database: Path | str) -> None:
    """The real console bot, killed with SIGKILL after a move, resumes the game."""
    env = {**os.environ, "GAMEHOST_DB": str(database), "GAMEHOST_IMAGES": str(tmp_path / "img"),
           "GAMEHOST_AI_WORKERS": "0"}
    command = [sys.executable, "-m", "bot.main"]
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=env, text=True, cwd=Path(__file__).parents[2])
    try:
        for line in ["/nim start 3 4 5", "/as bob", "/join", "/as alice", "/take 2 3"]:
            bot.stdin.write(line + "\n")
        bot.stdin.flush()
        output, deadline = "", time.monotonic() + 60
        while "alice took 3 stones from heap 2." not in output:
            ready, _, _ = select.select([bot.stdout], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, output  # the bot said nothing for a minute
            chunk = bot.stdout.readline()
            assert chunk, output
            output += chunk
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=30)
    assert bot.returncode == -signal.SIGKILL

    again = subprocess.run(command, input="/as bob\n/take 1 3\n/quit\n", capture_output=True, text=True, env=env,
                           cwd=Path(__file__).parents[2], timeout=120)
    assert "A game was in progress here" in again.stdout
    assert " 2 | ●○○○  (1)" in again.stdout  # the board as it was
    assert "bob took 3 stones from heap 1." in again.stdout
