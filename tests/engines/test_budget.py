"""The ceiling of a move's thinking is in CPU time: a host busy with other work slows the thinking
thread's wall clock, not its CPU clock, and must not cut the move short; the wall clock is only a far
backstop for a thread that gets no CPU at all."""

from __future__ import annotations

import threading
import time

import pytest

from engines import budget
from engines.base import Limit
from engines.budget import BACKSTOP, Budget, OutOfWork


class Clock:
    """A clock that moves `step` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def spend(b: Budget) -> int:
    """Tick until the budget stops; the units counted."""
    try:
        while True:
            b.tick()
    except OutOfWork:
        return b.used


def test_a_loaded_host_s_wall_clock_does_not_stop_the_work() -> None:
    """The wall clock passes the ceiling many times over (the worker gets a fraction of a core) while
    the CPU clock stays within it: every unit of the level's work is done."""
    wall = Clock(0.4)
    b = Budget(Limit(10_000, 2.0), clock=Clock(0.0), every=256, wall=wall)
    assert spend(b) == 10_001  # the unit past the end is counted, not done
    assert not b.stalled and wall.now > 7 * 2.0  # seven ceilings of wall time


def test_the_ceiling_is_cpu_time() -> None:
    b = Budget(Limit(10**9, 2.0), clock=Clock(1.0), every=256, wall=Clock(0.0))
    assert spend(b) == 3 * 256
    assert b.stalled and b.work == b.used


def test_the_wall_clock_is_a_far_backstop() -> None:
    b = Budget(Limit(10**9, 2.0), clock=Clock(0.0), every=256, wall=Clock(1.0))
    assert spend(b) == int(BACKSTOP * 2.0 + 1) * 256
    assert b.stalled


def test_a_part_keeps_both_clocks() -> None:
    outer = Budget(Limit(10**9, 2.0), clock=Clock(0.0), every=256, wall=Clock(1.0))
    inner = outer.part(0.5)
    assert spend(inner) <= int(BACKSTOP * 2.0 + 1) * 256
    outer.absorb(inner)
    assert outer.stalled


def test_the_default_clock_is_the_thinking_thread_s_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real clocks: a thread whose move waits (sleeping, as a thread does that the host's other work
    keeps off the CPU) past its ceiling of wall time has used next to no CPU time and is not stopped;
    another thread burning CPU meanwhile does not count towards it either."""
    assert budget.cpu_clock is time.thread_time
    stop = threading.Event()

    def burn() -> None:
        while not stop.is_set():
            sum(range(1000))

    other = threading.Thread(target=burn)
    other.start()
    try:
        b = Budget(Limit(10**9, 0.2), every=1)
        time.sleep(0.4)
        b.tick()
        assert not b.stalled
    finally:
        stop.set()
        other.join()
