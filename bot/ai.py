"""Runs the AI off the event loop, in worker processes, so chat clients keep answering."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

import engines
from engines.base import JSON, AIInfo, Limit


class AIRunner:
    """`workers` > 0: a pool of that many processes; 0: one background thread (tests, tiny hosts)."""

    def __init__(self, workers: int | None = None) -> None:
        workers = (os.cpu_count() or 1) if workers is None else workers
        self.workers = workers
        self._pool: Executor
        if workers > 0:
            # forkserver: workers do not inherit the event loop's threads and sockets.
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))
        else:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="ai")

    async def move(
        self, game: str, state: JSON, seat: int, level: str, seed: int, limit: Limit | None = None
    ) -> tuple[str, AIInfo]:
        """The move `level` plays for `seat`, as text, and what the AI says about it."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, engines.think, game, state, seat, level, seed, limit)

    async def warm_up(self) -> None:
        """Start the workers and load every game in them now, not at the first AI move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._pool, engines.load_all) for _ in range(self.workers)))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
