"""Exact endgame search with all hands known (one "world"), used when few cards remain.

`wins(...)` answers whether the landlord's side wins against best play from
both sides; the AI asks it in every world that agrees with what it has seen
(every way the unseen cards can lie, or a sample of them) and plays the move
that wins in the most worlds.
"""

from __future__ import annotations

from functools import lru_cache

from engines.budget import Budget, OutOfWork
from engines.doudizhu.cards import Counts
from engines.doudizhu.plan import minus
from engines.doudizhu.rules import Combo, Play, all_plays, answers

Trick = tuple[Combo, int] | None  # the play to beat and who made it


# The moves of a hand against a play (or on the lead) are shared by every search: the same hand meets the
# same play in many positions and many worlds.
@lru_cache(maxsize=200_000)
def _moves(hand: Counts, play: Combo | None) -> tuple[Play | None, ...]:
    plays: list[Play | None] = list(all_plays(hand) if play is None else answers(hand, play))
    total = sum(hand)
    plays.sort(key=lambda p: (p.combo.size != total, -p.combo.size, p.combo.rank))  # type: ignore[union-attr]
    return (*plays, None) if play is not None else tuple(plays)


class Solver:
    """Best play from both sides, each new position searched a unit of `budget` (`OutOfWork` past it).
    `memo` keeps what it found, for every budget it is given later."""

    def __init__(self, landlord: int, budget: Budget) -> None:
        self.landlord = landlord
        self.budget = budget
        self.memo: dict[tuple[tuple[Counts, Counts, Counts], int, Trick], bool] = {}

    def moves(self, hand: Counts, trick: Trick) -> tuple[Play | None, ...]:
        """Plays worth searching, the ones that empty the hand and the bigger ones first; None is a pass."""
        return _moves(hand, None if trick is None else trick[0])

    def landlord_wins(self, hands: tuple[Counts, Counts, Counts], turn: int, trick: Trick) -> bool:
        key = (hands, turn, trick)
        known = self.memo.get(key)
        if known is not None:
            return known
        # budget.tick(), written out: the most frequent call of the Dou Dizhu AI
        budget = self.budget
        used = budget.used = budget.used + 1
        if used > budget.end:
            raise OutOfWork
        if not used & budget.mask and budget.past_deadline():
            budget.stop()
        maximise = (turn == self.landlord)
        result = not maximise
        for move in self.moves(hands[turn], trick):
            if self.after(hands, turn, trick, move) == maximise:
                result = maximise
                break
        self.memo[key] = result
        return result

    def after(self, hands: tuple[Counts, Counts, Counts], turn: int, trick: Trick, move: Play | None) -> bool:
        """Whether the landlord wins after `turn` makes `move` (None: pass)."""
        nxt = (turn + 1) % 3
        if move is None:
            assert trick is not None
            return self.landlord_wins(hands, nxt, None if nxt == trick[1] else trick)
        hand = minus(hands[turn], move.counts)
        if not any(hand):
            return turn == self.landlord
        new = list(hands)
        new[turn] = hand
        return self.landlord_wins((new[0], new[1], new[2]), nxt, (move.combo, turn))
