"""Gomoku positions built for tests: the stones given, padded with far-off corner stones."""

from __future__ import annotations

from engines.gomoku import Gomoku, State

GAME = Gomoku()
FILLER = ["a1", "o15", "a15", "o1", "a5", "o11", "e1", "k15", "a11", "o5", "c15", "m1"]


def position(black: list[str], white: list[str], rule: str = "freestyle", to_move: int = 0, size: int = 15) -> State:
    """A position with these stones and `to_move` to play; stones far away in the corners even out the counts."""
    black, white = list(black), list(white)
    filler = [f for f in FILLER if f not in black + white]
    while len(black) < len(white) + (1 if to_move == 1 else 0):
        black.append(filler.pop(0))
    while len(white) < len(black) - (1 if to_move == 1 else 0):
        white.append(filler.pop(0))
    moves = [m for pair in zip(black, [*white, None], strict=False) for m in pair if m]
    return GAME.from_json({"size": size, "rule": rule, "moves": moves, "win_line": []})
