"""Requests that need the other people's consent: undo, draw, restart.

Against bots alone a request is carried out at once. Otherwise it waits (one at a
time) until every other person still playing agrees, or one refuses; any move in
between drops it. A move taken back, and a restart against bots alone (which cannot say
no to throwing away a game going badly), is help: the game is then not rated for the
asker (`Session.aided`), as everyone is told the first time.
"""

from __future__ import annotations

import secrets

from bot import play, replies
from bot.core import Core, Request
from bot.i18n import Translator
from bot.model import EVERYONE, Reply
from bot.session import Aid, Change, Offer, OfferKind, Seat, Session
from engines.base import Outcome, Refusal, msg


async def undo(core: Core, r: Request) -> list[Reply]:
    session, seat = _ask(core, r, OfferKind.UNDO)
    mine = [m for m in await core.store.moves(session.id or 0) if m.seat == seat.seat and not m.by_ai]
    if not mine:
        raise Refusal("host.nothing_to_undo")
    return await _offer(core, r, session, Offer(OfferKind.UNDO, seat.seat, ply=mine[-1].ply))


async def draw(core: Core, r: Request) -> list[Reply]:
    session, seat = _ask(core, r, OfferKind.DRAW)
    if not _others(session, seat):
        raise Refusal("host.ai_declines_draw")
    return await _offer(core, r, session, Offer(OfferKind.DRAW, seat.seat))


async def restart(core: Core, r: Request) -> list[Reply]:
    session, seat = _ask(core, r, OfferKind.RESTART)
    return await _offer(core, r, session, Offer(OfferKind.RESTART, seat.seat))


def _ask(core: Core, r: Request, kind: OfferKind) -> tuple[Session, Seat]:
    session = r.active
    seat = r.player
    if kind not in core.game_of(session).offers:
        raise Refusal(f"host.no_{kind}")
    if session.offer:
        raise Refusal("host.offer_pending")
    return session, seat


def _others(session: Session, seat: Seat) -> list[Seat]:
    """The people who must agree to an offer of `seat`."""
    return [s for s in session.humans if s.seat != seat.seat and not s.away]


async def _offer(core: Core, r: Request, session: Session, offer: Offer) -> list[Reply]:
    seat = session.seats[offer.seat]
    others = _others(session, seat)
    if not others:  # against the AI an undo or restart is immediate
        return await _carry_out(core, session, offer, r.tr)
    session.offer = offer
    await core.commit(session)
    text = r.tr(msg(f"host.offer_{offer.kind}", name=seat.name, names=[s.name for s in others]))
    buttons = (replies.button(r.tr, session, "host.button_agree", "accept", strict=True),
               replies.button(r.tr, session, "host.button_refuse", "decline", strict=True))
    mentions = tuple(s.user_id for s in others if s.user_id)
    return [Reply(text, buttons=buttons, mentions=mentions, names={s.user_id: s.name for s in others if s.user_id},
                  audience=EVERYONE)]


async def agree(core: Core, r: Request, session: Session) -> list[Reply]:
    """`/accept` while a request waits."""
    r.need(None, seat=True)
    seat = r.player
    offer = session.offer
    assert offer is not None
    if seat.seat == offer.seat:
        raise Refusal("host.own_offer")
    if seat.seat in offer.agreed:
        raise Refusal("host.already_agreed")
    offer.agreed.append(seat.seat)
    waiting = [s for s in _others(session, session.seats[offer.seat]) if s.seat not in offer.agreed]
    if waiting:
        await core.commit(session)
        said = r.tr(msg("host.agreed_waiting", name=seat.name, names=[s.name for s in waiting]))
        return [Reply(said, audience=EVERYONE)]
    return await _carry_out(core, session, offer, r.tr)


async def refuse(core: Core, r: Request, session: Session) -> list[Reply]:
    """`/decline` while a request waits: it is dropped."""
    r.need(None, seat=True)
    seat = r.player
    if session.offer is not None and seat.seat == session.offer.seat:
        raise Refusal("host.own_offer")
    session.offer = None
    await core.commit(session)
    return [Reply(r.tr(msg("host.offer_refused", name=r.user.name)), audience=EVERYONE)]


async def _carry_out(core: Core, session: Session, offer: Offer, tr: Translator) -> list[Reply]:
    game = core.game_of(session)
    name = session.seats[offer.seat].name
    session.offer = None
    if offer.kind == OfferKind.DRAW:
        change = Change()
        play.finish(session, Outcome(tuple(1 for _ in session.seats), msg("host.agreed_draw")), change)
        await core.commit(session, change)
        return await replies.after_move(core, session, tr, [msg("host.draw_agreed")])
    moves = await core.store.moves(session.id or 0)
    if offer.kind == OfferKind.UNDO:
        target = next(m for m in moves if m.ply == offer.ply)
        session.state, session.ply = target.state_before, target.ply
        said = [msg("host.undone", name=name, count=len(moves) - target.ply)]
        change = Change(drop_moves_from=target.ply)
        helped = True
    else:
        session.seed = secrets.randbits(62)
        fresh = game.new_state(session.options, len(session.seats), session.seed)
        session.state, session.ply = game.to_json(fresh), 0
        change, said = Change(drop_moves_from=0), [msg("host.restarted")]
        asker = session.seats[offer.seat]
        helped = not _others(session, asker) and any(m.seat == offer.seat and not m.by_ai for m in moves)
    if helped and offer.seat not in session.aided:
        session.aided[offer.seat] = Aid.UNDO
        said.append(msg("host.unrated_undo", name=name))
    play.set_deadline(core, session, game.from_json(session.state))
    await core.commit(session, change)
    return await replies.after_move(core, session, tr, said)
