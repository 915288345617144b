"""The storage contract on one SQLite file (aiosqlite, WAL): the embedded default.

One connection, in aiosqlite's thread. Most operations are one trip there: one statement,
or a function that runs the whole transaction in the thread (a save), so they queue behind
each other without a lock and the event loop never waits for a transaction to be stepped
through statement by statement; saves arriving together share a transaction and its commit
(`bot.storage.grouped`). The few transactions written statement by statement from
asynchronous code (rating a finished game, linking, migrating) hold `_lock`, and the
one-trip operations wait for it, so nothing interleaves with them. A write is
`BEGIN IMMEDIATE ... COMMIT`, so another process on the same file waits for it up to
the busy timeout. SQLite's errors become `StorageUnavailable` with SQLite's own words
(locked, read-only, full, malformed); `open` refuses a file that fails a quick check.

A file is meant for one process: `exclusive` is a no-op (the host's own lock orders a
channel's commands), the versions still keep a second process from overwriting, and
leases work as on PostgreSQL (on the machine's clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

import aiosqlite

from bot.session import Change, ChannelBusy, Conflict, MoveRow, Notice, Session
from bot.storage.contract import StorageUnavailable, dump, move_of, offer_outcome, session_of
from bot.storage.events import SQLEvents
from bot.storage.grouped import NOTICE, NOW, SEATS, GroupCommit, notice_row, roll_back, rows_of, seat_rows, write
from bot.storage.migrations import MIGRATIONS, newer, statements
from bot.storage.published import SQLPublished
from bot.storage.puzzled import SQLPuzzles
from bot.storage.rated import Tx, rate_finished

P = ParamSpec("P")
R = TypeVar("R")
ACTIVE = "status IN ('lobby', 'playing')"
FREE = f"(lease_owner IS NULL OR lease_owner=:owner OR lease_until < {NOW})"


def _guarded(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """SQLite's errors out of `method` become `StorageUnavailable` (as do those of a closed store)."""

    @functools.wraps(method)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except (sqlite3.Error, ValueError) as error:
            raise _unavailable(args[0], error) from error

    return guarded


def _unavailable(store: Any, error: Exception) -> Exception:
    sql, closed = isinstance(error, sqlite3.Error), store.db._connection is None  # closed: aiosqlite's ValueError
    return StorageUnavailable(str(error) if sql else "the database is closed") if sql or closed else error


class SQLiteTx(Tx):
    """The connection inside a write transaction (`BEGIN IMMEDIATE`: the file's write lock,
    which is every lock `Tx.lock` asks for)."""

    errors = (sqlite3.Error,)

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in await self.db.execute_fetchall(sql, params)]

    async def run(self, sql: str, *params: Any) -> None:
        await self.db.execute(sql, params)

    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)

    async def lock(self, name: str) -> None:
        pass

    @contextlib.asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        await self.db.execute("SAVEPOINT undone_alone")
        try:
            yield
        except BaseException:
            await self.db.execute("ROLLBACK TO undone_alone")
            raise
        finally:
            await self.db.execute("RELEASE undone_alone")


async def _into_wal(db: aiosqlite.Connection, seconds: float) -> aiosqlite.Cursor:
    """WAL mode, tried again while other processes open the new file (SQLite says "locked" at once)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            return await db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.02)


class SQLiteStorage(SQLPuzzles, SQLPublished, SQLEvents):
    _now = NOW

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._lock = asyncio.Lock()  # held by a transaction written statement by statement
        self._group = GroupCommit(self._hop)

    async def _hop(self, fn: Callable[..., R], *args: Any) -> R:
        """`fn(connection, *args)` in the database's thread, in one trip (aiosqlite's own way of
        running its calls there), once no transaction written statement by statement is open."""
        async with self._between():
            return await self.db._execute(fn, self.db._conn, *args)

    @contextlib.asynccontextmanager
    async def _between(self) -> AsyncIterator[None]:
        """Until the block's first trip to the database's thread is queued, no transaction written
        statement by statement is open (the trip is queued before the block awaits anything else)."""
        while self._lock.locked():
            async with self._lock:
                pass
        yield

    @classmethod
    async def open(cls, path: str, synchronous: str = "NORMAL", busy_ms: int = 5000) -> SQLiteStorage:
        """Open (or create) the database at `path`, check it and bring its schema up to date.
        `busy_ms`: how long a write waits for another process's lock before giving up."""
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
            await _into_wal(db, busy_ms / 1000)
            # WAL + NORMAL: a commit survives the process being killed; FULL also a power cut.
            await db.execute(f"PRAGMA synchronous={synchronous}")
            await db.execute("PRAGMA foreign_keys=ON")
            store = cls(db)
            await store._check(path)
            await store._migrate(path)
        except (sqlite3.Error, StorageUnavailable) as error:
            await db.close()
            if isinstance(error, StorageUnavailable):
                raise
            raise StorageUnavailable(f"cannot open {path}: {error}") from error
        return store

    async def close(self) -> None:
        await self.db.close()

    async def _version(self) -> int:
        row = await (await self.db.execute("PRAGMA user_version")).fetchone()
        assert row is not None  # a pragma always answers
        return int(row[0])

    async def _check(self, path: str) -> None:
        """Refuse a file that fails SQLite's quick integrity check, or that a newer version wrote."""
        row = await (await self.db.execute("PRAGMA quick_check(1)")).fetchone()
        assert row is not None  # a pragma always answers
        (verdict,) = row
        if verdict != "ok":
            raise StorageUnavailable(f"{path} is damaged (SQLite's quick check: {' '.join(verdict.split())})")
        if (version := await self._version()) > len(MIGRATIONS):
            raise StorageUnavailable(newer(path, version))

    async def _migrate(self, path: str) -> None:
        """The missing migrations, each in a write transaction that reads the version again
        (another process may have migrated while this one waited for the lock)."""
        async with self._lock:
            while (version := await self._version()) < len(MIGRATIONS):
                await self.db.execute("BEGIN IMMEDIATE")
                try:
                    version = await self._version()
                    if version > len(MIGRATIONS):
                        raise StorageUnavailable(newer(path, version))
                    if version < len(MIGRATIONS):
                        for statement in statements(MIGRATIONS[version].sqlite):
                            await self.db.execute(statement)
                        await self.db.execute(f"PRAGMA user_version={version + 1}")
                    await self.db.execute("COMMIT")
                except BaseException:
                    if self.db.in_transaction:
                        await self.db.execute("ROLLBACK")
                    raise

    @_guarded
    async def schema_version(self) -> int:
        async with self._lock:
            return await self._version()

    # --- sessions -----------------------------------------------------------------
    @_guarded
    async def create(self, session: Session, notice: Notice | None = None) -> Session:
        try:
            async with self._transaction():
                cursor = await self.db.execute(
                    "INSERT INTO sessions (channel, game, status, options, seed, state, version, starter,"
                    " turn_seconds, deadline, offer, outcome, ply, created_at, updated_at, bot_turn)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (session.channel, session.game, str(session.status), json.dumps(session.options), session.seed,
                     dump(session.state), session.version, session.starter, session.turn_seconds,
                     session.deadline, *offer_outcome(session), session.ply,
                     session.created_at, session.updated_at, int(session.bot_turn)),
                )
                session.id = cursor.lastrowid
                await self._write_seats(session)
                if notice is not None:
                    await self.db.execute(NOTICE, notice_row(session, notice))
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(session.channel) from error
        session.saved_seats = [replace(seat) for seat in session.seats]
        return session

    @_guarded
    async def save(self, session: Session, change: Change | None = None) -> None:
        change = change or Change()
        if not change.results:  # with the other channels' saves of the moment, in one transaction
            outcome = await self._group.save(rows_of(session, change))
            if not outcome:  # its own error (nothing of it written) is raised, SQLite's as StorageUnavailable
                raise Conflict(session.id)
            session.version += 1
            session.saved_seats = [replace(seat) for seat in session.seats]
            return
        async with self._transaction():
            if not await self.db._execute(write, self.db._conn, rows_of(session, change)):
                raise Conflict(session.id)
            await self.db.executemany(
                "INSERT INTO results (session_id, seat, user_id, name, game, rank, result, score, at, role, aided)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(session.id, r.seat, r.user_id, r.name, session.game, r.rank, r.result, r.score,
                  session.updated_at, r.role, r.aided) for r in change.results],
            )
            await rate_finished(SQLiteTx(self.db), session.id or 0)
        session.version += 1
        session.saved_seats = [replace(seat) for seat in session.seats]

    @_guarded
    async def move_channel(self, old: str, new: str) -> None:
        async with self._transaction():
            await self.db.execute("UPDATE sessions SET channel=? WHERE channel=?", (new, old))
            await self.db.execute("UPDATE OR REPLACE channel_settings SET channel=? WHERE channel=?", (new, old))

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """One write transaction on the connection: committed when the block ends, else rolled back.
        The rollback is a trip to the database's thread, queued after every trip of the block, so
        it comes after one its task stopped waiting for (cancelled: the trip runs all the same),
        and the connection is never left in a transaction; it is not tried when SQLite rolled
        back by itself (a full disk) or the store is closed: the block's error is raised as it is."""
        async with self._lock:
            try:
                await self.db.execute("BEGIN IMMEDIATE")
                yield
                await self.db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(ValueError):  # closed meanwhile: nothing is left open
                    await self.db._execute(roll_back, self.db._conn)
                raise

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[Tx]:
        try:
            async with self._lock:
                yield SQLiteTx(self.db)
        except (sqlite3.Error, ValueError) as error:
            raise _unavailable(self, error) from error

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[Tx]:
        try:
            async with self._transaction():
                yield SQLiteTx(self.db)
        except (sqlite3.Error, ValueError) as error:
            raise _unavailable(self, error) from error

    async def _write_seats(self, session: Session) -> None:
        await self.db.executemany(SEATS, seat_rows(session))

    @_guarded
    async def active(self, channel: str) -> Session | None:
        return await self._one(f"SELECT * FROM sessions WHERE channel=? AND {ACTIVE}", channel)

    @_guarded
    async def enter(self, channel: str) -> tuple[Session | None, dict[str, str]]:
        rows, settings = await self._hop(_enter, channel)
        return (session_of(rows[0], json.loads(rows[0]["seat_rows"])) if rows else None), dict(settings)

    @_guarded
    async def latest(self, channel: str) -> Session | None:
        return await self._one("SELECT * FROM sessions WHERE channel=? ORDER BY id DESC LIMIT 1", channel)

    @_guarded
    async def get(self, session_id: int) -> Session | None:
        return await self._one("SELECT * FROM sessions WHERE id=?", session_id)

    @_guarded
    async def active_sessions(self) -> list[Session]:
        return await self._many(f"SELECT * FROM sessions WHERE {ACTIVE} ORDER BY id")

    @_guarded
    async def next_deadline(self) -> float | None:
        return (await self._rows(f"SELECT MIN(deadline) AS d FROM sessions WHERE deadline IS NOT NULL AND {ACTIVE}")
                )[0]["d"]

    async def _one(self, sql: str, *params: Any) -> Session | None:
        found = await self._many(sql, *params)
        return found[0] if found else None

    async def _many(self, sql: str, *params: Any) -> list[Session]:
        """Sessions with their seats, read in one query (one trip to the database thread)."""
        async with self._between():
            rows = await self.db.execute_fetchall(_with_seats(sql), params)
        return [session_of(row, json.loads(row["seat_rows"])) for row in rows]

    # --- one command of a channel at a time -------------------------------------------------
    @contextlib.asynccontextmanager
    async def exclusive(self, channel: str) -> AsyncIterator[None]:
        yield  # one process per file: the host's lock is enough

    # --- background work --------------------------------------------------------------------
    @_guarded
    async def claim(self, now: float, owner: str, lease: float,
                    platforms: Sequence[str] | None = None) -> list[Session]:
        names = {f"p{n}": name for n, name in enumerate(platforms or ())}
        served = "" if platforms is None else \
            f" AND substr(channel, 1, instr(channel, ':') - 1) IN ({', '.join(':' + n for n in names)})"
        async with self._between():
            rows = await self.db.execute_fetchall(
                f"UPDATE sessions SET lease_owner=:owner, lease_until={NOW} + :lease WHERE {ACTIVE}"
                f" AND ((deadline IS NOT NULL AND deadline<=:now) OR (bot_turn=1 AND status='playing')) AND {FREE}"
                f"{served} RETURNING id",
                {"owner": owner, "lease": lease, "now": now, **names},
            )
        found = await self._many(f"SELECT * FROM sessions WHERE id IN ({','.join(str(r[0]) for r in rows)})") \
            if rows else []
        return sorted(found, key=lambda s: (s.deadline is None, s.deadline or 0.0, s.id))

    @_guarded
    async def claim_session(self, session_id: int, owner: str, lease: float) -> bool:
        async with self._between():
            cursor = await self.db.execute(
                f"UPDATE sessions SET lease_owner=:owner, lease_until={NOW} + :lease WHERE id=:id AND {FREE}",
                {"owner": owner, "lease": lease, "id": session_id},
            )
            return cursor.rowcount == 1

    @_guarded
    async def release(self, owner: str, session_ids: Sequence[int] | None = None) -> None:
        async with self._between():
            if session_ids is None:
                await self.db.execute("UPDATE sessions SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=?",
                                      (owner,))
            else:
                await self.db.executemany(
                    "UPDATE sessions SET lease_owner=NULL, lease_until=NULL WHERE id=? AND lease_owner=?",
                    [(i, owner) for i in session_ids],
                )

    # --- moves, results, settings ---------------------------------------------------
    @_guarded
    async def moves(self, session_id: int) -> list[MoveRow]:
        async with self._between():
            rows = await self.db.execute_fetchall("SELECT * FROM moves WHERE session_id=? ORDER BY ply", (session_id,))
        return [move_of(r) for r in rows]

    @_guarded
    async def finished(self, channel: str, limit: int = 100) -> list[int]:
        rows = await self._rows("SELECT id FROM sessions WHERE channel=? AND status='finished' ORDER BY id DESC"
                                " LIMIT ?", channel, limit)
        return [row["id"] for row in rows]

    @_guarded
    async def review(self, session_id: int) -> str | None:
        rows = await self._rows("SELECT review FROM reviews WHERE session_id=?", session_id)
        return rows[0]["review"] if rows else None

    @_guarded
    async def save_review(self, session_id: int, review: str, at: float) -> None:
        async with self._between():
            await self.db.execute("INSERT INTO reviews (session_id, review, at) VALUES (?, ?, ?)"
                                  " ON CONFLICT (session_id) DO NOTHING", (session_id, review, at))

    @_guarded
    async def setting(self, channel: str, key: str) -> str | None:
        rows = await self._rows("SELECT value FROM channel_settings WHERE channel=? AND key=?", channel, key)
        return rows[0]["value"] if rows else None

    @_guarded
    async def set_setting(self, channel: str, key: str, value: str) -> None:
        async with self._between():
            await self.db.execute("INSERT INTO channel_settings (channel, key, value) VALUES (?, ?, ?) ON CONFLICT"
                                  " (channel, key) DO UPDATE SET value=excluded.value", (channel, key, value))

    async def _rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        async with self._between():
            rows = await self.db.execute_fetchall(sql, params)
        return [dict(r) for r in rows]


def _with_seats(sql: str) -> str:
    """`sql`'s sessions, each with its seats' rows as JSON (`seat_rows`)."""
    return ("SELECT s.*, (SELECT json_group_array(json_array(seat, user_id, name, handle, ai_level, away, accepted))"
            f" FROM seats WHERE session_id=s.id) AS seat_rows FROM ({sql}) AS s")


ENTER = _with_seats(f"SELECT * FROM sessions WHERE channel=? AND {ACTIVE}")


def _enter(conn: sqlite3.Connection, channel: str) -> tuple[list[Any], list[Any]]:
    """In the database's thread: a channel's active session and its settings, in one trip."""
    return (conn.execute(ENTER, (channel,)).fetchall(),
            conn.execute("SELECT key, value FROM channel_settings WHERE channel=?", (channel,)).fetchall())
