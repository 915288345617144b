"""The Dou Dizhu AI: bidding and play at three levels (`levels.py`), from what one seat may see.

`choose(state, seat, level, limit, rng)` builds the seat's private view and hands the AI nothing else
(`knowledge.py`).

- Bidding (`bidding.py`): the hand's value against thresholds.
- easy: the fast policy (`policies.py`) with now and then a careless move.
- normal: the heuristics (`heuristics.py`): every candidate scored by the split of what would be left;
  exact endgames (`endgame.py`) from 24 cards left in all, in up to 20 worlds of the unseen cards; from
  34 cards left down to those endgames its best candidates played out (`playouts.py`) with at most
  2,500 units.
- hard: the same exact endgames (up to 40 worlds, 4 solved at least), elsewhere normal's best candidates
  played out in worlds of the unseen cards by a fast policy for every seat that answers an enemy's play
  whenever it can without a bomb, within the budget.

A level is an amount of work (`Limit.work`), never of time: one unit is one position the exact endgame
solver searches or one move of a simulated playout, counted on one `Budget` (engines/budget.py). The
same view, level and random generator give the same move on an idle machine and on a busy one.
"""

from __future__ import annotations

import random

from engines.base import AIInfo, AIResult, Limit
from engines.budget import Budget
from engines.doudizhu.bidding import choose_bid
from engines.doudizhu.cards import ranks_of_counts
from engines.doudizhu.endgame import Verdict, endgame
from engines.doudizhu.heuristics import ranked_moves
from engines.doudizhu.knowledge import Knowledge, knowledge
from engines.doudizhu.levels import LEVELS, Level
from engines.doudizhu.playouts import race
from engines.doudizhu.policies import easy_play
from engines.doudizhu.rules import Play
from engines.doudizhu.state import PASS, DdzPrivateView, Move, State, view


def to_move(play: Play | None) -> Move:
    return PASS if play is None else Move("play", ranks=ranks_of_counts(play.counts))


def searched_play(me: Knowledge, rng: random.Random, budget: Budget, level: Level) -> Play | None:
    """Normal's and hard's play: the exact endgames where they answer, else the heuristics' best
    candidates played out against each other."""
    exact = budget.part(level.share)
    solved = endgame(me, rng, level, exact)
    budget.absorb(exact)
    if solved.verdict is Verdict.SOLVED:
        return solved.move
    ranked = ranked_moves(me)
    if solved.verdict is Verdict.LOST and not level.race_lost:
        return ranked[0][1]
    if len(ranked) == 1 or ranked[0][0] >= 900 or level.race_work <= 0 or sum(me.counts) > level.race_cards:
        return ranked[0][1]
    top = [ranked[0]] + [item for item in ranked[1:level.candidates] if item[0] >= ranked[0][0] - level.margin]
    if len(top) == 1:
        return top[0][1]
    racing = budget.part(min(1.0, level.race_work / max(1, budget.left)))
    move = race(me, [move for _, move in top], rng, racing, eager=level.eager)
    budget.absorb(racing)
    return move


def choose(state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
    """The move of `seat` (the seat to move) at `level` ("easy", "normal", "hard"). The AI is handed
    only `seat`'s own view of the state, never the other hands."""
    return decide(view(state, seat), level, limit, rng)


def decide(seen: DdzPrivateView, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
    """The move of the seat whose private view `seen` is."""
    budget = Budget(limit)
    settings = LEVELS[level]
    me = knowledge(seen)
    if me.bidding:
        return AIResult(choose_bid(me, settings, rng), AIInfo(reason="bid", work=0))
    move = easy_play(me, rng) if settings.careless else searched_play(me, rng, budget, settings)
    info = AIInfo(work=budget.used)
    if budget.stalled:
        info["reason"] = "seconds"
    return AIResult(to_move(move), info)
