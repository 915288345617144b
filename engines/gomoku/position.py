"""The AI's board: stones plus incrementally kept line patterns, threat sets and a Zobrist hash.

Everything the search asks per node is kept up to date by `make` instead of
being recomputed, and `unmake` puts back what `make` saved (the codes and keys
on the four lines through the stone as list slices, the totals, and the
threat-set changes, which it replays undone in their order so that the sets go
through the operations of a full rescoring, and so iterate in its order: the
moves searched depend on that order):

- `keys[p * 4 + d]`: the 16-bit neighbourhood key of point p along direction d
  (see patterns.py); placing a stone changes the keys of the (at most) 32
  points within four steps along the four lines through it. Only the keys of
  empty points are kept: a taken point's keys and patterns stay as they were
  when its stone came, which is what they are again when it goes (make and
  unmake are last-in first-out, so every stone placed after it is gone by then).
- `code[c][p]`: the sum over the four directions of the class bit of colour c
  at p along each, looked up from its key (`table[c][key]`).
- `total[c]`: the sum of `VALUE[code]` over the empty points (the static
  evaluation is own total minus the opponent's).
- `fours[c]`: empty points where c would make a four or better (the VCF
  moves and every five threat); `threes[c]`: where c would make an open three
  or better (the VCT moves).
- `cand`: the candidate moves, the empty points within two points of a stone
  (a square of 5x5). Kept as bit masks: `reach` (every point of the squares
  around the stones; its past value is in `unmake`'s stack) and `taken`; the
  set is built only when asked for (the PVS asks at a few nodes in ten, the
  threat searches never), so a move costs two integer operations here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress, count
from typing import Any

from engines.gomoku.board import BLACK, EMPTY, WHITE, Geometry, geometry
from engines.gomoku.patterns import (
    B4,
    CLASS_BIT,
    F3,
    F4,
    F5,
    OFFSETS,
    SLOT,
    code_tables,
    tables,
)
from engines.gomoku.rules import forbidden

VALUE, THREAT = code_tables()
BIT_F5, BIT_F4, BIT_B4, BIT_F3 = CLASS_BIT[F5], CLASS_BIT[F4], CLASS_BIT[B4], CLASS_BIT[F3]
B4_SHIFT = 3 * B4
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")  # binary digits as bytes 0 and 1


class _Static:
    """Per board size: the neighbour lists every `make` walks, and Zobrist numbers."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        n = geo.length
        on_board = [False] * n
        for p in geo.points:
            on_board[p] = True
        # For each point p and colour c: (q * 4 + d, q, key delta) of every board point q within four
        # steps of p along direction d (p sits at offset -k of q when q = p + k * step): what a stone
        # of c coming on p changes.
        self.update: list[list[list[tuple[int, int, int]]]] = [[[] for _ in range(n)] for _ in range(3)]
        # The same points as (q, d) grouped by direction, for finding a four's five point.
        self.line: list[list[int]] = [[] for _ in range(n)]
        for p in geo.points:
            for d, step in enumerate(geo.dirs):
                for k in OFFSETS:
                    q = p + k * step
                    if on_board[q]:
                        shift = 2 * SLOT[-k]
                        for c in (BLACK, WHITE):
                            self.update[c][p].append((q * 4 + d, q, c << shift))
                        self.line[p].append(q)
        # What a stone on p can change, as slices (`make` saves them, `unmake` puts them back): `code` at
        # the nine points p + k * step (k = -4..4) of each direction, and `keys` of direction d at the
        # nine points along d. Some of them are walls or taken points, whose entries do not change.
        self.code_slices: list[tuple[slice, ...]] = [()] * n
        self.key_slices: list[tuple[slice, ...]] = [()] * n
        for p in geo.points:
            self.code_slices[p] = tuple(slice(p - 4 * step, p + 4 * step + 1, step) for step in geo.dirs)
            self.key_slices[p] = tuple(
                slice((p - 4 * step) * 4 + d, (p + 4 * step) * 4 + d + 1, 4 * step) for d, step in enumerate(geo.dirs)
            )
        # For each point f and direction d, at [f * 4 + d]: the points f + k * step, k = -4..-1, 1..4 (some
        # off the board: never in a threat set), where `defences` looks for the four points of a line.
        self.rays: list[tuple[int, ...]] = [()] * (n * 4)
        for p in geo.points:
            for d, step in enumerate(geo.dirs):
                self.rays[p * 4 + d] = tuple(p + k * step for k in OFFSETS)
        # The 5x5 square around each point (without it), on the board, as a bit mask.
        self.square_mask = [0] * n
        for p in geo.points:
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    q = p + dr * geo.stride + dc
                    if (dr or dc) and on_board[q]:
                        self.square_mask[p] |= 1 << q
        rng = random.Random(0x6F6D6F6B)
        self.zobrist = [[0] * n, [rng.getrandbits(64) for _ in range(n)], [rng.getrandbits(64) for _ in range(n)]]
        # Initial keys of the empty board: walls seen from each point.
        self.empty_keys = [0] * (n * 4)
        cells = geo.empty_board()
        for p in geo.points:
            for d, step in enumerate(geo.dirs):
                key = 0
                for k in OFFSETS:
                    key |= cells[p + k * step] << (2 * SLOT[k])
                self.empty_keys[p * 4 + d] = key
        centre = (geo.size - 1) / 2
        self.centrality = [0.0] * n
        for p in geo.points:
            col, row = geo.colrow(p)
            self.centrality[p] = -max(abs(col - centre), abs(row - centre))


_STATIC: dict[int, _Static] = {}


def static(size: int) -> _Static:
    if size not in _STATIC:
        _STATIC[size] = _Static(geometry(size))
    return _STATIC[size]


class Position:
    """A board the AI plays on. `make`/`unmake` are strictly last-in first-out."""

    def __init__(self, size: int, rule: str, stones: Sequence[tuple[int, int]] = ()) -> None:
        self.size = size
        self.rule = rule
        st = self.st = static(size)
        geo = self.geo = st.geo
        self.renju = rule == "renju"
        exact_black = rule in ("standard", "renju")
        exact_white = rule == "standard"
        table_black, table_white = tables(exact_black, exact_white)
        self.table: tuple[list[int], list[int], list[int]] = ([], table_black, table_white)  # by colour
        self.cells = geo.empty_board()
        self.keys = list(st.empty_keys)
        n = geo.length
        self.code: list[list[int]] = [[], [0] * n, [0] * n]
        self.total = [0, 0, 0]
        self.fours: list[set[int]] = [set(), set(), set()]
        self.threes: list[set[int]] = [set(), set(), set()]
        for c in (BLACK, WHITE):
            table, code = self.table[c], self.code[c]
            for p in geo.points:
                s = 0
                for d in range(4):
                    s += table[self.keys[p * 4 + d]]
                code[p] = s
                self.total[c] += VALUE[s]
        self.reach = 0  # bit q: q is within two points of a stone
        self.undo: list[tuple[Any, ...]] = []  # per move: what `unmake` restores (see `make`)
        self.taken = 0  # bit q: a stone on q
        self.hash = 0
        self.moves: list[int] = []
        for p, c in stones:
            self.make(p, c)

    # --- making and unmaking moves -----------------------------------------------------------
    def make(self, p: int, c: int) -> None:
        """Place a stone of c on p and rescore the empty points on the lines through it (the hottest loop
        of the search: both colours are written out, not looped over)."""
        st = self.st
        cells = self.cells
        cells[p] = c
        self.moves.append(p)
        self.hash ^= st.zobrist[c][p]
        # What `unmake` puts back: the codes and keys on the lines through p (slices), the totals,
        # `reach`, and the threat-set changes (undone in their order: the sets go through the operations
        # of a rescoring of the lines, so iterate in its order).
        cb, cw = self.code[1], self.code[2]
        total = self.total
        sb, sw = total[1], total[2]
        ops: list[tuple[set[int], int, bool]] = []
        keys = self.keys
        c0, c1, c2, c3 = st.code_slices[p]
        k0, k1, k2, k3 = st.key_slices[p]
        self.undo.append((cb[c0], cb[c1], cb[c2], cb[c3], cw[c0], cw[c1], cw[c2], cw[c3],
                          keys[k0], keys[k1], keys[k2], keys[k3], sb, sw, self.reach, ops))
        self.reach |= st.square_mask[p]
        self.taken |= 1 << p
        fb, fw = self.fours[1], self.fours[2]
        hb, hw = self.threes[1], self.threes[2]
        value = VALUE
        b4, f3 = BIT_B4, BIT_F3
        # p is taken: its own patterns stop counting until it is empty again (a point below an open
        # three is in neither threat set).
        code = cb[p]
        sb -= value[code]
        if code >= f3:
            fb.discard(p)
            hb.discard(p)
        code = cw[p]
        sw -= value[code]
        if code >= f3:
            fw.discard(p)
            hw.discard(p)
        table = self.table
        tb, tw = table[1], table[2]
        for qd, q, delta in st.update[c][p]:
            if cells[q]:
                continue
            old_key = keys[qd]
            key = old_key + delta
            keys[qd] = key
            d = tb[key] - tb[old_key]
            if d:
                oc = cb[q]
                nc = oc + d
                cb[q] = nc
                sb += value[nc] - value[oc]
                if nc >= f3 or oc >= f3:
                    if (nc >= b4) != (oc >= b4):
                        if nc >= b4:
                            fb.add(q)
                            ops.append((fb, q, True))
                        else:
                            fb.discard(q)
                            ops.append((fb, q, False))
                    if (nc >= f3) != (oc >= f3):
                        if nc >= f3:
                            hb.add(q)
                            ops.append((hb, q, True))
                        else:
                            hb.discard(q)
                            ops.append((hb, q, False))
            d = tw[key] - tw[old_key]
            if d:
                oc = cw[q]
                nc = oc + d
                cw[q] = nc
                sw += value[nc] - value[oc]
                if nc >= f3 or oc >= f3:
                    if (nc >= b4) != (oc >= b4):
                        if nc >= b4:
                            fw.add(q)
                            ops.append((fw, q, True))
                        else:
                            fw.discard(q)
                            ops.append((fw, q, False))
                    if (nc >= f3) != (oc >= f3):
                        if nc >= f3:
                            hw.add(q)
                            ops.append((hw, q, True))
                        else:
                            hw.discard(q)
                            ops.append((hw, q, False))
        total[1] = sb
        total[2] = sw

    def unmake(self) -> None:
        p = self.moves.pop()
        st = self.st
        cells = self.cells
        self.hash ^= st.zobrist[cells[p]][p]
        cells[p] = EMPTY
        b0, b1, b2, b3, w0, w1, w2, w3, key0, key1, key2, key3, total1, total2, self.reach, ops = self.undo.pop()
        # every move made after p's is unmade: putting back the lines through p as they were before it
        # undoes exactly what p's `make` changed
        keys = self.keys
        k0, k1, k2, k3 = st.key_slices[p]
        keys[k0] = key0
        keys[k1] = key1
        keys[k2] = key2
        keys[k3] = key3
        c0, c1, c2, c3 = st.code_slices[p]
        code = self.code
        cb = code[1]
        cb[c0] = b0
        cb[c1] = b1
        cb[c2] = b2
        cb[c3] = b3
        cw = code[2]
        cw[c0] = w0
        cw[c1] = w1
        cw[c2] = w2
        cw[c3] = w3
        total = self.total
        total[1] = total1
        total[2] = total2
        for s, q, added in ops:
            if added:
                s.discard(q)
            else:
                s.add(q)
        # p is empty again: its own patterns are as they were when it was played (b0[4], w0[4]: at p).
        v = b0[4]
        if v >= BIT_F3:
            self.threes[1].add(p)
            if v >= BIT_B4:
                self.fours[1].add(p)
        v = w0[4]
        if v >= BIT_F3:
            self.threes[2].add(p)
            if v >= BIT_B4:
                self.fours[2].add(p)
        self.taken ^= 1 << p

    # --- questions the search asks ---------------------------------------------------------
    @property
    def cand(self) -> set[int]:
        """The candidate moves: the empty points within two points (a 5x5 square) of a stone."""
        # the mask's binary digits, lowest first, as bytes 0 and 1: the points in increasing order, added
        # one by one as a loop over the bits would (the set's order is that of its additions)
        return set(compress(count(), bin(self.reach & ~self.taken)[:1:-1].encode().translate(_DIGITS)))

    def fives(self, c: int) -> list[int]:
        """Empty points where c would make five now."""
        fours = self.fours[c]
        if not fours:
            return []
        code = self.code[c]
        return [q for q in fours if code[q] >= BIT_F5]

    def five_near(self, c: int, p: int) -> list[int]:
        """c's five points on the lines through p (after c played p: the points that complete its four)."""
        code = self.code[c]
        cells = self.cells
        return [q for q in self.st.line[p] if code[q] >= BIT_F5 and not cells[q]]

    def flex_points(self, c: int) -> list[int]:
        """Empty points where c would make an open four (or two fours at once): c has a live three."""
        code = self.code[c]
        out = []
        for q in self.fours[c]:
            v = code[q]
            if v >= BIT_F4 or (v >> B4_SHIFT) & 7 >= 2:
                out.append(q)
        return out

    def defences(self, c: int, flex: list[int]) -> set[int]:
        """The points that stop c's open-four points `flex`: each of them, and c's four points on the lines
        along which they make the open four (the ends and gaps of c's live threes)."""
        out = set(flex)
        table, keys, code = self.table[c], self.keys, self.code[c]
        is_four = self.fours[c].__contains__
        rays = self.st.rays
        for f in flex:
            # the lines of its open four; for a point of two fours at once, the lines of both (the four
            # points of a line are added in the order of the ray, as one `add` after another would)
            least = BIT_F4 if code[f] >= BIT_F4 else BIT_B4
            f *= 4
            if table[keys[f]] >= least:
                out.update(filter(is_four, rays[f]))
            if table[keys[f + 1]] >= least:
                out.update(filter(is_four, rays[f + 1]))
            if table[keys[f + 2]] >= least:
                out.update(filter(is_four, rays[f + 2]))
            if table[keys[f + 3]] >= least:
                out.update(filter(is_four, rays[f + 3]))
        return out

    def is_forbidden(self, p: int) -> bool:
        """Renju only: black may not play p."""
        return self.renju and forbidden(self.cells, self.geo.dirs, p) is not None

    def evaluation(self, c: int) -> int:
        """Static value for c to move."""
        return self.total[c] - self.total[3 - c]
