"""`/review [N]`: a finished game of the channel reviewed by its engine (`engines.review`), as one
picture (`render.review`: each side's chance over the moves, the critical moment's board with the move
played and the better one) and two or three lines of text.

`/review` takes the channel's latest finished game, `/review N` the N-th latest (the `Review` button of a
result message is `/review` while that game is the channel's latest). A game still being played is never
reviewed (the picture would be a hint), so the command is refused while the channel plays one; a finished
game has no secrets left (Dou Dizhu's hands are open once it is over), so the answer is for everyone.
The review runs in the AI workers, once per game: it is stored (`Storage.save_review`) and served again.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from bot import replies
from bot.core import Core, Request, title
from bot.i18n import Translator
from bot.model import EVERYONE, Reply
from bot.session import Session, SessionStatus
from engines.base import Msg, OpenRefusal, msg, read_number
from engines.review import Record, Review

MOST = 100  # finished games of a channel /review N reaches back to


async def review(core: Core, r: Request) -> list[Reply]:
    if r.session is not None and r.session.status == SessionStatus.PLAYING:
        raise OpenRefusal("review.during_game")
    finished = await core.store.finished(r.event.channel, MOST)
    if not finished:
        raise OpenRefusal("review.none")
    session = await _chosen(core, finished, r.command.args)
    if session is None:
        raise OpenRefusal("review.usage", count=len(finished))
    found = await reviewed(core, session)
    return [await picture(core, session, found, r.tr)]


async def prepare(core: Core, channel: str, args: tuple[str, ...]) -> None:
    """Before the channel is locked: make and store the review `/review` will show, if it is not
    stored yet (a first Gomoku review thinks for seconds; the channel's moves need not wait)."""
    session = await _chosen(core, await core.store.finished(channel, MOST), args)
    if session is not None:
        await reviewed(core, session)


async def _chosen(core: Core, finished: list[int], args: tuple[str, ...]) -> Session | None:
    """The finished game `/review [N]` names (None: N names none)."""
    back = read_number(args[0]) if args else 1
    if back is None or not 1 <= back <= len(finished):
        return None
    session = await core.store.get(finished[back - 1])
    assert session is not None, "a finished game's id names a session"
    return session


async def reviewed(core: Core, session: Session) -> Review:
    """The stored review of a finished game, or a new one made in the AI workers and stored."""
    sid = session.id or 0
    stored = await core.store.review(sid)
    if stored is not None:
        return Review.from_json(json.loads(stored))
    moves = await core.store.moves(sid)
    winners = session.outcome.winners if session.outcome else ()
    record = Record(session.game, session.options, len(session.seats), session.seed,
                    tuple((m.seat, m.move) for m in moves), winners)
    data = await core.ai.review(record.to_json())
    await core.store.save_review(sid, json.dumps(data), core.clock())
    return Review.from_json(data)


def lines(session: Session, found: Review, tr: Translator) -> list[str]:
    """The text twin: the critical moment, what came of it, and the mistakes counted per player."""
    names = [s.name for s in session.seats]
    critical = found.critical
    if critical is None:
        return [tr(msg("review.no_mistake")), _result(session, found, tr, None)]
    said = critical.said
    text = [tr(Msg(said.key, {**said.params, "ply": critical.ply + 1, "name": names[critical.seat]})),
            _result(session, found, tr, critical.seat)]
    counts = Counter(m.seat for m in found.mistakes)
    if len(found.mistakes) > 1:
        listed = [tr(msg("review.mistake_count", name=names[seat], count=n)) for seat, n in sorted(counts.items())]
        text.append(tr(msg("review.mistakes", counts=listed)))
    return text


def _result(session: Session, found: Review, tr: Translator, mover: int | None) -> str:
    outcome = session.outcome
    if outcome is None or not outcome.winners:
        return tr(msg("review.drawn"))
    won = [session.seats[s].name for s in outcome.winners]
    key = ("review.won" if mover is None else "review.still_won" if mover in outcome.winners
           else "review.won_from_there")
    return tr(msg(key, count=len(won), names=won))


async def picture(core: Core, session: Session, found: Review, tr: Translator) -> Reply:
    """The review's picture and text, for everyone (the game is over); the text alone if the picture
    cannot be drawn."""
    game = core.game_of(session)
    text = lines(session, found, tr)
    view: dict[str, Any] = {"game": game.name, "review": found.to_json(), "lines": text,
                            "title": tr(msg("review.title", game=title(game), count=len(found.chances) - 1))}
    ctx = replies.context(session, None, None, tr, None)
    try:
        image = await core.pictures.draw("review", view, ctx)
    except Exception:
        replies.log.exception("drawing the review of session %s failed; its text goes alone", session.id)
        return Reply("\n".join(text), session=session.id, audience=EVERYONE)
    return Reply("\n".join(text), image=image, image_name="chances.png", session=session.id, audience=EVERYONE)
