"""The host: commands in, replies out. It knows no game's rules, only the contract.

One session per channel goes lobby -> playing -> finished (or cancelled). Every
command runs under its channel's lock: load the session, check who may act,
apply, commit, draw, answer. AI turns and timers run as tasks that take the same
lock, so moves in one channel apply one at a time, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import engines
from bot.ai import AIRunner
from bot.commands import HOST_COMMANDS, Command, ParseError, parse
from bot.i18n import Translator, t
from bot.model import Button, Event, Reply, User
from bot.store import Change, ChannelBusy, Conflict, MoveRow, Result, Seat, Session, Store
from engines.base import Game, Msg, Outcome, Refusal
from render import draw
from render.base import RenderContext

log = logging.getLogger(__name__)

Deliver = Callable[[str, list[Reply]], Awaitable[None]]
Respond = Callable[[list[Reply]], Awaitable[None]]


@dataclass(frozen=True)
class HiddenHand:
    session: int
    version: int
    channel: str
    lines: list[str]  # the hand, as the game writes it in text
    plays: list[str]  # the legal moves now, as they are typed (empty when not their turn)


@dataclass
class Request:
    event: Event
    command: Command
    tr: Translator
    session: Session | None

    @property
    def user(self) -> User:
        return self.event.user


class Host:
    def __init__(
        self,
        store: Store,
        ai: AIRunner,
        *,
        clock: Callable[[], float] = time.time,
        turn_seconds: int = 300,
        lobby_seconds: int = 900,
        language: str = "en",
        bot_name: str | None = None,
        draw: Callable[[str, Any, RenderContext], bytes] = draw,
    ) -> None:
        self.store = store
        self.draw = draw
        self.ai = ai
        self.clock = clock
        self.turn_seconds = turn_seconds
        self.lobby_seconds = lobby_seconds
        self.bot_name = bot_name
        self.tr = Translator(language)
        self.games: dict[str, Game] = engines.all_games()
        self.words = {word: name for name, g in self.games.items() for word in (name, *g.aliases)}
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._outboxes: dict[str, Deliver] = {}
        self._thinking: dict[int, asyncio.Task[None]] = {}  # session id -> its AI task
        self._recheck: set[int] = set()  # sessions whose AI task must look again before it ends
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = asyncio.Event()

    # --- life cycle ---------------------------------------------------------------
    def attach(self, platform: str, deliver: Deliver) -> None:
        """Where replies nobody asked for right now (AI moves, timeouts) go, by channel prefix."""
        self._outboxes[platform] = deliver

    async def start(self) -> None:
        """Resume: every AI turn that was pending, and the timers."""
        self._spawn(self.ai.warm_up())
        for session in await self.store.active_sessions():
            self._schedule_ai(session)
        self._spawn(self._timer_loop())

    async def stop(self) -> None:
        for task in [*self._tasks, *self._thinking.values()]:
            task.cancel()
        for task in [*self._tasks, *self._thinking.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until no AI is thinking (tests and benchmarks use this)."""
        while self._thinking:
            await asyncio.gather(*self._thinking.values(), return_exceptions=True)

    def knows(self, word: str) -> bool:
        """Whether `word` is a command word of the host or of any game."""
        word = word.lower()
        return word in HOST_COMMANDS or word in self.words or any(
            word in g.move_words or word in g.queries for g in self.games.values()
        )

    # --- what adapters may ask, read-only ------------------------------------------------
    async def legal_moves(self, channel: str, user_id: str) -> list[str]:
        """The moves `user_id` may type now in `channel` (empty when it is not their turn)."""
        session = await self.store.active(channel)
        seat = session.seat_of(user_id) if session is not None and session.status == "playing" else None
        if session is None or seat is None:
            return []
        game = self.games[session.game]

        def moves() -> list[str]:
            state = game.from_json(session.state)
            return [game.move_text(state, m) for m in game.legal_moves(state, seat.seat)]

        return await asyncio.to_thread(moves)

    async def hidden_hand(self, user_id: str, platform: str) -> HiddenHand | None:
        """`user_id`'s hand in their most recently active hidden-hand game on `platform`:
        the lines of their view the public does not see, and their legal moves."""
        found = [s for s in await self.store.active_sessions()
                 if s.channel.startswith(f"{platform}:") and s.status == "playing"
                 and s.seat_of(user_id) is not None and self.games[s.game].hidden_hands]  # fmt: skip
        if not found:
            return None
        session = max(found, key=lambda s: s.updated_at)
        game = self.games[session.game]
        state = game.from_json(session.state)
        seat = session.seat_of(user_id).seat  # type: ignore[union-attr]
        plays = [game.move_text(state, m) for m in game.legal_moves(state, seat)]
        return HiddenHand(session.id or 0, session.version, session.channel, game.private_lines(state, seat, self.tr),
                          plays)  # fmt: skip

    async def ai_to_move(self, session_id: int) -> bool:
        """Whether a bot is to move in that session (adapters show "typing…")."""
        session = await self.store.get(session_id)
        if session is None or session.status != "playing":
            return False
        game = self.games[session.game]
        seat = game.to_move(game.from_json(session.state))
        return seat is not None and session.seats[seat].played_by_ai

    async def move_channel(self, old: str, new: str) -> None:
        """A chat got a new id (a Telegram group became a supergroup): its games and settings follow it."""
        async with self._locks[old], self._locks[new]:
            await self.store.move_channel(old, new)

    # --- the entry point ------------------------------------------------------------
    async def handle(self, event: Event, respond: Respond | None = None) -> list[Reply]:
        """Answer one event. `respond` gets the replies before the channel is unlocked,
        so they reach the platform before anything that follows (an AI's move)."""
        tr = self.tr
        button = None
        text = event.text
        if event.button is not None:
            button = _read_button(event.button)
            if button is None:
                return await _respond(respond, [Reply(tr(t("host.button_unknown")), ephemeral=True)])
            text = "/" + button[2]
        command = parse(text, self.words, self.bot_name)
        if command is None:
            return []
        if isinstance(command, ParseError):
            return await _respond(respond, [Reply(tr(command.reason), ephemeral=True)])
        async with self._locks[event.channel]:
            session = await self.store.active(event.channel)
            # A finished game's buttons (Rematch) belong to the channel's latest session.
            pressed_on = session or (await self.store.latest(event.channel) if button is not None else None)
            if button is not None and not _button_fresh(button, pressed_on):
                replies = [Reply(tr(t("host.button_stale")), ephemeral=True)]
            else:
                request = Request(event, command, tr, session)
                try:
                    replies = await self._dispatch(request)
                except Refusal as refusal:
                    replies = [Reply(tr(refusal.msg), ephemeral=True)]
                except ChannelBusy:
                    replies = [Reply(tr(t("host.channel_busy")), ephemeral=True)]
                except Conflict:
                    replies = [Reply(tr(t("host.try_again")), ephemeral=True)]
            await _respond(respond, replies)
        return replies

    async def _dispatch(self, r: Request) -> list[Reply]:
        name = r.command.name
        if r.command.game is not None:
            return await getattr(self, f"_game_{name}")(r)
        handler = getattr(self, f"_cmd_{name}", None)
        if handler is not None:
            return await handler(r)
        session = r.session
        if session is not None and session.status == "playing":
            game = self.games[session.game]
            if name in game.move_words:
                return await self._move(r, " ".join([game.move_words[name], *r.command.args]).strip())
            if name in game.queries:
                return await self._query(r, name)
        if any(name in g.move_words or name in g.queries for g in self.games.values()):
            raise Refusal("host.no_game" if session is None else "host.not_now", command=r.command.word)
        raise Refusal("host.unknown_command", command=r.command.word)

    # --- opening a table --------------------------------------------------------------
    async def _game_start(self, r: Request) -> list[Reply]:
        game, args, turn_seconds = self._setup(r)
        setup = game.parse_options(args)
        seats = [Seat(0, r.user.id, r.user.name, r.user.handle)] + [Seat(i) for i in range(1, setup.seats)]
        session = await self._create(r, game, setup.options, seats, "lobby", turn_seconds)
        return [self._lobby_reply(session, t("host.table_opened", name=r.user.name, game=_title(game)))]

    async def _game_challenge(self, r: Request) -> list[Reply]:
        game, args, turn_seconds = self._setup(r)
        targets = [self._mentioned(r, token) for token in r.command.mentions]
        args = [a for a in args if a not in r.command.mentions]
        if not targets:
            raise Refusal("host.challenge_whom", game=game.name)
        if any(u.id == r.user.id for u in targets):
            raise Refusal("host.challenge_yourself")
        setup = game.parse_options(args)
        if len(targets) + 1 > setup.seats:
            raise Refusal("host.too_many_invited", count=setup.seats)
        seats = [Seat(0, r.user.id, r.user.name, r.user.handle)]
        for i in range(1, setup.seats):
            if i <= len(targets):
                u = targets[i - 1]
                user_id = None if u.id.startswith("@") else u.id
                seats.append(Seat(i, user_id, u.name, u.handle, accepted=False))
            else:
                seats.append(Seat(i))
        session = await self._create(r, game, setup.options, seats, "lobby", turn_seconds)
        names = ", ".join(s.name for s in seats if not s.accepted)
        return [self._lobby_reply(session, t("host.challenged", name=r.user.name, names=names, game=_title(game)))]

    async def _game_solo(self, r: Request) -> list[Reply]:
        game, args, turn_seconds = self._setup(r)
        level = next((a.lower() for a in args if a.lower() in game.levels), game.default_level)
        args = [a for a in args if a.lower() != level]
        setup = game.parse_options(args)
        seats = [Seat(0, r.user.id, r.user.name, r.user.handle)]
        seats += [self._ai_seat(i, level) for i in range(1, setup.seats)]
        session = await self._create(r, game, setup.options, seats, "lobby", turn_seconds)
        return await self._begin(session, r.tr)

    def _setup(self, r: Request) -> tuple[Game, list[str], int]:
        if r.session is not None:
            raise Refusal("host.channel_busy_with", game=_title(self.games[r.session.game]))
        game = self.games[r.command.game or ""]
        args, turn_seconds = [], self.turn_seconds
        for arg in r.command.args:
            if m := re.fullmatch(r"(?:timer|time)=(\d{1,5})([smh]?)", arg.lower()):
                turn_seconds = int(m[1]) * {"": 1, "s": 1, "m": 60, "h": 3600}[m[2]]
                if not 10 <= turn_seconds <= 7 * 24 * 3600:
                    raise Refusal("host.bad_timer")
            else:
                args.append(arg)
        return game, args, turn_seconds

    def _mentioned(self, r: Request, token: str) -> User:
        user = r.event.mentions.get(token)
        if user is not None:
            return user
        if token.startswith("@"):
            # Only a username is known (Telegram): the seat is matched by it on /accept.
            return User(token, token, token[1:])
        raise Refusal("host.who_is", token=token)

    def _ai_seat(self, seat: int, level: str) -> Seat:
        return Seat(seat, None, self.tr(t("host.ai_name", level=level)), ai_level=level)

    async def _create(
        self, r: Request, game: Game, options: dict[str, Any], seats: list[Seat], status: str, turn_seconds: int
    ) -> Session:
        now = self.clock()
        session = Session(
            channel=r.event.channel, game=game.name, status=status, options=options, seed=secrets.randbits(62),
            seats=seats, starter=r.user.id, turn_seconds=turn_seconds, created_at=now, updated_at=now,
            deadline=now + self.lobby_seconds,
        )  # fmt: skip
        return await self.store.create(session)

    # --- filling the table ------------------------------------------------------------
    async def _cmd_join(self, r: Request) -> list[Reply]:
        session = self._need(r, "lobby")
        if session.seat_of(r.user.id) is not None:
            raise Refusal("host.already_seated")
        if (reserved := self._reserved_for(session, r.user)) is not None:
            return await self._take_seat(r, session, reserved)
        seat = next((s for s in session.seats if s.is_open), None)
        if seat is None:
            waiting = [s.name for s in session.seats if not s.accepted]
            if waiting:
                raise Refusal("host.seats_reserved", names=", ".join(waiting))
            raise Refusal("host.table_full")
        return await self._take_seat(r, session, seat)

    async def _take_seat(self, r: Request, session: Session, seat: Seat) -> list[Reply]:
        seat.user_id, seat.name, seat.handle, seat.accepted = r.user.id, r.user.name, r.user.handle, True
        if self._ready(session):
            return await self._begin(session, r.tr, t("host.joined", name=r.user.name))
        session.updated_at = self.clock()
        await self.store.save(session)
        return [self._lobby_reply(session, t("host.joined", name=r.user.name))]

    async def _cmd_accept(self, r: Request) -> list[Reply]:
        session = r.session
        if session is not None and session.status == "lobby":
            seat = self._reserved_for(session, r.user)
            if seat is None:
                raise Refusal("host.not_invited")
            return await self._take_seat(r, session, seat)
        if session is not None and session.status == "playing" and session.offer:
            return await self._agree(r, session)
        raise Refusal("host.nothing_to_accept")

    async def _cmd_decline(self, r: Request) -> list[Reply]:
        session = r.session
        if session is not None and session.status == "lobby":
            if self._reserved_for(session, r.user) is None:
                raise Refusal("host.not_invited")
            session.status, session.deadline, session.updated_at = "cancelled", None, self.clock()
            await self.store.save(session)
            return [Reply(r.tr(t("host.declined", name=r.user.name)))]
        if session is not None and session.status == "playing" and session.offer:
            seat = self._seat(r, session)
            if seat.seat == session.offer["seat"]:
                raise Refusal("host.own_offer")
            session.offer, session.updated_at = None, self.clock()
            await self.store.save(session)
            return [Reply(r.tr(t("host.offer_refused", name=r.user.name)))]
        raise Refusal("host.nothing_to_decline")

    async def _cmd_go(self, r: Request) -> list[Reply]:
        session = self._need(r, "lobby")
        if r.user.id != session.starter and not r.user.moderator:
            raise Refusal("host.only_starter_go")
        waiting = [s.name for s in session.seats if not s.accepted]
        if waiting:
            raise Refusal("host.still_waiting", names=", ".join(waiting))
        game = self.games[session.game]
        for seat in session.seats:
            if seat.is_open:
                session.seats[seat.seat] = self._ai_seat(seat.seat, game.default_level)
        return await self._begin(session, r.tr)

    def _reserved_for(self, session: Session, user: User) -> Seat | None:
        for seat in session.seats:
            if seat.accepted:
                continue
            if seat.user_id == user.id or (
                seat.user_id is None and seat.handle and user.handle and seat.handle.lower() == user.handle.lower()
            ):
                return seat
        return None

    def _ready(self, session: Session) -> bool:
        return all(s.accepted and not s.is_open for s in session.seats)

    async def _begin(self, session: Session, tr: Translator, first: Msg | None = None) -> list[Reply]:
        game = self.games[session.game]
        state = game.new_state(session.options, len(session.seats), session.seed)
        session.state, session.status, session.ply, session.offer = game.to_json(state), "playing", 0, None
        self._set_deadline(session, state)
        session.updated_at = self.clock()
        await self.store.save(session)
        self._schedule_ai(session)
        lines = [first] if first else []
        lines.append(t("host.game_begins", game=_title(game), players=_vs(session)))
        return await self._board_replies(session, tr, lines, fresh=True)

    # --- moves ----------------------------------------------------------------------
    async def _cmd_move(self, r: Request) -> list[Reply]:
        if not r.command.args:
            raise Refusal("host.move_what")
        return await self._move(r, " ".join(r.command.args))

    async def _move(self, r: Request, text: str) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        game = self.games[session.game]
        state = game.from_json(session.state)
        to_move = game.to_move(state)
        if to_move != seat.seat:
            raise Refusal("host.turn_of", name=session.seats[to_move].name if to_move is not None else "")
        move = game.parse_move(state, seat.seat, text)
        if seat.away:  # moving again means coming back
            seat.away = False
        lines = await self._apply(session, seat.seat, move, by_ai=False)
        return await self._board_replies(session, r.tr, lines)

    async def _apply(self, session: Session, seat: int, move: Any, by_ai: bool) -> list[Msg]:
        """Apply and commit one move; returns what to announce."""
        game = self.games[session.game]
        state = game.from_json(session.state)
        new = game.apply(state, seat, move)
        now = self.clock()
        row = MoveRow(session.ply, seat, game.move_text(state, move), by_ai, session.state, now)
        said = game.describe(state, seat, move)
        lines = [replace(said, params={**said.params, "name": session.seats[seat].name})]
        session.state, session.ply, session.offer, session.updated_at = game.to_json(new), session.ply + 1, None, now
        change = Change(move=row)
        outcome = game.outcome(new)
        if outcome is not None:
            self._finish(session, outcome, change)
        else:
            self._set_deadline(session, new)
        await self.store.save(session, change)
        self._schedule_ai(session)
        return lines

    def _finish(self, session: Session, outcome: Outcome, change: Change) -> None:
        session.status, session.deadline, session.offer = "finished", None, None
        session.outcome = _outcome_json(outcome)
        results = []
        for seat in session.humans:
            result = "draw" if outcome.draw else "win" if outcome.ranks[seat.seat] == 1 else "loss"
            score = outcome.scores[seat.seat] if outcome.scores else None
            results.append(Result(seat.seat, seat.user_id or "", seat.name, outcome.ranks[seat.seat], result, score))
        change.results = results

    def _set_deadline(self, session: Session, state: Any) -> None:
        seat = self.games[session.game].to_move(state)
        waits_for_person = seat is not None and not session.seats[seat].played_by_ai
        session.deadline = self.clock() + session.turn_seconds if waits_for_person else None
        self._wake.set()

    async def _cmd_resign(self, r: Request) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        return await self._forfeit(session, seat.seat, t("host.resigned", name=seat.name), r.tr)

    async def _forfeit(self, session: Session, seat: int, reason: Msg, tr: Translator) -> list[Reply]:
        game = self.games[session.game]
        outcome = game.forfeit(game.from_json(session.state), len(session.seats), seat, reason)
        change = Change()
        session.updated_at = self.clock()
        self._finish(session, outcome, change)
        await self.store.save(session, change)
        return await self._board_replies(session, tr, [])

    # --- offers: undo, draw, restart -----------------------------------------------------
    async def _cmd_undo(self, r: Request) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        self._offerable(session, "undo")
        mine = [m for m in await self.store.moves(session.id or 0) if m.seat == seat.seat and not m.by_ai]
        if not mine:
            raise Refusal("host.nothing_to_undo")
        return await self._offer(r, session, seat, {"kind": "undo", "ply": mine[-1].ply})

    async def _cmd_draw(self, r: Request) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        self._offerable(session, "draw")
        if not self._others(session, seat):
            raise Refusal("host.ai_declines_draw")
        return await self._offer(r, session, seat, {"kind": "draw"})

    async def _cmd_restart(self, r: Request) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        self._offerable(session, "restart")
        return await self._offer(r, session, seat, {"kind": "restart"})

    def _offerable(self, session: Session, kind: str) -> None:
        if kind not in self.games[session.game].offers:
            raise Refusal(f"host.no_{kind}")
        if session.offer:
            raise Refusal("host.offer_pending")

    def _others(self, session: Session, seat: Seat) -> list[Seat]:
        """The people who must agree to an offer of `seat`."""
        return [s for s in session.humans if s.seat != seat.seat and not s.away]

    async def _offer(self, r: Request, session: Session, seat: Seat, offer: dict[str, Any]) -> list[Reply]:
        offer = {**offer, "seat": seat.seat, "agreed": []}
        others = self._others(session, seat)
        if not others:  # against the AI an undo or restart is immediate
            return await self._carry_out(session, offer, r.tr)
        session.offer, session.updated_at = offer, self.clock()
        await self.store.save(session)
        text = r.tr(t(f"host.offer_{offer['kind']}", name=seat.name, names=", ".join(s.name for s in others)))
        buttons = (self._button(session, "host.button_agree", "accept", strict=True),
                   self._button(session, "host.button_refuse", "decline", strict=True))  # fmt: skip
        return [Reply(text, buttons=buttons, mentions=tuple(s.user_id for s in others if s.user_id))]

    async def _agree(self, r: Request, session: Session) -> list[Reply]:
        seat = self._seat(r, session)
        offer = session.offer or {}
        if seat.seat == offer["seat"]:
            raise Refusal("host.own_offer")
        if seat.seat in offer["agreed"]:
            raise Refusal("host.already_agreed")
        offer["agreed"].append(seat.seat)
        waiting = [s for s in self._others(session, session.seats[offer["seat"]]) if s.seat not in offer["agreed"]]
        if waiting:
            session.updated_at = self.clock()
            await self.store.save(session)
            return [Reply(r.tr(t("host.agreed_waiting", name=seat.name, names=", ".join(s.name for s in waiting))))]
        return await self._carry_out(session, offer, r.tr)

    async def _carry_out(self, session: Session, offer: dict[str, Any], tr: Translator) -> list[Reply]:
        game = self.games[session.game]
        name = session.seats[offer["seat"]].name
        session.offer, session.updated_at = None, self.clock()
        if offer["kind"] == "draw":
            outcome = Outcome(tuple(1 for _ in session.seats), t("host.agreed_draw"))
            change = Change()
            self._finish(session, outcome, change)
            await self.store.save(session, change)
            return await self._board_replies(session, tr, [t("host.draw_agreed")])
        if offer["kind"] == "undo":
            moves = await self.store.moves(session.id or 0)
            target = next(m for m in moves if m.ply == offer["ply"])
            session.state, session.ply = target.state_before, target.ply
            said = t("host.undone", name=name, count=len(moves) - target.ply)
            change = Change(drop_moves_from=target.ply)
        else:
            session.seed = secrets.randbits(62)
            fresh = game.new_state(session.options, len(session.seats), session.seed)
            session.state, session.ply = game.to_json(fresh), 0
            change, said = Change(drop_moves_from=0), t("host.restarted")
        self._set_deadline(session, game.from_json(session.state))
        await self.store.save(session, change)
        self._schedule_ai(session)
        return await self._board_replies(session, tr, [said])

    # --- leaving, coming back, again ---------------------------------------------------
    async def _cmd_cancel(self, r: Request) -> list[Reply]:
        session = r.session
        if session is None:
            raise Refusal("host.no_game")
        if not r.user.moderator:
            if r.user.id != session.starter:
                raise Refusal("host.only_starter_cancel")
            if session.ply > 0:
                raise Refusal("host.cancel_after_moves")
        session.status, session.deadline, session.updated_at = "cancelled", None, self.clock()
        await self.store.save(session)
        return [Reply(r.tr(t("host.cancelled", name=r.user.name, game=_title(self.games[session.game]))))]

    async def _cmd_back(self, r: Request) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        if not seat.away:
            raise Refusal("host.not_away")
        seat.away = False
        game = self.games[session.game]
        self._set_deadline(session, game.from_json(session.state))
        session.updated_at = self.clock()
        await self.store.save(session)
        return await self._board_replies(session, r.tr, [t("host.is_back", name=seat.name)])

    async def _cmd_rematch(self, r: Request) -> list[Reply]:
        if r.session is not None:
            raise Refusal("host.channel_busy_with", game=_title(self.games[r.session.game]))
        last = await self.store.latest(r.event.channel)
        if last is None or last.status != "finished":
            raise Refusal("host.no_finished_game")
        if last.seat_of(r.user.id) is None:
            raise Refusal("host.rematch_players_only")
        n = len(last.seats)
        # Everyone moves one seat on, so the first move passes to the next player.
        seats = []
        for old in last.seats:
            seat = replace(old, seat=(old.seat + 1) % n, away=False)
            seat.accepted = seat.user_id is None or seat.user_id == r.user.id
            seats.append(seat)
        seats.sort(key=lambda s: s.seat)
        game = self.games[last.game]
        session = await self._create(r, game, last.options, seats, "lobby", last.turn_seconds)
        if self._ready(session):
            return await self._begin(session, r.tr, t("host.rematch", game=_title(game)))
        names = ", ".join(s.name for s in seats if not s.accepted)
        return [self._lobby_reply(session, t("host.rematch_offered", name=r.user.name, names=names))]

    # --- looking at things --------------------------------------------------------------
    async def _cmd_board(self, r: Request) -> list[Reply]:
        session = r.session or await self.store.latest(r.event.channel)
        if session is None:
            raise Refusal("host.no_game")
        if session.status == "lobby":
            return [self._lobby_reply(session, t("host.lobby_waiting"))]
        overlay = None
        game = self.games[session.game]
        if r.command.args:
            if "board" not in game.queries:
                raise Refusal("host.board_no_options")
            overlay = game.query(game.from_json(session.state), None, "board", list(r.command.args)).overlay
        return await self._board_replies(session, r.tr, [], overlay=overlay, private_hands=False)

    async def _query(self, r: Request, name: str) -> list[Reply]:
        session = self._need(r, "playing")
        game = self.games[session.game]
        seat = session.seat_of(r.user.id)
        answer = game.query(game.from_json(session.state), seat.seat if seat else None, name, list(r.command.args))
        return await self._board_replies(session, r.tr, [answer.text], overlay=answer.overlay, private_hands=False,
                                         buttons=False)  # fmt: skip

    async def _cmd_hand(self, r: Request) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        if not self.games[session.game].hidden_hands:
            raise Refusal("host.no_hand")
        return [await self._hand_reply(session, seat.seat, r.tr)]

    async def _cmd_hint(self, r: Request) -> list[Reply]:
        session = self._need(r, "playing")
        seat = self._seat(r, session)
        game = self.games[session.game]
        if game.hint_level is None:
            raise Refusal("host.no_hints_game")
        if await self.store.setting(session.channel, "hints") == "off":
            raise Refusal("host.hints_off")
        if game.to_move(game.from_json(session.state)) != seat.seat:
            raise Refusal("host.not_your_turn")
        text, _ = await self.ai.move(game.name, session.state, seat.seat, game.hint_level, _ai_seed(session) ^ 1)
        return [Reply(r.tr(t("host.hint", move=text)), ephemeral=True)]

    async def _cmd_hints(self, r: Request) -> list[Reply]:
        choice = (r.command.args[0].lower() if r.command.args else "")
        if choice not in ("on", "off"):
            raise Refusal("host.hints_usage")
        if r.session is not None and not r.user.moderator:
            raise Refusal("host.hints_during_game")
        await self.store.set_setting(r.event.channel, "hints", choice)
        return [Reply(r.tr(t(f"host.hints_now_{choice}")))]

    async def _cmd_record(self, r: Request) -> list[Reply]:
        session = r.session or await self.store.latest(r.event.channel)
        if session is None or session.status == "lobby":
            raise Refusal("host.no_game")
        game = self.games[session.game]
        moves = await self.store.moves(session.id or 0)
        header = r.tr(t("host.record_header", game=_title(game), players=_vs(session), count=len(moves)))
        body = " · ".join(f"{m.ply + 1}. {m.move}" for m in moves) or r.tr(t("host.record_empty"))
        return [Reply(f"{header}\n{body}")]

    async def _cmd_replay(self, r: Request) -> list[Reply]:
        """The position after move n of this channel's latest game, rebuilt from its record."""
        session = r.session or await self.store.latest(r.event.channel)
        if session is None or session.status == "lobby":
            raise Refusal("host.no_game")
        moves = await self.store.moves(session.id or 0)
        wanted = r.command.args[0] if r.command.args else str(len(moves))
        if not wanted.isdigit() or int(wanted) > len(moves):
            raise Refusal("host.replay_usage", count=len(moves))
        game = self.games[session.game]
        state = replay(game, session, moves[: int(wanted)])
        end = int(wanted) == len(moves)
        outcome = _outcome_from_json(session.outcome) if end else None
        to_move = None if end and session.status != "playing" else game.to_move(state)
        view = game.view(state, None)
        ctx = self._context(session, to_move, outcome, r.tr, None)
        image = await asyncio.to_thread(self.draw, game.name, view, ctx)
        last = moves[int(wanted) - 1].move if int(wanted) else "—"
        text = r.tr(t("host.replay", ply=int(wanted), count=len(moves), move=last))
        return [Reply(text, image=image, text_board=game.text(view, r.tr), session=session.id)]

    async def _cmd_stats(self, r: Request) -> list[Reply]:
        who = self._mentioned(r, r.command.mentions[0]) if r.command.mentions else r.user
        rows = await self.store.stats(who.id)
        if not rows:
            return [Reply(r.tr(t("host.stats_none", name=who.name)))]
        lines = [r.tr(t("host.stats_header", name=rows[0]["name"] or who.name))]
        for row in rows:
            key = "host.stats_line" if row["points"] is None else "host.stats_line_points"
            lines.append(r.tr(t(key, game=_title(self.games[row["game"]]), wins=row["wins"], losses=row["losses"],
                                draws=row["draws"], points=_points(row["points"] or 0))))  # fmt: skip
        return [Reply("\n".join(lines))]

    async def _game_leaderboard(self, r: Request) -> list[Reply]:
        return await self._leaderboard(r, r.command.game)

    async def _cmd_leaderboard(self, r: Request) -> list[Reply]:
        game = None
        if r.command.args:
            game = self.words.get(r.command.args[0].lower())
            if game is None:
                raise Refusal("host.no_such_game", name=r.command.args[0], games=self._game_list())
        return await self._leaderboard(r, game)

    async def _leaderboard(self, r: Request, game: str | None) -> list[Reply]:
        rows = await self.store.leaderboard(game)
        title = _title(self.games[game]) if game else t("host.all_games")
        if not rows:
            return [Reply(r.tr(t("host.leaderboard_empty", game=title)))]
        lines = [r.tr(t("host.leaderboard_header", game=title))]
        for i, row in enumerate(rows, 1):
            lines.append(r.tr(t("host.leaderboard_line", rank=i, name=row["name"], wins=row["wins"],
                                losses=row["losses"], draws=row["draws"])))  # fmt: skip
        return [Reply("\n".join(lines))]

    async def _cmd_help(self, r: Request) -> list[Reply]:
        return [Reply(r.tr(t("host.help", games=self._game_list())))]

    async def _cmd_games(self, r: Request) -> list[Reply]:
        return [Reply(r.tr(t("host.games", games=self._game_list())))]

    async def _cmd_rules(self, r: Request) -> list[Reply]:
        name = r.command.game
        if name is None and r.command.args:
            name = self.words.get(r.command.args[0].lower())
            if name is None:
                raise Refusal("host.no_such_game", name=r.command.args[0], games=self._game_list())
        if name is None and r.session is not None:
            name = r.session.game
        if name is None:
            return [Reply(r.tr(t("host.rules_which", games=self._game_list())))]
        return [Reply(r.tr(t(f"{name}.rules")))]

    _game_rules = _cmd_rules

    def _game_list(self) -> str:
        return " · ".join(f"/{name} {self.tr(_title(g))}" for name, g in self.games.items())

    # --- who may act --------------------------------------------------------------------
    def _need(self, r: Request, status: str) -> Session:
        session = r.session
        if session is None:
            raise Refusal("host.no_game")
        if session.status != status:
            raise Refusal("host.not_started" if session.status == "lobby" else "host.already_started")
        return session

    def _seat(self, r: Request, session: Session) -> Seat:
        seat = session.seat_of(r.user.id)
        if seat is None:
            raise Refusal("host.not_a_player")
        return seat

    # --- replies ----------------------------------------------------------------------
    def _button(self, session: Session, label: str, command: str, strict: bool = False, **params: Any) -> Button:
        version = session.version if strict else "*"
        return Button(self.tr(t(label, **params)), f"{session.id}.{version}.{command}", "/" + command)

    def _lobby_reply(self, session: Session, said: Msg) -> Reply:
        waiting = [s for s in session.seats if not s.accepted]
        open_seats = sum(s.is_open for s in session.seats)
        lines = [self.tr(said), self.tr(t("host.seats", players=", ".join(
            s.name if not s.is_open else self.tr(t("host.open_seat")) for s in session.seats)))]  # fmt: skip
        buttons: list[Button] = []
        mentions: tuple[str, ...] = ()
        if waiting:
            lines.append(self.tr(t("host.waiting_accept", names=", ".join(s.name for s in waiting))))
            buttons += [self._button(session, "host.button_accept", "accept"),
                        self._button(session, "host.button_decline", "decline")]  # fmt: skip
            mentions = tuple(s.user_id for s in waiting if s.user_id)
        if open_seats:
            lines.append(self.tr(t("host.how_to_join", count=open_seats)))
            buttons.append(self._button(session, "host.button_join", "join"))
            if len(session.seats) > 2:
                lines.append(self.tr(t("host.how_to_go")))
                buttons.append(self._button(session, "host.button_go", "go"))
        return Reply("\n".join(lines), buttons=tuple(buttons), mentions=mentions, session=session.id)

    async def _board_replies(
        self,
        session: Session,
        tr: Translator,
        lines: Iterable[Msg],
        *,
        overlay: Any = None,
        fresh: bool = False,
        private_hands: bool = True,
        buttons: bool = True,
    ) -> list[Reply]:
        """The public board with what just happened, and for hidden-hand games the hands
        of the people concerned (the one who moved and the one to move), privately."""
        game = self.games[session.game]
        state = game.from_json(session.state)
        to_move = game.to_move(state) if session.status == "playing" else None
        outcome = _outcome_from_json(session.outcome)
        text = [tr(line) for line in lines]
        if outcome is not None:
            if outcome.winners:
                names = ", ".join(session.seats[s].name for s in outcome.winners)
                text.append("🏆 " + tr(t("host.result_line_win", count=len(outcome.winners), names=names,
                                        reason=outcome.reason)))  # fmt: skip
            else:
                text.append(tr(t("host.result_line_draw", reason=outcome.reason)))
            if outcome.scores:
                text.append(tr(t("host.scores", scores=", ".join(
                    f"{s.name} {_points(outcome.scores[s.seat])}" for s in session.seats))))  # fmt: skip
        elif session.status == "cancelled":
            text.append(tr(t("host.game_cancelled")))
        elif to_move is not None:
            seat = session.seats[to_move]
            key = "host.ai_thinking" if seat.played_by_ai else "host.your_move"
            text.append(tr(t(key, name=seat.name)))
        view = game.view(state, None)
        ctx = self._context(session, to_move, outcome, tr, overlay)
        image = await asyncio.to_thread(self.draw, game.name, view, ctx)
        mentions = ()
        if to_move is not None and session.seats[to_move].user_id and not session.seats[to_move].played_by_ai:
            mentions = (session.seats[to_move].user_id,)
        board = Reply(
            "\n".join(text), image=image, board=True, text_board=game.text(view, tr), session=session.id,
            buttons=self._board_buttons(session, game, state, to_move) if buttons else (), mentions=mentions,
        )  # fmt: skip
        replies = [board]
        if game.hidden_hands and private_hands and session.status == "playing":
            moves = await self.store.moves(session.id or 0)
            concerned = {moves[-1].seat} if moves and not fresh else {s.seat for s in session.seats}
            if to_move is not None:
                concerned.add(to_move)
            for seat in sorted(concerned):
                if session.seats[seat].user_id and not session.seats[seat].played_by_ai:
                    replies.append(await self._hand_reply(session, seat, tr))
        return replies

    def _board_buttons(self, session: Session, game: Game, state: Any, to_move: int | None) -> tuple[Button, ...]:
        if session.status == "finished":
            return (self._button(session, "host.button_rematch", "rematch"),)
        if session.status != "playing":
            return ()
        buttons = []
        if to_move is not None and not session.seats[to_move].played_by_ai:
            for label, move in game.quick_moves(state, to_move):
                buttons.append(Button(self.tr(label), f"{session.id}.{session.version}.move {move}", f"/move {move}"))
            if game.hint_level is not None:
                buttons.append(self._button(session, "host.button_hint", "hint"))
        if game.hidden_hands:
            buttons.append(self._button(session, "host.button_hand", "hand"))
        return tuple(b for b in buttons if len(b.id.encode()) <= 64)

    async def _hand_reply(self, session: Session, seat: int, tr: Translator) -> Reply:
        game = self.games[session.game]
        state = game.from_json(session.state)
        to_move = game.to_move(state)
        view = game.view(state, seat)
        ctx = self._context(session, to_move, None, tr, None, viewer=seat)
        image = await asyncio.to_thread(self.draw, game.name, view, ctx)
        text = tr(t("host.your_hand", name=session.seats[seat].name))
        user = session.seats[seat].user_id
        return Reply(text, image=image, image_name="hand.png", to=user, text_board=game.text(view, tr),
                     session=session.id)  # fmt: skip

    def _context(
        self, session: Session, to_move: int | None, outcome: Outcome | None, tr: Translator, overlay: Any,
        viewer: int | None = None,
    ) -> RenderContext:  # fmt: skip
        return RenderContext(
            names=tuple(s.name for s in session.seats), to_move=to_move, outcome=outcome, tr=tr, viewer=viewer,
            overlay=overlay, ai_seats=frozenset(s.seat for s in session.seats if s.played_by_ai),
        )  # fmt: skip

    # --- the AI's turns -------------------------------------------------------------------
    def _schedule_ai(self, session: Session) -> None:
        """Start the AI if it is to move. One task per session plays all AI turns in a row."""
        if session.status != "playing":
            return
        game = self.games[session.game]
        to_move = game.to_move(game.from_json(session.state))
        if to_move is None or not session.seats[to_move].played_by_ai:
            return
        session_id = session.id or 0
        if session_id in self._thinking:
            self._recheck.add(session_id)  # the running task looks again before it ends
            return
        self._thinking[session_id] = asyncio.ensure_future(self._ai_turns(session_id))

    async def _reschedule(self, session_id: int) -> None:
        session = await self.store.get(session_id)
        if session is not None:
            self._schedule_ai(session)

    async def _ai_turns(self, session_id: int) -> None:
        try:
            await self._play_ai_turns(session_id)
        finally:
            del self._thinking[session_id]
            if session_id in self._recheck:
                self._recheck.discard(session_id)
                self._spawn(self._reschedule(session_id))

    async def _play_ai_turns(self, session_id: int) -> None:
        """Play AI turns until a person is to move, then announce them in one message."""
        lines: list[Msg] = []
        while True:
            session = await self.store.get(session_id)
            if session is None or session.status != "playing":
                break
            game = self.games[session.game]
            state = game.from_json(session.state)
            seat = game.to_move(state)
            if seat is None or not session.seats[seat].played_by_ai:
                break
            move = await self._ai_move(game, session, state, seat)
            async with self._locks[session.channel]:
                current = await self.store.get(session_id)
                if current is None or current.version != session.version:
                    continue  # the game changed while the AI thought (undo, resign, /back): look again
                lines += await self._apply(current, seat, move, by_ai=True)
                game_state = game.from_json(current.state)
                next_seat = game.to_move(game_state) if current.status == "playing" else None
                if next_seat is None or not current.seats[next_seat].played_by_ai:
                    await self._deliver(current.channel, await self._board_replies(current, self.tr, lines))
                    lines = []
        if lines and session is not None:
            async with self._locks[session.channel]:
                latest = await self.store.get(session_id)
                if latest is not None:
                    await self._deliver(latest.channel, await self._board_replies(latest, self.tr, lines))

    async def _ai_move(self, game: Game, session: Session, state: Any, seat: int) -> Any:
        level = session.seats[seat].ai_level or game.default_level
        try:
            text, _ = await self.ai.move(game.name, session.state, seat, level, _ai_seed(session))
            return game.parse_move(state, seat, text)
        except Exception:
            # Never leave a game stuck: a legal move beats no move. The tests keep this path unused.
            log.exception("the %s AI failed in session %s; playing its first legal move", game.name, session.id)
            return game.legal_moves(state, seat)[0]

    async def _deliver(self, channel: str, replies: list[Reply]) -> None:
        deliver = self._outboxes.get(channel.partition(":")[0])
        if deliver is None:
            log.warning("no adapter for %s; dropped %d replies", channel, len(replies))
            return
        try:
            await deliver(channel, replies)
        except Exception:
            log.exception("delivering to %s failed", channel)

    # --- timers ---------------------------------------------------------------------
    async def _timer_loop(self) -> None:
        while True:
            await self.expire_due()
            next_deadline = await self.store.next_deadline()
            delay = 60.0 if next_deadline is None else min(60.0, max(0.0, next_deadline - self.clock()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay + 0.01)

    async def expire_due(self) -> None:
        """Act on every session whose wait is over: close lobbies, time players out."""
        for due in await self.store.due(self.clock()):
            async with self._locks[due.channel]:
                session = await self.store.get(due.id or 0)
                if session is None or session.version != due.version:
                    continue
                replies = await self._expire(session)
            await self._deliver(session.channel, replies)

    async def _expire(self, session: Session) -> list[Reply]:
        tr = self.tr
        game = self.games[session.game]
        session.updated_at = self.clock()
        if session.status == "lobby":
            session.status, session.deadline = "cancelled", None
            await self.store.save(session)
            return [Reply(tr(t("host.lobby_expired", game=_title(game))))]
        state = game.from_json(session.state)
        seat = game.to_move(state)
        if seat is None:
            session.deadline = None
            await self.store.save(session)
            return []
        name = session.seats[seat].name
        if len(session.seats) == 2:
            return await self._forfeit(session, seat, t("host.timed_out", name=name), tr)
        session.seats[seat].away = True
        session.deadline = None
        await self.store.save(session)
        self._schedule_ai(session)
        return [Reply(tr(t("host.away", name=name)))]


# --- small helpers -----------------------------------------------------------------------
def replay(game: Game, session: Session, moves: Iterable[MoveRow]) -> Any:
    """The state after `moves`, played again from the session's options and seed."""
    state = game.new_state(session.options, len(session.seats), session.seed)
    for move in moves:
        state = game.apply(state, move.seat, game.parse_move(state, move.seat, move.move))
    return state



async def _respond(respond: Respond | None, replies: list[Reply]) -> list[Reply]:
    if respond is not None:
        await respond(replies)
    return replies


def _read_button(button_id: str) -> tuple[int, str, str] | None:
    """'12.7.accept' -> (session 12, version '7', 'accept'); version '*' means any."""
    m = re.fullmatch(r"(\d{1,18})\.(\d{1,18}|\*)\.(.{1,60})", button_id)
    return (int(m[1]), m[2], m[3]) if m else None


def _button_fresh(button: tuple[int, str, str], session: Session | None) -> bool:
    """A button works on the session it was made for; a strict one (a move, an answer to an
    offer) only while that session is at the version it was made at."""
    session_id, version, _ = button
    if session is None or session.id != session_id:
        return False
    return version == "*" or int(version) == session.version


def _ai_seed(session: Session) -> int:
    return (session.seed * 1_000_003 + session.ply) % (1 << 62)


def _title(game: Game) -> Msg:
    return t(f"{game.name}.title")


def _vs(session: Session) -> str:
    return " vs ".join(s.name for s in session.seats)


def _points(value: float) -> str:
    return f"{value:+g}"


def _msg_json(m: Msg) -> dict[str, Any]:
    return {"key": m.key, "params": {k: _msg_json(v) if isinstance(v, Msg) else v for k, v in m.params.items()}}


def _msg_from_json(data: dict[str, Any]) -> Msg:
    params = {k: _msg_from_json(v) if isinstance(v, dict) and "key" in v else v for k, v in data["params"].items()}
    return Msg(data["key"], params)


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {"ranks": list(outcome.ranks), "reason": _msg_json(outcome.reason),
            "scores": list(outcome.scores) if outcome.scores is not None else None}  # fmt: skip


def _outcome_from_json(data: dict[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    scores = tuple(data["scores"]) if data.get("scores") is not None else None
    return Outcome(tuple(data["ranks"]), _msg_from_json(data["reason"]), scores)
