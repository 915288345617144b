"""The compiled board (engines/gomoku/fastpos.py, kernels in numba) and the pure-Python one keep the same
numbers and the same threat sets in the same order, so the same search plays the same moves on either."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines.base import Limit
from engines.gomoku import Gomoku, fastpos
from engines.gomoku.ai import think
from engines.gomoku.board import geometry
from engines.gomoku.levels import LEVELS
from engines.gomoku.position import BIT_B4, BIT_F3, BIT_F4, Position

GAME = Gomoku()


def test_the_compiled_core_loads_here() -> None:
    """numba is a dependency: the bot's AI runs on the compiled board (the pure one is the fallback)."""
    assert fastpos.load()
    assert isinstance(fastpos.new_position(15, "freestyle"), fastpos.FastPosition)


def everything(pos: Position) -> tuple[object, ...]:
    """What the searches read, sets in their iteration order."""
    return (list(pos.cells), list(pos.keys), list(pos.code[1]), list(pos.code[2]), pos.total[1], pos.total[2],
            [list(s) for s in (*pos.fours[1:], *pos.threes[1:])], pos.hash, pos.reach, pos.taken, pos.cand)


def walk(pure: Position, fast: Position, rng: random.Random, steps: int, back: float, most: int) -> Iterator[None]:
    """`steps` random moves made or unmade on both boards alike (unmade with chance `back`, always past `most`
    stones), yielding after each."""
    for _ in range(steps):
        if pure.moves and (rng.random() < back or len(pure.moves) > most):
            pure.unmake()
            fast.unmake()
        else:
            p = rng.choice([q for q in pure.geo.points if not pure.cells[q]])
            c = rng.choice((1, 2))
            pure.make(p, c)
            fast.make(p, c)
        yield


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
@pytest.mark.parametrize("size", [15, 19])
def test_random_makes_and_unmakes_keep_both_boards_equal(rule: str, size: int) -> None:
    assert fastpos.load()
    rng = random.Random(f"{rule} {size}")
    for _ in range(3):
        pure, fast = Position(size, rule), fastpos.FastPosition(size, rule)
        assert everything(pure) == everything(fast)
        for _ in walk(pure, fast, rng, 300, 0.45, 70):
            assert everything(pure) == everything(fast)


@pytest.mark.parametrize("level, record", [
    ("hard", "i9 h7 g11 j8 h10 i7 g7 h6 k9 h8"),
    ("hard", "h8 i9 g9 i7 i8 g7"),
    ("master", "h8 h9 i8 g8 j8 k8 i9 i7 j10"),
    ("hard", "h6 j7 h5 h7 g6 g5 f6"),
])
def test_both_boards_play_the_same_move_after_the_same_nodes(level: str, record: str) -> None:
    assert fastpos.load()
    state = GAME.new_state({"size": 15}, 2, 0)
    for name in record.split():
        state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, name))
    geo = geometry(15)
    stones = [(geo.index(p.col, p.row), 1 + i % 2) for i, p in enumerate(state.moves)]
    limit = Limit(8000, 1e9)
    pure = think(Position(15, "freestyle", stones), 1 + state.turn, LEVELS[level], limit, clock=lambda: 0.0)
    fast = think(fastpos.FastPosition(15, "freestyle", stones), 1 + state.turn, LEVELS[level], limit,
                 clock=lambda: 0.0)
    assert pure == fast
    assert pure[1]["work"] > 4000  # a real search, not an answer from the opening book


def loop_cand(pos: Position) -> set[int]:
    """`Position.cand` as a loop over the mask's bits, lowest first (the set it must equal, in order)."""
    bits = pos.reach & ~pos.taken
    out = set()
    while bits:
        low = bits & -bits
        out.add(low.bit_length() - 1)
        bits ^= low
    return out


def loop_defences(pos: Position, c: int, flex: list[int]) -> set[int]:
    """`Position.defences` written as loops (the set it must equal, in order)."""
    out = set(flex)
    for f in flex:
        least = BIT_F4 if pos.code[c][f] >= BIT_F4 else BIT_B4
        for d in range(4):
            if pos.table[c][pos.keys[f * 4 + d]] >= least:
                for k in (-4, -3, -2, -1, 1, 2, 3, 4):
                    q = f + k * pos.geo.dirs[d]
                    if q in pos.fours[c]:
                        out.add(q)
    return out


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_the_questions_of_the_search_agree_on_both_boards(rule: str) -> None:
    """The candidates and the defences come in the order of the plain loops; the compiled board's counts of
    five and open-four points (which let `fives` and `flex_points` skip the sets) agree with the sets."""
    assert fastpos.load()
    rng = random.Random(rule)
    for _ in range(4):
        pure, fast = Position(15, rule), fastpos.FastPosition(15, rule)
        for _ in walk(pure, fast, rng, 120, 0.4, 60):
            for pos in (pure, fast):
                assert list(pos.cand) == list(loop_cand(pos))
                for c in (1, 2):
                    flex = pos.flex_points(c)
                    assert list(pos.defences(c, flex)) == list(loop_defences(pos, c, flex))
                    for q in pos.geo.points:
                        assert (q in pos.fours[c]) == (not pos.cells[q] and pos.code[c][q] >= BIT_B4)
                        assert (q in pos.threes[c]) == (not pos.cells[q] and pos.code[c][q] >= BIT_F3)
            for c in (1, 2):
                assert pure.fives(c) == fast.fives(c)
                assert pure.flex_points(c) == fast.flex_points(c)
