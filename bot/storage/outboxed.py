"""The outbox on either database: the contract's outbox methods, implemented once.

A commit that owes its channel a message writes an outbox row in its own transaction
(`Change.notice`: `bot.storage.grouped` on SQLite, `bot.storage.pgsave` and the store's
transactions on PostgreSQL), held by the committing process for a lease. Here: the rest of
the row's life, in portable SQL over the backends' `Tx` (`?` placeholders), the two
dialects differing only in the lease clock (`_now`) and PostgreSQL's `FOR UPDATE SKIP
LOCKED` (`_skip_locked`), with which processes claiming at once each take other rows.

A claim takes the rows that are due (the host's clock), free (nobody's lease, the claimer's
own, or one that ran out: the database's clock) and first in their channel: a row waits while
an older row of its channel is not due yet or is held by another live process, so a channel's
messages go out in the order of its commits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.session import Outgoing
from bot.storage.rated import marks
from bot.storage.rebuilt import SQLRebuilds


def _free(table: str, now: str) -> str:
    """`table`'s row is nobody's, the claimer's (the next `?`), or its lease ran out."""
    return f"({table}.lease_owner IS NULL OR {table}.lease_owner=? OR {table}.lease_until < {now})"


class SQLOutbox(SQLRebuilds):
    """The outbox methods for a backend that supplies `Tx`s and its lease clock (as `SQLRebuilds`)."""

    async def outbox_claim(self, now: float, owner: str, lease: float, platforms: Sequence[str] | None = None,
                           most: int = 100) -> list[Outgoing]:
        served, names = "", [f"{p}:%" for p in platforms or ()]
        if platforms is not None:
            served = " AND (" + (" OR ".join("o.channel LIKE ?" for _ in names) or "FALSE") + ")"
        free_o, free_b, free_t = _free("o", self._now), _free("b", self._now), _free("outbox", self._now)
        sql = (f"UPDATE outbox SET lease_owner=?, lease_until={self._now} + ? WHERE seq IN ("
               f"SELECT o.seq FROM outbox AS o WHERE o.due <= ? AND {free_o}{served}"
               " AND NOT EXISTS (SELECT 1 FROM outbox AS b WHERE b.channel = o.channel AND b.seq < o.seq"
               f" AND NOT (b.due <= ? AND {free_b})) ORDER BY o.seq LIMIT ?{self._skip_locked})"
               f" AND {free_t} RETURNING *")
        async with self._writing() as tx:
            rows = await tx.rows(sql, owner, lease, now, owner, *names, now, owner, most, owner)
        return sorted((_outgoing(r) for r in rows), key=lambda o: o.seq)

    async def outbox_retake(self, key: str, owner: str, lease: float) -> Outgoing | None:
        free = _free("outbox", self._now)
        async with self._writing() as tx:
            rows = await tx.rows(f"UPDATE outbox SET lease_owner=?, lease_until={self._now} + ? WHERE key=? AND {free}"
                                 " RETURNING *", owner, lease, key, owner)
        return _outgoing(rows[0]) if rows else None

    async def outbox_ahead(self, channel: str, key: str) -> bool:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT 1 AS x FROM outbox WHERE channel=? AND seq < (SELECT seq FROM outbox"
                                 " WHERE key=?) LIMIT 1", channel, key)
        return bool(rows)

    async def outbox_done(self, keys: Sequence[str]) -> None:
        if keys:
            async with self._writing() as tx:
                await tx.run(f"DELETE FROM outbox WHERE key IN ({marks(len(keys))})", *keys)

    async def outbox_hold(self, key: str, replies: str, sent: list[dict[str, Any]], attempts: int, due: float,
                          dropped: Sequence[str] = ()) -> None:
        async with self._writing() as tx:
            await tx.run("UPDATE outbox SET replies=?, sent=?, attempts=?, due=?, lease_owner=NULL, lease_until=NULL"
                         " WHERE key=?", replies, json.dumps(sent), attempts, due, key)
            if dropped:
                await tx.run(f"DELETE FROM outbox WHERE key IN ({marks(len(dropped))})", *dropped)

    async def outbox_progress(self, key: str, sent: list[dict[str, Any]]) -> None:
        async with self._writing() as tx:
            await tx.run("UPDATE outbox SET sent=? WHERE key=?", json.dumps(sent), key)

    async def outbox_next(self, now: float, again: float) -> float | None:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT MIN(CASE WHEN due > ? THEN due ELSE ? END) AS due FROM outbox", now, again)
        return rows[0]["due"] if rows else None

    async def outbox_backlog(self) -> int:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT COUNT(*) AS n FROM outbox")
        return int(rows[0]["n"])

    async def outbox_release(self, owner: str) -> None:
        async with self._writing() as tx:
            await tx.run("UPDATE outbox SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=?", owner)


def _outgoing(row: dict[str, Any]) -> Outgoing:
    return Outgoing(row["seq"], row["key"], row["channel"], row["session_id"], row["replies"], json.loads(row["sent"]),
                    row["attempts"], row["due"], row["created_at"], row["lease_owner"])
