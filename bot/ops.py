"""The operations endpoint: one small HTTP server (aiohttp) for the orchestrator and Prometheus.

- `GET /healthz`: live. 200 while the process's event loop answers at all (a container
  orchestrator restarts a process that stops answering this).
- `GET /readyz`: ready. 200 only when the storage answers (within `STORAGE_TIMEOUT`) and every
  platform this process runs is connected; else 503. The body says which is up and which down
  (and why, where it is known), as JSON: `{"ready": false, "storage": "up", "telegram": "down:
  Telegram has no webhook for the bot"}`. Each platform's state is `gamehost_platform_ready` too.
- `GET /metrics`: the Prometheus text format (`bot.metrics`, plus the client library's process
  and Python collectors), the store-backed gauges read afresh at each scrape.

Off unless `--metrics-port` is set (`bot.config`): the quickstart's console bot opens no port.
"""

from __future__ import annotations

import asyncio
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot import metrics
from bot.startup import StartFailed

log = logging.getLogger(__name__)

STORAGE_TIMEOUT = 2.0  # seconds the storage may take to answer a readiness check
# A platform's readiness now: True or "up"; False, "down" or "down: why".
Check: TypeAlias = Callable[[], bool | str]


class Served(ABC):
    """An aiohttp application (`app()`) served on `listen`:`port`, started and stopped: the base of this
    endpoint and of the web site (`bot.web.site`), each on its own port. `what` names it when the port
    cannot be had."""

    what = "/metrics"

    def __init__(self, listen: str = "127.0.0.1", port: int = 0) -> None:
        self.listen, self.port = listen, port
        self._runner: web.AppRunner | None = None

    @abstractmethod
    def app(self) -> web.Application:
        """The application to serve."""

    async def start(self) -> int:
        """Serve; returns the port (the one given, or the one the system chose for 0)."""
        self._runner = web.AppRunner(self.app(), handle_signals=False, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.listen, self.port).start()
        except OSError as error:  # the port is taken, the address is not this machine's
            await self.stop()
            raise StartFailed(f"cannot serve {self.what} on {self.listen}:{self.port}: {error.strerror or error}",
                              transient=False) from None
        self.port = self._runner.addresses[0][1]
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


class Ops(Served):
    """`checks`: each platform this process runs, by name -> whether it is connected now."""

    def __init__(self, store: Any, checks: Mapping[str, Check], listen: str = "127.0.0.1",
                 port: int = 0) -> None:
        super().__init__(listen, port)
        self.store = store
        self.checks = dict(checks)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self._live)
        app.router.add_get("/readyz", self._ready)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def readiness(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        try:
            async with asyncio.timeout(STORAGE_TIMEOUT):
                await self.store.schema_version()
            found["storage"] = "up"
        except Exception as error:  # closed, unreachable, locked past the timeout: not ready
            found["storage"] = f"down: {type(error).__name__}"
        found.update(self.platforms())
        return {"ready": all(v == "up" for v in found.values()), **found}

    def platforms(self) -> dict[str, str]:
        """Each platform's state, "up" or "down[: why]" (and so `gamehost_platform_ready`)."""
        found = {}
        for name, check in self.checks.items():
            try:
                state = check()
                found[name] = "up" if state is True else "down" if state is False else str(state)
            except Exception as error:
                found[name] = f"down: {type(error).__name__}"
            metrics.platform_ready(name, found[name] == "up")
        return found

    async def _live(self, request: web.Request) -> web.Response:
        return web.Response(text="live\n")

    async def _ready(self, request: web.Request) -> web.Response:
        found = await self.readiness()
        return web.Response(text=json.dumps(found) + "\n", status=200 if found["ready"] else 503,
                            content_type="application/json")

    async def _metrics(self, request: web.Request) -> web.Response:
        self.platforms()
        try:
            await metrics.refresh(self.store)
        except Exception as error:  # the rest of the numbers still go out
            log.warning("metrics: reading the store failed: %s", error)
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
