"""The storage contract on PostgreSQL (asyncpg): several gamehost processes, one database.

Every write is one transaction on a pooled connection; the version check in `save`'s
UPDATE makes a stale write change nothing. Across processes PostgreSQL itself keeps
order, with nothing home-made:

- one command of a channel at a time: `exclusive` holds a session-level advisory lock
  on the channel's key while the command runs, and the command's reads and writes go
  through that same connection (no second connection is needed while it waits). A
  process that dies drops its connection and the server frees the lock at once. The lock
  is taken with the command's first trip: `enter` locks and reads in one round trip (the
  `gamehost_enter` function), any other first call takes it on its own first; a command
  that asked nothing of the database has nothing to unlock. A move is three round trips:
  lock and read, the save (one statement), unlock.
- background work is claimed by `UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP
  LOCKED)`, setting a lease (owner, until) on the database's clock, renewed by each claim;
  a process that dies stops claiming and the work is free again when the lease runs out.
- the schema is migrated inside a transaction that holds an advisory lock, after
  reading the version again, so processes starting together migrate once.

No wait on the server is unbounded: taking a connection from the pool (or opening one) and
each trip (statement, lock, BEGIN and COMMIT) give up after `answer_within` seconds, and a
connection whose trip timed out is closed, never reused (`Bounded`); the server's own
`lock_timeout`, shorter, answers first when it is only a lock that is busy. So a server that
hangs is answered as one that is down: the driver's errors, and the network's (connection
refused or lost, timeouts), become `StorageUnavailable` with a one-line reason; the pool
opens new connections at the next acquire, so the host carries on once the server is back.
No password is ever part of a message: the URL is shown without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from typing import Any

import asyncpg

from bot.session import Change, ChannelBusy, Conflict, MoveRow, Notice, Session
from bot.storage.contract import StorageUnavailable, aided_dump, dump, move_of, offer_outcome, session_of
from bot.storage.events import SQLEvents
from bot.storage.migrations import MIGRATIONS, newer
from bot.storage.pgdriver import (
    DRIVER_ERRORS,
    MIGRATION_LOCK,
    Bounded,
    Held,
    PgTx,
    channel_key,
    guarded,
    keep,
    let_go,
    lock_channel,
    reason,
    shown,
)
from bot.storage.pgsave import NOTICE, NOW, one_statement
from bot.storage.published import SQLPublished
from bot.storage.puzzled import SQLPuzzles
from bot.storage.rated import Tx, rate_finished

ACTIVE = "status IN ('lobby', 'playing')"
MIGRATING = 3600.0  # seconds a migration's statement may take (on a big database)
FREE = f"(lease_owner IS NULL OR lease_owner=$1 OR lease_until < {NOW})"  # $1: the claiming owner
SEATS = ("(SELECT json_agg(json_build_array(seat, user_id, name, handle, ai_level, away, accepted))"
         " FROM seats WHERE session_id=s.id) AS seat_rows")


class PostgresStorage(SQLPuzzles, SQLPublished, SQLEvents):
    shared = True
    _now, _skip_locked, _chunks = NOW, " FOR UPDATE SKIP LOCKED", 8

    def __init__(self, pool: asyncpg.Pool, where: str, wait: float = 5.0) -> None:
        self.pool = pool
        self.where = where
        self.wait = wait  # seconds: the longest wait for a connection from the pool
        # The connection a task holds a channel's lock on: its queries go through it.
        self._held: contextvars.ContextVar[Held | None] = contextvars.ContextVar(f"held-{id(self)}", default=None)

    @classmethod
    async def open(cls, url: str, pool_size: int = 10, lock_timeout_ms: int = 4000, connect_timeout: float = 10.0,
                   answer_within: float = 5.0) -> PostgresStorage:
        """Connect to the database at `url`, check its schema and bring it up to date.
        `lock_timeout_ms`: how long a statement waits for another process's lock before giving up;
        `answer_within`: how long any wait on the server lasts at most (seconds)."""
        where = shown(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, timeout=connect_timeout, reset=keep, connection_class=Bounded,
                command_timeout=answer_within,
                server_settings={"lock_timeout": str(int(lock_timeout_ms)), "application_name": "gamehost"},
            )
        except (*DRIVER_ERRORS, ValueError) as error:
            raise StorageUnavailable(f"cannot open {where}: {reason(error)}") from error
        store = cls(pool, where, answer_within)
        try:
            await store._migrate()
        except BaseException as error:
            pool.terminate()
            if isinstance(error, DRIVER_ERRORS):
                raise StorageUnavailable(f"cannot open {where}: {reason(error)}") from error
            raise
        return store

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.pool.close(), 10)
        except (TimeoutError, *DRIVER_ERRORS):
            self.pool.terminate()

    async def _migrate(self) -> None:
        """The missing migrations, in one transaction that holds the migration lock and reads
        the version inside it. Writes nothing when there is nothing to do (a read-only database opens)."""
        async with self.pool.acquire(timeout=self.wait) as conn, conn.transaction():  # statements: MIGRATING
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK, timeout=MIGRATING)
            known = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            version = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version") if known else 0
            if version > len(MIGRATIONS):
                raise StorageUnavailable(newer(self.where, version))
            if not known:
                await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, why TEXT NOT NULL,"
                                   " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            for number in range(version + 1, len(MIGRATIONS) + 1):
                await conn.execute(MIGRATIONS[number - 1].postgres, timeout=MIGRATING)
                await conn.execute("INSERT INTO schema_version (version, why) VALUES ($1, $2)",
                                   number, MIGRATIONS[number - 1].why)

    @guarded
    async def schema_version(self) -> int:
        async with self._conn() as conn:
            return await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")

    def _holding(self) -> Held | None:
        """What this task holds in `exclusive`, if it does."""
        held = self._held.get()
        return held if held is not None and held.task is asyncio.current_task() else None

    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[asyncpg.Connection]:
        """The connection this task holds a channel's lock on (the lock taken first if it is not
        yet), else one from the pool."""
        held = self._holding()
        if held is not None:
            await held.take()
            yield held.conn
        else:
            async with self.pool.acquire(timeout=self.wait) as conn:
                yield conn

    # --- sessions -----------------------------------------------------------------
    @guarded
    async def create(self, session: Session, notice: Notice | None = None) -> Session:
        try:
            async with self._conn() as conn, conn.transaction():
                session.id = await conn.fetchval(
                    "INSERT INTO sessions (channel, game, status, options, seed, state, version, starter,"
                    " turn_seconds, deadline, offer, outcome, ply, created_at, updated_at, bot_turn)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id",
                    session.channel, session.game, str(session.status), json.dumps(session.options), session.seed,
                    dump(session.state), session.version, session.starter, session.turn_seconds,
                    session.deadline, *offer_outcome(session), session.ply,
                    session.created_at, session.updated_at, session.bot_turn,
                )
                await self._write_seats(conn, session)
                if notice is not None:
                    await conn.execute(NOTICE, notice.key, notice.channel, session.id, notice.due, notice.owner,
                                       notice.lease)
        except asyncpg.UniqueViolationError as error:
            if error.constraint_name != "one_active_session_per_channel":
                raise
            raise ChannelBusy(session.channel) from error
        session.saved_seats = [replace(seat) for seat in session.seats]
        return session

    @guarded
    async def save(self, session: Session, change: Change | None = None) -> None:
        change = change or Change()
        if not change.results and (change.drop_moves_from is None or change.move is None):
            sql, params = one_statement(session, change)  # one round trip, atomic, no BEGIN and COMMIT
            async with self._conn() as conn:
                if not await conn.fetchval(sql, *params):
                    raise Conflict(session.id)
            session.version += 1
            session.saved_seats = [replace(seat) for seat in session.seats]
            return
        async with self._conn() as conn, conn.transaction():
            status = await conn.execute(
                "UPDATE sessions SET status=$1, options=$2, seed=$3, state=$4, version=$5, deadline=$6, offer=$7,"
                " outcome=$8, ply=$9, updated_at=$10, bot_turn=$11, aided=$14 WHERE id=$12 AND version=$13",
                str(session.status), json.dumps(session.options), session.seed, dump(session.state),
                session.version + 1, session.deadline, *offer_outcome(session),
                session.ply, session.updated_at, session.bot_turn, session.id, session.version, aided_dump(session),
            )
            if status != "UPDATE 1":
                raise Conflict(session.id)
            if session.seats != session.saved_seats:
                await self._write_seats(conn, session)
            if change.drop_moves_from is not None:
                await conn.execute("DELETE FROM moves WHERE session_id=$1 AND ply>=$2", session.id,
                                   change.drop_moves_from)
            if change.move is not None:
                m = change.move
                await conn.execute(
                    "INSERT INTO moves (session_id, ply, seat, move, by_ai, state_before, at)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    session.id, m.ply, m.seat, m.move, m.by_ai, json.dumps(m.state_before), m.at,
                )
            if change.results:
                await conn.executemany(
                    "INSERT INTO results (session_id, seat, user_id, name, game, rank, result, score, at, role, aided)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                    [(session.id, r.seat, r.user_id, r.name, session.game, r.rank, r.result, r.score,
                      session.updated_at, r.role, r.aided) for r in change.results],
                )
                await rate_finished(PgTx(conn), session.id or 0)
            if (notice := change.notice) is not None:
                await conn.execute(NOTICE, notice.key, notice.channel, session.id, notice.due, notice.owner,
                                   notice.lease)
        session.version += 1
        session.saved_seats = [replace(seat) for seat in session.seats]

    @guarded
    async def move_channel(self, old: str, new: str) -> None:
        async with self._conn() as conn, conn.transaction():
            await conn.execute("UPDATE sessions SET channel=$2 WHERE channel=$1", old, new)
            await conn.execute("DELETE FROM channel_settings WHERE channel=$2 AND key IN"
                               " (SELECT key FROM channel_settings WHERE channel=$1)", old, new)
            await conn.execute("UPDATE channel_settings SET channel=$2 WHERE channel=$1", old, new)

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[Tx]:
        try:
            async with self._conn() as conn:
                yield PgTx(conn)
        except DRIVER_ERRORS as error:
            raise StorageUnavailable(reason(error)) from error

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[Tx]:
        try:
            async with self._conn() as conn, conn.transaction():
                yield PgTx(conn)
        except DRIVER_ERRORS as error:
            raise StorageUnavailable(reason(error)) from error

    async def _write_seats(self, conn: asyncpg.Connection, session: Session) -> None:
        await conn.executemany(
            "INSERT INTO seats (session_id, seat, user_id, name, handle, ai_level, away, accepted)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (session_id, seat) DO UPDATE SET"
            " user_id=excluded.user_id, name=excluded.name, handle=excluded.handle, ai_level=excluded.ai_level,"
            " away=excluded.away, accepted=excluded.accepted",
            [(session.id, s.seat, s.user_id, s.name, s.handle, s.ai_level, s.away, s.accepted)
             for s in session.seats],
        )

    @guarded
    async def active(self, channel: str) -> Session | None:
        return await self._one(f"SELECT * FROM sessions WHERE channel=$1 AND {ACTIVE}", channel)

    @guarded
    async def enter(self, channel: str) -> tuple[Session | None, dict[str, str]]:
        held = self._holding()
        if held is not None and held.pending == channel:  # the lock and the read in one round trip
            held.pending = None  # from here on the server may hold it: unlock at the end
            row = await held.conn.fetchrow("SELECT * FROM gamehost_enter($1, $2)", channel_key(channel), channel)
        else:
            async with self._conn() as conn:
                row = await conn.fetchrow(
                    "SELECT (SELECT json_object_agg(key, value) FROM channel_settings WHERE channel=$1) AS settings,"
                    f" (SELECT row_to_json(x) FROM (SELECT s.*, {SEATS} FROM sessions AS s WHERE channel=$1"
                    f" AND {ACTIVE}) AS x) AS session",
                    channel,
                )
        settings, found = json.loads(row["settings"] or "{}"), json.loads(row["session"] or "null")
        return (None if found is None else session_of(found, found["seat_rows"] or [])), settings

    @guarded
    async def latest(self, channel: str) -> Session | None:
        return await self._one("SELECT * FROM sessions WHERE channel=$1 ORDER BY id DESC LIMIT 1", channel)

    @guarded
    async def get(self, session_id: int) -> Session | None:
        return await self._one("SELECT * FROM sessions WHERE id=$1", session_id)

    @guarded
    async def active_sessions(self) -> list[Session]:
        found = await self._many(f"SELECT * FROM sessions WHERE {ACTIVE}")
        return sorted(found, key=lambda s: s.id or 0)

    @guarded
    async def next_deadline(self) -> float | None:
        async with self._conn() as conn:
            return await conn.fetchval(f"SELECT MIN(deadline) FROM sessions WHERE deadline IS NOT NULL AND {ACTIVE}")

    async def _one(self, sql: str, *params: Any) -> Session | None:
        found = await self._many(sql, *params)
        return found[0] if found else None

    async def _many(self, sql: str, *params: Any) -> list[Session]:
        """Sessions with their seats, read in one query."""
        async with self._conn() as conn:
            rows = await conn.fetch(f"SELECT s.*, {SEATS} FROM ({sql}) AS s", *params)
        return [session_of(row, json.loads(row["seat_rows"] or "[]")) for row in rows]

    # --- one command of a channel at a time, across processes -------------------------------
    @contextlib.asynccontextmanager
    async def exclusive(self, channel: str) -> AsyncIterator[None]:
        held = self._holding()
        if held is not None:  # a second channel in the same command (move_channel): the first locked first
            await held.take()
            await lock_channel(held.conn, channel)
            yield
            return
        try:
            conn = await self.pool.acquire(timeout=self.wait)
        except DRIVER_ERRORS as error:
            raise StorageUnavailable(reason(error)) from error
        held = Held(asyncio.current_task(), conn, channel)
        token = self._held.set(held)
        try:
            yield
        finally:
            self._held.reset(token)
            await let_go(self.pool, conn, locked=held.pending is None)

    # --- background work --------------------------------------------------------------------
    @guarded
    async def claim(self, now: float, owner: str, lease: float,
                    platforms: Sequence[str] | None = None) -> list[Session]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"WITH s AS (UPDATE sessions SET lease_owner=$1, lease_until={NOW} + $2"
                f" WHERE id IN (SELECT id FROM sessions WHERE {ACTIVE}"
                f" AND (deadline<=$3 OR (bot_turn AND status='playing')) AND {FREE}"
                " AND ($4::text[] IS NULL OR split_part(channel, ':', 1) = ANY($4::text[])) FOR UPDATE SKIP LOCKED)"
                f" AND {FREE} RETURNING *) SELECT s.*, {SEATS} FROM s",
                owner, lease, now, None if platforms is None else list(platforms),
            )
        found = [session_of(row, json.loads(row["seat_rows"] or "[]")) for row in rows]
        return sorted(found, key=lambda s: (s.deadline is None, s.deadline or 0.0, s.id))

    @guarded
    async def claim_session(self, session_id: int, owner: str, lease: float) -> bool:
        async with self._conn() as conn:
            status = await conn.execute(
                f"UPDATE sessions SET lease_owner=$1, lease_until={NOW} + $2 WHERE id=$3 AND {FREE}",
                owner, lease, session_id,
            )
        return status == "UPDATE 1"

    @guarded
    async def release(self, owner: str, session_ids: Sequence[int] | None = None) -> None:
        async with self._conn() as conn:
            if session_ids is None:
                await conn.execute("UPDATE sessions SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=$1",
                                   owner)
            else:
                await conn.execute("UPDATE sessions SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=$1"
                                   " AND id = ANY($2::bigint[])", owner, list(session_ids))

    # --- moves, results, settings ---------------------------------------------------
    @guarded
    async def moves(self, session_id: int) -> list[MoveRow]:
        async with self._conn() as conn:
            rows = await conn.fetch("SELECT * FROM moves WHERE session_id=$1 ORDER BY ply", session_id)
        return [move_of(r) for r in rows]

    @guarded
    async def finished(self, channel: str, limit: int = 100) -> list[int]:
        rows = await self._rows("SELECT id FROM sessions WHERE channel=$1 AND status='finished' ORDER BY id DESC"
                                " LIMIT $2", channel, limit)
        return [row["id"] for row in rows]

    @guarded
    async def review(self, session_id: int) -> str | None:
        rows = await self._rows("SELECT review FROM reviews WHERE session_id=$1", session_id)
        return rows[0]["review"] if rows else None

    @guarded
    async def save_review(self, session_id: int, review: str, at: float) -> None:
        async with self._conn() as conn:
            await conn.execute("INSERT INTO reviews (session_id, review, at) VALUES ($1, $2, $3)"
                               " ON CONFLICT (session_id) DO NOTHING", session_id, review, at)

    @guarded
    async def setting(self, channel: str, key: str) -> str | None:
        async with self._conn() as conn:
            return await conn.fetchval("SELECT value FROM channel_settings WHERE channel=$1 AND key=$2", channel, key)

    @guarded
    async def set_setting(self, channel: str, key: str, value: str) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO channel_settings (channel, key, value) VALUES ($1, $2, $3)"
                " ON CONFLICT (channel, key) DO UPDATE SET value=excluded.value",
                channel, key, value,
            )

    async def _rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        async with self._conn() as conn:
            rows = await conn.fetch(sql, *params)
        return [dict(r) for r in rows]


