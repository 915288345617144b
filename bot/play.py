"""Playing: the game begins, moves are applied and committed, the game ends.

Every accepted move is committed (with the state before it, for undo) before
anything is said about it. `set_deadline` gives the person to move their time;
a seat played by a bot has no deadline.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import metrics, rating_model, replies
from bot.core import Core, Request, title, vs
from bot.i18n import Translator
from bot.model import Reply
from bot.session import Change, MoveRow, Result, ResultKind, Session, SessionStatus
from engines.base import Msg, Outcome, Refusal, msg


async def begin(core: Core, session: Session, tr: Translator, first: Msg | None = None) -> list[Reply]:
    """Deal or set up the game, commit it, and show the first board."""
    game = core.game_of(session)
    state = game.new_state(session.options, len(session.seats), session.seed)
    session.state, session.status, session.ply, session.offer = game.to_json(state), SessionStatus.PLAYING, 0, None
    set_deadline(core, session, state)
    await core.commit(session)
    lines = [first] if first else []
    lines.append(msg("host.game_begins", game=title(game), players=vs(session, tr)))
    return await replies.after_begin(core, session, tr, lines)


async def move(core: Core, r: Request) -> list[Reply]:
    """`/move <move>`."""
    if not r.command.args:
        raise Refusal("host.move_what")
    return await play(core, r, " ".join(r.command.args))


async def play(core: Core, r: Request, text: str) -> list[Reply]:
    """The acting player's move, typed as `text`."""
    session = r.active
    seat = r.player
    game = core.game_of(session)
    state = game.from_json(session.state)
    to_move = game.to_move(state)
    if to_move != seat.seat:
        raise Refusal("host.turn_of", name=session.seats[to_move].name if to_move is not None else "")
    chosen = game.parse_move(state, seat.seat, text)
    seat.away = False  # moving again means coming back
    lines = await apply(core, session, seat.seat, chosen, by_ai=False)
    return await replies.after_move(core, session, r.tr, lines)


async def apply(core: Core, session: Session, seat: int, chosen: Any, by_ai: bool) -> list[Msg]:
    """Apply and commit one move (a move `parse_move` gave); returns what to announce."""
    game = core.game_of(session)
    state = game.from_json(session.state)
    new = game.apply(state, seat, chosen)
    row = MoveRow(session.ply, seat, game.move_text(state, chosen), by_ai, session.state, core.clock())
    said = game.describe(state, seat, chosen)
    lines = [replace(said, params={**said.params, "name": session.seats[seat].name})]
    session.state, session.ply, session.offer = game.to_json(new), session.ply + 1, None
    change = Change(move=row)
    outcome = game.outcome(new)
    if outcome is not None:
        finish(session, outcome, change, game.roles(new))
    else:
        set_deadline(core, session, new)
    await core.commit(session, change)
    metrics.moved(game.name, by_ai)
    return lines


def finish(session: Session, outcome: Outcome, change: Change, roles: tuple[str, ...] | None = None) -> None:
    """End the game with `outcome`; every seat's result goes into `change`: a person's (also
    when a bot played their seat after their time ran out), or the AI level's (`ai:<level>`),
    with the seat's part in the game where it has parts (`roles`) and how its player was helped
    (a hint, a move taken back: not rated for them)."""
    session.status, session.deadline, session.offer, session.outcome = SessionStatus.FINISHED, None, None, outcome
    results = []
    for seat in session.seats:
        result: ResultKind = "draw" if outcome.draw else "win" if outcome.ranks[seat.seat] == 1 else "loss"
        score = outcome.scores[seat.seat] if outcome.scores else None
        player = seat.user_id or rating_model.AI + (seat.ai_level or "")
        results.append(Result(seat.seat, player, seat.name, outcome.ranks[seat.seat], result, score,
                              roles[seat.seat] if roles else None, session.aided.get(seat.seat)))
    change.results = results


def set_deadline(core: Core, session: Session, state: Any) -> None:
    """The person to move has the session's time per move; a bot or a finished game has none,
    except in a watched game, where the deadline is when the next bot moves (bots with a turn of
    0 s, a tournament's, play on at once)."""
    seat = core.game_of(session).to_move(state)
    paced = session.watched and session.turn_seconds > 0
    waits = seat is not None and (paced or not session.seats[seat].played_by_ai)
    session.deadline = core.clock() + session.turn_seconds if waits else None


async def resign(core: Core, r: Request) -> list[Reply]:
    session = r.active
    seat = r.player
    return await forfeit(core, session, seat.seat, msg("host.resigned", name=seat.name), r.tr)


async def forfeit(core: Core, session: Session, seat: int, reason: Msg, tr: Translator) -> list[Reply]:
    """`seat` gives the game up (resigned, or ran out of time in a two-player game)."""
    game = core.game_of(session)
    state = game.from_json(session.state)
    outcome = game.forfeit(state, len(session.seats), seat, reason)
    change = Change()
    finish(session, outcome, change, game.roles(state))
    await core.commit(session, change)
    return await replies.after_move(core, session, tr, [])


async def back(core: Core, r: Request) -> list[Reply]:
    """`/back`: a player who ran out of time takes their seat back from the bot."""
    session = r.active
    seat = r.player
    if not seat.away:
        raise Refusal("host.not_away")
    seat.away = False
    set_deadline(core, session, core.game_of(session).from_json(session.state))
    await core.commit(session)
    return await replies.after_move(core, session, r.tr, [msg("host.is_back", name=seat.name)])
