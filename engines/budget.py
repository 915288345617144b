"""How much an AI may think about one move: one `Budget` for every game, made from the level's `Limit`.

A budget counts the engine's own unit of work (search nodes, solver positions, playout moves) in
`used`, against `end`: the most the current stage may have used when it is done (at first the whole
`work`; a search in stages moves it). A unit counted past `end` raises `OutOfWork`, which unwinds
the search at once, so a level is an amount of work and plays the same move on an idle machine and
on a busy one.

The clocks are read for one thing only: the ceiling, a safety net that an idle core never reaches at
the level's work. It is measured in the CPU time of the thinking thread (`cpu_clock`: `Limit.seconds`
of it after the budget was made), so a host busy with other work, which slows the worker's wall clock
but not its CPU clock, does not cut a move short. The wall clock is only a far backstop (`BACKSTOP`
times the ceiling), for a thread that gets no CPU at all. `tick` reads the clocks every `mask + 1`
units; past either the budget is `stalled` and nothing more may be spent.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engines.base import Limit

Clock = Callable[[], float]

# The clocks the AIs read, unless they are given others (tests put fake ones here): the ceiling is on the
# thinking thread's CPU time (a worker process thinks in one thread; so does the host's thread in tests),
# the backstop on the wall clock.
cpu_clock: Clock = time.thread_time
wall_clock: Clock = time.perf_counter
BACKSTOP = 10.0  # the wall-clock backstop, in ceilings: hard's 10 s of CPU may take 100 s of wall time


class OutOfWork(Exception):
    """A search spent its budget (or, on a stalled host only, passed the ceiling): it stops at once."""


class Budget:
    """The work one move may still do, and the ceiling it must stop at.

    `work`: the units the move may use in all; `used`: what it used; `end`: the most the current
    stage may have used (at most `work`); `deadline`: the ceiling on `clock` (CPU time), `backstop`
    the far one on `wall`; `stalled`: one was passed. `every`: how many units `tick` counts between
    two looks at the clocks."""

    def __init__(self, limit: Limit, clock: Clock | None = None, every: int = 256, wall: Clock | None = None) -> None:
        self.clock = clock or cpu_clock
        self.wall = wall or wall_clock
        self.work = limit.work
        self.used = 0
        self.end = limit.work
        self.deadline = self.clock() + limit.seconds
        self.backstop = self.wall() + BACKSTOP * limit.seconds
        self.stalled = False
        self.mask = every - 1

    @property
    def left(self) -> int:
        return self.work - self.used

    def tick(self) -> None:
        """Count one unit; past the stage's end, or past the ceiling, stop the search."""
        self.used += 1
        if self.used > self.end:
            raise OutOfWork
        if not self.used & self.mask and self.past_deadline():
            self.stop()

    def spend(self, units: int) -> None:
        """Count `units` done (the caller asks `over` when to stop)."""
        self.used += units

    def over(self) -> bool:
        """The stage's work is spent, or the ceiling passed."""
        return self.used >= self.end or self.past_deadline()

    def past_deadline(self) -> bool:
        """Whether the ceiling (or the backstop) has passed (the clocks are not read again once one has)."""
        if not self.stalled and (self.clock() > self.deadline or self.wall() > self.backstop):
            self.stalled = True
        return self.stalled

    def stop(self) -> None:
        """The ceiling passed: nothing more may be spent, by this stage or any later one."""
        self.stalled = True
        self.work = self.end = self.used
        raise OutOfWork

    def stage(self, units: float) -> None:
        """Let the next stage use `units` more (at least one, within the whole work); the unit that
        reaches its end is counted but not done."""
        self.stop_at(min(self.work, self.used + max(1, int(units))))

    def stop_at(self, count: int) -> None:
        """The current stage stops when `used` reaches `count`: that unit is counted but not done."""
        self.end = count - 1

    def part(self, share: float) -> Budget:
        """A budget of `share` of what is left, under the same ceiling (its work comes back with `absorb`)."""
        return self.sub(int(self.left * share))

    def sub(self, units: int) -> Budget:
        """A budget of `units` under the same ceiling (its work comes back with `absorb`)."""
        inner = Budget.__new__(Budget)
        inner.clock, inner.deadline, inner.mask = self.clock, self.deadline, self.mask
        inner.wall, inner.backstop = self.wall, self.backstop
        inner.work = inner.end = units
        inner.used = 0
        inner.stalled = False
        return inner

    def absorb(self, inner: Budget, most: int | None = None) -> None:
        """Count the work of `inner` (at most `most` of it) as this budget's, and its stall."""
        self.used += inner.used if most is None else min(inner.used, most)
        self.stalled |= inner.stalled
