"""Line patterns as lookup tables.

For an empty point and one of the four directions, the eight neighbours within
four steps (offsets -4..-1, +1..+4) are packed into a 16-bit key, two bits each
(0 empty, 1 black, 2 white, 3 wall); offset k sits at bit `2 * SLOT[k]`. The
tables say what a stone of a colour placed on the point would make along that
line, as one of the classes below (the strongest thing it could grow into with
further stones of its colour inside that nine-point window):

    F5  five                 F4  two five points (open four, or X.XXX.X)
    B4  one five point       F3  a move away from F4 (open three)
    B3  a move away from B4  F2, B2, F1, B1 likewise, one step further down
    DEAD no five can ever pass through the point along that line

The four classes of a point (one per direction) are summed into a *code*: class
k adds `1 << (3 * k)`, so a code counts the directions of each class in 3-bit
fields, and `code >= CLASS_BIT[k]` means "some direction reaches class k".

Fives are "five or more" or "exactly five" per colour (standard, renju). The
nine-point window cannot see a sixth stone five steps away, so for the exact
rules the tables may call such a five a five; the AI checks its final move
against the real rules (engines/gomoku/rules.py) and the game itself never uses
these tables.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement, product

DEAD, B1, F1, B2, F2, B3, F3, B4, F4, F5 = range(10)
NAMES = ("dead", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "F5")
CLASS_BIT = tuple(0 if k == DEAD else 1 << (3 * k) for k in range(10))
OFFSETS = (-4, -3, -2, -1, 1, 2, 3, 4)
SLOT = {k: i for i, k in enumerate(OFFSETS)}
# One class down: what a point is when one more own stone on the line would make the given class.
_DOWN = {F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1}

# Threat levels of a point for the side that would play there, strongest last.
T_NONE, T_TWO, T_THREE, T_DOUBLE_THREE, T_FOUR, T_FOUR_THREE, T_FLEX4, T_FIVE = range(8)

_OWN, _EMPTY, _BLOCK = 1, 0, 2


def _five_through_centre(line: tuple[int, ...], exact: bool) -> bool:
    lo = hi = 4
    while lo > 0 and line[lo - 1] == _OWN:
        lo -= 1
    while hi < 8 and line[hi + 1] == _OWN:
        hi += 1
    n = hi - lo + 1
    return n == 5 or (n > 5 and not exact)


@cache
def _classify(line: tuple[int, ...], exact: bool) -> int:
    """Class of the centre stone of a 9-cell line (own/empty/blocked, centre own)."""
    if _five_through_centre(line, exact):
        return F5
    fives = 0
    best = DEAD
    for i in range(9):
        if line[i] != _EMPTY:
            continue
        grown = (*line[:i], _OWN, *line[i + 1:])
        if _five_through_centre(grown, exact):
            fives += 1
        elif not fives:
            best = max(best, _DOWN.get(_classify(grown, exact), DEAD))
    if fives >= 2:
        return F4
    if fives == 1:
        return B4
    return best


def _valid_sides() -> list[tuple[int, ...]]:
    """The four cells on one side of a point, nearest first: walls only as a tail."""
    sides = []
    for walls in range(5):
        for inner in product((0, 1, 2), repeat=4 - walls):
            sides.append(tuple(inner) + (3,) * walls)
    return sides


@cache
def tables(exact_black: bool, exact_white: bool) -> tuple[list[int], list[int]]:
    """(black, white): key -> code contribution (CLASS_BIT of the class) of a stone placed there."""
    black = [0] * (1 << 16)
    white = [0] * (1 << 16)
    sides = _valid_sides()
    for left in sides:  # left[0] is offset -1, left[3] offset -4
        for right in sides:  # right[0] is offset +1
            cells = (*left[::-1], None, *right)
            key = 0
            for k, v in zip(OFFSETS, (*left[::-1], *right), strict=True):
                key |= v << (2 * SLOT[k])
            for colour, table, exact in ((1, black, exact_black), (2, white, exact_white)):
                line = tuple(
                    _OWN if i == 4 else _EMPTY if v == 0 else _OWN if v == colour else _BLOCK
                    for i, v in enumerate(cells)
                )
                table[key] = CLASS_BIT[_classify(line, exact)]
    return black, white


def counts(code: int) -> list[int]:
    """How many directions of each class a code holds (index = class)."""
    return [0] + [(code >> (3 * k)) & 7 for k in range(1, 10)]


def threat_of(code: int) -> int:
    c = counts(code)
    if c[F5]:
        return T_FIVE
    if c[F4] or c[B4] >= 2:
        return T_FLEX4
    if c[B4] and c[F3]:
        return T_FOUR_THREE
    if c[B4]:
        return T_FOUR
    if c[F3] >= 2:
        return T_DOUBLE_THREE
    if c[F3]:
        return T_THREE
    if c[F2] or c[B3]:
        return T_TWO
    return T_NONE


# What a point is worth to the side that could play there, for the static evaluation (the sum of
# these over every empty point, own minus the opponent's) and for move ordering.
CLASS_VALUE = (0, 1, 3, 6, 16, 20, 70, 80, 400, 2000)
THREAT_BONUS = {T_DOUBLE_THREE: 250, T_FOUR_THREE: 600, T_FLEX4: 1200, T_FIVE: 8000}


def value_of(code: int) -> int:
    c = counts(code)
    v = sum(CLASS_VALUE[k] * c[k] for k in range(1, 10))
    return v + THREAT_BONUS.get(threat_of(code), 0)


@cache
def code_tables() -> tuple[dict[int, int], dict[int, int]]:
    """(value, threat) of every code four directions can add up to."""
    values: dict[int, int] = {}
    threats: dict[int, int] = {}
    for combo in combinations_with_replacement(range(10), 4):
        code = sum(CLASS_BIT[k] for k in combo)
        values[code] = value_of(code)
        threats[code] = threat_of(code)
    return values, threats
