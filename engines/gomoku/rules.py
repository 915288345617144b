"""Gomoku rules: five in a row, and renju's forbidden moves for black.

The line functions work on the padded board of `board.py` (a list of cells);
`padded`, `forbidden_reason` and `forbidden_points` answer the same questions
for a `State`.
"""

from __future__ import annotations

from engines.gomoku.board import BLACK, EMPTY, Geometry, geometry
from engines.gomoku.state import Point, State

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


# --- the same questions for a State ------------------------------------------------------------


def padded(state: State) -> list[int]:
    """The board of `state` in the padded layout."""
    geo = geometry(state.size)
    cells = geo.empty_board()
    for i, v in enumerate(state.board):
        if v:
            cells[geo.index(i % state.size, i // state.size)] = v
    return cells


def forbidden_reason(state: State, point: Point) -> str | None:
    """Renju: why black may not play `point` now (None: it may, or the rule is not renju)."""
    if state.rule != "renju" or state.turn != 0 or state.at(point) != EMPTY:
        return None
    geo = geometry(state.size)
    return forbidden(padded(state), geo.dirs, geo.index(point.col, point.row))


def forbidden_points(state: State) -> list[Point]:
    """Renju: every point black may not play now (empty when white is to move or the rule differs)."""
    if state.rule != "renju" or state.turn != 0 or state.over:
        return []
    geo = geometry(state.size)
    cells = padded(state)
    return [point for point in _points_near_black(state, geo, cells)
            if forbidden(cells, geo.dirs, geo.index(*point)) is not None]


def _points_near_black(state: State, geo: Geometry, cells: list[int]) -> list[Point]:
    """Empty points that could be forbidden: at least two lines through them hold two black stones within
    four points, or one line holds four or more."""
    out = []
    for r in range(state.size):
        for c in range(state.size):
            p = geo.index(c, r)
            if cells[p] != EMPTY:
                continue
            busy = 0
            for step in geo.dirs:
                n = sum(1 for k in (-4, -3, -2, -1, 1, 2, 3, 4) if cells[p + k * step] == BLACK)
                if n >= 4:
                    busy += 2
                elif n >= 2:
                    busy += 1
            if busy >= 2:
                out.append(Point(c, r))
    return out
