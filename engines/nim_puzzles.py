"""Nim puzzles: a position with exactly one winning move, in normal play, misère or with `max=K`.

Made on the spot from a number (no data file): the same number always makes the same puzzle.
The perfect player's theory (`nim.mover_loses`, checked against a brute-force solver in
tests/engines/test_nim.py) finds the winning moves; a puzzle is solved by the one move.
"""

from __future__ import annotations

import random

from engines.base import JSON, Msg, Translate, msg
from engines.nim import Nim, State, mover_loses
from engines.puzzles import SOLVED, WRONG, Answer, Picture, Puzzles

COUNT = 200  # puzzles numbered 0..COUNT-1
_GAME = Nim()


def winning(state: State) -> list[str]:
    moves = _GAME.legal_moves(state, state.turn)
    return [_GAME.move_text(state, m) for m in moves if mover_loses(_GAME.apply(state, state.turn, m))]


def make(number: int) -> JSON:
    """Puzzle `number`: every third one misère, every third one with a most per move."""
    rng = random.Random(f"nim:{number}")
    misere, most = number % 3 == 1, (rng.randint(2, 5) if number % 3 == 2 else None)
    while True:
        heaps = [rng.randint(1, 15) for _ in range(rng.randint(3, 5))]
        state = State(tuple(heaps), most, misere, 0, None, tuple(heaps))
        if len(winning(state)) == 1 and sum(heaps) >= 12:
            return {"heaps": heaps, "max": most, "misere": misere}


class NimPuzzles(Puzzles):
    game = "nim"

    def goal(self, puzzle: JSON) -> Msg:
        variant = "misere" if puzzle["misere"] else "max" if puzzle["max"] else "normal"
        return msg(f"puzzle.nim_goal_{variant}", most=puzzle["max"] or 0)

    def start(self, puzzle: JSON) -> JSON:
        return _GAME.to_json(_GAME.new_state({"heaps": puzzle["heaps"], "max": puzzle["max"],
                                              "misere": puzzle["misere"]}, 2, 0))

    def answer(self, puzzle: JSON, position: JSON, text: str) -> Answer:
        state = _GAME.from_json(position)
        move = _GAME.parse_move(state, state.turn, text)
        after = _GAME.apply(state, state.turn, move)
        if mover_loses(after):
            return Answer(SOLVED, _GAME.to_json(after))
        return Answer(WRONG, position, better=winning(state)[0])

    def solution(self, puzzle: JSON, position: JSON) -> list[str]:
        return winning(_GAME.from_json(position))[:1]

    def picture(self, puzzle: JSON, position: JSON) -> Picture:
        state = _GAME.from_json(position)
        return Picture("nim", dict(_GAME.view(state, None)), 2, (0,), state.turn)

    def text(self, puzzle: JSON, position: JSON, tr: Translate) -> str:
        return _GAME.text(_GAME.view(_GAME.from_json(position), None), tr)

    def verify(self, puzzle: JSON) -> bool:
        return len(winning(_GAME.from_json(self.start(puzzle)))) == 1
