"""Starting the platforms: a start that cannot succeed is said in one line; one that
may succeed later (the network is down, the platform answers 5xx) is tried again.

An adapter's `start()` turns its library's errors into `StartFailed`: `transient`
when waiting may help, not when it cannot (a token the platform refuses). `start`
retries the transient ones with a doubling back-off, then gives up with the last
reason; `gamehost` prints it as its one line and exits non-zero.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

FIRST_DELAY = 1.0  # seconds before the second try; doubled each time
MOST_DELAY = 60.0


class StartFailed(Exception):
    """A platform could not start; the message says why in one line."""

    def __init__(self, reason: str, transient: bool) -> None:
        super().__init__(reason)
        self.transient = transient


class Platform(Protocol):
    async def start(self) -> None: ...


async def start(platform: Platform, attempts: int,
                sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    """`platform.start()`, tried up to `attempts` times while it fails transiently."""
    for attempt in range(1, attempts + 1):
        try:
            await platform.start()
            return
        except StartFailed as failure:
            if not failure.transient or attempt == attempts:
                raise
            delay = min(MOST_DELAY, FIRST_DELAY * 2 ** (attempt - 1))
            log.warning("%s (try %d of %d); trying again in %g s", failure, attempt, attempts, delay)
            await sleep(delay)
