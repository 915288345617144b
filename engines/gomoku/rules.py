"""Gomoku rules on a padded one-dimensional board, shared by the engine and the AI.

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
RULES = ("freestyle", "standard", "renju")
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
    """`H8`, `h8`, `8h`, `h 8` -> ("h", 8) (column letter, row number as typed); None if unreadable."""
    m = _POINT.match(text.lower())
    if not m:
        return None
    if m[1]:
        return m[1], int(m[2])
    return m[4], int(m[3])


# --- lines through a stone -------------------------------------------------------------------


def run_length(cells: list[int], p: int, step: int, colour: int) -> tuple[int, int]:
    """Stones of `colour` in a row through p along ±step: (count, index of the first one)."""
    first = p
    q = p - step
    while cells[q] == colour:
        first = q
        q -= step
    q = p + step
    n = (p - first) // step + 1
    while cells[q] == colour:
        n += 1
        q += step
    return n, first


def winning_line(cells: list[int], geo: Geometry, p: int, rule: str) -> list[int] | None:
    """The five (or more, where that wins) through the stone just played at p, else None."""
    colour = cells[p]
    exact = rule == "standard" or (rule == "renju" and colour == BLACK)
    for step in geo.dirs:
        n, first = run_length(cells, p, step, colour)
        if n == 5 or (n > 5 and not exact):
            return [first + i * step for i in range(n)]
    return None


# --- renju: black's forbidden moves ----------------------------------------------------------
# All direction steps are positive, so along a line the indices grow.


def _five_points(cells: list[int], p: int, step: int) -> list[int]:
    """Empty points on the line through black's stone at p where black would make exactly five with it."""
    found = []
    for k in (-4, -3, -2, -1, 1, 2, 3, 4):
        q = p + k * step
        if cells[q] != EMPTY:
            continue
        cells[q] = BLACK
        n, first = run_length(cells, q, step, BLACK)
        if n == 5 and first <= p <= first + 4 * step:
            found.append(q)
        cells[q] = EMPTY
    return found


def _four_count(cells: list[int], p: int, step: int) -> int:
    """How many fours black's stone at p makes along this line (a straight four counts once)."""
    points = _five_points(cells, p, step)
    if len(points) == 2:
        a, b = points
        if b - a == 5 * step and all(cells[a + i * step] == BLACK for i in range(1, 5)):
            return 1  # .XXXX. is one (straight) four
    return len(points)


def _is_straight_four(cells: list[int], p: int, step: int) -> bool:
    """Black's stone at p is in exactly four in a row, and both ends would make exactly five."""
    n, first = run_length(cells, p, step, BLACK)
    if n != 4:
        return False
    for end in (first - step, first + 4 * step):
        if cells[end] != EMPTY:
            return False
        cells[end] = BLACK
        five = run_length(cells, end, step, BLACK)[0] == 5
        cells[end] = EMPTY
        if not five:
            return False
    return True


def _open_three(cells: list[int], dirs: tuple[int, ...], p: int, step: int, depth: int) -> bool:
    """Black's stone at p makes a real open three along `step`: one more black stone, on a point
    that is not itself forbidden, makes a straight four."""
    for k in (-4, -3, -2, -1, 1, 2, 3, 4):
        q = p + k * step
        if cells[q] != EMPTY:
            continue
        cells[q] = BLACK
        straight = _is_straight_four(cells, p, step)
        cells[q] = EMPTY
        if straight and forbidden(cells, dirs, q, depth + 1) is None:
            return True
    return False


def forbidden(cells: list[int], dirs: tuple[int, ...], p: int, depth: int = 0) -> str | None:
    """Why black may not play the empty point p under renju: "overline", "double_four",
    "double_three", or None when it may. `cells` is left as it was."""
    if cells[p] != EMPTY:
        return None
    cells[p] = BLACK
    try:
        runs = [run_length(cells, p, step, BLACK)[0] for step in dirs]
        if 5 in runs:
            return None  # a five wins, whatever else the stone makes
        if any(n > 5 for n in runs):
            return "overline"
        fours = 0
        four_dirs = []
        for step in dirs:
            f = _four_count(cells, p, step)
            if f:
                fours += f
                four_dirs.append(step)
        if fours >= 2:
            return "double_four"
        threes = 0
        for step in dirs:
            if step not in four_dirs and _open_three(cells, dirs, p, step, depth):
                threes += 1
                if threes >= 2:
                    return "double_three"
        return None
    finally:
        cells[p] = EMPTY
