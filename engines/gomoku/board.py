"""Board geometry: point names and the padded one-dimensional board the rules and the AI work on.

Points are named as in gomoku literature: columns a-o (a-s on 19x19) from the
left, rows 1-15 from the bottom, so h8 is the centre of the 15x15 board.

Layout: a point (col, row) of a `size` x `size` board lives at index
`(row + PAD) * stride + col + PAD` with `stride = size + PAD`. Every row is
preceded by PAD wall cells, which also serve as the walls after the previous
row, and PAD wall rows lie above and below; so from any point one can step up
to PAD cells in any of the four line directions without a bounds check.

Cell values: EMPTY 0, BLACK 1, WHITE 2, WALL 3. Black is seat 0 and moves first.
"""

from __future__ import annotations

import re
from functools import cache

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
PAD = 5
SIZES = (15, 19)
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Geometry:
    """Index arithmetic of one board size (see the module docstring)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.stride = stride = size + PAD
        self.length = (size + 2 * PAD) * stride + PAD
        self.dirs = (1, stride, stride + 1, stride - 1)  # horizontal, vertical, diagonal, anti-diagonal
        self.points = tuple(self.index(c, r) for r in range(size) for c in range(size))

    def index(self, col: int, row: int) -> int:
        return (row + PAD) * self.stride + col + PAD

    def colrow(self, index: int) -> tuple[int, int]:
        row, col = divmod(index, self.stride)
        return col - PAD, row - PAD

    def empty_board(self) -> list[int]:
        cells = [WALL] * self.length
        for p in self.points:
            cells[p] = EMPTY
        return cells


@cache
def geometry(size: int) -> Geometry:
    return Geometry(size)


def point_name(col: int, row: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


_POINT = re.compile(r"^\s*(?:([a-z])\s*(\d{1,3})|(\d{1,3})\s*([a-z]))\s*$")


def parse_point(text: str) -> tuple[str, int] | None:
    """`H8`, `h8`, `8h`, `h 8` -> ("h", 8) (column letter, row number as typed); None if unreadable.

    ASCII only: the host normalises input with NFKC first, so a full-width `Ｈ８` arrives as `H8`."""
    m = _POINT.match(text.lower())
    if not m:
        return None
    if m[1]:
        return m[1], int(m[2])
    return m[4], int(m[3])
