"""Group commit for the SQLite store: the saves of several channels that arrive while one
transaction is being written go together in the next one, in one trip to the database's
thread and one commit (one fsync with `synchronous=FULL`).

Nothing is weakened: each save still waits until the transaction that holds it is committed
(so each accepted move is committed before its reply), and each keeps its own version check:
a stale save changes nothing and raises `Conflict` alone, while the others commit. Each save
fails alone, whatever its error: one that raises (a constraint, a value the driver cannot
bind) is rolled back to its own savepoint and gets its error, the others commit; when the
transaction fails after it began (SQLite rolled it all back on a save's error, the commit
failed), each save is written again in a transaction of its own, so only the one at fault
fails. A transaction that cannot even begin (the file locked by another process) is no
save's fault: every save in it gets that error.
At most `MOST` saves go in one transaction: each batch's saves go on at once when it commits,
so a batch is a burst of work for the event loop, and a timer due meanwhile waits for it.
Saves that rate a finished game (`Change.results`) do not come here: rating reads and writes
the ratings in the transaction with asynchronous code, so the store writes them on their own.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.session import Change, Notice, Session
from bot.storage.contract import aided_dump, dump, offer_outcome

log = logging.getLogger(__name__)

UPDATE = ("UPDATE sessions SET status=?, options=?, seed=?, state=?, version=?, deadline=?, offer=?, outcome=?,"
          " ply=?, updated_at=?, bot_turn=?, aided=? WHERE id=? AND version=?")
SEATS = ("INSERT INTO seats (session_id, seat, user_id, name, handle, ai_level, away, accepted)"
         " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, seat) DO UPDATE SET"
         " user_id=excluded.user_id, name=excluded.name, handle=excluded.handle, ai_level=excluded.ai_level,"
         " away=excluded.away, accepted=excluded.accepted")
DROP_MOVES = "DELETE FROM moves WHERE session_id=? AND ply>=?"
MOVE = "INSERT INTO moves (session_id, ply, seat, move, by_ai, state_before, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
NOW = "((julianday('now') - 2440587.5) * 86400.0)"  # the lease clock: seconds since 1970
NOTICE = ("INSERT INTO outbox (key, channel, session_id, due, created_at, lease_owner, lease_until)"
          f" VALUES (?, ?, ?, ?, ?, ?, {NOW} + ?)")

Row = tuple[Any, ...]
Rows = tuple[Row, list[Row] | None, Row | None, Row | None, Row | None]
MOST = 16  # saves in one transaction: 100 at once held the event loop 20-30 ms after their commit
Outcome = bool | Exception  # True: written; False: a stale version (nothing written); else its own error


def seat_rows(session: Session) -> list[tuple[Any, ...]]:
    return [(session.id, s.seat, s.user_id, s.name, s.handle, s.ai_level, int(s.away), int(s.accepted))
            for s in session.seats]


def rows_of(session: Session, change: Change) -> Rows:
    """What saving `session` with `change` writes, as statement parameters (built on the event loop)."""
    update = (str(session.status), json.dumps(session.options), session.seed, dump(session.state),
              session.version + 1, session.deadline, *offer_outcome(session), session.ply, session.updated_at,
              int(session.bot_turn), aided_dump(session), session.id, session.version)
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
    """Every save of `batch` in one transaction, each on its own savepoint when there are several
    (a save that raises is undone alone, its error its outcome). When the transaction fails after
    it began, each save again in a transaction of its own; an error of a lone save's transaction
    (its BEGIN, its save, its COMMIT), and a BEGIN that fails, are raised."""
    conn.execute("BEGIN IMMEDIATE")  # failing here, no save was tried: each would fail the same way
    try:
        outcomes: list[bool | Exception] = (
            [write(conn, batch[0])] if len(batch) == 1 else [_on_savepoint(conn, rows) for rows in batch])
        conn.execute("COMMIT")
        return outcomes
    except Exception:
        roll_back(conn)
        if len(batch) == 1:
            raise
    except BaseException:
        roll_back(conn)
        raise
    return [_alone(conn, rows) for rows in batch]  # whose fault it was, each save's own transaction tells


def _on_savepoint(conn: sqlite3.Connection, rows: Rows) -> Outcome:
    """One save of several in a transaction: its own error (any) undoes it alone and is its outcome."""
    conn.execute("SAVEPOINT one_save")
    try:
        outcome: Outcome = write(conn, rows)
    except Exception as error:
        conn.execute("ROLLBACK TO one_save")  # raises if SQLite already rolled back the transaction
        outcome = error
    conn.execute("RELEASE one_save")
    return outcome


def _alone(conn: sqlite3.Connection, rows: Rows) -> Outcome:
    try:
        return write_all(conn, [rows])[0]
    except Exception as error:
        return error


def roll_back(conn: sqlite3.Connection) -> None:
    """Roll back the transaction the connection is in, if any (a failure to: logged)."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rolling back failed")


class GroupCommit:
    """Saves queued while a transaction is written go in the next one; `hop` runs a function
    with the connection in the database's thread."""

    def __init__(self, hop: Callable[..., Awaitable[Any]]) -> None:
        self._hop = hop
        self._waiting: list[tuple[Rows, asyncio.Future[Outcome]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def save(self, rows: Rows) -> bool:
        """`rows` written and committed (True), or stale (False); its own error (nothing of it
        written), or the error of a transaction that could not begin, is raised."""
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting.append((rows, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write())
        outcome = await future
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

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
