"""The 121-hole star: hole ids, labels, neighbour and jump tables, points and distances.

Coordinates are axial hex coordinates (q, r) with s = -q - r; the star is the
union of the two big triangles {q, r, s <= 4} and {q, r, s >= -4}. Rows are
horizontal on the picture: row 1 is the bottom tip, row 17 the top tip. Columns
are half a hole wide ("doubled" coordinates), lettered a..y from the left, so a
hole is named like a chess square: m9 is the centre, m1 the bottom tip, a5 the
left end of the widest lower row. A step changes the letter by 2 (along a row)
or the letter and the number by 1 each (diagonally); a jump doubles that.

Hole ids are integers 0..120 in reading order of the labels (row 1 first, then
left to right); every table below is indexed by them.
"""

from __future__ import annotations

import re
from collections import deque

Coord = tuple[int, int]

# The six directions, axial: E, NE, NW, W, SW, SE (r grows downwards on the picture).
DIRECTIONS: tuple[Coord, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _in_star(q: int, r: int) -> bool:
    s = -q - r
    return max(q, r, s) <= 4 or min(q, r, s) >= -4


def row_of(q: int, r: int) -> int:
    """1 (bottom tip) .. 17 (top tip)."""
    return 9 - r


def column_of(q: int, r: int) -> int:
    """0 (letter a) .. 24 (letter y): twice the horizontal position, from the left."""
    return 2 * q + r + 12


COORDS: tuple[Coord, ...] = tuple(
    sorted(
        ((q, r) for q in range(-8, 9) for r in range(-8, 9) if _in_star(q, r)),
        key=lambda c: (row_of(*c), column_of(*c)),
    )
)
SIZE = len(COORDS)
assert SIZE == 121
INDEX: dict[Coord, int] = {c: i for i, c in enumerate(COORDS)}
ROW: tuple[int, ...] = tuple(row_of(q, r) for q, r in COORDS)
COLUMN: tuple[int, ...] = tuple(column_of(q, r) for q, r in COORDS)
LABELS: tuple[str, ...] = tuple(f"{chr(ord('a') + c)}{row}" for c, row in zip(COLUMN, ROW, strict=True))
_BY_LABEL = {label: i for i, label in enumerate(LABELS)}


def label(hole: int) -> str:
    return LABELS[hole]


def parse_label(text: str) -> int | None:
    """The hole called `text` (case-insensitive, "M9" or "m9"), or None."""
    return _BY_LABEL.get(text.strip().lower())


LABEL_PATTERN = re.compile(r"[a-z]\d{1,2}")

# NEIGHBOURS[h][d]: the hole next to h in direction d, or -1.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in COORDS
)
# STEPS[h]: the holes next to h. JUMPS[h]: (hole jumped over, landing hole) in each direction where both exist.
STEPS: tuple[tuple[int, ...], ...] = tuple(tuple(n for n in ns if n >= 0) for ns in NEIGHBOURS)
JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (INDEX[(q + dq, r + dr)], INDEX[(q + 2 * dq, r + 2 * dr)])
        for dq, dr in DIRECTIONS
        if (q + dq, r + dr) in INDEX and (q + 2 * dq, r + 2 * dr) in INDEX
    )
    for q, r in COORDS
)
# OVER[(a, b)]: the hole between a and b when b is a jump away from a.
OVER: dict[tuple[int, int], int] = {(h, land): over for h in range(SIZE) for over, land in JUMPS[h]}
ADJACENT: frozenset[tuple[int, int]] = frozenset((h, n) for h in range(SIZE) for n in STEPS[h])


# --- the six points of the star ------------------------------------------------------
# Numbered clockwise on the picture from the bottom: 0 bottom, 1 lower left, 2 upper
# left, 3 top, 4 upper right, 5 lower right. Point p is opposite point (p + 3) % 6.
def _point_of(q: int, r: int) -> int | None:
    s = -q - r
    if r >= 5:
        return 0
    if q <= -5:
        return 1
    if s >= 5:
        return 2
    if r <= -5:
        return 3
    if q >= 5:
        return 4
    if s <= -5:
        return 5
    return None


POINT_OF: tuple[int | None, ...] = tuple(_point_of(q, r) for q, r in COORDS)
POINTS: tuple[tuple[int, ...], ...] = tuple(tuple(h for h in range(SIZE) if POINT_OF[h] == p) for p in range(6))
TIP_COORDS: tuple[Coord, ...] = ((-4, 8), (-8, 4), (-4, -4), (4, -8), (8, -4), (4, 4))
TIPS: tuple[int, ...] = tuple(INDEX[c] for c in TIP_COORDS)

# Where the seats sit, for each number of players (seat order = turn order, clockwise).
SEAT_POINTS: dict[int, tuple[int, ...]] = {
    2: (0, 3),
    3: (0, 2, 4),
    4: (0, 1, 3, 4),
    6: (0, 1, 2, 3, 4, 5),
}


def opposite(point: int) -> int:
    return (point + 3) % 6


def _distances(source: int) -> tuple[int, ...]:
    dist = [-1] * SIZE
    dist[source] = 0
    queue = deque([source])
    while queue:
        h = queue.popleft()
        for n in STEPS[h]:
            if dist[n] < 0:
                dist[n] = dist[h] + 1
                queue.append(n)
    return tuple(dist)


# TIP_DISTANCE[p][h]: steps from h to the tip of point p on the empty board. The ten
# holes of a point add up to FULL = 20, and any other ten holes to more.
TIP_DISTANCE: tuple[tuple[int, ...], ...] = tuple(_distances(t) for t in TIPS)
FULL = 20
assert all(sum(TIP_DISTANCE[p][h] for h in POINTS[p]) == FULL for p in range(6))
