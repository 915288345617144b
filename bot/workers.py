"""Worker processes that die with the host: the AI thinks in them (`bot.ai`), pictures are
drawn in them (`bot.pictures`), so the event loop and its GIL stay free and the work uses
every core.

The workers must not outlive the host, however it ends: a `kill -9` gives it no chance
to stop them. So each worker watches a pipe whose writing end only the host holds; the
kernel closes it when the host dies, and the worker exits. (Its forkserver and the
resource tracker then see their last user gone and exit too.) Ctrl-C in a terminal sends
SIGINT to the whole process group: the workers ignore it and leave when the host is done
with them, so only the host says anything. A pool whose worker died (killed, out of
memory) is broken for good: the next call starts a new one.

Starting the processes takes seconds (the forkserver imports the program first): `warm_up`
starts them from a thread, never the event loop's, so the bot answers meanwhile; `warming`
says whether it is still going on (`bot.pictures` draws in this process meanwhile), and a
call made meanwhile waits for the processes to be started (a bot's first move).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, TypeVar

log = logging.getLogger(__name__)
R = TypeVar("R")


class Workers:
    """`count` > 0: a pool of that many processes (None: one per CPU); 0: `threads` background
    threads in this process (tests, tiny hosts)."""

    def __init__(self, count: int | None, name: str, threads: int = 1) -> None:
        self.count = (os.cpu_count() or 1) if count is None else count
        self.name, self._threads = name, threads
        # forkserver: workers do not inherit the event loop's threads and sockets.
        self._context = multiprocessing.get_context("forkserver")
        self._alive: Connection | None = None
        self._host_alive: Connection | None = None
        if self.count > 0:
            self._alive, self._host_alive = self._context.Pipe(duplex=False)
        self._pool: Executor = self._new_pool()
        self._starting: asyncio.Future[list[Future[Any]]] | None = None  # the warm-up's start of the processes
        self.warming = False

    def _new_pool(self) -> Executor:
        if self.count == 0:
            return ThreadPoolExecutor(self._threads, thread_name_prefix=self.name)
        alive = self._alive
        assert alive is not None  # a pool of processes has its pipe
        return ProcessPoolExecutor(self.count, mp_context=self._context, initializer=_exit_with_the_host,
                                   initargs=(alive,))

    async def run(self, fn: Callable[..., R], *args: Any) -> R:
        """`fn(*args)` in a worker; a pool whose worker died is replaced and asked again once."""
        if self._starting is not None and not self._starting.done():
            await asyncio.wait([self._starting])  # submitted meanwhile, it would start a process on the loop
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            return await loop.run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            if self._pool is pool:
                log.warning("a %s worker process died; starting new ones", self.name)
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, fn, *args)

    async def warm_up(self, fn: Callable[[], Any]) -> None:
        """Start the workers and run `fn` (loading what they need) in each, now rather than at first
        use; the processes are started from a thread, so the event loop goes on meanwhile."""
        if self.count == 0:
            return
        started, pool = time.perf_counter(), self._pool
        self.warming = True
        try:
            starting = asyncio.ensure_future(asyncio.to_thread(self._submit_each, pool, fn))
            self._starting = starting
            await asyncio.gather(*map(asyncio.wrap_future, await starting))
            log.debug("%d %s worker processes ready in %.1f s", self.count, self.name, time.perf_counter() - started)
        finally:
            self.warming = False

    def _submit_each(self, pool: Executor, fn: Callable[[], Any]) -> list[Future[Any]]:
        """`fn` once for each worker; each submit starts a process (slow: call it from a thread)."""
        return [pool.submit(fn) for _ in range(self.count)]

    def processes(self) -> list[int]:
        """The workers' process ids (none when they are threads)."""
        return list(getattr(self._pool, "_processes", None) or ())

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _exit_with_the_host(alive: Connection) -> None:
    """In each worker, first thing: Ctrl-C is for the host (it stops the workers), and a thread
    ends the process when the host is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            alive.recv_bytes()  # nothing is ever sent: this returns when the host's end closes
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-the-host", daemon=True).start()
