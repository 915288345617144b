"""When the database fails, people read one clear line and the bot stays up; at open, a
database it must not use is refused with one line.

SQLite's faults are its own: another process holding the write lock, a file that is
read-only or damaged, a full database (SQLite's page limit gives the same SQLITE_FULL as a
full disk, with the same rollback). PostgreSQL's equivalents: another connection holding a
lock past the lock timeout, a read-only database, the server going away mid-run (and
coming back), a server that cannot be reached at start. Both: a schema from a newer version.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.adapters.console import Console
from bot.model import NotSecret
from bot.storage import MIGRATIONS, StorageUnavailable, open_storage
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SQLiteStorage as Store
from tests.conftest import ALICE, BOB, BOTH, Clock, Table, close_table, open_table
from tests.support.postgres import Proxy, admin_connection

BACKENDS = BOTH

UNAVAILABLE = "The game storage is unavailable right now; please try again in a moment."


@asynccontextmanager
async def held_write_lock(db: Path) -> AsyncIterator[None]:
    """Another process takes the database's write lock and keeps it until the block ends."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c",
        "import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n",
        str(db), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert await holder.stdout.readline() == b"locked\n"
        yield
    finally:
        holder.stdin.close()
        await holder.wait()


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """The file cannot be written, even by root (who ignores permission bits)."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    else:
        path.chmod(0o444)
    try:
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o644)


async def fast_lock_timeout(table: Table) -> None:
    # The lock is held throughout, so how long the store waits for it changes nothing but the test's time.
    await table.store.db.execute("PRAGMA busy_timeout=50")


@pytest.mark.backends("sqlite")
async def test_a_write_lock_held_by_another_process_gets_a_clear_line_then_passes(table: Table, caplog) -> None:
    await fast_lock_timeout(table)
    await table.say(ALICE, "/nim start 3 4")
    async with held_write_lock(table.db):
        with caplog.at_level(logging.WARNING, logger="bot.host"):
            joined = await table.say(BOB, "/join")
        assert [r.text for r in joined] == [UNAVAILABLE] and joined[0].audience == NotSecret(BOB.id)
        assert "database is locked" in caplog.text
        assert "Alice" in (await table.say(BOB, "/board"))[0].text  # reading goes on meanwhile
        assert (await table.session()).status == "lobby"
    assert "Nim begins" in (await table.say(BOB, "/join"))[0].text


async def test_the_console_bot_stays_up_through_a_locked_database(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "c.db", Clock())
    await fast_lock_timeout(table)
    out: list[str] = []
    console = Console(table.host, tmp_path / "pictures", "alice", write=out.append)

    async def typed() -> AsyncIterator[str]:
        async with held_write_lock(table.db):
            yield "/nim solo 3\n"
        yield "/nim solo 3\n"

    try:
        await console.run(typed())
    finally:
        await close_table(table)
    text = "\n".join(out)
    assert UNAVAILABLE in text and "Nim begins: alice vs Bot (hard)." in text, text


@pytest.mark.backends("sqlite")
async def test_a_full_database_is_reported_as_full_and_nothing_is_half_written(table: Table, caplog) -> None:
    await table.say(ALICE, "/nim start 20 20 20")
    await table.say(BOB, "/join")
    (pages,) = await (await table.store.db.execute("PRAGMA page_count")).fetchone()
    await table.store.db.execute(f"PRAGMA max_page_count={pages}")  # not one page more: SQLITE_FULL
    with caplog.at_level(logging.WARNING):
        for ply in range(40):  # until a move needs a new page
            user, move = (ALICE, "/take 1 1") if ply % 2 == 0 else (BOB, "/take 2 1")
            said = [r.text for r in await table.say(user, move)]
            if said == [UNAVAILABLE]:
                break
    assert said == [UNAVAILABLE]
    assert "database or disk is full" in caplog.text and "no transaction is active" not in caplog.text
    session = await table.session()
    assert len(await table.store.moves(session.id)) == session.ply == ply  # every move whole, the last not at all
    await table.store.db.execute("PRAGMA max_page_count=1073741823")
    assert " took 1 stone" in (await table.say(user, move))[0].text


async def test_a_read_only_file_gets_a_clear_line_and_reads_go_on(tmp_path: Path) -> None:
    db = tmp_path / "ro.db"
    table = await open_table(db, Clock())
    await table.say(ALICE, "/nim start 3 4")
    await close_table(table)
    with read_only(db):
        table = await open_table(db, Clock())
        try:
            assert [r.text for r in await table.say(BOB, "/join")] == [UNAVAILABLE]
            assert "Alice" in (await table.say(BOB, "/board"))[0].text
        finally:
            await close_table(table)


@pytest.mark.backends("sqlite")
async def test_a_file_damaged_while_running_gets_a_clear_line(table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db = table.store.db
    (root,) = await (await db.execute("SELECT rootpage FROM sqlite_master WHERE name='sessions'")).fetchone()
    (size,) = await (await db.execute("PRAGMA page_size")).fetchone()
    with table.db.open("r+b") as f:  # the sessions table's first page is overwritten
        f.seek((root - 1) * size)
        f.write(b"\xff" * size)
    other = sqlite3.connect(table.db, isolation_level=None)  # another writer: the store reads the file again
    other.execute("INSERT INTO channel_settings VALUES ('x', 'y', 'z')")
    other.close()
    with pytest.raises(StorageUnavailable, match="malformed"):
        await table.store.active_sessions()
    assert [r.text for r in await table.say(BOB, "/cancel")] == [UNAVAILABLE]


async def test_open_refuses_a_damaged_file_in_one_line(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database " * 1000)
    with pytest.raises(StorageUnavailable, match="file is not a database") as refused:
        await Store.open(str(garbage))
    assert "\n" not in str(refused.value)

    damaged = tmp_path / "damaged.db"
    store = await Store.open(str(damaged))
    await store.set_setting("c", "k", "v")
    (root,) = await (await store.db.execute("SELECT rootpage FROM sqlite_master WHERE name='seats'")).fetchone()
    await store.close()
    with damaged.open("r+b") as f:
        f.seek((root - 1) * 4096)
        f.write(b"\xff" * 4096)
    with pytest.raises(StorageUnavailable, match="is damaged") as refused:
        await Store.open(str(damaged))
    assert "\n" not in str(refused.value)


async def make_newer(database: Path | str, by: int) -> None:
    """The database's schema, as a gamehost `by` versions newer would have left it."""
    store = await open_storage(str(database))
    if isinstance(store, PostgresStorage):
        await store.pool.execute("INSERT INTO schema_version (version, why) VALUES ($1, 'from the future')",
                                 len(MIGRATIONS) + by)
    else:
        assert isinstance(store, Store)
        await store.db.execute(f"PRAGMA user_version={len(MIGRATIONS) + by}")
    await store.close()


async def test_open_refuses_a_schema_newer_than_the_code(database: Path | str) -> None:
    await make_newer(database, 1)
    with pytest.raises(StorageUnavailable, match=f"schema version {len(MIGRATIONS) + 1}, newer") as refused:
        await open_storage(str(database))
    assert "\n" not in str(refused.value)


def gamehost(tmp_path: Path, db: Path | str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GAMEHOST_DB": str(db), "GAMEHOST_AI_WORKERS": "0", "GAMEHOST_IMAGES": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "bot.main"], input="", capture_output=True, text=True, env=env,
                          cwd=Path(__file__).parents[2], timeout=120)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("gamehost: "), done.stderr
    return done.stderr


async def test_gamehost_says_why_it_cannot_use_a_newer_schema_in_one_line(tmp_path: Path,
                                                                         database: Path | str) -> None:
    await make_newer(database, 7)
    assert "newer than this gamehost" in one_line(await asyncio.to_thread(gamehost, tmp_path, database))


def test_gamehost_says_why_it_cannot_open_a_damaged_file_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    db.write_bytes(b"not a database " * 1000)
    assert "file is not a database" in one_line(gamehost(tmp_path, db))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gamehost_says_it_cannot_reach_postgresql_in_one_line_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql://gamehost:s3cret-pw@127.0.0.1:{free_port()}/games"  # nothing listens there
    said = one_line(gamehost(tmp_path, url))
    assert f"cannot open postgresql://gamehost@127.0.0.1:{url.split(':')[3].split('/')[0]}/games" in said
    assert "connection refused" in said and "s3cret-pw" not in said, said


# --- PostgreSQL's own faults ---------------------------------------------------------------
@pytest.mark.backends("postgres")
async def test_a_lock_held_by_another_connection_gets_a_clear_line_then_passes(database: str, caplog) -> None:
    store = await PostgresStorage.open(database, lock_timeout_ms=200)
    table = await open_table(database, Clock(), store=store)
    other = await asyncpg.connect(database)  # another process, as far as the store can tell
    try:
        await table.say(ALICE, "/nim start 3 4")
        async with other.transaction():
            await other.execute("LOCK TABLE sessions IN EXCLUSIVE MODE")  # no writes; reads go on
            with caplog.at_level(logging.WARNING, logger="bot.host"):
                joined = await table.say(BOB, "/join")
            assert [r.text for r in joined] == [UNAVAILABLE] and joined[0].audience == NotSecret(BOB.id)
            assert "lock timeout" in caplog.text
            assert "Alice" in (await table.say(BOB, "/board"))[0].text
            assert (await table.session()).status == "lobby"
        assert "Nim begins" in (await table.say(BOB, "/join"))[0].text
    finally:
        await other.close()
        await close_table(table)


@pytest.mark.backends("postgres")
async def test_a_read_only_database_gets_a_clear_line_and_reads_go_on(database: str) -> None:
    table = await open_table(database, Clock())
    await table.say(ALICE, "/nim start 3 4")
    await close_table(table)
    admin = await admin_connection()
    try:
        await admin.execute(f'ALTER DATABASE "{database.rsplit("/", 1)[1]}" SET default_transaction_read_only = on')
    finally:
        await admin.close()
    table = await open_table(database, Clock())
    try:
        assert [r.text for r in await table.say(BOB, "/join")] == [UNAVAILABLE]
        assert "Alice" in (await table.say(BOB, "/board"))[0].text
    finally:
        await close_table(table)


@pytest.mark.backends("postgres")
async def test_the_server_gone_mid_game_gets_a_clear_line_and_the_game_goes_on_when_it_is_back(
        database: str, caplog) -> None:
    proxy = Proxy()
    await proxy.restore()
    table = await open_table(proxy.url(database), Clock())
    try:
        await table.say(ALICE, "/nim start 3 4")
        await table.say(BOB, "/join")
        await proxy.cut()  # every connection dropped, new ones refused
        with caplog.at_level(logging.WARNING, logger="bot.host"):
            for user, move in ((ALICE, "/take 1 1"), (BOB, "/board")):
                said = await table.say(user, move)
                assert [r.text for r in said] == [UNAVAILABLE] and isinstance(said[0].audience, NotSecret)
        assert "connection lost" in caplog.text and "connection refused" in caplog.text, caplog.text
        await proxy.restore()
        assert "Alice took 1 stone" in (await table.say(ALICE, "/take 1 1"))[0].text
        assert (await table.session()).ply == 1
    finally:
        await proxy.cut()
        await close_table(table)


@pytest.mark.backends("postgres")
async def test_database_url_chooses_postgresql(tmp_path: Path, database: str) -> None:
    """`DATABASE_URL` is the usual way to hand a process its database (GAMEHOST_DB and --db too)."""
    env = {k: v for k, v in os.environ.items() if k not in ("GAMEHOST_DB",)}
    env.update(DATABASE_URL=database, GAMEHOST_AI_WORKERS="0", GAMEHOST_IMAGES=str(tmp_path))
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot.main"], input="/nim start 3 4\n", capture_output=True,
        text=True, env=env, cwd=Path(__file__).parents[2], timeout=120,
    )
    assert "opened a table for Nim" in done.stdout, done.stdout + done.stderr
    store = await open_storage(database)
    try:
        assert (await store.active("console:main")).game == "nim"  # in PostgreSQL, not in a file
    finally:
        await store.close()
