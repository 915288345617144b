"""Chinese Checkers levels are work, not time: the same move however slow the machine; the clock is a safety net."""

from __future__ import annotations

import random

import pytest

from engines import budget
from engines.base import Limit
from engines.checkers import Checkers

G = Checkers()


class FakeClock:
    """A wall clock that moves `step` seconds each time it is read: a machine as slow as one likes."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def midgame(seats: int, seed: int, plies: int):
    """A position `plies` moves into a game the easy level played (with random detours)."""
    rng = random.Random(seed)
    state = G.new_state({}, seats, seed)
    for _ in range(plies):
        seat = G.to_move(state)
        if rng.random() < 0.3:
            state = G.apply(state, seat, rng.choice(G.legal_moves(state, seat)))
        else:
            state = G.apply(state, seat, G.ai(state, seat, "easy", G.levels["easy"], rng).move)
    return state


@pytest.fixture(scope="module")
def positions():
    return [midgame(2, 1, 12), midgame(2, 2, 30), midgame(3, 3, 24), midgame(6, 4, 48)]


def moves(level: str, places, clock: FakeClock, monkeypatch) -> tuple[list, float]:
    """The moves `level` plays in `places` with what it says about each, and the longest by `clock`."""
    monkeypatch.setattr(budget, "wall_clock", clock)
    out, longest = [], 0.0
    for i, state in enumerate(places):
        started = clock.now
        result = G.ai(state, G.to_move(state), level, G.levels[level], random.Random(i))
        longest = max(longest, clock.now - started)
        assert result.info.get("reason") != "seconds"  # the ceiling was not reached
        out.append((result.move, result.info["work"], result.info["depth"]))
    return out, longest


@pytest.mark.parametrize(("level", "step", "idle_most"), [("normal", 0.5, 0.5), ("hard", 0.02, 1.0)])
def test_the_same_seed_plays_the_same_move_on_a_fast_and_a_very_slow_machine(level, step, idle_most, positions,
                                                                             monkeypatch):
    """A frozen clock (an infinitely fast machine) and one that moves `step` seconds at each look the AI
    takes at it (every 256 nodes: a machine some hundred times slower than an idle core) give the same
    moves after the same work and depth, though by the slow clock a move takes longer than the whole
    time the level takes on an idle core."""
    fast, _ = moves(level, positions, FakeClock(0.0), monkeypatch)
    slow, longest = moves(level, positions, FakeClock(step), monkeypatch)
    assert longest > idle_most
    assert fast == slow
    assert all(work > 0 for _, work, _ in fast)


def test_the_work_is_the_level_s_and_no_more(positions):
    for level in ("normal", "hard"):
        for i, state in enumerate(positions):
            limit = G.levels[level]
            info = G.ai(state, G.to_move(state), level, limit, random.Random(i)).info
            assert 0 < info["work"] <= limit.work + 1


def test_a_stalled_host_is_caught_by_the_ceiling(positions, monkeypatch):
    """A clock that jumps past the ceiling at once: the search stops and the move is still legal."""
    monkeypatch.setattr(budget, "cpu_clock", FakeClock(10.0))  # the ceiling is in CPU time
    for i, state in enumerate(positions):
        seat = G.to_move(state)
        result = G.ai(state, seat, "hard", Limit(10**9, 5.0), random.Random(i))
        assert (result.move.start, result.move.to) in {(m.start, m.to) for m in G.legal_moves(state, seat)}
        assert result.info["reason"] == "seconds"
        assert result.info["work"] <= 512
