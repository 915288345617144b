"""What the web site asks of the store, on SQLite and on PostgreSQL: the finished games of the
channels that allow the web (by default only the console's), newest first, by game and player,
paged; web ids made once, the same for everyone after, and read back."""

from __future__ import annotations

import asyncio
import itertools

from bot.session import SessionStatus
from bot.storage import PLACE
from bot.tournament.model import EventStatus, Tournament
from bot.web import access
from bot.web.access import DEFAULT_ON, WEB
from tests.conftest import BOTH
from tests.web.games import CONSOLE, ERIN, GUILD, PRIVATE, SHOWN, Played

BACKENDS = BOTH


async def test_published_games(played: Played) -> None:
    store = played.store
    found = await store.published(WEB, DEFAULT_ON, limit=100)
    expected = played.sessions[CONSOLE] + played.sessions[SHOWN]
    assert sorted(s.id for s in found) == sorted(s.id for s in expected)
    assert all(s.status == SessionStatus.FINISHED for s in found)
    assert [s.updated_at for s in found] == sorted((s.updated_at for s in found), reverse=True)
    assert found[0].seats and found[0].seats[0].name  # with their seats
    assert [s.id for s in await store.published(WEB, DEFAULT_ON, limit=3, offset=2)] == [s.id for s in found[2:5]]
    assert {s.game for s in await store.published(WEB, DEFAULT_ON, game="gomoku")} == {"gomoku"}
    erin = await store.published(WEB, DEFAULT_ON, players=[ERIN.id])
    assert erin and all(s.channel == SHOWN for s in erin)  # not those of PRIVATE, where Erin played too
    assert await store.published(WEB, DEFAULT_ON, players=[]) == []
    assert {s.channel for s in await store.published(WEB, ())} == {SHOWN}  # the console shown by default only
    await store.set_setting(CONSOLE, WEB, "off")
    await store.set_setting(PRIVATE, WEB, "on")
    assert {s.channel for s in await store.published(WEB, DEFAULT_ON, limit=100)} == {SHOWN, PRIVATE}


async def test_settings_by_key_and_places(played: Played) -> None:
    store = played.store
    assert await store.channel_values(WEB) == {SHOWN: "on"}
    assert (await store.channel_values(PLACE))[PRIVATE] == GUILD
    assert await access.shown_places(store) == {"console", GUILD}
    await store.set_setting(SHOWN, WEB, "off")
    assert await access.shown_places(store) == {"console"}


async def test_web_ids_are_made_once_and_read_back(played: Played) -> None:
    store = played.store
    counter = itertools.count()
    made = await asyncio.gather(*(store.web_ids("game", ["1", "2", "2"], lambda: f"t{next(counter)}")
                                  for _ in range(4)))
    assert all(m == made[0] for m in made) and sorted(made[0]) == ["1", "2"]
    assert await store.web_target(made[0]["2"]) == ("game", "2")
    assert await store.web_ids("player", ["1"], lambda: "other") == {"1": "other"}  # kinds apart
    assert await store.web_target("nothing") is None
    assert await store.web_ids("game", [], lambda: "x") == {}
    assert len(access.new_id()) == 22 and access.new_id() != access.new_id()


async def test_published_tournaments(played: Played) -> None:
    store = played.store

    async def made(channel: str, round_: int, at: float, status: EventStatus = EventStatus.RUNNING) -> int:
        event = await store.event_create(Tournament(channel, "nim", "swiss", status, "u:a", {}, at, at, round_))
        assert event.id is not None
        return event.id

    begun = await made(CONSOLE, 1, 100.0)
    over = await made(SHOWN, 3, 300.0, EventStatus.FINISHED)
    await made(PRIVATE, 2, 400.0)  # its channel does not show its games
    await made(CONSOLE + "2", 0, 500.0, EventStatus.OPEN)  # not begun: no page yet
    assert [e.id for e in await store.events_published(WEB, DEFAULT_ON)] == [over, begun]
    assert [e.id for e in await store.events_published(WEB, DEFAULT_ON, limit=1)] == [over]
    assert [e.id for e in await store.events_published(WEB, ())] == [over]
    await store.set_setting(SHOWN, WEB, "off")
    await store.set_setting(PRIVATE, WEB, "on")
    assert len(await store.events_published(WEB, DEFAULT_ON)) == 2
    assert {e.channel for e in await store.events_published(WEB, DEFAULT_ON)} == {CONSOLE, PRIVATE}
