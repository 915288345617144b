"""Opening and filling a table: start, challenge, solo, join, accept, decline, go,
cancel, rematch. A table waits in the lobby until every seat is taken (or `/go`
gives the open seats to bots); then `play.begin` deals."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bot import offers, play, replies
from bot.core import Core, Request, title
from bot.model import EVERYONE, Reply, User
from bot.session import Seat, Session, SessionStatus
from engines.base import Game, Refusal, msg

TIMER = re.compile(r"(?:timer|time)=([0-9]{1,5})([smh]?)")
TIMER_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600}
TIMER_RANGE = (10, 7 * 24 * 3600)


async def start(core: Core, r: Request) -> list[Reply]:
    """`/<game> start [options]`: an open table; the next people to /join play."""
    game, args, turn_seconds = _setup(core, r)
    setup = game.parse_options(args)
    seats = [_seat_for(r.user, 0)] + [Seat(i) for i in range(1, setup.seats)]
    session = await core.create(r, game, setup.options, seats, turn_seconds)
    return [replies.lobby(session, r.tr, msg("host.table_opened", name=r.user.name, game=title(game)))]


async def challenge(core: Core, r: Request) -> list[Reply]:
    """`/<game> challenge @someone [options]`: seats kept for the people invited."""
    game, args, turn_seconds = _setup(core, r)
    targets = [mentioned(r, token) for token in r.command.mentions]
    args = [a for a in args if a not in r.command.mentions]
    if not targets:
        raise Refusal("host.challenge_whom", game=game.name)
    if any(u.id == r.user.id for u in targets):
        raise Refusal("host.challenge_yourself", game=game.name)
    setup = game.parse_options(args)
    if len(targets) + 1 > setup.seats:
        raise Refusal("host.too_many_invited", count=setup.seats)
    seats = [_seat_for(r.user, 0)]
    for i in range(1, setup.seats):
        if i <= len(targets):
            u = targets[i - 1]
            user_id = None if u.id.startswith("@") else u.id
            seats.append(Seat(i, user_id, u.name, u.handle, accepted=False))
        else:
            seats.append(Seat(i))
    session = await core.create(r, game, setup.options, seats, turn_seconds)
    names = [s.name for s in seats if not s.accepted]
    return [replies.lobby(session, r.tr, msg("host.challenged", name=r.user.name, names=names, game=title(game)))]


async def solo(core: Core, r: Request) -> list[Reply]:
    """`/<game> solo [level] [options]`: bots take every other seat and the game begins."""
    game, args, turn_seconds = _setup(core, r)
    level = next((a.lower() for a in args if a.lower() in game.levels), game.default_level)
    args = [a for a in args if a.lower() != level]
    setup = game.parse_options(args)
    seats = [_seat_for(r.user, 0)] + [core.ai_seat(i, level, r.tr) for i in range(1, setup.seats)]
    session = await core.create(r, game, setup.options, seats, turn_seconds)
    return await play.begin(core, session, r.tr)


def _setup(core: Core, r: Request) -> tuple[Game[Any, Any], list[str], int]:
    """The game of a game action, its option words, and the time per move (`timer=5m`)."""
    if r.session is not None:
        raise Refusal("host.channel_busy_with", game=title(core.game_of(r.session)))
    game = core.games[r.command.game or ""]
    args, turn_seconds = [], core.turn_seconds
    for arg in r.command.args:
        if m := TIMER.fullmatch(arg.lower()):
            turn_seconds = int(m[1]) * TIMER_UNITS[m[2]]
            if not TIMER_RANGE[0] <= turn_seconds <= TIMER_RANGE[1]:
                raise Refusal("host.bad_timer")
        else:
            args.append(arg)
    return game, args, turn_seconds


def mentioned(r: Request, token: str) -> User:
    """The person a mention token stands for."""
    user = r.event.mentions.get(token)
    if user is not None:
        return user
    if token.startswith("@"):
        # Only a username is known (Telegram): the seat is matched by it on /accept.
        return User(token, token, token[1:])
    raise Refusal("host.who_is", token=token)


def _seat_for(user: User, seat: int) -> Seat:
    return Seat(seat, user.id, user.name, user.handle)


# --- filling the table ------------------------------------------------------------
async def join(core: Core, r: Request) -> list[Reply]:
    session = r.active
    if session.seat_of(r.user.id) is not None:
        raise Refusal("host.already_seated")
    if (reserved := _reserved_for(session, r.user)) is not None:
        return await _take_seat(core, r, session, reserved)
    seat = next((s for s in session.seats if s.is_open), None)
    if seat is None:
        waiting = [s.name for s in session.seats if not s.accepted]
        if waiting:
            raise Refusal("host.seats_reserved", names=waiting)
        raise Refusal("host.table_full")
    return await _take_seat(core, r, session, seat)


async def _take_seat(core: Core, r: Request, session: Session, seat: Seat) -> list[Reply]:
    seat.user_id, seat.name, seat.handle, seat.accepted = r.user.id, r.user.name, r.user.handle, True
    if _ready(session):
        return await play.begin(core, session, r.tr, msg("host.joined", name=r.user.name))
    await core.commit(session)
    return [replies.lobby(session, r.tr, msg("host.joined", name=r.user.name))]


async def accept(core: Core, r: Request) -> list[Reply]:
    """`/accept`: an invitation in the lobby, or a request during the game."""
    session = r.session
    if session is not None and session.status == SessionStatus.LOBBY:
        seat = _reserved_for(session, r.user)
        if seat is None:
            raise Refusal("host.not_invited")
        return await _take_seat(core, r, session, seat)
    if session is not None and session.status == SessionStatus.PLAYING and session.offer:
        return await offers.agree(core, r, session)
    raise Refusal("host.nothing_to_accept")


async def decline(core: Core, r: Request) -> list[Reply]:
    """`/decline`: an invitation (the table closes), or a request during the game."""
    session = r.session
    if session is not None and session.status == SessionStatus.LOBBY:
        if _reserved_for(session, r.user) is None:
            raise Refusal("host.not_invited")
        session.status, session.deadline = SessionStatus.CANCELLED, None
        await core.commit(session)
        return [Reply(r.tr(msg("host.declined", name=r.user.name)), audience=EVERYONE)]
    if session is not None and session.status == SessionStatus.PLAYING and session.offer:
        return await offers.refuse(core, r, session)
    raise Refusal("host.nothing_to_decline")


async def go(core: Core, r: Request) -> list[Reply]:
    """`/go`: bots take the open seats and the game begins (the starter or a moderator)."""
    session = r.active
    if r.user.id != session.starter and not r.user.moderator:
        raise Refusal("host.only_starter_go")
    waiting = [s.name for s in session.seats if not s.accepted]
    if waiting:
        raise Refusal("host.still_waiting", names=waiting)
    game = core.game_of(session)
    for seat in session.seats:
        if seat.is_open:
            session.seats[seat.seat] = core.ai_seat(seat.seat, game.default_level, r.tr)
    return await play.begin(core, session, r.tr)


def _reserved_for(session: Session, user: User) -> Seat | None:
    for seat in session.seats:
        if seat.accepted:
            continue
        if seat.user_id == user.id or (
            seat.user_id is None and seat.handle and user.handle and seat.handle.lower() == user.handle.lower()
        ):
            return seat
    return None


def _ready(session: Session) -> bool:
    return all(s.accepted and not s.is_open for s in session.seats)


# --- closing and again --------------------------------------------------------------
async def cancel(core: Core, r: Request) -> list[Reply]:
    """`/cancel`: its starter before the first move, or a moderator at any time."""
    session = r.session
    if session is None:
        raise Refusal("host.no_game")
    if not r.user.moderator and not session.watched:  # bots playing each other: anyone may stop them
        if r.user.id != session.starter:
            raise Refusal("host.only_starter_cancel")
        if session.ply > 0:
            raise Refusal("host.cancel_after_moves")
    session.status, session.deadline = SessionStatus.CANCELLED, None
    await core.commit(session)
    said = r.tr(msg("host.cancelled", name=r.user.name, game=title(core.game_of(session))))
    return [Reply(said, session=session.id, over=True, audience=EVERYONE)]


async def rematch(core: Core, r: Request) -> list[Reply]:
    """`/rematch`: the channel's last finished game again, everyone one seat on."""
    if r.session is not None:
        raise Refusal("host.channel_busy_with", game=title(core.game_of(r.session)))
    last = await core.store.latest(r.event.channel)
    if last is None or last.status != SessionStatus.FINISHED:
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
    game = core.game_of(last)
    session = await core.create(r, game, last.options, seats, last.turn_seconds)
    if _ready(session):
        return await play.begin(core, session, r.tr, msg("host.rematch", game=title(game)))
    names = [s.name for s in seats if not s.accepted]
    return [replies.lobby(session, r.tr, msg("host.rematch_offered", name=r.user.name, names=names))]
