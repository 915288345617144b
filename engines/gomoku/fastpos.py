"""The AI's board with a compiled `make`/`unmake` (kernels.py, numba), and the choice of board.

`new_position` gives a `FastPosition` when the compiled core loads (numba installed, and the
environment variable GAMEHOST_GOMOKU_PURE unset or empty), else the pure-Python `Position`. Both
keep the same numbers and the same threat sets, changed by the same operations in the same order
(the searches iterate the sets, so their order decides which moves are searched): the same search
plays the same moves on either (tests/engines/test_gomoku_fast.py plays both).

The compiled board keeps its cells, keys, codes and totals in one buffer of 64-bit integers that the
kernels change in place; the rest of the engine reads them through memoryviews (an index gives a
Python int, as a list does). The threat sets stay Python sets: the kernel writes their changes, and
`make` plays them on the sets (and `unmake` plays them undone, in their order, as `Position` does).
"""

from __future__ import annotations

import importlib
import os
import threading
from array import array
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engines.gomoku.position import B4_SHIFT, BIT_F4, BIT_F5, Position, static

Kernel = Callable[..., int]
HEADER = 12  # kernels.HEADER
OPS = 512  # kernels.OPS
# the most a make logs: every key and both codes of 32 points, totals and counts, frame
LOG_PER_MOVE = 2 * (32 + 64) + 7

_kernels: tuple[Kernel, Kernel] | None = None
_tried = False
_loading = threading.Lock()
_statics: dict[tuple[int, int, int], array[int]] = {}


def load() -> bool:
    """Load (the first time: compile, or read from numba's cache) the kernels; False when they cannot be
    had here. Called by the AI workers' warm-up, so that no move waits for it."""
    global _kernels, _tried
    with _loading:
        if _tried:
            return _kernels is not None
        _tried = True
        if os.environ.get("GAMEHOST_GOMOKU_PURE"):
            return False
        try:
            kernels: Any = importlib.import_module("engines.gomoku.kernels")
            # the compiled functions themselves, not their dispatchers: a call skips the choice of an overload
            # by the arguments' types (they are always these)
            make = kernels.make.compile("int64(int64, int64, int64)")
            _kernels = (make, kernels.unmake.compile("int64(int64, int64)"))
            # Both kernels once, on a small board, so that a failure shows here and not in a move.
            board = FastPosition(15, "freestyle", [(static(15).geo.index(7, 7), 1)])
            board.unmake()
        except Exception:  # no numba here, or it cannot compile: the pure-Python board plays the same moves
            _kernels = None
            return False
        return True


def new_position(size: int, rule: str, stones: Sequence[tuple[int, int]] = ()) -> Position:
    """The AI's board: compiled when it can be."""
    if load():
        return FastPosition(size, rule, stones)
    return Position(size, rule, stones)


def _static_part(size: int, table_black: list[int], table_white: list[int]) -> array[int]:
    """The part of the buffer that is the same for every board of a size and rule (see kernels.py)."""
    key = (size, id(table_black), id(table_white))
    if key not in _statics:
        st = static(size)
        n = st.geo.length
        head = [3, 3 + len(table_black), 3 + len(table_black) + len(table_white)]
        entries_at = head[2] + 2 * n + 1
        starts: list[int] = []
        entries: list[int] = []
        for c in (1, 2):
            for p in range(n):
                starts.append(entries_at + len(entries))
                for qd, q, delta in st.update[c][p]:
                    entries += (qd, q, delta)
        starts.append(entries_at + len(entries))
        _statics[key] = array("q", head + table_black + table_white + starts + entries)
    return _statics[key]


class FastPosition(Position):
    """`Position` with its numbers in one buffer, changed by the compiled kernels."""

    def __init__(self, size: int, rule: str, stones: Sequence[tuple[int, int]] = ()) -> None:
        super().__init__(size, rule)  # the empty board, in lists
        assert _kernels is not None
        self._make, self._unmake = _kernels
        n = self.geo.length
        counts = [sum(1 for p in self.geo.points if test(self.code[c][p])) for test in (_five, _flex) for c in (1, 2)]
        data = array("q", [0, self.total[1], self.total[2], 0, 0, 0, n, 0, *counts])
        data += array("q", self.cells)
        data += array("q", self.keys)
        data += array("q", self.code[1])
        data += array("q", self.code[2])
        ops_at = len(data)
        data += array("q", bytes(8 * OPS))
        data[3] = len(data)
        data += array("q", bytes(8 * LOG_PER_MOVE * (size * size + 1)))
        data[7] = len(data)
        data += _static_part(size, self.table[1], self.table[2])
        self._data = data
        view = memoryview(data)
        self.cells = view[HEADER:HEADER + n]  # type: ignore[assignment]
        self.keys = view[HEADER + n:HEADER + 5 * n]  # type: ignore[assignment]
        codes: tuple[Any, ...] = ([], view[HEADER + 5 * n:HEADER + 6 * n], view[HEADER + 6 * n:HEADER + 7 * n])
        self.code = codes  # type: ignore[assignment]
        self.total = view[0:3]  # type: ignore[assignment]
        self._fives_count = view[7:10]  # by colour: [1] black's, [2] white's
        self._flex_count = view[9:12]
        self._ops = view[ops_at:ops_at + OPS]
        self._address = data.buffer_info()[0]
        self._zobrist = self.st.zobrist
        self._square = self.st.square_mask
        # the kernel's threat-set changes are op = q * 8 + set * 2 + added, the sets black's fours, black's
        # threes, white's fours, white's threes; _play[op]() plays op
        fb, fw, hb, hw = self.fours[1], self.fours[2], self.threes[1], self.threes[2]
        by_op = (fb.discard, fb.add, hb.discard, hb.add, fw.discard, fw.add, hw.discard, hw.add)
        play: list[Any] = [None] * (8 * n)  # a call for each op of a point on the board
        for q in self.geo.points:
            play[q * 8:q * 8 + 8] = [partial(method, q) for method in by_op]
        self._play = play
        for p, c in stones:
            self.make(p, c)

    def make(self, p: int, c: int) -> None:
        self.moves.append(p)
        counts = self._make(self._address, p, c)
        if counts:
            first = counts & 0xFFFF
            ops = self._ops[:first + (counts >> 16)].tolist()
            play = self._play
            for op in ops[:first]:
                play[op]()
            self.undo.append((self.reach, self.taken, self.hash, ops[first:]))
        else:
            self.undo.append((self.reach, self.taken, self.hash, ()))
        self.hash ^= self._zobrist[c][p]
        self.reach |= self._square[p]
        self.taken |= 1 << p

    def unmake(self) -> None:
        p = self.moves.pop()
        self.reach, self.taken, self.hash, ops = self.undo.pop()
        self._unmake(self._address, p)
        play = self._play
        for op in ops:
            play[op]()

    def fives(self, c: int) -> list[int]:
        if not self._fives_count[c]:
            return []
        code = self.code[c]
        return [q for q in self.fours[c] if code[q] >= BIT_F5]

    def flex_points(self, c: int) -> list[int]:
        if not self._flex_count[c]:
            return []
        code = self.code[c]
        return [q for q in self.fours[c] if (v := code[q]) >= BIT_F4 or (v >> B4_SHIFT) & 7 >= 2]


def _five(v: int) -> bool:
    return v >= BIT_F5


def _flex(v: int) -> bool:
    return v >= BIT_F4 or (v >> B4_SHIFT) & 7 >= 2
