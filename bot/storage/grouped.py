"""Group commit for the SQLite store: the saves of several channels that arrive while one
transaction is being written go together in the next one, in one trip to the database's
thread and one commit (one fsync with `synchronous=FULL`).

Nothing is weakened: each save still waits until the transaction that holds it is committed
(so each accepted move is committed before its reply), and each keeps its own version check:
a stale save changes nothing and raises `Conflict` alone, while the others commit. A save that
fails on its own (a constraint) is rolled back to its savepoint and fails alone; a failure of
the transaction itself (the disk full, the file locked) fails every save in it.
At most `MOST` saves go in one transaction: each batch's saves go on at once when it commits,
so a batch is a burst of work for the event loop, and a timer due meanwhile waits for it.
Saves that rate a finished game (`Change.results`) do not come here: rating reads and writes
the ratings in the transaction with asynchronous code, so the store writes them on their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.session import Change, Notice, Session
from bot.storage.contract import aided_dump, dump, offer_outcome

UPDATE = ("UPDATE sessions SET status=?, options=?, seed=?, state=?, version=?, deadline=?, offer=?, outcome=?,"
          " ply=?, updated_at=?, bot_turn=?, aided=? WHERE id=? AND version=?")  # fmt: skip
SEATS = ("INSERT INTO seats (session_id, seat, user_id, name, handle, ai_level, away, accepted)"
         " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, seat) DO UPDATE SET"
         " user_id=excluded.user_id, name=excluded.name, handle=excluded.handle, ai_level=excluded.ai_level,"
         " away=excluded.away, accepted=excluded.accepted")  # fmt: skip
DROP_MOVES = "DELETE FROM moves WHERE session_id=? AND ply>=?"
MOVE = "INSERT INTO moves (session_id, ply, seat, move, by_ai, state_before, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
NOW = "((julianday('now') - 2440587.5) * 86400.0)"  # the lease clock: seconds since 1970
NOTICE = ("INSERT INTO outbox (key, channel, session_id, due, created_at, lease_owner, lease_until)"
          f" VALUES (?, ?, ?, ?, ?, ?, {NOW} + ?)")  # fmt: skip

Row = tuple[Any, ...]
Rows = tuple[Row, list[Row] | None, Row | None, Row | None, Row | None]
MOST = 16  # saves in one transaction: 100 at once held the event loop 20-30 ms after their commit
Outcome = bool | sqlite3.Error  # True: written; False: a stale version (nothing written); else its error


def seat_rows(session: Session) -> list[tuple[Any, ...]]:
    return [(session.id, s.seat, s.user_id, s.name, s.handle, s.ai_level, int(s.away), int(s.accepted))
            for s in session.seats]  # fmt: skip


def rows_of(session: Session, change: Change) -> Rows:
    """What saving `session` with `change` writes, as statement parameters (built on the event loop)."""
    update = (str(session.status), json.dumps(session.options), session.seed, dump(session.state),
              session.version + 1, session.deadline, *offer_outcome(session), session.ply, session.updated_at,
              int(session.bot_turn), aided_dump(session), session.id, session.version)  # fmt: skip
    seats = seat_rows(session) if session.seats != session.saved_seats else None
    drop = (session.id, change.drop_moves_from) if change.drop_moves_from is not None else None
    m = change.move
    move = None if m is None else (session.id, m.ply, m.seat, m.move, int(m.by_ai), json.dumps(m.state_before), m.at)
    return update, seats, drop, move, notice_row(session, change.notice)


def notice_row(session: Session, notice: Notice | None) -> Row | None:
    """The outbox row a commit writes (`NOTICE`'s parameters), if it owes the channel a message."""
    if notice is None:
        return None
    return (notice.key, notice.channel, session.id, notice.due, notice.due, notice.owner, notice.lease)


def write(conn: sqlite3.Connection, rows: Rows) -> bool:
    """One save, inside a transaction; False (and nothing written) when the version is stale."""
    update, seats, drop, move, notice = rows
    if conn.execute(UPDATE, update).rowcount != 1:
        return False
    if seats is not None:
        conn.executemany(SEATS, seats)
    if drop is not None:
        conn.execute(DROP_MOVES, drop)
    if move is not None:
        conn.execute(MOVE, move)
    if notice is not None:
        conn.execute(NOTICE, notice)
    return True


def write_all(conn: sqlite3.Connection, batch: Sequence[Rows]) -> list[Outcome]:
    """Every save of `batch` in one transaction, each on its own savepoint when there are several."""
    outcomes: list[Outcome] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        if len(batch) == 1:
            outcomes.append(write(conn, batch[0]))
        else:
            for rows in batch:
                conn.execute("SAVEPOINT one_save")
                try:
                    outcomes.append(write(conn, rows))
                except sqlite3.Error as error:
                    conn.execute("ROLLBACK TO one_save")
                    outcomes.append(error)
                conn.execute("RELEASE one_save")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return outcomes


class GroupCommit:
    """Saves queued while a transaction is written go in the next one; `hop` runs a function
    with the connection in the database's thread."""

    def __init__(self, hop: Callable[..., Awaitable[Any]]) -> None:
        self._hop = hop
        self._waiting: list[tuple[Rows, asyncio.Future[Outcome]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def save(self, rows: Rows) -> Outcome:
        """`rows` written and committed (True), stale (False), or its own error; a failure of
        the whole transaction is raised."""
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting.append((rows, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write())
        return await future

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting[:MOST], self._waiting[MOST:]
            try:
                outcomes = await self._hop(write_all, [rows for rows, _ in batch])
            except Exception as error:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            except BaseException:  # cancelled: so are the saves that waited for it
                for _, future in [*batch, *self._waiting]:
                    future.cancel()
                raise
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if not future.done():
                    future.set_result(outcome)
