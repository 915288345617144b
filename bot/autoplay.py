"""What happens without anyone typing: the bots' turns and the timers.

One task per session plays all the bot turns in a row (a Dou Dizhu table with two
bots), each move under the channel's lock like a typed one, and announces them in
one message when a person is to move. The timer loop closes lobbies nobody joined
and acts for players whose time ran out: in a two-player game they lose, in a
larger one a bot plays their seat until they come back.

Several processes may share the database: each piece of background work (a passed
deadline, a bot to move) is claimed by one live process, which holds a lease on the
session and lets go when done. Every `lease / 3` seconds each process claims the work
nobody holds, and again what it holds itself, which renews its leases; a process that
dies stops renewing, and the others take its work over once the lease has run out. Whatever runs twice all the same (a
lease lost to a slow process) commits once: the session's version says so.

Nothing here may stop for good: the host has no one to report to but the log. A
failing pass of the timer loop (the database locked by another process, say) is
logged and tried again after a back-off (`bot.supervised`: 1 s doubling to 60 s); a
failing bot turn is logged and tried again the same way, by the timer loop. Times
are on the host's clock, so tests move an injected clock instead of waiting; leases
are on the database's. Cancellation (`stop`) is never caught.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from bot import play, replies
from bot.core import Core, bot_to_move, in_language, title
from bot.i18n import Translator
from bot.info import ai_seed
from bot.model import EVERYONE, Reply
from bot.session import Session, SessionStatus
from bot.supervised import Failed, Wake, backoff, supervise
from engines.base import Game, Msg, msg

log = logging.getLogger(__name__)
# Its own logger, so tests can insist that the AI never failed unnoticed.
fallback_log = logging.getLogger(f"{__name__}.fallback")

Deliver = Callable[[str, list[Reply]], Awaitable[None]]
IDLE_WAIT = 60.0  # seconds the timer loop sleeps when no deadline is near (and it is the only process)
LEASE = 5.0  # seconds a process holds a piece of work without renewing it
MOST_LINES = 6  # moves said in one message when bots play several in a row


class Autoplay:
    def __init__(self, core: Core, deliver: Deliver, lease: float = LEASE,
                 platforms: Callable[[], Iterable[str]] | None = None) -> None:
        self.core = core
        self.deliver = deliver
        # The platforms this process can speak to: it takes on work in their channels only.
        self.platforms = platforms
        self.lease = lease
        # Other processes do not tell this one of their commits: look for work every lease / 3.
        self.poll = lease / 3 if core.store.shared else IDLE_WAIT
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"  # whose leases
        self.thinking: dict[int, asyncio.Task[None]] = {}  # session id -> its AI task
        self._recheck: set[int] = set()  # sessions whose AI task must look again before it ends
        self._retry: dict[int, float] = {}  # session id -> when its failed bot turn is tried again
        self._failures: dict[int, int] = {}  # session id -> its bot turns that failed in a row
        self._expiring: set[int] = set()  # sessions whose timer this process is acting on
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = Wake()
        self._stopping = False  # from `stop` on: no task begins (a host is stopped once)

    async def start(self) -> None:
        """Resume every bot turn that was pending (and no other process holds), and the timers."""
        for session in await self.core.store.active_sessions():
            if self.platforms is None or session.channel.partition(":")[0] in self.platforms():
                session.bot_turn = bot_to_move(self.core.game_of(session), session)  # rows older than the column
                self.changed(session)
        self.spawn(self._timer_loop())

    async def stop(self) -> None:
        """Cancel every task and wait for them; none begins meanwhile (a bot turn begun now would
        meet the AI closed after this), so the loop ends."""
        self._stopping = True
        while running := [t for t in (*self._tasks, *self.thinking.values()) if not t.done()]:
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
        try:
            await self.core.store.release(self.owner)  # the other processes may take it all over at once
        except Exception:
            log.warning("could not give up this process's leases; they run out in %g s", self.lease)

    @property
    def held(self) -> set[int]:
        """The sessions this process holds a lease on."""
        return {*self.thinking, *self._retry, *self._expiring}

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:
        if self._stopping:
            coro.close()
            return None
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until no bot is thinking."""
        while self.thinking:
            await asyncio.gather(*self.thinking.values(), return_exceptions=True)

    def wake(self) -> None:
        """Make the timer loop look at the clock now (every commit does)."""
        self._wake.set()

    def changed(self, session: Session) -> None:
        """A session was committed: wake the timers, and start the bot if it is to move."""
        self._wake.set()
        if not session.bot_turn or self._stopping:
            return
        if session.watched and session.deadline is not None:
            return  # a watched game's bot moves when its deadline comes (`_expire`)
        session_id = session.id or 0
        if session_id in self.thinking:
            self._recheck.add(session_id)  # the running task looks again before it ends
            return
        self.thinking[session_id] = asyncio.ensure_future(self._ai_turns(session_id))

    # --- the bots' turns ------------------------------------------------------------------
    async def _ai_turns(self, session_id: int) -> None:
        store = self.core.store
        try:
            if await store.claim_session(session_id, self.owner, self.lease):  # else another process plays
                async with self.core.owed.collect():  # what the bots' moves owe the channel
                    played = await self._play_ai_turns(session_id)
                await store.release(self.owner, [session_id])
                if store.shared and played:  # a move another process committed meanwhile found it held
                    self._recheck.add(session_id)
            self._failures.pop(session_id, None)
        except Exception:
            self._failed(session_id)  # the lease is kept until the next try
        finally:
            del self.thinking[session_id]
            if session_id in self._recheck:
                self._recheck.discard(session_id)
                self.spawn(self._look_again(session_id))

    def _failed(self, session_id: int) -> None:
        """Log the failed bot turn; the timer loop tries it again after a back-off."""
        failures = self._failures[session_id] = self._failures.get(session_id, 0) + 1
        self._retry[session_id] = self.core.clock() + backoff(failures)
        log.exception("a bot turn in session %s failed (%d in a row); trying again in %g s",
                      session_id, failures, backoff(failures))
        self._wake.set()  # the timer loop sleeps until then at most

    async def _look_again(self, session_id: int) -> None:
        try:
            session = await self.core.store.get(session_id)
        except Exception:
            self._failed(session_id)
            return
        if session is not None:
            self.changed(session)

    async def _play_ai_turns(self, session_id: int) -> int:
        """Play bot turns until a person is to move, then announce them in one message; how many."""
        core = self.core
        lines: list[Msg] = []
        session = None
        played = 0
        while True:
            session = await core.store.get(session_id)
            if session is None or session.status != SessionStatus.PLAYING:
                break
            game = core.game_of(session)
            state = game.from_json(session.state)
            seat = game.to_move(state)
            if seat is None or not session.seats[seat].played_by_ai or (session.watched and session.deadline):
                break  # a person's turn, or a watched game's next move is not due yet
            chosen = await self._ai_move(game, session, state, seat)
            async with core.lock(session.channel):
                current = await core.store.get(session_id)
                if current is None or current.version != session.version:
                    continue  # the game changed while the bot thought (undo, resign, /back): look again
                lines += await play.apply(core, current, seat, chosen, by_ai=True)
                played += 1
                next_seat = game.to_move(game.from_json(current.state)) \
                    if current.status == SessionStatus.PLAYING else None
                lines = lines[-MOST_LINES:]  # bots playing each other at once: the last moves are said
                if next_seat is None or not current.seats[next_seat].played_by_ai or current.deadline is not None:
                    await self.deliver(current.channel, await self._after_move(current, lines))
                    lines = []
        if lines and session is not None:
            async with core.lock(session.channel):
                latest = await core.store.get(session_id)
                if latest is not None:
                    await self.deliver(latest.channel, await self._after_move(latest, lines))
        return played

    async def _after_move(self, session: Session, lines: list[Msg]) -> list[Reply]:
        tr = await self.core.languages.channel(session.channel)
        return in_language(await replies.after_move(self.core, session, tr, lines), tr)

    async def _ai_move(self, game: Game[Any, Any], session: Session, state: Any, seat: int) -> Any:
        level = session.seats[seat].ai_level or game.default_level
        try:
            text, info = await self.core.ai.move(game.name, session.state, seat, level, ai_seed(session))
            log.debug("session %s: the %s AI (%s) plays %r for seat %d (%s units, %.2f s CPU%s)", session.id,
                      game.name, level, text, seat, info.get("work", "?"), info.get("cpu", 0.0),
                      f", {info['reason']}" if info.get("reason") else "")
            return game.parse_move(state, seat, text)
        except Exception:
            # Never leave a game stuck: a legal move beats no move. The tests keep this path unused.
            fallback_log.exception("the %s AI failed in session %s; playing its first legal move",
                                   game.name, session.id)
            return game.legal_moves(state, seat)[0]

    # --- timers ------------------------------------------------------------------------
    async def _timer_loop(self) -> None:
        await supervise(self._timer_pass, self._wake, self.core.clock, self.poll, _timer_failed)

    async def _timer_pass(self) -> float | None:
        """Act on the timers that are due; when the next deadline or retry is (None: none known)."""
        failed = await self.expire_due()
        next_deadline = await self.core.store.next_deadline()
        if failed:
            raise Failed  # some timers failed (each logged): rest the back-off
        return min([d for d in (next_deadline, *self._retry.values()) if d is not None], default=None)

    async def expire_due(self) -> int:
        """Claim the sessions with work no live process holds, and act on them: close lobbies,
        time players out, play bots' turns (also another process's, once its lease ran out),
        try failed bot turns again. A session that fails is logged and left for the next pass
        (the others go on); returns how many failed."""
        core = self.core
        failed = 0
        now = core.clock()
        platforms = None if self.platforms is None else sorted(self.platforms())
        for due in await core.store.claim(now, self.owner, self.lease, platforms):
            session_id = due.id or 0
            if due.deadline is None or due.deadline > now:  # a bot is to move
                if session_id not in self.thinking and session_id not in self._retry:
                    self.changed(due)
                continue
            self._expiring.add(session_id)
            try:
                async with core.lock(due.channel), core.owed.collect():
                    session = await core.store.get(session_id)
                    if session is None or session.version != due.version:
                        continue
                    tr = await core.languages.channel(session.channel)
                    said = in_language(await self._expire(session, tr), tr)
                    await self.deliver(session.channel, said)  # before the channel's next command answers
            except Exception:
                failed += 1
                log.exception("the timer of session %s failed", due.id)
            finally:
                self._expiring.discard(session_id)
                if session_id not in self.held:  # a bot that now plays the seat keeps it
                    with contextlib.suppress(Exception):  # else the lease runs out by itself
                        await core.store.release(self.owner, [session_id])
        for session_id in [s for s, when in self._retry.items() if when <= core.clock() and s not in self.thinking]:
            del self._retry[session_id]
            try:
                session = await core.store.get(session_id)
            except Exception:
                self._failed(session_id)
                continue
            if session is not None:
                self.changed(session)  # a new try, which succeeds or fails anew
            if session_id not in self.thinking:
                self._failures.pop(session_id, None)  # no bot turn to try any more
        return failed

    async def _expire(self, session: Session, tr: Translator) -> list[Reply]:
        core = self.core
        game = core.game_of(session)
        if session.status == SessionStatus.LOBBY:
            session.status, session.deadline = SessionStatus.CANCELLED, None
            await core.commit(session)
            return [Reply(tr(msg("host.lobby_expired", game=title(game))), audience=EVERYONE)]
        seat = game.to_move(game.from_json(session.state))
        if seat is None or session.watched:  # (watched: the bot's move is due; committing starts it)
            session.deadline = None
            await core.commit(session)
            return []
        name = session.seats[seat].name
        if len(session.seats) == 2:
            return await play.forfeit(core, session, seat, msg("host.timed_out", name=name), tr)
        session.seats[seat].away = True
        session.deadline = None
        await core.commit(session)
        return [Reply(tr(msg("host.away", name=name)), audience=EVERYONE)]


def _timer_failed(failures: int, error: Exception) -> None:
    if not isinstance(error, Failed):
        log.error("the timer loop failed", exc_info=error)
    log.warning("the timer loop tries again in %g s (%d failed passes in a row)", backoff(failures), failures)
