"""Tournaments on either database: the contract's `Events`, implemented once in portable SQL over
the backends' `Tx` (`?` placeholders), the two dialects differing only in the lease clock (`_now`)
and PostgreSQL's `FOR UPDATE SKIP LOCKED` (`_skip_locked`).

An event row, its entrants and its games are written together (`event_save`), after an UPDATE
that finds the version it read and increments it: of two processes that paired the same round,
one writes and the other gets `Conflict`. Running events are claimed with a lease like sessions.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from bot.session import ChannelBusy, Conflict
from bot.storage.outboxed import SQLOutbox
from bot.storage.rated import Tx, marks
from bot.tournament.model import Entry, EventGame, EventStatus, Tournament

EVENT_COLUMNS = "id, channel, game, format, status, organiser, options, round, version, created_at, updated_at"


class SQLEvents(SQLOutbox):
    """The `Events` methods for a backend that supplies `Tx`s and its lease clock."""

    async def event_create(self, event: Tournament) -> Tournament:
        async with self._writing() as tx:
            busy = await tx.rows("SELECT id FROM events WHERE channel=? AND status IN ('open', 'running')",
                                 event.channel)
            if busy:
                raise ChannelBusy(event.channel)
            rows = await tx.rows(
                "INSERT INTO events (channel, game, format, status, organiser, options, round, version, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                event.channel, event.game, event.format, str(event.status), event.organiser,
                json.dumps(event.options), event.round, event.version, event.created_at, event.updated_at,
            )
            event.id = int(rows[0]["id"])
            await _write_children(tx, event)
        return event

    async def event_save(self, event: Tournament) -> None:
        async with self._writing() as tx:
            rows = await tx.rows(
                "UPDATE events SET status=?, options=?, round=?, version=version + 1, updated_at=?"
                " WHERE id=? AND version=? RETURNING version",
                str(event.status), json.dumps(event.options), event.round, event.updated_at, event.id, event.version,
            )
            if not rows:
                raise Conflict(f"event {event.id} changed since it was read")
            await _write_children(tx, event)
        event.version += 1

    async def event_active(self, channel: str) -> Tournament | None:
        found = await self._events("channel=? AND status IN ('open', 'running')", channel)
        return found[0] if found else None

    async def event_latest(self, channel: str) -> Tournament | None:
        found = await self._events("id=(SELECT MAX(id) FROM events WHERE channel=?)", channel)
        return found[0] if found else None

    async def event_get(self, event_id: int) -> Tournament | None:
        found = await self._events("id=?", event_id)
        return found[0] if found else None

    async def event_of_session(self, session_id: int) -> Tournament | None:
        found = await self._events("id IN (SELECT event_id FROM event_games WHERE session_id=?)", session_id)
        return found[0] if found else None

    async def events_claim(self, owner: str, lease: float) -> list[Tournament]:
        free = f"(e.lease_owner IS NULL OR e.lease_owner=? OR e.lease_until < {self._now})"
        async with self._writing() as tx:
            rows = await tx.rows(
                f"UPDATE events SET lease_owner=?, lease_until={self._now} + ? WHERE id IN (SELECT e.id FROM events"
                f" AS e WHERE e.status='running' AND {free} ORDER BY e.id{self._skip_locked})"
                f" AND {free.replace('e.', '')} RETURNING id",
                owner, lease, owner, owner,
            )
            return await load_events(tx, f"id IN ({marks(len(rows))})", *[r["id"] for r in rows]) if rows else []

    async def events_release(self, owner: str) -> None:
        async with self._writing() as tx:
            await tx.run("UPDATE events SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=?", owner)

    async def events_of(self, entrant: str, limit: int = 5) -> list[Tournament]:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT event_id FROM event_entrants WHERE entrant=? ORDER BY event_id DESC LIMIT ?",
                                 entrant, limit)
            ids = [r["event_id"] for r in rows]
            found = await load_events(tx, f"id IN ({marks(len(ids))})", *ids) if ids else []
        return sorted(found, key=lambda e: -(e.id or 0))

    async def _events(self, where: str, *params: Any) -> list[Tournament]:
        async with self._reading() as tx:
            return await load_events(tx, where, *params)


async def _write_children(tx: Tx, event: Tournament) -> None:
    kept = [e.entrant for e in event.entries]  # (one who left before it began is no entrant at all)
    await tx.run(f"DELETE FROM event_entrants WHERE event_id=? AND entrant NOT IN ({marks(len(kept))})",
                 event.id, *kept) if kept else await tx.run("DELETE FROM event_entrants WHERE event_id=?", event.id)
    await tx.many(
        "INSERT INTO event_entrants (event_id, entrant, name, handle, ai_level, rating, withdrawn, position)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, entrant) DO UPDATE SET name=excluded.name,"
        " handle=excluded.handle, ai_level=excluded.ai_level, rating=excluded.rating, withdrawn=excluded.withdrawn",
        [(event.id, e.entrant, e.name, e.handle, e.ai_level, float(e.rating), e.withdrawn, i)
         for i, e in enumerate(event.entries)],
    )
    await tx.many(
        "INSERT INTO event_games (event_id, round, table_no, players, place, session_id, points, ranks)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, round, table_no) DO UPDATE SET"
        " place=excluded.place, session_id=excluded.session_id, points=excluded.points, ranks=excluded.ranks",
        [(event.id, g.round, g.table, json.dumps(g.players), g.place, g.session_id,
          None if g.points is None else json.dumps(g.points), None if g.ranks is None else json.dumps(g.ranks))
         for g in event.games],
    )


async def load_events(tx: Tx, where: str, *params: Any) -> list[Tournament]:
    rows = await tx.rows(f"SELECT {EVENT_COLUMNS} FROM events WHERE {where} ORDER BY id", *params)
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    entries: dict[int, list[Entry]] = defaultdict(list)
    for r in await tx.rows(f"SELECT * FROM event_entrants WHERE event_id IN ({marks(len(ids))}) ORDER BY event_id,"
                           " position", *ids):
        entries[r["event_id"]].append(Entry(r["entrant"], r["name"], r["rating"], r["ai_level"], r["handle"],
                                            r["withdrawn"]))
    games: dict[int, list[EventGame]] = defaultdict(list)
    for r in await tx.rows(f"SELECT * FROM event_games WHERE event_id IN ({marks(len(ids))}) ORDER BY event_id,"
                           " round, table_no", *ids):
        games[r["event_id"]].append(EventGame(
            r["round"], r["table_no"], tuple(json.loads(r["players"])), r["place"], r["session_id"],
            None if r["points"] is None else tuple(json.loads(r["points"])),
            None if r["ranks"] is None else tuple(json.loads(r["ranks"]))))
    return [Tournament(r["channel"], r["game"], r["format"], EventStatus(r["status"]), r["organiser"],
                       json.loads(r["options"]), r["created_at"], r["updated_at"], r["round"], r["version"], r["id"],
                       entries[r["id"]], games[r["id"]]) for r in rows]
