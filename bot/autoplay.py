"""What happens without anyone typing: the bots' turns and the timers.

One task per session plays all the bot turns in a row (a Dou Dizhu table with two
bots), each move under the channel's lock like a typed one, and announces them in
one message when a person is to move. The timer loop closes lobbies nobody joined
and acts for players whose time ran out: in a two-player game they lose, in a
larger one a bot plays their seat until they come back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot import play, replies
from bot.core import Core, in_language, title
from bot.i18n import Translator, t
from bot.info import ai_seed
from bot.model import Reply
from bot.session import Session, SessionStatus
from engines.base import Game, Msg

log = logging.getLogger(__name__)

Deliver = Callable[[str, list[Reply]], Awaitable[None]]
IDLE_WAIT = 60.0  # seconds the timer loop sleeps when no deadline is near


class Autoplay:
    def __init__(self, core: Core, deliver: Deliver) -> None:
        self.core = core
        self.deliver = deliver
        self.thinking: dict[int, asyncio.Task[None]] = {}  # session id -> its AI task
        self._recheck: set[int] = set()  # sessions whose AI task must look again before it ends
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = asyncio.Event()

    async def start(self) -> None:
        """Resume every bot turn that was pending, and the timers."""
        for session in await self.core.store.active_sessions():
            self.changed(session)
        self.spawn(self._timer_loop())

    async def stop(self) -> None:
        tasks = [*self._tasks, *self.thinking.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until no bot is thinking."""
        while self.thinking:
            await asyncio.gather(*self.thinking.values(), return_exceptions=True)

    def changed(self, session: Session) -> None:
        """A session was committed: wake the timers, and start the bot if it is to move."""
        self._wake.set()
        if session.status != SessionStatus.PLAYING:
            return
        game = self.core.game_of(session)
        to_move = game.to_move(game.from_json(session.state))
        if to_move is None or not session.seats[to_move].played_by_ai:
            return
        session_id = session.id or 0
        if session_id in self.thinking:
            self._recheck.add(session_id)  # the running task looks again before it ends
            return
        self.thinking[session_id] = asyncio.ensure_future(self._ai_turns(session_id))

    # --- the bots' turns ------------------------------------------------------------------
    async def _ai_turns(self, session_id: int) -> None:
        try:
            await self._play_ai_turns(session_id)
        finally:
            del self.thinking[session_id]
            if session_id in self._recheck:
                self._recheck.discard(session_id)
                self.spawn(self._look_again(session_id))

    async def _look_again(self, session_id: int) -> None:
        session = await self.core.store.get(session_id)
        if session is not None:
            self.changed(session)

    async def _play_ai_turns(self, session_id: int) -> None:
        """Play bot turns until a person is to move, then announce them in one message."""
        core = self.core
        lines: list[Msg] = []
        session = None
        while True:
            session = await core.store.get(session_id)
            if session is None or session.status != SessionStatus.PLAYING:
                break
            game = core.game_of(session)
            state = game.from_json(session.state)
            seat = game.to_move(state)
            if seat is None or not session.seats[seat].played_by_ai:
                break
            chosen = await self._ai_move(game, session, state, seat)
            async with core.locks[session.channel]:
                current = await core.store.get(session_id)
                if current is None or current.version != session.version:
                    continue  # the game changed while the bot thought (undo, resign, /back): look again
                lines += await play.apply(core, current, seat, chosen, by_ai=True)
                next_seat = game.to_move(game.from_json(current.state)) \
                    if current.status == SessionStatus.PLAYING else None  # fmt: skip
                if next_seat is None or not current.seats[next_seat].played_by_ai:
                    await self.deliver(current.channel, await self._after_move(current, lines))
                    lines = []
        if lines and session is not None:
            async with core.locks[session.channel]:
                latest = await core.store.get(session_id)
                if latest is not None:
                    await self.deliver(latest.channel, await self._after_move(latest, lines))

    async def _after_move(self, session: Session, lines: list[Msg]) -> list[Reply]:
        tr = await self.core.languages.channel(session.channel)
        return in_language(await replies.after_move(self.core, session, tr, lines), tr)

    async def _ai_move(self, game: Game, session: Session, state: Any, seat: int) -> Any:
        level = session.seats[seat].ai_level or game.default_level
        try:
            text, _ = await self.core.ai.move(game.name, session.state, seat, level, ai_seed(session))
            return game.parse_move(state, seat, text)
        except Exception:
            # Never leave a game stuck: a legal move beats no move. The tests keep this path unused.
            log.exception("the %s AI failed in session %s; playing its first legal move", game.name, session.id)
            return game.legal_moves(state, seat)[0]

    # --- timers ------------------------------------------------------------------------
    async def _timer_loop(self) -> None:
        core = self.core
        while True:
            await self.expire_due()
            next_deadline = await core.store.next_deadline()
            delay = IDLE_WAIT if next_deadline is None else min(IDLE_WAIT, max(0.0, next_deadline - core.clock()))
            self._wake.clear()
            # asyncio.timeout, not wait_for: in Python 3.11 wait_for can swallow a cancellation
            # that arrives as the event is set, and stop() would wait for this loop forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay + 0.01):
                    await self._wake.wait()

    async def expire_due(self) -> None:
        """Act on every session whose wait is over: close lobbies, time players out."""
        core = self.core
        for due in await core.store.due(core.clock()):
            async with core.locks[due.channel]:
                session = await core.store.get(due.id or 0)
                if session is None or session.version != due.version:
                    continue
                tr = await core.languages.channel(session.channel)
                said = in_language(await self._expire(session, tr), tr)
            await self.deliver(session.channel, said)

    async def _expire(self, session: Session, tr: Translator) -> list[Reply]:
        core = self.core
        game = core.game_of(session)
        if session.status == SessionStatus.LOBBY:
            session.status, session.deadline = SessionStatus.CANCELLED, None
            await core.commit(session)
            return [Reply(tr(t("host.lobby_expired", game=title(game))))]
        seat = game.to_move(game.from_json(session.state))
        if seat is None:
            session.deadline = None
            await core.commit(session)
            return []
        name = session.seats[seat].name
        if len(session.seats) == 2:
            return await play.forfeit(core, session, seat, t("host.timed_out", name=name), tr)
        session.seats[seat].away = True
        session.deadline = None
        await core.commit(session)
        return [Reply(tr(t("host.away", name=name)))]
