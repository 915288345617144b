"""The host: commands in, replies out. It knows no game's rules, only the contract.

`Host` is the façade the adapters and tests use: `handle` answers one event,
`attach` says where unasked-for replies go, `start`/`stop`/`idle` run background
play, and a few read-only questions serve the platforms. Behind it, each concern
has its module: `command_table` (the commands), `lobby`, `play`, `offers`, `info`,
`replies`, `autoplay` (bots and timers); `core` holds what they share.

Every command runs under its channel's lock: load the session, check what the
command table says it needs, run the handler (which commits), answer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import engines
from bot import clean, command_table, info, metrics, play, rating_store
from bot.ai import AIRunner
from bot.autoplay import LEASE, Autoplay
from bot.core import Core, Request, in_language, notice, secret, title
from bot.i18n import Translator, translator
from bot.languages import CHANNEL_KEY, Languages
from bot.model import Event, Reply
from bot.outbox import Outbox, Publish, Settled, public
from bot.parser import Command, ParseError
from bot.pictures import Pictures
from bot.replies import board, lobby
from bot.session import ChannelBusy, Conflict, Outgoing, Session, SessionStatus
from bot.storage import Storage, StorageUnavailable
from bot.tournament.runner import OpenPlace, Tournaments
from engines.base import JSON, Game, Msg, OpenRefusal, Refusal, msg
from render import draw as draw_picture
from render.base import RenderContext

log = logging.getLogger(__name__)

Deliver = Callable[[str, list[Reply]], Awaitable[None]]
Respond = Callable[[list[Reply]], Awaitable[None]]
BUTTON = re.compile(r"(\d{1,18})\.(\d{1,18}|\*)\.(.{1,60})")
HOST_WORDS = ("host.", "ratings.", "commands.")  # the host's own catalogs: no game's words


class Play(NamedTuple):
    """A legal move: as it is typed (the game's notation), and as its player reads it."""

    text: str
    name: str


@dataclass(frozen=True)
class HiddenHand:
    session: int
    version: int
    channel: str
    lines: list[str]  # the hand, as the game writes it in text
    plays: list[Play]  # the legal moves now (empty when not their turn)


class Notes:
    """What one platform's adapter keeps about a channel across restarts (its board message id,
    messages to tidy): JSON values under `<platform>.<key>`. Adapters touch nothing else of the store."""

    def __init__(self, store: Storage, platform: str) -> None:
        self._store, self._platform = store, platform
        # Other processes write notes too: what an adapter keeps in memory may be stale.
        self.shared = store.shared

    async def get(self, channel: str, key: str) -> JSON:
        saved = await self._store.setting(channel, f"{self._platform}.{key}")
        return None if saved is None else json.loads(saved)

    async def put(self, channel: str, key: str, value: JSON) -> None:
        await self._store.set_setting(channel, f"{self._platform}.{key}", json.dumps(value))


class Host:
    def __init__(
        self,
        store: Storage,
        ai: AIRunner,
        *,
        clock: Callable[[], float] = time.time,
        turn_seconds: int = 300,
        lobby_seconds: int = 900,
        language: str = "en",
        bot_name: str | None = None,
        draw: Callable[[str, Any, RenderContext], bytes] = draw_picture,
        pictures: Pictures | None = None,
        lease_seconds: float = LEASE,
    ) -> None:
        """`pictures`: where pictures are drawn (production: `Pictures()`, a worker process per
        CPU); None: with `draw` in threads of this process (tests)."""
        self.store = store
        self.bot_name = bot_name
        self._outboxes: dict[str, Deliver] = {}
        self.tr = translator(language)  # the default language: of channels that chose none
        self.languages = Languages(store, language)
        self.games = engines.all_games()
        pictures = pictures if pictures is not None else Pictures(0, draw)
        self.core = Core(store, ai, self.games, self.languages, pictures, clock, turn_seconds, lobby_seconds)
        self.words = self.core.game_words
        self.vocabulary = command_table.vocabulary(self.games.values())  # every command word, the games' too
        self.autoplay = Autoplay(self.core, self._deliver, lease_seconds, platforms=self._outboxes.keys)
        self.core.changed = self.autoplay.changed
        # What each commit owes its channel, sent at least once (the platforms that publish through it).
        self.outbox = Outbox(store, clock, self.autoplay.owner, lease_seconds, self._regenerate, self.core.lock)
        self.core.owed = self.outbox
        # Re-rating after links change, in small steps in the background.
        self.rerater = rating_store.Rerater(store, self.autoplay.owner, lease_seconds, self.autoplay.poll)
        self.core.rerate = self.rerater.wake
        self.tournaments = Tournaments(self.core, self._deliver, self.autoplay.owner, lease_seconds,
                                       self.autoplay.poll, self._outboxes.keys)
        self.core.events_changed = self.tournaments.wake
        self.core.changed = self._changed

    @property
    def ai(self) -> AIRunner:
        """The AI workers (the handlers reach them through the core)."""
        return self.core.ai

    @ai.setter
    def ai(self, runner: AIRunner) -> None:
        self.core.ai = runner

    @property
    def pictures(self) -> Pictures:
        """Where the pictures are drawn (closed by whoever made them, as the AI's workers are)."""
        return self.core.pictures

    def _changed(self, session: Session) -> None:
        self.autoplay.changed(session)
        self.tournaments.changed(session)

    # --- life cycle ---------------------------------------------------------------
    def attach(self, platform: str, deliver: Deliver, publish: Publish | None = None,
               open_place: OpenPlace | None = None) -> None:
        """Where replies nobody asked for right now (AI moves, timeouts) go, by channel prefix.
        This process takes on timers and bots' turns in the channels of the platforms attached.
        `publish`: how the platform shows a public reply, raising when it refuses it; given, what
        commits owe that platform's channels goes through the outbox (`bot.outbox`). `open_place`:
        how the platform opens a place of its own for a tournament's game (a thread, a topic)."""
        self._outboxes[platform] = deliver
        if open_place is not None:
            self.tournaments.places[platform] = open_place
        if publish is not None:
            self.outbox.publishers[platform] = publish
            self.outbox.wake()
        self.autoplay.wake()

    async def start(self) -> None:
        """Resume: every AI turn that was pending, and the timers."""
        self.autoplay.spawn(self.ai.warm_up())  # at once: the workers start while the rest catches up
        self.autoplay.spawn(self.pictures.warm_up())
        await rating_store.catch_up(self.store)  # games whose rating failed when they ended (logged then)
        self.outbox.start()  # first: what a stopped process still owed the channels
        await self.autoplay.start()
        self.rerater.start()  # and any re-rating a stopped process left half done
        self.tournaments.start()  # and the tournaments running

    async def stop(self) -> None:
        await self.tournaments.stop()
        await self.rerater.stop()
        await self.autoplay.stop()
        await self.outbox.stop()

    async def idle(self) -> None:
        """Wait until no AI is thinking and no rating is being rated again (tests and benchmarks use this)."""
        await asyncio.gather(self.autoplay.idle(), self.rerater.idle())

    async def expire_due(self) -> None:
        """Act on every session whose wait is over now (the timer loop does this by itself)."""
        await self.autoplay.expire_due()

    def notes(self, platform: str) -> Notes:
        return Notes(self.store, platform)

    # --- what adapters may ask, read-only ------------------------------------------------
    def knows(self, word: str) -> bool:
        """Whether `word` is a command word of the host or of any game."""
        word = clean.text(word).lower()
        word = self.vocabulary.commands.get(word, word)
        return command_table.known(word, self.words) or any(_its_word(g, word) for g in self.games.values())

    def command_name(self, word: str) -> str | None:
        """The command `word` names as the table spells it (认输 -> resign), None if none."""
        word = clean.text(word).lower()
        return self.vocabulary.commands.get(word, word) if self.knows(word) else None

    def parse(self, text: str) -> Command | ParseError | None:
        """How the host reads `text` (None: not a command)."""
        return command_table.parse(clean.text(text), self.words, self.bot_name, self.vocabulary.commands)

    async def has_game(self, channel: str) -> bool:
        """Whether `channel` has a table open or a game going on."""
        return await self.store.active(channel) is not None

    async def legal_moves(self, channel: str, user_id: str) -> list[str]:
        """The moves `user_id` may type now in `channel` (empty when it is not their turn)."""
        return [play.text for play in await self.plays(channel, user_id, named=False)]

    async def plays(self, channel: str, user_id: str, locale: str | None = None, named: bool = True) -> list[Play]:
        """The moves `user_id` may make now in `channel`, named in their language (`locale`'s if
        given; with `named` only: else as typed); empty when it is not their turn."""
        session = await self.store.active(channel)
        seat = session.seat_of(user_id) if session is not None and session.status == SessionStatus.PLAYING else None
        if session is None or seat is None:
            return []
        game = self.games[session.game]
        tr = await self.reader(user_id, locale, channel) if named else None
        return await asyncio.to_thread(lambda: _plays(game, game.from_json(session.state), seat.seat, tr))

    async def hidden_hand(self, user_id: str, platform: str, locale: str | None = None) -> HiddenHand | None:
        """`user_id`'s hand in their most recently active hidden-hand game on `platform`:
        what only they may see (in their language: `locale`'s if given), and their legal moves."""
        found = [s for s in await self.store.active_sessions()
                 if s.channel.startswith(f"{platform}:") and s.status == SessionStatus.PLAYING
                 and s.seat_of(user_id) is not None and self.games[s.game].hidden_hands]
        if not found:
            return None
        session = max(found, key=lambda s: s.updated_at)
        game = self.games[session.game]
        state = game.from_json(session.state)
        seat = session.seat_of(user_id).seat  # type: ignore[union-attr]
        tr = await self.reader(user_id, locale, session.channel)
        return HiddenHand(session.id or 0, session.version, session.channel, game.private_lines(state, seat, tr),
                          _plays(game, state, seat, tr))

    async def translator(self, channel: str) -> Translator:
        """The language of `channel`'s public messages and pictures."""
        return await self.languages.channel(channel)

    async def reader(self, user_id: str, locale: str | None = None, channel: str | None = None) -> Translator:
        """The language of what only `user_id` sees: `locale`'s when it names one of ours, else
        the one they last came with, else `channel`'s (else the host's)."""
        return await self.languages.reader(user_id, locale, channel)

    async def _reader(self, event: Event) -> Translator:
        """The acting person's translator (their locale's, or as the store remembers them)."""
        try:
            return await self.languages.reader(event.user.id, event.locale, event.channel)
        except StorageUnavailable:
            return self.languages.spoken(event)

    async def ai_to_move(self, session_id: int) -> bool:
        """Whether a bot is to move in that session (adapters show "typing…")."""
        session = await self.store.get(session_id)
        if session is None or session.status != SessionStatus.PLAYING:
            return False
        game = self.games[session.game]
        seat = game.to_move(game.from_json(session.state))
        return seat is not None and session.seats[seat].played_by_ai

    async def move_channel(self, old: str, new: str) -> None:
        """A chat got a new id (a Telegram group became a supergroup): its games and settings follow it."""
        first, second = sorted((old, new))  # in one order everywhere: no two processes wait for each other
        async with self.core.lock(first), self.core.lock(second):
            await self.store.move_channel(old, new)

    # --- the entry point ------------------------------------------------------------
    @metrics.timed
    async def handle(self, event: Event, respond: Respond | None = None) -> list[Reply]:
        """Answer one event. `respond` gets the replies before the channel is unlocked,
        so they reach the platform before anything that follows (an AI's move)."""
        event = clean.event(event)  # the one place user text enters: names and words cleaned
        button = None
        text = event.text
        if event.button is not None:
            button = _read_button(event.button)
            if button is None:
                unknown = notice(event.user, await self._reader(event), msg("host.button_unknown"))
                return await _respond(respond, [unknown])
            text = clean.text("/" + button[2])
        command = self.parse(text)
        if command is None:
            return []
        if isinstance(command, ParseError):
            refused = notice(event.user, await self._reader(event), clean.quoting(command.reason, text))
            return await _respond(respond, [refused])
        await self._prepare(event.channel, command)
        async with self.core.locks[event.channel], self.outbox.collect():
            try:
                async with self.store.exclusive(event.channel):  # and no other process in this channel
                    replies = await self._run(event, command, button, text)
                    await self._answer(event, replies, respond)
            except StorageUnavailable as error:
                log.warning("storage unavailable in %s: %s", event.channel, error)
                tr = self.languages.spoken(event)  # asking the store for languages would fail too
                replies = in_language([notice(event.user, tr, msg("host.storage_unavailable"))], tr)
                await _respond(respond, replies)
        return replies

    async def _prepare(self, channel: str, command: Command) -> None:
        """The command's slow work that needs no lock (`Spec.prepare`); what fails here is met again,
        and answered, by the command itself."""
        spec = command_table.HOST_COMMANDS.get(command.name) if command.game is None else None
        if spec is None or spec.prepare is None:
            return
        try:
            await spec.prepare(self.core, channel, command.args)
        except Exception:
            log.debug("preparing /%s in %s failed; the command meets it again", command.name, channel, exc_info=True)

    async def _run(self, event: Event, command: Command, button: tuple[int, str, str] | None,
                   text: str) -> list[Reply]:
        """The replies to `command`, under the channel's lock."""
        reader = tr = self.languages.spoken(event)
        session = None
        try:
            # One read: the session and the channel's settings (its language), no cache to keep fresh.
            session, settings = await self.store.enter(event.channel)
            tr, reader = await self.languages.arrived(event, settings.get(CHANNEL_KEY))
            # A finished game's buttons (Rematch) belong to the channel's latest session.
            pressed_on = session or (await self.store.latest(event.channel) if button is not None else None)
            if button is not None and not _button_fresh(button, pressed_on):
                replies = [notice(event.user, reader, msg("host.button_stale"))]
            else:
                replies = await self._dispatch(Request(event, command, tr, reader, session))
        except Refusal as refusal:
            told = secret if self._may_tell_hidden(refusal, session, event.user.id) else notice
            replies = [told(event.user, reader, clean.quoting(refusal.msg, text))]
        except ChannelBusy:
            replies = [notice(event.user, reader, msg("host.channel_busy"))]
        except Conflict:
            replies = [notice(event.user, reader, msg("host.try_again"))]
        return in_language(replies, tr)

    def _may_tell_hidden(self, refusal: Refusal, session: Session | None, user_id: str) -> bool:
        """Whether `refusal` may tell what `user_id` holds ("You have no second 7": then it is for them
        alone): they hold hidden cards in `session`, and the refusal is the game's, unless the game
        says it tells nothing (`OpenRefusal`). What the host says in its own words ("It is Alice's
        turn", "You do not play here") cannot: the host knows no game's rules and reads no hand."""
        holds = (session is not None and session.status == SessionStatus.PLAYING
                 and self.games[session.game].hidden_hands and session.seat_of(user_id) is not None)
        return holds and not isinstance(refusal, OpenRefusal) and not _host_words(refusal.msg)

    async def _dispatch(self, r: Request) -> list[Reply]:
        """Find the command in the table (or among the channel's game's words) and run it."""
        name = r.command.name
        spec = (command_table.GAME_ACTIONS if r.command.game is not None else command_table.HOST_COMMANDS).get(name)
        if spec is not None:
            r.need(spec.status, spec.seat)
            return await spec.run(self.core, r)
        session = r.session
        if session is not None and session.status.active:
            game = self.games[session.game]
            if session.status == SessionStatus.LOBBY and _its_word(game, name):
                raise Refusal("host.not_started")  # its game's word, before the game
            if name in game.move_words:
                r.need(SessionStatus.PLAYING, seat=True)
                return await play.play(self.core, r, " ".join([game.move_words[name], *r.command.args]).strip())
            if name in game.queries:
                return await info.query(self.core, r, name)
        if any(_its_word(g, name) for g in self.games.values()):
            raise Refusal("host.no_game" if session is None else "host.not_now", command=r.command.word)
        raise Refusal("host.unknown_command", command=r.command.word)

    async def _answer(self, event: Event, replies: list[Reply], respond: Respond | None) -> None:
        """What the channel is owed after the command's commits goes through the outbox, after the
        rest goes to `respond` (which acknowledges the command: a button's spinner stops); when it
        committed nothing, everything to `respond`. When the platform will not let the bot post in
        the channel at all, the person who acted is told, to them alone (their move stands)."""
        if not self.outbox.owing():
            await _respond(respond, replies)
            return
        await _respond(respond, [r for r in replies if not public(r)])
        if await self.outbox.settle(event.channel, [r for r in replies if public(r)]) is Settled.REFUSED:
            tr = await self._reader(event)
            await _respond(respond, in_language([secret(event.user, tr, msg("host.cannot_post"))], tr))

    async def _regenerate(self, row: Outgoing) -> list[Reply]:
        """An outbox row without its replies: the session as it is now."""
        session = await self.store.get(row.session_id) if row.session_id is not None else None
        if session is None:
            return []
        tr = await self.languages.channel(session.channel)
        if session.state is not None:
            said = await board(self.core, session, tr, [])
        elif session.status == SessionStatus.LOBBY:
            starter = session.seats[0].name if session.seats else ""
            game = title(self.games[session.game])
            said = lobby(session, tr, msg("host.table_opened", name=starter, game=game))
        else:
            return []
        return in_language([said], tr)

    async def _deliver(self, channel: str, replies: list[Reply]) -> None:
        if await self.outbox.settle(channel, [r for r in replies if public(r)]) is not Settled.NOTHING:
            replies = [r for r in replies if not public(r)]
            if not replies:
                return
        deliver = self._outboxes.get(channel.partition(":")[0])
        if deliver is None:
            log.warning("no adapter for %s; dropped %d replies", channel, len(replies))
            return
        try:
            await deliver(channel, replies)
        except Exception:
            log.exception("delivering to %s failed", channel)


async def _respond(respond: Respond | None, replies: list[Reply]) -> list[Reply]:
    if respond is not None:
        await respond(replies)
    return replies


def _plays(game: Game[Any, Any], state: Any, seat: int, tr: Translator | None) -> list[Play]:
    """`seat`'s legal moves in `state`, named by `tr` (None: as typed)."""
    moves = [(game.move_text(state, m), game.move_name(state, m)) for m in game.legal_moves(state, seat)]
    return [Play(text, tr(name) if tr is not None else text) for text, name in moves]


def _host_words(message: Msg) -> bool:
    """Whether `message`, and every message in it, is in the host's own words."""
    inner = [v for value in message.params.values() for v in (value if isinstance(value, list | tuple) else [value])]
    return message.key.startswith(HOST_WORDS) and all(_host_words(v) for v in inner if isinstance(v, Msg))


def _its_word(game: Game[Any, Any], word: str) -> bool:
    """Whether `word` is one of `game`'s own words: a move word (`take`) or a query (`moves`)."""
    return word in game.move_words or word in game.queries


def _read_button(button_id: str) -> tuple[int, str, str] | None:
    """'12.7.accept' -> (session 12, version '7', 'accept'); version '*' means any."""
    m = BUTTON.fullmatch(button_id)
    return (int(m[1]), m[2], m[3]) if m else None


def _button_fresh(button: tuple[int, str, str], session: Session | None) -> bool:
    """A button works on the session it was made for; a strict one (a move, an answer to an
    offer) only while that session is at the version it was made at."""
    session_id, version, command = button
    if session_id == 0:  # a button of no session (a leaderboard's pages)
        return command.split(" ")[0] in command_table.FREE_BUTTONS
    if session is None or session.id != session_id:
        return False
    return version == "*" or int(version) == session.version
