"""The Chinese Checkers AI's levels: how each one searches at each table size, beside the work it may
spend on a move.

A level's `limit.work` is the number of search nodes a move may visit with two players (every
iteration of the deepening counted; `Search.work` scales it for more), calibrated so that hard takes
under a second of an idle core and normal always finishes its 3 plies (300 nodes at most); the
seconds are a ceiling for a stalled host only. Easy does not search. `Checkers.levels` is made from
these.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.base import Limit

# Evaluation: distance to goal, plus STRAGGLE per step a piece is more than LAG steps
# behind the average of its side, plus CENTRE per hole a piece is off the straight line
# from its start to its goal (tuned by self-play at depth 3).
STRAGGLE, LAG, CENTRE = 1.5, 3.0, 0.25


@dataclass(frozen=True)
class Search:
    """How a level searches at one table size."""

    depths: tuple[int, ...]  # plies searched in turn (odd, so that the AI's own move comes last)
    solo: tuple[int, ...]  # the same for the search over the AI's own moves alone (a race without contact)
    root: int  # moves searched at the root, at inner nodes and at the last ply (the best by gain)
    inner: int
    leaf: int
    straggle: float = STRAGGLE  # evaluation weights (0: distance alone)
    centre: float = CENTRE
    lag: float = LAG
    work: float = 1.0  # share of the level's work it may use
    plan: tuple[int, int] | None = None  # two players: the beam over its own moves, (width, rounds)
    beam: tuple[int, int] | None = None  # the beam over its own moves with the others' longest replies


@dataclass(frozen=True)
class Level:
    limit: Limit  # the nodes of one move, and the ceiling for a stalled host
    two: Search | None  # with two players (None: the greedy move, no search)
    more: Search | None  # with three or more
    six: Search | None = None  # at six seats, where it differs from `more`


_HARD_MORE = Search((1, 3, 5, 7, 9), (1, 2, 3, 4, 5, 6), root=30, inner=4, leaf=8, work=0.6)

LEVELS = {
    "easy": Level(Limit(1, 1.0), None, None),
    "normal": Level(
        Limit(2_000, 2.0),
        two=Search((1, 3), (1, 2, 3), root=24, inner=8, leaf=6, straggle=0.0, centre=0.0),
        # With three or more players a node costs about 1.7 times as much (the replies of every other
        # player are generated): the level's nodes are scaled by `work`, so a move takes about as long.
        more=Search((1, 3), (1, 2, 3), root=20, inner=3, leaf=6, straggle=0.0, centre=0.0, work=0.6),
    ),
    "hard": Level(
        Limit(24_000, 4.0),
        two=Search((1, 3, 5, 7, 9), (1, 2, 3, 4, 5, 6), root=40, inner=10, leaf=8, plan=(200, 10)),
        more=_HARD_MORE,
        # At six seats: a beam over its own moves, the others playing their longest moves after each
        # (`GreedyBeam`): 80 boards a round, 8 rounds (at most 1,121 nodes: the work, 1,200, never cuts
        # it at the level), stragglers half as dear.
        six=replace(_HARD_MORE, beam=(80, 8), work=0.05, straggle=0.75),
    ),
}
