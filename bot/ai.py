"""Runs the AI off the event loop, in worker processes, so chat clients keep answering.

The workers must not outlive the host, however it ends: a `kill -9` gives it no chance
to stop them. So each worker watches a pipe whose writing end only the host holds; the
kernel closes it when the host dies, and the worker exits. (Its forkserver and the
resource tracker then see their last user gone and exit too.) A pool whose worker died
(killed, out of memory) is broken for good: the next move starts a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection

import engines
from engines.base import JSON, AIInfo, Limit

log = logging.getLogger(__name__)


class AIRunner:
    """`workers` > 0: a pool of that many processes; 0: one background thread (tests, tiny hosts)."""

    def __init__(self, workers: int | None = None) -> None:
        workers = (os.cpu_count() or 1) if workers is None else workers
        self.workers = workers
        # forkserver: workers do not inherit the event loop's threads and sockets.
        self._context = multiprocessing.get_context("forkserver")
        self._alive, self._host_alive = self._context.Pipe(duplex=False) if workers > 0 else (None, None)
        self._pool: Executor = self._new_pool()

    def _new_pool(self) -> Executor:
        if self.workers == 0:
            return ThreadPoolExecutor(1, thread_name_prefix="ai")
        return ProcessPoolExecutor(self.workers, mp_context=self._context, initializer=_exit_with_the_host,
                                   initargs=(self._alive,))  # fmt: skip

    async def move(
        self, game: str, state: JSON, seat: int, level: str, seed: int, limit: Limit | None = None
    ) -> tuple[str, AIInfo]:
        """The move `level` plays for `seat`, as text, and what the AI says about it."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            return await loop.run_in_executor(pool, engines.think, game, state, seat, level, seed, limit)
        except BrokenProcessPool:
            if self._pool is pool:
                log.warning("an AI worker process died; starting new ones")
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, engines.think, game, state, seat, level, seed, limit)

    async def warm_up(self) -> None:
        """Start the workers and load every game in them now, not at the first AI move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._pool, engines.load_all) for _ in range(self.workers)))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _exit_with_the_host(alive: Connection) -> None:
    """In each worker, first thing: a thread that ends the process when the host is gone."""

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            alive.recv_bytes()  # nothing is ever sent: this returns when the host's end closes
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-the-host", daemon=True).start()
