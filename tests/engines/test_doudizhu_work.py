"""Dou Dizhu levels are work, not time: the same move however slow the machine; the clock is a safety net."""

from __future__ import annotations

import random

import pytest

from engines import budget
from engines.base import Limit
from engines.doudizhu import DouDizhu, State
from engines.doudizhu.players import rule_player
from engines.doudizhu.state import Move

GAME = DouDizhu()


class FakeClock:
    """A wall clock that moves `step` seconds each time it is read: a machine as slow as one likes."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.longest = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def decisions(level: str, count: int) -> list[tuple[State, int]]:
    """Positions where `level` thinks (its work is more than nothing): the AI as the landlord
    against two rule players, from the start of several deals."""
    out: list[tuple[State, int]] = []
    for seed in range(200):
        state = GAME.new_state({"mode": "points"}, 3, seed)
        rng = random.Random(seed)
        while (seat := GAME.to_move(state)) is not None and len(out) < count:
            if state.landlord is None:
                move = Move("bid", bid=3) if seat == 0 else Move("pass")
            elif seat == state.landlord:
                result = GAME.ai(state, seat, level, GAME.levels[level], random.Random(seed))
                if result.info["work"] > 0:
                    out.append((state, seat))
                move = result.move
            else:
                move = rule_player(GAME.view(state, seat), rng)
            state = GAME.apply(state, seat, move)
        if len(out) >= count:
            return out
    raise AssertionError("too few positions where the AI thinks")


@pytest.fixture(scope="module")
def positions() -> dict[str, list[tuple[State, int]]]:
    return {"normal": decisions("normal", 3), "hard": decisions("hard", 6)}


def moves(level: str, places: list[tuple[State, int]], clock: FakeClock, monkeypatch) -> list[tuple[Move, int]]:
    """The moves `level` plays in `places`, with the work each took; also the longest any took by `clock`."""
    monkeypatch.setattr(budget, "wall_clock", clock)
    out = []
    clock.longest = 0.0
    for i, (state, seat) in enumerate(places):
        started = clock.now
        result = GAME.ai(state, seat, level, GAME.levels[level], random.Random(i))
        clock.longest = max(clock.longest, clock.now - started)
        assert "reason" not in result.info  # the ceiling was not reached
        out.append((result.move, result.info["work"]))
    return out


@pytest.mark.parametrize(("level", "step", "idle_most"), [("normal", 0.01, 0.5), ("hard", 0.01, 1.0)])
def test_the_same_seed_plays_the_same_move_on_a_fast_and_a_very_slow_machine(level, step, idle_most, positions,
                                                                             monkeypatch):
    """A frozen clock (an infinitely fast machine) and one that moves `step` seconds at each of the AI's
    looks at it (each 256 positions of its solver or each playout world taking that long: a machine a
    hundred times slower than an idle core or more) give the same moves after the same work, though by
    the slow clock a move takes longer than the whole time the level takes on an idle core."""
    fast = moves(level, positions[level], FakeClock(0.0), monkeypatch)
    slow_clock = FakeClock(step)
    slow = moves(level, positions[level], slow_clock, monkeypatch)
    assert slow_clock.longest > idle_most  # the AI did look at the clock, and it was slow
    assert fast == slow
    assert all(work > 0 for _, work in fast)


def test_the_work_is_the_level_s_and_no_more(positions):
    """Hard's work stays within its budget (the last playout world may run over by its playouts)."""
    limit = GAME.levels["hard"]
    for i, (state, seat) in enumerate(positions["hard"]):
        work = GAME.ai(state, seat, "hard", limit, random.Random(i)).info["work"]
        assert 0 < work <= limit.work + 6 * 200
    small = [GAME.ai(state, seat, "hard", limit.scaled(0.05), random.Random(i)).info["work"]
             for i, (state, seat) in enumerate(positions["hard"])]
    assert max(small) <= limit.scaled(0.05).work + 6 * 200


def test_a_stalled_host_is_caught_by_the_ceiling(positions, monkeypatch):
    """A clock that jumps past the ceiling at once: the AI stops its search and still plays a legal move."""
    monkeypatch.setattr(budget, "cpu_clock", FakeClock(10.0))  # the ceiling is in CPU time
    for i, (state, seat) in enumerate(positions["hard"]):
        result = GAME.ai(state, seat, "hard", Limit(10**9, 5.0), random.Random(i))
        assert result.move in GAME.legal_moves(state, seat)
        assert result.info["reason"] == "seconds"
        assert result.info["work"] < 20_000
