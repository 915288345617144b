"""Background work that outlives its failures: the timers (`bot.autoplay`) and the outbox's
deliverer (`bot.outbox`) run `supervise`, a pass after a sleep until the loop is woken or its next
work is due; after failed passes in a row it rests a back-off (`backoff`: 1 s doubling to 60 s) on
the host's clock, which a wake does not cut short. Re-rating (`bot.rating_store`) and a failed bot
turn rest the same back-off."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

FIRST_BACKOFF, MOST_BACKOFF = 1.0, 60.0  # seconds after a failure before trying again, doubling


def backoff(failures: int) -> float:
    """The wait after `failures` failures in a row."""
    return min(MOST_BACKOFF, FIRST_BACKOFF * 2 ** min(failures - 1, 30))


class Failed(Exception):
    """A pass that did not raise but failed in part (it logged what): rest the back-off."""


class Wake:
    """What a sleeping loop waits for besides its time."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def set(self) -> None:
        self._event.set()

    async def sleep(self, seconds: float) -> None:
        """Until `seconds` have passed or something wakes the loop."""
        # asyncio.timeout, not wait_for: in Python 3.11 wait_for can swallow a cancellation
        # that arrives as the event is set, and stopping would wait for the loop forever.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds + 0.01):
                await self._event.wait()
        self._event.clear()


async def supervise(one_pass: Callable[[], Awaitable[float | None]], wake: Wake, clock: Callable[[], float],
                    poll: float, failed: Callable[[int, Exception], None],
                    stopping: Callable[[], bool] = lambda: False) -> None:
    """Run `one_pass` until `stopping()`: it returns when its next work is due on `clock` (None: it
    knows of none), and the loop sleeps until then, `poll` seconds at most, or until woken. A pass
    that raises is told to `failed` with the failures in a row (to log it), and the loop rests the
    back-off."""
    failures, due = 0, None
    while not stopping():
        try:
            due = await one_pass()
            failures = 0
        except Exception as error:
            failures += 1
            failed(failures, error)
        if stopping():
            return
        if failures:
            until = clock() + backoff(failures)
            while clock() < until and not stopping():
                await wake.sleep(until - clock())
        else:
            await wake.sleep(poll if due is None else min(poll, max(0.0, due - clock())))
