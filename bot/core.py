"""What every command handler works with: the host's services (`Core`) and one request.

The handlers (lobby, play, offers, info) are plain functions of a `Core` and a
`Request`; they read and change sessions only through `Core.commit`, which also
tells background play (AI turns, timers) that a session changed.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ai import AIRunner
from bot.commands import Command
from bot.i18n import Translator, t
from bot.model import Event, User
from bot.session import Change, Seat, Session, SessionStatus
from bot.store import Store
from engines.base import Game, Msg, Refusal
from render.base import RenderContext

Draw = Callable[[str, Any, RenderContext], bytes]


@dataclass
class Core:
    """The host's services, shared by every handler."""

    store: Store
    ai: AIRunner
    games: dict[str, Game]
    tr: Translator  # the host's language
    draw: Draw
    clock: Callable[[], float]
    turn_seconds: int
    lobby_seconds: int
    # Told of every committed session (AI turns and timers look at it); set by the host.
    changed: Callable[[Session], None] = lambda session: None
    locks: defaultdict[str, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))

    async def commit(self, session: Session, change: Change | None = None) -> None:
        """Save the session (and `change`) in one transaction, then tell background play."""
        session.updated_at = self.clock()
        await self.store.save(session, change)
        self.changed(session)

    async def create(self, r: Request, game: Game, options: dict[str, Any], seats: list[Seat],
                     turn_seconds: int) -> Session:  # fmt: skip
        """A new table in the lobby; raises ChannelBusy if the channel has a game."""
        now = self.clock()
        session = Session(
            channel=r.event.channel, game=game.name, status=SessionStatus.LOBBY, options=options,
            seed=secrets.randbits(62), seats=seats, starter=r.user.id, turn_seconds=turn_seconds, created_at=now,
            updated_at=now, deadline=now + self.lobby_seconds,
        )  # fmt: skip
        return await self.store.create(session)

    def game_of(self, session: Session) -> Game:
        return self.games[session.game]

    def ai_seat(self, seat: int, level: str) -> Seat:
        return Seat(seat, None, self.tr(t("host.ai_name", level=level)), ai_level=level)


@dataclass
class Request:
    """One command being answered: who, where, what, and the channel's active session.

    The command table says what a command needs; the dispatcher checks it (`need`) before
    the handler runs, so a handler reads `active` and `seat` without checking again."""

    event: Event
    command: Command
    tr: Translator
    session: Session | None
    seat: Seat | None = None  # the user's seat, for commands that need one

    @property
    def user(self) -> User:
        return self.event.user

    @property
    def active(self) -> Session:
        assert self.session is not None, "the command table says this command needs a session"
        return self.session

    @property
    def player(self) -> Seat:
        assert self.seat is not None, "the command table says this command needs a seat"
        return self.seat

    def need(self, status: SessionStatus | None, seat: bool) -> None:
        """Refuse unless the channel's session is in `status` and (if `seat`) the user plays in it."""
        if status is not None:
            if self.session is None:
                raise Refusal("host.no_game")
            if self.session.status != status:
                lobby = self.session.status == SessionStatus.LOBBY
                raise Refusal("host.not_started" if lobby else "host.already_started")
        if seat:
            self.seat = self.session.seat_of(self.user.id) if self.session is not None else None
            if self.seat is None:
                raise Refusal("host.not_a_player")


def title(game: Game) -> Msg:
    return t(f"{game.name}.title")


def vs(session: Session) -> str:
    return " vs ".join(s.name for s in session.seats)


def points(value: float) -> str:
    return f"{value:+g}"
