"""Sessions, seats, moves, offers and results in SQLite (aiosqlite, WAL).

The database is the truth: the host keeps nothing that matters only in memory,
so a restart resumes every game, timer and offer. Every write is one
transaction; a session row carries a version that every change increments, and
a write that does not find the version it expects changes nothing.

Whatever goes wrong with the database itself (locked by another process past the
busy timeout, a read-only or full disk, a malformed file) leaves every method as
one exception, `StorageUnavailable`, with SQLite's own words for it: the host
answers "try again" and stays up, and knows nothing of SQLite. `open` refuses, with
a one-line reason, a file that fails a quick integrity check or whose schema is
newer than this code.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

import aiosqlite

from bot import ratings_schema
from bot.session import Change, ChannelBusy, Conflict, MoveRow, Offer, Seat, Session, SessionStatus
from engines.base import Outcome

__all__ = ["MIGRATIONS", "ChannelBusy", "Conflict", "StorageUnavailable", "Store"]

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


class StorageUnavailable(Exception):
    """The database cannot be used now, or (at open) by this version at all; the message
    says why in one line ("database is locked", "database or disk is full")."""


def _guarded(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """SQLite's errors out of `method` become `StorageUnavailable`."""

    @functools.wraps(method)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except sqlite3.Error as error:
            raise StorageUnavailable(str(error)) from error

    return guarded

# Each entry upgrades the schema by one version (PRAGMA user_version). Append only.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        channel TEXT NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL,
        starter TEXT NOT NULL,
        turn_seconds INTEGER NOT NULL,
        deadline REAL,
        offer TEXT,
        outcome TEXT,
        ply INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_active_session_per_channel ON sessions(channel)
        WHERE status IN ('lobby', 'playing');
    CREATE INDEX sessions_by_deadline ON sessions(deadline) WHERE deadline IS NOT NULL;
    CREATE INDEX sessions_by_channel ON sessions(channel, id);
    CREATE TABLE seats (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        seat INTEGER NOT NULL,
        user_id TEXT,
        name TEXT NOT NULL,
        handle TEXT,
        ai_level TEXT,
        away INTEGER NOT NULL DEFAULT 0,
        accepted INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (session_id, seat)
    );
    CREATE TABLE moves (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        by_ai INTEGER NOT NULL,
        state_before TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (session_id, ply)
    );
    CREATE TABLE results (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        seat INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        rank INTEGER NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
        score REAL,
        at REAL NOT NULL,
        PRIMARY KEY (session_id, seat)
    );
    CREATE INDEX results_by_user ON results(user_id, game);
    CREATE INDEX results_by_game ON results(game, user_id);
    CREATE TABLE channel_settings (
        channel TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (channel, key)
    );
    """,
    # 2: the adapters' notes are named <platform>.<key>.
    """
    UPDATE channel_settings SET key='telegram.board' WHERE key='telegram_board';
    """,
    # 3: ratings (bot/ladder.py) and linked accounts (bot/links.py); a result's part in the game.
    ratings_schema.MIGRATION,
]


class Store:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        # One connection; its statements must not interleave between transactions.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str, synchronous: str = "NORMAL", busy_ms: int = 5000) -> Store:
        """Open (or create) the database at `path`, check it and bring its schema up to date.
        `busy_ms`: how long a write waits for another process's lock before giving up."""
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
            await db.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit survives the process being killed; FULL also a power cut.
            await db.execute(f"PRAGMA synchronous={synchronous}")
            await db.execute("PRAGMA foreign_keys=ON")
            store = cls(db)
            await store._check(path)
            await store._migrate()
        except (sqlite3.Error, StorageUnavailable) as error:
            await db.close()
            if isinstance(error, StorageUnavailable):
                raise
            raise StorageUnavailable(f"cannot open {path}: {error}") from error
        return store

    async def close(self) -> None:
        await self.db.close()

    async def _check(self, path: str) -> None:
        """Refuse a file that fails SQLite's quick integrity check, or that a newer version wrote."""
        (verdict,) = await (await self.db.execute("PRAGMA quick_check(1)")).fetchone()
        if verdict != "ok":
            raise StorageUnavailable(f"{path} is damaged (SQLite's quick check: {' '.join(verdict.split())})")
        (version,) = await (await self.db.execute("PRAGMA user_version")).fetchone()
        if version > len(MIGRATIONS):
            raise StorageUnavailable(f"{path} has schema version {version}, newer than this gamehost knows"
                                     f" ({len(MIGRATIONS)}): run the newer gamehost, or use another file")  # fmt: skip

    async def _migrate(self) -> None:
        async with self._lock:
            (version,) = await (await self.db.execute("PRAGMA user_version")).fetchone()
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                await self.db.execute("BEGIN IMMEDIATE")
                for statement in filter(str.strip, script.split(";")):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version={number}")
                await self.db.execute("COMMIT")

    @_guarded
    async def schema_version(self) -> int:
        async with self._lock:
            return (await (await self.db.execute("PRAGMA user_version")).fetchone())[0]

    # --- sessions -----------------------------------------------------------------
    @_guarded
    async def create(self, session: Session) -> Session:
        """Insert a new session; raises ChannelBusy if the channel has an active one."""
        try:
            async with self._transaction():
                cursor = await self.db.execute(
                    "INSERT INTO sessions (channel, game, status, options, seed, state, version, starter,"
                    " turn_seconds, deadline, offer, outcome, ply, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (session.channel, session.game, str(session.status), json.dumps(session.options), session.seed,
                     _dump(session.state), session.version, session.starter, session.turn_seconds,
                     session.deadline, *_offer_outcome(session), session.ply,
                     session.created_at, session.updated_at),
                )  # fmt: skip
                session.id = cursor.lastrowid
                await self._write_seats(session)
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(session.channel) from error
        session.saved_seats = [replace(seat) for seat in session.seats]
        return session

    @_guarded
    async def save(self, session: Session, change: Change | None = None) -> None:
        """Write the session (version + 1) and `change` in one transaction, or nothing."""
        change = change or Change()
        async with self._transaction():
            cursor = await self.db.execute(
                "UPDATE sessions SET status=?, options=?, seed=?, state=?, version=?, deadline=?, offer=?,"
                " outcome=?, ply=?, updated_at=? WHERE id=? AND version=?",
                (str(session.status), json.dumps(session.options), session.seed, _dump(session.state),
                 session.version + 1, session.deadline, *_offer_outcome(session),
                 session.ply, session.updated_at, session.id, session.version),
            )  # fmt: skip
            if cursor.rowcount != 1:
                raise Conflict(session.id)
            if session.seats != session.saved_seats:
                await self._write_seats(session)
            if change.drop_moves_from is not None:
                await self.db.execute(
                    "DELETE FROM moves WHERE session_id=? AND ply>=?", (session.id, change.drop_moves_from)
                )
            if change.move is not None:
                m = change.move
                await self.db.execute(
                    "INSERT INTO moves (session_id, ply, seat, move, by_ai, state_before, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (session.id, m.ply, m.seat, m.move, int(m.by_ai), json.dumps(m.state_before), m.at),
                )
            if change.results:
                await self.db.executemany(
                    "INSERT INTO results (session_id, seat, user_id, name, game, rank, result, score, at, role)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(session.id, r.seat, r.user_id, r.name, session.game, r.rank, r.result, r.score,
                      session.updated_at, r.role) for r in change.results],
                )  # fmt: skip
        session.version += 1
        session.saved_seats = [replace(seat) for seat in session.seats]

    @_guarded
    async def move_channel(self, old: str, new: str) -> None:
        """Give `old`'s sessions and settings to `new` (a chat whose id changed), in one transaction."""
        async with self._transaction():
            await self.db.execute("UPDATE sessions SET channel=? WHERE channel=?", (new, old))
            await self.db.execute("UPDATE OR REPLACE channel_settings SET channel=? WHERE channel=?", (new, old))

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """One write transaction on the connection: committed when the block ends, else rolled back.
        SQLite rolls back by itself on some errors (a full disk): then the error is raised as it
        is, not hidden behind a failed ROLLBACK."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    try:
                        await self.db.execute("ROLLBACK")
                    except sqlite3.Error:
                        log.exception("rolling back failed")
                raise

    async def _write_seats(self, session: Session) -> None:
        await self.db.executemany(
            "INSERT INTO seats (session_id, seat, user_id, name, handle, ai_level, away, accepted)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, seat) DO UPDATE SET"
            " user_id=excluded.user_id, name=excluded.name, handle=excluded.handle, ai_level=excluded.ai_level,"
            " away=excluded.away, accepted=excluded.accepted",
            [(session.id, s.seat, s.user_id, s.name, s.handle, s.ai_level, int(s.away), int(s.accepted))
             for s in session.seats],
        )  # fmt: skip

    @_guarded
    async def active(self, channel: str) -> Session | None:
        return await self._one("SELECT * FROM sessions WHERE channel=? AND status IN ('lobby', 'playing')", channel)

    @_guarded
    async def latest(self, channel: str) -> Session | None:
        """The channel's active session, or else its most recent one."""
        return await self._one("SELECT * FROM sessions WHERE channel=? ORDER BY id DESC LIMIT 1", channel)

    @_guarded
    async def get(self, session_id: int) -> Session | None:
        return await self._one("SELECT * FROM sessions WHERE id=?", session_id)

    @_guarded
    async def active_sessions(self) -> list[Session]:
        return await self._many("SELECT * FROM sessions WHERE status IN ('lobby', 'playing') ORDER BY id")

    @_guarded
    async def due(self, now: float) -> list[Session]:
        return await self._many(
            "SELECT * FROM sessions WHERE deadline IS NOT NULL AND deadline<=? AND status IN ('lobby', 'playing')"
            " ORDER BY deadline",
            now,
        )

    @_guarded
    async def next_deadline(self) -> float | None:
        async with self._lock:
            row = await (
                await self.db.execute(
                    "SELECT MIN(deadline) FROM sessions WHERE deadline IS NOT NULL AND status IN ('lobby', 'playing')"
                )
            ).fetchone()
        return row[0]

    async def _one(self, sql: str, *params: Any) -> Session | None:
        found = await self._many(sql, *params)
        return found[0] if found else None

    async def _many(self, sql: str, *params: Any) -> list[Session]:
        """Sessions with their seats, read in one query (one trip to the database thread)."""
        query = (
            "SELECT s.*, (SELECT json_group_array(json_array(seat, user_id, name, handle, ai_level, away, accepted))"
            f" FROM (SELECT * FROM seats WHERE session_id=s.id ORDER BY seat)) AS seat_rows FROM ({sql}) AS s"
        )
        async with self._lock:
            rows = await self.db.execute_fetchall(query, params)
        sessions = []
        for row in rows:
            seat_rows = sorted(json.loads(row["seat_rows"]))
            seats = [Seat(n, user, name, handle, level, bool(away), bool(accepted))
                     for n, user, name, handle, level, away, accepted in seat_rows]  # fmt: skip
            session = _session(row, seats)
            session.saved_seats = [replace(seat) for seat in seats]
            sessions.append(session)
        return sessions

    # --- moves, results, settings ---------------------------------------------------
    @_guarded
    async def moves(self, session_id: int) -> list[MoveRow]:
        async with self._lock:
            rows = await self.db.execute_fetchall("SELECT * FROM moves WHERE session_id=? ORDER BY ply", (session_id,))
        return [MoveRow(r["ply"], r["seat"], r["move"], bool(r["by_ai"]), json.loads(r["state_before"]), r["at"])
                for r in rows]  # fmt: skip

    @_guarded
    async def stats(self, user_id: str) -> list[dict[str, Any]]:
        """Per game: wins, losses, draws, points."""
        return await self._rows(
            "SELECT game, SUM(result='win') AS wins, SUM(result='loss') AS losses, SUM(result='draw') AS draws,"
            " SUM(score) AS points, MAX(name) AS name FROM results WHERE user_id=?"
            " GROUP BY game ORDER BY game",
            user_id,
        )

    @_guarded
    async def leaderboard(self, game: str | None, limit: int = 10) -> list[dict[str, Any]]:
        where = "WHERE game=?" if game else ""
        params = (game,) if game else ()
        return await self._rows(
            "SELECT user_id, (SELECT name FROM results r2 WHERE r2.user_id=results.user_id ORDER BY at DESC LIMIT 1)"
            " AS name, SUM(result='win') AS wins, SUM(result='loss') AS losses, SUM(result='draw') AS draws,"
            f" COUNT(*) AS games FROM results {where} GROUP BY user_id"
            " ORDER BY wins DESC, CAST(wins AS REAL) / games DESC, games DESC, name LIMIT ?",
            *params,
            limit,
        )

    @_guarded
    async def setting(self, channel: str, key: str) -> str | None:
        rows = await self._rows("SELECT value FROM channel_settings WHERE channel=? AND key=?", channel, key)
        return rows[0]["value"] if rows else None

    @_guarded
    async def set_setting(self, channel: str, key: str, value: str) -> None:
        async with self._lock:
            await self.db.execute(
                "INSERT INTO channel_settings (channel, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (channel, key) DO UPDATE SET value=excluded.value",
                (channel, key, value),
            )

    async def _rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        async with self._lock:
            rows = await self.db.execute_fetchall(sql, params)
        return [dict(r) for r in rows]


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _offer_outcome(session: Session) -> tuple[str | None, str | None]:
    offer, outcome = session.offer, session.outcome
    return _dump(offer.to_json() if offer else None), _dump(outcome.to_json() if outcome else None)


def _session(row: aiosqlite.Row, seats: list[Seat]) -> Session:
    return Session(
        id=row["id"], channel=row["channel"], game=row["game"], status=SessionStatus(row["status"]),
        options=json.loads(row["options"]), seed=row["seed"], seats=seats, starter=row["starter"],
        turn_seconds=row["turn_seconds"], created_at=row["created_at"], updated_at=row["updated_at"],
        state=_load(row["state"]), version=row["version"], deadline=row["deadline"],
        offer=Offer.from_json(_load(row["offer"])), outcome=Outcome.from_json(_load(row["outcome"])), ply=row["ply"],
    )  # fmt: skip
