"""What the web site reads (`bot.web`) on either database: the contract's web methods, implemented
once in portable SQL over the backends' `Tx` (`?` placeholders), as the outbox is.

A web id is a random token kept in `web_ids` for a game, a player or a place the site links
to: made the first time a page or a chat message links there, the same for every process after
(the table's keys), and the only way to name the thing in a URL, so none can be guessed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from bot.session import Session
from bot.storage.contract import session_of
from bot.storage.events import load_events
from bot.storage.outboxed import SQLOutbox
from bot.storage.rated import marks
from bot.tournament.model import Tournament

SEAT_COLUMNS = "session_id, seat, user_id, name, handle, ai_level, away, accepted"


def shown(alias: str, default_on: Sequence[str]) -> str:
    """The join and condition that keep the rows (`alias`) of the channels whose setting (the first
    parameter) is "on", or unset where the channel starts with one of `default_on` (the next ones)."""
    by_default = " OR ".join(f"{alias}.channel LIKE ?" for _ in default_on) or "1=0"
    return (f"LEFT JOIN channel_settings c ON c.channel={alias}.channel AND c.key=?"
            f" WHERE COALESCE(c.value, CASE WHEN {by_default} THEN 'on' ELSE 'off' END)='on'")


class SQLPublished(SQLOutbox):
    """The web methods for a backend that supplies `Tx`s (as `SQLRatings`)."""

    async def channel_values(self, key: str) -> dict[str, str]:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT channel, value FROM channel_settings WHERE key=?", key)
        return {r["channel"]: r["value"] for r in rows}

    async def published(self, key: str, default_on: Sequence[str], game: str | None = None,
                        players: Sequence[str] | None = None, limit: int = 20,
                        offset: int = 0) -> list[Session]:
        where, params = [], [key, *(f"{prefix}%" for prefix in default_on)]
        if game is not None:
            where.append(" AND s.game=?")
            params.append(game)
        if players is not None:
            where.append(f" AND s.id IN (SELECT session_id FROM seats WHERE user_id IN ({marks(len(players))}))"
                         if players else " AND 1=0")
            params += players
        sql = (f"SELECT s.* FROM sessions s {shown('s', default_on)} AND s.status='finished'"
               f"{''.join(where)} ORDER BY s.updated_at DESC, s.id DESC LIMIT ? OFFSET ?")
        async with self._reading() as tx:
            rows = await tx.rows(sql, *params, limit, offset)
            ids = [r["id"] for r in rows]
            seats = await tx.rows(f"SELECT {SEAT_COLUMNS} FROM seats WHERE session_id IN ({marks(len(ids))})",
                                  *ids) if ids else []
        by_session: dict[int, list[list[Any]]] = defaultdict(list)
        for seat in seats:
            by_session[seat["session_id"]].append([seat[c] for c in SEAT_COLUMNS.split(", ")[1:]])
        return [session_of(row, by_session[row["id"]]) for row in rows]

    async def events_published(self, key: str, default_on: Sequence[str], limit: int = 10) -> list[Tournament]:
        sql = (f"SELECT e.id FROM events e {shown('e', default_on)} AND e.round > 0"
               " ORDER BY e.updated_at DESC, e.id DESC LIMIT ?")
        async with self._reading() as tx:
            ids = [r["id"] for r in await tx.rows(sql, key, *(f"{prefix}%" for prefix in default_on), limit)]
            found = await load_events(tx, f"id IN ({marks(len(ids))})", *ids) if ids else []
        return sorted(found, key=lambda event: ids.index(event.id))

    async def web_ids(self, kind: str, targets: Sequence[str], new: Callable[[], str]) -> dict[str, str]:
        wanted = sorted(set(targets))
        if not wanted:
            return {}
        select = f"SELECT target, token FROM web_ids WHERE kind=? AND target IN ({marks(len(wanted))})"
        async with self._reading() as tx:
            found = {r["target"]: r["token"] for r in await tx.rows(select, kind, *wanted)}
        if len(found) < len(wanted):
            async with self._writing() as tx:
                await tx.many("INSERT INTO web_ids (token, kind, target) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                              [(new(), kind, target) for target in wanted if target not in found])
                found = {r["target"]: r["token"] for r in await tx.rows(select, kind, *wanted)}
        return found

    async def web_target(self, token: str) -> tuple[str, str] | None:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT kind, target FROM web_ids WHERE token=?", token)
        return (rows[0]["kind"], rows[0]["target"]) if rows else None
