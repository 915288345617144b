"""What every command handler works with: the host's services (`Core`) and one request.

The handlers (lobby, play, offers, info) are plain functions of a `Core` and a
`Request`; they read and change sessions only through `Core.commit`, which also
tells background play (AI turns, timers) that a session changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.ai import AIRunner
from bot.i18n import LANGUAGES, Translator, translator
from bot.languages import Languages
from bot.model import Event, NotSecret, Private, Reply, User
from bot.parser import Command
from bot.pictures import Pictures
from bot.session import Change, Notice, Seat, Session, SessionStatus
from bot.storage import PLACE, Storage
from engines.base import Game, Msg, Refusal, msg

log = logging.getLogger(__name__)

WORD = re.compile(r"[^\W_]{1,32}")  # a title that may be typed as a command word: letters, no space


class Owed:
    """What a commit owes its channel: an outbox row written with it (`bot.outbox.Outbox`, which
    the host sets); this one owes nothing."""

    def notice(self, channel: str) -> Notice | None:
        return None

    def committed(self, notice: Notice) -> None:
        pass

    def collect(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """Around a piece of work whose commits' rows `settle` takes."""
        return contextlib.nullcontext()


@dataclass
class Core:
    """The host's services, shared by every handler."""

    store: Storage
    ai: AIRunner
    games: dict[str, Game[Any, Any]]
    languages: Languages  # who reads which language
    pictures: Pictures  # drawn in worker processes, or in threads
    clock: Callable[[], float]
    turn_seconds: int
    lobby_seconds: int
    # Told of every committed session (AI turns and timers look at it); set by the host.
    changed: Callable[[Session], None] = lambda session: None
    owed: Owed = field(default_factory=lambda: Owed())  # what commits owe their channel: the host's outbox
    # Told that accounts were linked or unlinked: the ratings they change are rated again in the background.
    rerate: Callable[[], None] = lambda: None
    # Told that a tournament changed (it began, someone withdrew): the runner looks at it now.
    events_changed: Callable[[], None] = lambda: None
    web_url: str | None = None  # the web site's public URL: chat messages link to its pages (`bot.web.chat`)
    locks: defaultdict[str, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))
    game_words: dict[str, str] = field(init=False)  # every word that names a game -> the game's name

    def __post_init__(self) -> None:
        self.game_words = game_words(self.games)

    @contextlib.asynccontextmanager
    async def lock(self, channel: str) -> AsyncIterator[None]:
        """One command of `channel` at a time: in this process (its lock), then across the
        processes that share the database (the store's)."""
        async with self.locks[channel], self.store.exclusive(channel):
            yield

    async def commit(self, session: Session, change: Change | None = None) -> None:
        """Save the session (and `change`) in one transaction, then tell background play. A game
        that ended is rated in that transaction too (the store rates the results it writes)."""
        session.updated_at = self.clock()
        session.bot_turn = bot_to_move(self.game_of(session), session)
        notice = self.owed.notice(session.channel)
        if notice is not None:
            change = replace(change, notice=notice) if change is not None else Change(notice=notice)
        await self.store.save(session, change)
        if notice is not None:
            self.owed.committed(notice)
        if change is not None and change.results:
            log.info("session %s (%s in %s) ended: %s", session.id, session.game, session.channel,
                     ", ".join(f"{r.user_id} {r.result}" for r in change.results))
        log.debug("session %s (%s in %s) saved: %s, version %s%s", session.id, session.game, session.channel,
                  session.status.value, session.version, ", a bot to move" if session.bot_turn else "")
        self.changed(session)

    async def create(self, r: Request, game: Game[Any, Any], options: dict[str, Any], seats: list[Seat],
                     turn_seconds: int) -> Session:
        """A new table in the lobby; raises ChannelBusy if the channel has a game."""
        now = self.clock()
        session = Session(
            channel=r.event.channel, game=game.name, status=SessionStatus.LOBBY, options=options,
            seed=secrets.randbits(62), seats=seats, starter=r.user.id, turn_seconds=turn_seconds, created_at=now,
            updated_at=now, deadline=now + self.lobby_seconds,
        )
        notice = self.owed.notice(session.channel)
        created = await self.store.create(session, notice)
        if notice is not None:
            self.owed.committed(notice)
        log.info("session %s: %s opened a %s table in %s", created.id, r.user.id, game.name, r.event.channel)
        if r.event.place is not None:  # where "here" leaderboards count the channel's games
            await self.store.set_setting(r.event.channel, PLACE, r.event.place)
        return created

    def game_of(self, session: Session) -> Game[Any, Any]:
        return self.games[session.game]

    def ai_seat(self, seat: int, level: str, tr: Translator) -> Seat:
        """A seat for a bot, named in the channel's language."""
        return Seat(seat, None, tr(msg("host.ai_name", level=level)), ai_level=level)


@dataclass
class Request:
    """One command being answered: who, where, what, and the channel's active session.

    The command table says what a command needs; the dispatcher checks it (`need`) before
    the handler runs, so a handler reads `active` and `seat` without checking again."""

    event: Event
    command: Command
    tr: Translator  # the channel's language: what everyone sees
    reader: Translator  # the acting person's language: what only they see
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


def bot_to_move(game: Game[Any, Any], session: Session) -> bool:
    """Whether a bot is to move in `session` now (work for background play); a watched game's
    bot moves when its deadline comes, so only then."""
    if session.status != SessionStatus.PLAYING or (session.watched and session.deadline is not None):
        return False
    seat = game.to_move(game.from_json(session.state))
    return seat is not None and session.seats[seat].played_by_ai


def game_words(games: dict[str, Game[Any, Any]]) -> dict[str, str]:
    """The words that name each game: its name, its aliases, and its title in each language
    when that is one word (五子棋, 斗地主): `/五子棋 人机` works like `/gomoku solo`."""
    words: dict[str, str] = {}
    for name, game in games.items():
        titles = (title_word(game, language) for language in LANGUAGES)
        for word in (name, *game.aliases, *(w for w in titles if w)):
            words.setdefault(word, name)
    return words


def title_word(game: Game[Any, Any], language: str) -> str | None:
    """`game`'s title in `language` if it is one word that may be typed as a command (五子棋)."""
    word = translator(language)(title(game)).lower()
    return word if WORD.fullmatch(word) else None


def notice(user: User, tr: Translator, message: Msg) -> Reply:
    """An answer for the acting person, in their language, with nothing secret in it (a platform
    that cannot show it to them alone may show it in the channel)."""
    return Reply(tr(message), language=tr.language, names={user.id: user.name}, audience=NotSecret(user.id))


def secret(user: User, tr: Translator, message: Msg) -> Reply:
    """An answer only the acting person may ever see (a hint, what they hold), in their language."""
    return Reply(tr(message), language=tr.language, names={user.id: user.name}, audience=Private(user.id))


def in_language(replies: list[Reply], tr: Translator) -> list[Reply]:
    """`replies`, those not in a reader's own language marked as in the channel's (`tr`)."""
    return [r if r.language else replace(r, language=tr.language) for r in replies]


def title(game: Game[Any, Any]) -> Msg:
    return msg(f"{game.name}.title")


def vs(session: Session, tr: Translator) -> str:
    """The players, "alice vs bob"."""
    return tr(msg("host.versus")).join(s.name for s in session.seats)


def points(value: float) -> str:
    return f"{value:+g}"
