"""The Dou Dizhu AI's levels: how each one bids and plays, beside the work it may spend on a move.

A level's `limit.work` counts positions of the exact endgame solver and moves of simulated
playouts, calibrated so that hard takes under a second of an idle core and most of normal's moves
a millisecond; the seconds are a ceiling for a stalled host only. `DouDizhu.levels` is made from these.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import Limit


@dataclass(frozen=True)
class Level:
    """How a level plays. `careless` (easy): the groups of its best split, now and then a careless move,
    bids with some noise, no search. Otherwise: exact endgames from `cards` cards left in all, in at
    most `worlds` worlds of at most `world_nodes` positions each, with `share` of the work; then
    playouts of its best candidates (at most `candidates`, within `margin` of the best heuristic score)
    with what is left, at most `race_work` of it."""

    limit: Limit  # the work of one move, and the ceiling for a stalled host
    careless: bool = False
    cards: int = 0
    worlds: int = 0
    world_nodes: int = 0
    share: float = 0.0
    candidates: int = 0
    margin: float = 0.0
    race_work: int = 0
    race_lost: bool = False  # play out the candidates also when the endgame is lost in every world against best play
    min_worlds: int = 1  # the endgame's answer counts only if it solved this many worlds (or all there are)
    race_cards: int = 54  # playouts only with at most this many cards left in all
    eager: bool = False  # the playouts' seats answer an enemy's play whenever they can without a bomb


LEVELS = {
    "easy": Level(Limit(1, 1.0), careless=True),
    # Normal: exact endgames from 24 cards left in all; from 34 cards left down to the endgames, playouts
    # of its best candidates with at most 2,500 units; its heuristics alone above 34 cards.
    "normal": Level(Limit(30_000, 2.0), cards=24, worlds=20, world_nodes=20_000, share=1.0, candidates=6,
                    margin=15.0, race_work=2_500, race_lost=False, race_cards=34),
    # Hard: exact endgames from 24 cards left in all, an endgame answer only from 4 solved worlds or more
    # (or every world there is), and playouts also where every world is lost against best play (people are
    # not best play); in its playouts every seat answers an enemy's play whenever it can without a bomb.
    "hard": Level(Limit(70_000, 4.0), cards=24, worlds=40, world_nodes=40_000, share=0.4, candidates=6,
                  margin=15.0, race_work=10**9, race_lost=True, min_worlds=4, eager=True),
}
