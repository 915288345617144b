"""The Chinese Checkers computer players, at the levels of `levels.py`.

- easy: greedy — the piece that can go farthest (largest gain in distance to goal; among equals the
  piece farthest behind, then one at random).
- normal: lookahead of three plies on distance to goal alone.
- hard: iterative deepening (1, 3, 5, ... plies) within its budget of nodes, and an evaluation that also
  counts pieces left behind and pieces straying from the straight line to the goal. With two players it
  plans instead (`beam.OwnBeam`: 200 sets of its pieces kept a round, 10 rounds, the other standing
  still) until the other is within PLAN_UNTIL steps of home; then the alpha-beta takes over, so as not
  to hand it a win. At six seats it plans too (`beam.GreedyBeam`: 80 boards a round, 8 rounds, every
  other player making its longest move after each of its own), its own distance alone scored:
  hindering the nearest of five rivals costs it tempo.

The searches are in `search.py` (alpha-beta with two players, best-reply with more, and the AI's own
moves alone once nobody can get in its way), the planners in `beam.py`, the board they play on in
`position.py`. A level is an amount of work, never of time: its `Limit.work` is counted on one
`Budget` (engines/budget.py), so the same position, level and random generator give the same move on
an idle machine and on a busy one.

A small bonus for progress made now, growing while nobody makes progress, breaks ties between
waiting and moving on, so the AI does not dawdle.
"""

from __future__ import annotations

import random

from engines.base import AIInfo, AIResult, Limit
from engines.budget import Budget
from engines.checkers import board as B
from engines.checkers.beam import GreedyBeam, OwnBeam
from engines.checkers.levels import LEVELS
from engines.checkers.position import Position, Step, reach
from engines.checkers.rules import shortest_path
from engines.checkers.search import AlphaBeta, BestReply, Solo, apart, deepen
from engines.checkers.state import GOAL, Move, State

# With two players hard plans until the other's distance to goal is this low (then it searches
# both sides, so as not to hand the other a win).
PLAN_UNTIL = 12
# Bonus per step of progress of the move played, and its growth per round without progress.
URGE, URGE_PER_ROUND = 0.25, 0.5


def greedy(pos: Position, seat: int, rng: random.Random) -> Step:
    """The move that goes farthest toward the goal; among equals, the rearmost piece; then at random."""
    dist = pos.dist[seat]
    moves = pos.moves(seat)
    best = max(reach(dist, start, to) for start, to in moves)
    return rng.choice([(start, to) for start, to in moves if reach(dist, start, to) == best])


def choose(state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
    """The move of `seat` (the seat to move) at `level`, by the shortest path to the hole it chose."""
    (start, to), info = _choose(state, seat, level, limit, rng)
    path = shortest_path(state.board, start, to, GOAL[state.seats][seat])
    assert path is not None, "the AI chose an unreachable hole"
    return AIResult(Move(path), info)


def _choose(state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> tuple[Step, AIInfo]:
    pos = Position(state)
    two = state.seats == 2
    settings = LEVELS[level]
    search = settings.two if two else settings.six if state.seats == 6 and settings.six else settings.more
    if search is None:
        return greedy(pos, seat, rng), AIInfo(work=1, depth=1, reason="greedy")
    moves = pos.ordered(seat)
    if len(moves) == 1:
        return moves[0], AIInfo(work=0, depth=0, reason="forced")
    # The longer nobody has made progress, the more the AI prefers progress to waiting.
    urge = URGE + URGE_PER_ROUND * (state.idle // state.seats)
    work = limit.scaled(search.work)
    if search.plan and two and pos.sum[1 - seat] - B.FULL > PLAN_UNTIL:
        return OwnBeam(pos, seat, search, Budget(work)).run(urge)
    if apart(pos, seat, 1 if two else 3):
        return deepen(Solo(pos, seat, search, Budget(work)), moves[: search.root], search.solo, urge)
    if search.beam:
        return GreedyBeam(pos, seat, search, Budget(work, every=GreedyBeam.CLOCK_EVERY)).run(urge)
    alpha_beta = (AlphaBeta if two else BestReply)(pos, seat, search, Budget(work))
    return deepen(alpha_beta, moves[: search.root], search.depths, urge)
