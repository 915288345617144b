"""Chinese Checkers candidates for `bench.puzzles`: the ends of two-player games of the normal AI, each game
opened by three random forward moves a player (the AI itself draws nothing at random)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engines.checkers import Checkers
from engines.checkers.board import TIP_DISTANCE
from engines.checkers.puzzles import MOST_SLACK, Finder
from engines.checkers.state import GOAL_POINT
from engines.puzzles import puzzles_of

FEWEST, MOST = 3, 6  # the puzzles' moves


def endgames(seed: int, first: int = 0) -> Iterator[dict[str, Any]]:
    """Each position of a game where the seat to move can fill its goal in FEWEST..MOST moves with at
    most two first moves that can; at most one puzzle per seat and game."""
    game, kind = Checkers(), puzzles_of("checkers")
    for number in range(first, 10**9):
        rng = random.Random(f"{seed}:{number}")
        state = game.new_state({}, 2, number)
        done: set[int] = set()
        while (seat := game.to_move(state)) is not None:
            finder = Finder(2, seat)
            empty = finder.empty(state.board)
            if seat not in done and empty <= MOST:
                fewest = finder.fewest(state.board, min(MOST, empty + MOST_SLACK))
                if fewest is not None and fewest >= FEWEST:
                    puzzle = {"state": game.to_json(state), "moves": fewest, "from": f"self-play {seed}:{number}"}
                    if kind.verify(puzzle):
                        done.add(seat)
                        yield puzzle
            if state.turns[seat] < 3:
                table = TIP_DISTANCE[GOAL_POINT[2][seat]]
                move = rng.choice([m for m in game.legal_moves(state, seat) if table[m.to] < table[m.start]])
            else:
                move = game.ai(state, seat, "normal", game.levels["normal"], rng).move
            state = game.apply(state, seat, move)
