"""Running tournaments in the background: each round's games begun as ordinary sessions, their
results taken in when they end, the next round paired, the standings posted.

A running event is claimed by one live process with a lease on its row (`Storage.events_claim`),
renewed every `lease / 3` seconds while it runs, so a process that dies (even by `kill -9`) leaves
it to another once the lease runs out; every change is a version-checked save, so a round is
paired once whichever process gets there. A step runs under the event channel's lock, like a
command there (`/withdraw`, `/cancel`).

Where a game is played: where the platform can open a place of its own for it (a Discord thread,
a Telegram forum topic: the adapter's `open_place`), all the games of a round at once; elsewhere
(the console, a group without topics) one after another in the event's channel. Each place is
written to the game's row before its session is made there, and a game found with a place but no
session adopts the session it finds there, so a restart between the two makes no second game.
A place of its own starts with the event channel's settings (language, hints, web, server).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot import play
from bot.core import Core, in_language
from bot.info import HINTS
from bot.languages import CHANNEL_KEY
from bot.model import EVERYONE, Reply
from bot.session import Conflict, Seat, Session, SessionStatus
from bot.storage import PLACE
from bot.tournament import rounds, views
from bot.tournament.model import EventGame, EventStatus, Tournament
from bot.web.access import WEB
from engines.base import msg

log = logging.getLogger(__name__)

Deliver = Callable[[str, list[Reply]], Awaitable[None]]
# An adapter's way to open a place of its own for a game under a channel: the new channel's id, or
# None where it cannot (the game is then played in the channel itself).
OpenPlace = Callable[[str, str], Awaitable[str | None]]
IDLE_WAIT = 60.0
INHERITED = (CHANNEL_KEY, HINTS, WEB, PLACE)  # the channel settings a game's own place starts with


class Tournaments:
    def __init__(self, core: Core, deliver: Deliver, owner: str, lease: float, poll: float,
                 platforms: Callable[[], Iterable[str]]) -> None:
        self.core, self.deliver, self.owner, self.lease = core, deliver, owner, lease
        self.poll = min(poll, lease / 3)
        self.platforms = platforms  # this process steps the events of the platforms it speaks to
        self.places: dict[str, OpenPlace] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._busy = 0

    def changed(self, session: Session) -> None:
        """A session was committed: a game that ended may finish a round or let the next begin."""
        if not session.status.active:
            self._wake.set()

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.core.store.events_release(self.owner)

    async def _loop(self) -> None:
        failures = 0
        while True:
            try:
                await self.step_all()
                failures = 0
            except Exception:
                failures += 1
                log.exception("running the tournaments failed (%d in a row)", failures)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll * (2 ** min(failures, 5))):
                    await self._wake.wait()
            self._wake.clear()

    async def step_all(self) -> None:
        """Claim the running events nobody else holds, and move each on as far as it goes now."""
        self._busy += 1
        try:
            served = set(self.platforms())
            for event in await self.core.store.events_claim(self.owner, self.lease):
                if event.channel.partition(":")[0] in served and event.id is not None:
                    try:
                        await self.step(event.id)
                    except Exception:
                        log.exception("tournament %s in %s could not go on; trying again", event.id, event.channel)
        finally:
            self._busy -= 1

    async def step(self, event_id: int) -> None:
        async with self.core.lock(channel := await self._channel(event_id)), self.core.owed.collect():
            event = await self.core.store.event_get(event_id)
            if event is None or event.status != EventStatus.RUNNING:
                return
            tr = await self.core.languages.channel(channel)
            said: list[Reply] = []
            try:
                said += await self._take_results(event, tr)
                await self._place(event, tr, said)
            except Conflict:
                log.info("tournament %s changed meanwhile: another process moved it on", event_id)
            if said:
                await self.deliver(channel, in_language(said, tr))

    async def _channel(self, event_id: int) -> str:
        event = await self.core.store.event_get(event_id)
        return event.channel if event is not None else ""

    async def _take_results(self, event: Tournament, tr: Any) -> list[Reply]:
        """Score the round's games that ended; when every one has, the standings and the next round."""
        scored = False
        for game in event.current():
            if game.over or game.session_id is None:
                continue
            session = await self.core.store.get(game.session_id)
            if session is not None and not session.status.active:
                rounds.score(event, game, session)
                scored = True
        if not event.current() or not all(g.over for g in event.current()):
            if scored:
                await self._save(event)
            return []
        ended_round = event.round
        await rounds.ready(event)  # (after a restart: a long schedule made in a thread, not in the loop)
        new = rounds.advance(event)
        await self._save(event)  # once: a second process finds the version changed
        said = []
        finished_round = new is None or event.round != ended_round
        if finished_round:
            said += await views.after_round(self.core, event, tr, final=new is None)
        if new is None:
            said.append(Reply(tr(msg("tournament.over", event=views.name(self.core, event))), audience=EVERYONE))
        else:
            said.append(views.pairings(self.core, event, tr, new))
        return said

    async def _save(self, event: Tournament) -> None:
        event.updated_at = self.core.clock()
        await self.core.store.event_save(event)

    async def _place(self, event: Tournament, tr: Any, said: list[Reply]) -> None:
        """Begin the round's games that wait: each in a place of its own where the platform has
        them, else the next one in the event's channel once it is free."""
        if event.status != EventStatus.RUNNING:
            return
        for game in event.current():
            if game.over:
                continue
            if game.session_id is not None:
                await self._resume(event, game, tr, said)
                continue
            if game.place is None:
                game.place = await self._open_place(event, game, tr, said)
                if game.place is None:
                    return  # the channel is busy with the game before: this one follows it
                await self._save(event)
            if game.place == event.channel:
                await self._begin(event, game, tr, said)
            else:
                async with self.core.lock(game.place):
                    await self._begin(event, game, tr, said)
                said.append(Reply(tr(msg("tournament.game_placed", players=views.game_line(event, game, tr),
                                       place=game.place)), audience=EVERYONE))
            if game.place == event.channel:
                return  # one at a time here

    async def _open_place(self, event: Tournament, game: EventGame, tr: Any, said: list[Reply]) -> str | None:
        opener = self.places.get(event.channel.partition(":")[0])
        label = views.place_name(event, game, tr)
        if opener is not None and event.options.get("places", "own") == "own":
            try:
                place = await opener(event.channel, label[:100])
            except Exception:
                log.exception("opening a place for a game of tournament %s failed; playing it here", event.id)
                place = None
            if place is not None:
                await self._inherit(event.channel, place)
                return place
            event.options["places"] = "here"  # the platform cannot here: every game follows in the channel
            said.append(Reply(tr(msg("tournament.places_here")), audience=EVERYONE))
        busy = await self.core.store.active(event.channel)
        here = [g for g in event.current() if g.place == event.channel and not g.over]
        return None if busy is not None or here else event.channel

    async def _inherit(self, channel: str, place: str) -> None:
        store = self.core.store
        for key in INHERITED:
            if (value := await store.setting(channel, key)) is not None:
                await store.set_setting(place, key, value)

    async def _begin(self, event: Tournament, game: EventGame, tr: Any, said: list[Reply]) -> None:
        place = game.place or event.channel
        found = await self.core.store.active(place)
        if found is not None and [s.user_id or s.name for s in found.seats] != self._seat_keys(event, game):
            return  # someone's own game is going on there: this one waits for it to end
        session = found or await self._create(event, game, place, tr)
        game.session_id = session.id
        await self._save(event)
        if found is None:
            await self._start(event, game, session, tr, said)

    async def _resume(self, event: Tournament, game: EventGame, tr: Any, said: list[Reply]) -> None:
        """A game whose session was made but not begun (its process stopped in between) begins now."""
        place = game.place or event.channel
        async with contextlib.AsyncExitStack() as stack:
            if place != event.channel:
                await stack.enter_async_context(self.core.lock(place))
            session = await self.core.store.get(game.session_id or 0)
            if session is not None and session.status == SessionStatus.LOBBY:
                await self._start(event, game, session, tr, said)

    async def _start(self, event: Tournament, game: EventGame, session: Session, tr: Any, said: list[Reply]) -> None:
        first = msg("tournament.game_of", event=views.name(self.core, event), round=game.round)
        replies = in_language(await play.begin(self.core, session, tr, first), tr)
        if session.channel == event.channel:
            said += replies
        else:
            await self.deliver(session.channel, replies)

    def _seat_keys(self, event: Tournament, game: EventGame) -> list[str]:
        return [e.entrant if not e.bot else e.name for e in (event.entry(p) for p in game.players) if e]

    async def _create(self, event: Tournament, game: EventGame, place: str, tr: Any) -> Session:
        seats = []
        for i, entrant in enumerate(game.players):
            entry = event.entry(entrant)
            assert entry is not None
            if entry.bot:
                seats.append(Seat(i, None, entry.name, ai_level=entry.ai_level))
            else:
                seats.append(Seat(i, entry.entrant, entry.name, entry.handle, away=bool(entry.withdrawn)))
        # Bots playing each other play at once (a turn of 0 s): nobody waits for them.
        turn = 0 if all(s.ai_level for s in seats) else int(event.options.get("turn_seconds", self.core.turn_seconds))
        now = self.core.clock()
        options = dict(event.options.get("game_options", {}))
        session = Session(channel=place, game=event.game, status=SessionStatus.LOBBY, options=options,
                          seed=secrets.randbits(62), seats=seats, starter=event.organiser, turn_seconds=turn,
                          created_at=now, updated_at=now)
        notice = self.core.owed.notice(place)
        created = await self.core.store.create(session, notice)
        if notice is not None:
            self.core.owed.committed(notice)
        log.info("session %s: round %s of tournament %s in %s", created.id, game.round, event.id, place)
        return created

    async def idle(self) -> None:
        """Until no step is running (tests)."""
        while self._busy:
            await asyncio.sleep(0.01)
