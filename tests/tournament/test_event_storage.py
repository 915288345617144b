"""Tournaments in the store, on both databases: an event reads back as written with its entrants
and games, one open event per channel, a stale write changes nothing, and a running event is held
by one owner at a time until it lets go or its lease runs out."""

from __future__ import annotations

import asyncio

import pytest

from bot.session import ChannelBusy, Conflict
from bot.storage import Storage
from bot.tournament.model import Entry, EventGame, EventStatus, Tournament
from tests.conftest import BOTH
from tests.support.postgres import database_clock, scalar
from tests.support.stores import opened_store  # noqa: F401  (the fixture `store`)

BACKENDS = BOTH
NOW = 1_700_000_000.0


def an_event(channel: str = "c:1", status: EventStatus = EventStatus.OPEN) -> Tournament:
    entries = [Entry("u:alice", "Alice", 25.5, handle="al"), Entry("bot:1", "Bot 困难", 30.0, ai_level="hard"),
               Entry("u:张", "张伟", 12.25)]
    return Tournament(channel, "gomoku", "swiss", status, "u:alice", {"rounds": 3, "seats": 2, "rule": "renju"},
                      NOW, NOW, entries=entries)


async def test_an_event_reads_back_as_written(store: Storage) -> None:
    created = await store.event_create(an_event())
    assert created.id is not None
    read = await store.event_active("c:1")
    assert read == created
    created.status, created.round = EventStatus.RUNNING, 1
    created.games = [EventGame(1, 0, ("u:alice", "u:张"), place="c:1/t9"), EventGame(1, 1, ("bot:1",), points=(1.0,))]
    created.entries[2].withdrawn = 2
    await store.event_save(created)
    assert created.version == 1
    read = await store.event_get(created.id)
    assert read == created
    assert read.games[1].bye and read.games[1].over and not read.games[0].over
    read.games[0].session_id, read.games[0].points, read.games[0].ranks = 77, (1.0, 0.0), (1, 2)
    await store.event_save(read)
    assert await store.event_of_session(77) == read
    assert await store.event_of_session(78) is None
    assert [e.id for e in await store.events_of("u:张")] == [created.id]
    read.entries.pop(1)  # left before it began
    await store.event_save(read)
    assert [e.entrant for e in (await store.event_get(created.id)).entries] == ["u:alice", "u:张"]


async def test_one_open_event_per_channel(store: Storage) -> None:
    first = await store.event_create(an_event())
    with pytest.raises(ChannelBusy):
        await store.event_create(an_event())
    other = await store.event_create(an_event("c:2"))  # another channel: its own
    first.status = EventStatus.FINISHED
    await store.event_save(first)
    again = await store.event_create(an_event())  # the finished one is no longer in the way
    assert (await store.event_latest("c:1")).id == again.id and await store.event_latest("c:9") is None
    assert len({first.id, other.id, again.id}) == 3
    assert [e.id for e in await store.events_of("u:alice")] == [again.id, other.id, first.id]
    assert [e.id for e in await store.events_of("u:alice", limit=1)] == [again.id]


async def test_a_stale_write_changes_nothing(store: Storage) -> None:
    created = await store.event_create(an_event(status=EventStatus.RUNNING))
    one, two = await store.event_get(created.id or 0), await store.event_get(created.id or 0)
    assert one is not None and two is not None
    one.round, one.games = 1, [EventGame(1, 0, ("u:alice", "bot:1")), EventGame(1, 1, ("u:张",), points=(1.0,))]
    await store.event_save(one)
    two.round, two.games = 1, [EventGame(1, 0, ("u:alice", "u:张")), EventGame(1, 1, ("bot:1",), points=(1.0,))]
    with pytest.raises(Conflict):
        await store.event_save(two)  # the same round paired again elsewhere: nothing of it is written
    assert (await store.event_get(created.id or 0)) == one


async def test_running_events_are_held_by_one_owner(store: Storage) -> None:
    running = await store.event_create(an_event("c:1", EventStatus.RUNNING))
    await store.event_create(an_event("c:2", EventStatus.OPEN))  # nothing to do for anyone yet
    assert [e.id for e in await store.events_claim("A", 60)] == [running.id]
    assert await store.events_claim("B", 60) == []
    assert [e.id for e in await store.events_claim("A", 60)] == [running.id]  # its own, renewed
    await store.events_release("A")
    assert [e.id for e in await store.events_claim("B", 0.3)] == [running.id]
    until = await scalar(store, "SELECT lease_until FROM events WHERE id=?", running.id)
    while await database_clock(store) <= until:
        await asyncio.sleep(0.05)
    assert [e.id for e in await store.events_claim("A", 60)] == [running.id]  # B's lease ran out


async def test_claims_at_once_take_each_event_once(store: Storage) -> None:
    made = [await store.event_create(an_event(f"c:{n}", EventStatus.RUNNING)) for n in range(6)]
    claims = await asyncio.gather(*(store.events_claim(owner, 60) for owner in "ABCD"))
    taken = [e.id for found in claims for e in found]
    assert sorted(taken) == sorted(e.id for e in made)
