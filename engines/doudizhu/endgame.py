"""Exact Dou Dizhu endgames: every move tried in the worlds of the unseen cards, each solved with best
play from both sides (`solver.py`); the move that wins in the most worlds is played."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from engines.budget import Budget, OutOfWork
from engines.doudizhu.heuristics import calm, normal_follow, normal_lead
from engines.doudizhu.knowledge import Knowledge, sample_worlds
from engines.doudizhu.levels import Level
from engines.doudizhu.rules import BOMB, ROCKET, Play, all_plays, answers
from engines.doudizhu.solver import Solver


class Verdict(Enum):
    SOLVED = "solved"  # the move wins in the most worlds
    UNKNOWN = "unknown"  # too big, beyond the budget, or too few worlds solved: the heuristics decide
    LOST = "lost"  # every world was solved, and lost


@dataclass(frozen=True)
class Endgame:
    """What the exact endgames say, and the move when they solved it."""

    verdict: Verdict
    move: Play | None = None


UNKNOWN, LOST = Endgame(Verdict.UNKNOWN), Endgame(Verdict.LOST)


def endgame(me: Knowledge, rng: random.Random, level: Level, budget: Budget) -> Endgame:
    """The move that wins in the most consistent worlds with perfect play (from `level.cards` cards left in
    all, in at most `level.worlds` worlds). At most `level.world_nodes` positions per world (a world too big
    is left out), and the worlds are solved in turn while the budget lasts."""
    if me.landlord is None or sum(me.counts) > level.cards:
        return UNKNOWN
    if me.trick is None:
        moves: list[Play | None] = list(all_plays(me.hand))
    else:
        moves = [*answers(me.hand, me.trick[1]), None]
    if len(moves) == 1:
        return Endgame(Verdict.SOLVED, moves[0])
    worlds = sample_worlds(me, level.worlds, rng)
    trick = None if me.trick is None else (me.trick[1], me.trick[0])
    on_my_side = me.seat == me.landlord
    wins = [0.0] * len(moves)
    solver = Solver(me.landlord, budget)
    done = 0
    for world, weight in worlds:
        units = min(level.world_nodes, budget.left)  # the limit is per world: a world too big to solve is left out
        if units <= 0:
            break
        solver.budget = per_world = budget.sub(units)
        try:
            won = []
            for move in moves:
                if move is None:
                    nxt = me.next_seat()
                    assert trick is not None
                    landlord_wins = solver.landlord_wins(world, nxt, None if nxt == trick[1] else trick)
                else:
                    landlord_wins = solver.after(world, me.seat, trick, move)
                won.append(landlord_wins == on_my_side)
        except OutOfWork:
            won = []
        budget.absorb(per_world, most=per_world.work)  # the position past the world's work was not searched
        if won:
            done += 1
            wins = [w + weight * x for w, x in zip(wins, won, strict=True)]
        if budget.over():
            break
        if len(solver.memo) > 400_000:
            solver.memo.clear()
    if done < min(level.min_worlds, len(worlds)) or done == 0:
        return UNKNOWN  # too few worlds solved to go by
    best = max(wins)
    if best == 0:
        return LOST if done == len(worlds) else UNKNOWN  # lost in every world: the heuristics play on
    good = [m for m, w in zip(moves, wins, strict=True) if w == best]
    if len(good) == 1:
        return Endgame(Verdict.SOLVED, good[0])
    # Among equally good moves prefer what the heuristics prefer.
    good = calm(me, good)
    preferred = normal_lead(me) if me.trick is None else normal_follow(me)
    if preferred in good:
        return Endgame(Verdict.SOLVED, preferred)
    plays = [m for m in good if m is not None]
    if not plays:
        return Endgame(Verdict.SOLVED, None)
    return Endgame(Verdict.SOLVED, max(plays, key=lambda p: (p.combo.kind not in (BOMB, ROCKET), p.combo.size,
                                                              -p.combo.rank)))
