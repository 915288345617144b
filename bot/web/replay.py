"""A finished game as the web shows it: the position after each move, its picture (drawn by the
same renderers as in chat, in the picture workers, kept in a bounded cache), the moves as players
read them, and, for a game of hidden hands, every hand at each move (the game is over: nothing
is hidden any more; an unfinished game is never shown at all, `bot.web.access`).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot import info, review
from bot.core import Core, title
from bot.i18n import Translator
from bot.session import MoveRow, Session
from engines.base import Game, msg
from engines.review import Review
from render.base import RenderContext

CACHE_BYTES = 64 * 2**20  # pictures kept, at most
DRAWING = 2  # pictures the site draws at once, at most (the chat's pictures share the workers)


@dataclass(frozen=True)
class Step:
    ply: int  # moves made before this position (0: the start)
    seat: int | None  # who made the move that led here
    move: str  # the move, as its reader reads it ("" at the start)
    hands: tuple[str, ...] = ()  # every seat's hand here, in a finished game of hidden hands


def states(game: Game, session: Session, moves: list[MoveRow]) -> list[Any]:
    """The state after each number of moves: each move's stored state before it, the session's last."""
    return [game.from_json(m.state_before) for m in moves] + [game.from_json(session.state)]


def steps(game: Game, session: Session, moves: list[MoveRow], names: list[str], tr: Translator) -> list[Step]:
    """Each position of the game, with the move that led there; `names`: the seats' names."""
    found = [Step(0, None, "")]
    found += [Step(m.ply + 1, m.seat, tr(n)) for m, n in zip(moves, info.named(game, session, moves), strict=True)]
    if not game.hidden_hands:
        return found
    hands = [tuple(f"{names[s]}: {' '.join(game.private_lines(state, s, tr))}" for s in range(len(names)))
             for state in states(game, session, moves)]
    return [Step(s.ply, s.seat, s.move, h) for s, h in zip(found, hands, strict=True)]


def when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def names(session: Session, tr: Translator) -> list[str]:
    """The seats' names; a bot's in the reader's language."""
    return [tr(msg("host.ai_name", level=s.ai_level)) if s.user_id is None and s.ai_level else s.name
            for s in session.seats]


def context(game: Game, session: Session, state: Any, last: bool, tr: Translator) -> RenderContext:
    return RenderContext(
        names=tuple(names(session, tr)), to_move=None if last else game.to_move(state),
        outcome=session.outcome if last else None, tr=tr,
        ai_seats=frozenset(s.seat for s in session.seats if s.played_by_ai),
    )


class Pictures:
    """The pictures of replays, drawn once and kept (least recently used go first past `most` bytes)."""

    def __init__(self, core: Core, most: int = CACHE_BYTES) -> None:
        self.core, self.most, self.size = core, most, 0
        self._drawing = asyncio.Semaphore(DRAWING)
        self._kept: OrderedDict[tuple[int, str, int], bytes] = OrderedDict()

    async def review(self, session: Session, tr: Translator) -> bytes | None:
        """The picture of the finished `session`'s stored review (None: it was never reviewed; the site
        never starts one: `/review` in chat does, in the AI workers)."""
        key = (session.id or 0, tr.language, -1)
        if key not in self._kept:
            found = await stored_review(self.core, session)
            if found is None:
                return None
            game = self.core.game_of(session)
            view = {"game": game.name, "review": found.to_json(), "lines": review.lines(session, found, tr),
                    "title": tr(msg("review.title", game=title(game), count=len(found.chances) - 1))}
            ctx = RenderContext(names=tuple(names(session, tr)), to_move=None, outcome=None, tr=tr)
            async with self._drawing:
                self._keep(key, await self.core.pictures.draw("review", view, ctx))
        self._kept.move_to_end(key)
        return self._kept[key]

    def _keep(self, key: tuple[int, str, int], image: bytes) -> None:
        self._kept[key] = image
        self.size += len(image)
        while self.size > self.most and self._kept:
            self.size -= len(self._kept.popitem(last=False)[1])

    async def picture(self, session: Session, ply: int, tr: Translator) -> bytes | None:
        """The public picture after `ply` moves of the finished `session` (None: no such move)."""
        key = (session.id or 0, tr.language, ply)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        game = self.core.game_of(session)
        moves = await self.core.store.moves(session.id or 0)
        if not 0 <= ply <= len(moves):
            return None
        state = game.from_json(moves[ply].state_before if ply < len(moves) else session.state)
        ctx = context(game, session, state, ply == len(moves), tr)
        async with self._drawing:
            image = await self.core.pictures.draw(game.name, game.view(state, None), ctx)
        self._keep(key, image)
        return image


async def stored_review(core: Core, session: Session) -> Review | None:
    stored = await core.store.review(session.id or 0)
    return Review.from_json(json.loads(stored)) if stored is not None else None


def result(session: Session, tr: Translator) -> str:
    """The finished game's result, one line: who won and why, and the points where there are some."""
    outcome = session.outcome
    if outcome is None:
        return tr(msg("host.game_cancelled"))
    if outcome.winners:
        names = [session.seats[s].name for s in outcome.winners]
        line = tr(msg("host.result_line_win", count=len(names), names=names, reason=outcome.reason))
    else:
        line = tr(msg("host.result_line_draw", reason=outcome.reason))
    if outcome.scores:
        scores = tr(msg("host.scores", scores=[f"{s.name} {outcome.scores[s.seat]:+g}" for s in session.seats]))
        line = tr(msg("web.with_scores", result=line, scores=scores))
    return line
