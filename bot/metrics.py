"""What the process measures, for Prometheus (prometheus-client, the standard client library).

The host and the adapters call the one-line hooks below (`moved`, `thinking`, `rendering`,
`platform_error`, `rate_limited`, `timed`); `bot.ops` serves the numbers at /metrics. Counters
and histograms count what this process did (Prometheus adds the processes up); the gauges read
from the store at each scrape (`refresh`) are of the whole database, every process's games.

| metric | kind | labels |
| --- | --- | --- |
| gamehost_active_games | gauge | game (tables being played now; `gamehost_open_tables`: waiting for players) |
| gamehost_moves_total | counter | game, by (person, bot): `rate(gamehost_moves_total[1m])` is moves/s |
| gamehost_command_seconds | histogram | platform, command (a known command word, or "other", "button") |
| gamehost_ai_think_seconds | histogram | game, level |
| gamehost_render_seconds | histogram | picture (a game, or "standings") |
| gamehost_outbox_backlog | gauge | replies committed, not delivered yet (when the store keeps an outbox) |
| gamehost_platform_errors_total | counter | platform, kind |
| gamehost_platform_ready | gauge | platform (1 connected and ready, 0 not: /readyz says why; read at each scrape) |
| gamehost_rate_limit_waits_total, gamehost_rate_limit_wait_seconds_total | counter | platform |
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

from bot.session import SessionStatus

log = logging.getLogger(__name__)

FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)

ACTIVE_GAMES = Gauge("gamehost_active_games", "Games being played now (whole database)", ["game"])
OPEN_TABLES = Gauge("gamehost_open_tables", "Tables waiting for players (whole database)", ["game"])
MOVES = Counter("gamehost_moves", "Moves applied and committed by this process", ["game", "by"])
COMMAND_SECONDS = Histogram("gamehost_command_seconds", "Time to answer one command or button, reply sent",
                            ["platform", "command"], buckets=FAST)
AI_SECONDS = Histogram("gamehost_ai_think_seconds", "Time the AI took to choose a move (queue included)",
                       ["game", "level"], buckets=SLOW)
RENDER_SECONDS = Histogram("gamehost_render_seconds", "Time to draw one picture (queue included)", ["picture"],
                           buckets=FAST)
OUTBOX_BACKLOG = Gauge("gamehost_outbox_backlog", "Replies committed with their move, not delivered yet")
PLATFORM_ERRORS = Counter("gamehost_platform_errors", "Calls to a platform that failed, and updates that failed",
                          ["platform", "kind"])
PLATFORM_READY = Gauge("gamehost_platform_ready", "1 while the platform is connected and ready, else 0",
                       ["platform"])
RATE_LIMIT_WAITS = Counter("gamehost_rate_limit_waits", "Times a request waited for a platform's rate limit",
                           ["platform"])
RATE_LIMIT_SECONDS = Counter("gamehost_rate_limit_wait_seconds", "Seconds requests waited for rate limits",
                             ["platform"])


def moved(game: str, by_ai: bool) -> None:
    MOVES.labels(game, "bot" if by_ai else "person").inc()


@contextmanager
def thinking(game: str, level: str) -> Iterator[None]:
    with AI_SECONDS.labels(game, level).time():
        yield


@contextmanager
def rendering(picture: str) -> Iterator[None]:
    with RENDER_SECONDS.labels(picture).time():
        yield


def platform_error(platform: str, kind: str) -> None:
    PLATFORM_ERRORS.labels(platform, kind).inc()


def platform_ready(platform: str, ready: bool) -> None:
    PLATFORM_READY.labels(platform).set(1 if ready else 0)


def rate_limited(platform: str, seconds: float) -> None:
    """A request waited `seconds` for a rate limit (a 429's retry-after, or a limiter's own wait)."""
    RATE_LIMIT_WAITS.labels(platform).inc()
    RATE_LIMIT_SECONDS.labels(platform).inc(max(0.0, seconds))


def timed(handle: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """`Host.handle`, timed: `gamehost_command_seconds` by platform and command word (the word as
    the host knows it, else "other": what people type never becomes a label of its own), and a
    line at DEBUG for each command (channel, user, word, milliseconds; not what they typed)."""

    @functools.wraps(handle)
    async def measured(host: Any, event: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        word = command_word(host, event)
        try:
            return await handle(host, event, *args, **kwargs)
        finally:
            took = time.perf_counter() - started
            COMMAND_SECONDS.labels(event.channel.partition(":")[0], word).observe(took)
            log.debug("%s: %s sent %s, answered in %.1f ms", event.channel, event.user.id, word, took * 1000)

    return measured


def command_word(host: Any, event: Any) -> str:
    if event.button is not None:
        return "button"
    word = (event.text or "").lstrip("/").split(" ", 1)[0].split("@", 1)[0]
    return host.command_name(word) or "other"


async def refresh(store: Any) -> None:
    """The gauges that count what the store holds, read now (at each scrape). An outbox backlog
    only when the store keeps one (`outbox_backlog()`)."""
    counts = await store.active_counts()  # one COUNT query, no session read
    for gauge, status in ((ACTIVE_GAMES, SessionStatus.PLAYING), (OPEN_TABLES, SessionStatus.LOBBY)):
        for sample in next(iter(gauge.collect())).samples:  # a game nobody plays now reads 0, not its last value
            gauge.labels(sample.labels["game"]).set(0)
        for (s, game), n in counts.items():
            if s == status:
                gauge.labels(game).set(n)
    backlog = getattr(store, "outbox_backlog", None)
    if backlog is not None:
        OUTBOX_BACKLOG.set(await backlog())
