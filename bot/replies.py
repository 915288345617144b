"""The replies the host builds from a session: buttons, the lobby, the board, hidden hands.

`board` is the public picture with what just happened; `after_move` and
`after_begin` add the hidden hands of the people concerned, each to its owner only.
Every picture is drawn through `drawn`, which falls back to the text board: a picture
that cannot be drawn must never cost the reply (the move it shows is already committed).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from bot.core import Core, points
from bot.i18n import Translator
from bot.model import EVERYONE, Audience, Button, Private, Reply
from bot.session import Session, SessionStatus
from bot.web import chat
from engines.base import Game, Msg, Outcome, Overlay, msg
from render.base import RenderContext

log = logging.getLogger(__name__)

MAX_BUTTON_ID = 64  # bytes: Telegram's limit on callback data, the strictest platform's


def button(tr: Translator, session: Session, label: str, command: str, strict: bool = False, **params: Any) -> Button:
    """A button standing for `/command`. A strict one works only at the session's current version."""
    version = session.version if strict else "*"
    return Button(tr(msg(label, **params)), f"{session.id}.{version}.{command}", "/" + command)


def lobby(session: Session, tr: Translator, said: Msg) -> Reply:
    """The table while it waits for players: who sits where, and how to join."""
    waiting = [s for s in session.seats if not s.accepted]
    open_seats = sum(s.is_open for s in session.seats)
    players = [msg("host.open_seat") if s.is_open else s.name for s in session.seats]
    lines = [tr(said), tr(msg("host.seats", players=players))]
    buttons: list[Button] = []
    mentions: tuple[str, ...] = ()
    if waiting:
        lines.append(tr(msg("host.waiting_accept", names=[s.name for s in waiting])))
        buttons += [button(tr, session, "host.button_accept", "accept"),
                    button(tr, session, "host.button_decline", "decline")]
        mentions = tuple(s.user_id for s in waiting if s.user_id)
    if open_seats:
        lines.append(tr(msg("host.how_to_join", count=open_seats)))
        buttons.append(button(tr, session, "host.button_join", "join"))
        if len(session.seats) > 2:
            lines.append(tr(msg("host.how_to_go")))
            buttons.append(button(tr, session, "host.button_go", "go"))
    return Reply("\n".join(lines), buttons=tuple(buttons), mentions=mentions, session=session.id,
                 names=_names(session, mentions), audience=EVERYONE)


async def board(
    core: Core, session: Session, tr: Translator, lines: Iterable[Msg], *, overlay: Overlay | None = None,
    buttons: bool = True,
) -> Reply:
    """The public board with `lines` (what just happened) and what comes next; `overlay` marks
    things on this one picture; `buttons=False` for a look-up that is not the table message."""
    game = core.game_of(session)
    state = game.from_json(session.state)
    to_move = game.to_move(state) if session.status == SessionStatus.PLAYING else None
    outcome = session.outcome
    text = [tr(line) for line in lines]
    if outcome is not None:
        text += _result_lines(session, outcome, tr)
        text += [line for line in [await chat.replay_line(core, session, tr)] if line]
    elif session.status == SessionStatus.CANCELLED:
        text.append(tr(msg("host.game_cancelled")))
    elif to_move is not None:
        seat = session.seats[to_move]
        asked = None if seat.played_by_ai else game.prompt(state, to_move)
        if asked is not None:
            text.append(tr(Msg(asked.key, {**asked.params, "name": seat.name})))
        else:
            text.append(tr(msg("host.ai_thinking" if seat.played_by_ai else "host.your_move", name=seat.name)))
    view = game.view(state, None)
    mentions: tuple[str, ...] = ()
    if to_move is not None and session.seats[to_move].user_id and not session.seats[to_move].played_by_ai:
        mentions = (session.seats[to_move].user_id or "",)
    return await drawn(
        core, game, view, context(session, to_move, outcome, tr, overlay), tr, "\n".join(text), board=True,
        session=session.id, buttons=_board_buttons(session, tr, game, state, to_move) if buttons else (),
        mentions=mentions, names=_names(session, mentions), audience=EVERYONE,
        over=session.status in (SessionStatus.FINISHED, SessionStatus.CANCELLED),
    )


async def after_move(core: Core, session: Session, tr: Translator, lines: Iterable[Msg]) -> list[Reply]:
    """The board after a move, and in hidden-hand games the hands of the one who moved, of the
    one to move now, and of everyone whose hand the move changed (a redeal after all passed),
    each privately, at once."""
    concerned: set[int] = set()
    game = core.game_of(session)
    if game.hidden_hands and session.status == SessionStatus.PLAYING:
        moves = await core.store.moves(session.id or 0)
        if moves:
            concerned = {moves[-1].seat} | _hands_changed(game, session, moves[-1].state_before, tr)
        else:
            concerned = {s.seat for s in session.seats}
    return await _with_hands(core, session, tr, lines, concerned)


def _hands_changed(game: Game[Any, Any], session: Session, before: Any, tr: Translator) -> set[int]:
    """The seats whose own view (what only they see) differs before and after the last move."""
    old, new = game.from_json(before), game.from_json(session.state)
    return {s.seat for s in session.seats if game.private_lines(old, s.seat, tr) != game.private_lines(new, s.seat, tr)}


async def after_begin(core: Core, session: Session, tr: Translator, lines: Iterable[Msg]) -> list[Reply]:
    """The first board, and in hidden-hand games every player's hand, each privately."""
    return await _with_hands(core, session, tr, lines, {s.seat for s in session.seats})


async def _with_hands(core: Core, session: Session, tr: Translator, lines: Iterable[Msg],
                      concerned: set[int]) -> list[Reply]:
    replies = [await board(core, session, tr, lines)]
    game = core.game_of(session)
    if not game.hidden_hands or session.status != SessionStatus.PLAYING:
        return replies
    to_move = game.to_move(game.from_json(session.state))
    if to_move is not None:
        concerned = concerned | {to_move}
    for seat in sorted(concerned):
        owner = session.seats[seat]
        if owner.user_id and not owner.played_by_ai:
            replies.append(await hand(core, session, seat, await core.languages.person(owner.user_id, tr)))
    return replies


async def hand(core: Core, session: Session, seat: int, tr: Translator) -> Reply:
    """`seat`'s own view (its hidden hand), for its player only, in `tr`: their language."""
    game = core.game_of(session)
    state = game.from_json(session.state)
    view = game.view(state, seat)
    ctx = context(session, game.to_move(state), None, tr, None, viewer=seat)
    player = session.seats[seat]
    return await drawn(core, game, view, ctx, tr, tr(msg("host.your_hand", name=player.name)), image_name="hand.png",
                       audience=Private(player.user_id or ""), session=session.id, language=tr.language,
                       names={player.user_id: player.name} if player.user_id else {})


async def drawn(core: Core, game: Game[Any, Any], view: Any, ctx: RenderContext, tr: Translator, text: str, *,
                audience: Audience, **fields: Any) -> Reply:
    """A reply for `audience` with the picture of `view`, and its text board for the console. If the
    picture cannot be drawn, the error is logged and the text board takes its place in the text."""
    board = game.text(view, tr)
    try:
        image = await core.pictures.draw(game.name, view, ctx)
    except Exception:
        log.exception("drawing %s failed; the text board goes instead", game.name)
        return Reply(f"{text}\n{board}" if text else board, **fields, audience=audience)
    return Reply(text, image=image, text_board=board, **fields, audience=audience)


def context(session: Session, to_move: int | None, outcome: Outcome | None, tr: Translator, overlay: Overlay | None,
            viewer: int | None = None) -> RenderContext:
    return RenderContext(
        names=tuple(s.name for s in session.seats), to_move=to_move, outcome=outcome, tr=tr, viewer=viewer,
        overlay=overlay, ai_seats=frozenset(s.seat for s in session.seats if s.played_by_ai),
    )


def _result_lines(session: Session, outcome: Outcome, tr: Translator) -> list[str]:
    if outcome.winners:
        names = [session.seats[s].name for s in outcome.winners]
        lines = ["🏆 " + tr(msg("host.result_line_win", count=len(outcome.winners), names=names,
                              reason=outcome.reason))]
    else:
        lines = [tr(msg("host.result_line_draw", reason=outcome.reason))]
    if outcome.scores:
        scores = [f"{s.name} {points(outcome.scores[s.seat])}" for s in session.seats]
        lines.append(tr(msg("host.scores", scores=scores)))
    return lines


def _board_buttons(session: Session, tr: Translator, game: Game[Any, Any], state: Any,
                   to_move: int | None) -> tuple[Button, ...]:
    if session.status == SessionStatus.FINISHED:
        review = button(tr, session, "review.button", "review")
        return (review,) if session.watched else (button(tr, session, "host.button_rematch", "rematch"), review)
    if session.status != SessionStatus.PLAYING:
        return ()
    buttons = []
    if to_move is not None and not session.seats[to_move].played_by_ai:
        for label, move in game.quick_moves(state, to_move):
            buttons.append(Button(tr(label), f"{session.id}.{session.version}.move {move}", f"/move {move}"))
        if game.hint_level is not None:
            buttons.append(button(tr, session, "host.button_hint", "hint"))
    if game.hidden_hands and session.humans:
        buttons.append(button(tr, session, "host.button_hand", "hand"))
    return tuple(b for b in buttons if len(b.id.encode()) <= MAX_BUTTON_ID)


def _names(session: Session, user_ids: Iterable[str]) -> dict[str, str]:
    """Display names of the people a reply mentions, as their seats show them."""
    seats = {s.user_id: s.name for s in session.seats if s.user_id}
    return {u: seats[u] for u in user_ids if u in seats}
