"""Shared fixtures: a host on a real SQLite file, with a clock the test moves; and a guard
that fails any test in which the host had to play a fallback move for a failed AI."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.ai import AIRunner
from bot.autoplay import fallback_log
from bot.host import Host
from bot.model import Event, Reply, User
from bot.store import Store


class Clock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Table:
    """A host and a channel, with people who type into it."""

    host: Host
    store: Store
    clock: Clock
    db: Path
    channel: str = "console:test"
    delivered: list[Reply] = field(default_factory=list)

    async def say(self, user: User, text: str, **mentions: User) -> list[Reply]:
        tokens = {f"@{name}": u for name, u in mentions.items()}
        return await self.host.handle(Event(self.channel, user, text, mentions=tokens))

    async def press(self, user: User, button_id: str) -> list[Reply]:
        return await self.host.handle(Event(self.channel, user, button=button_id))

    async def text(self, user: User, text: str, **mentions: User) -> str:
        return "\n".join(r.text for r in await self.say(user, text, **mentions))

    async def session(self):
        return await self.store.latest(self.channel)


def person(name: str, moderator: bool = False) -> User:
    return User(f"console:{name}", name.title(), name, moderator)


ALICE, BOB, CAROL = person("alice"), person("bob"), person("carol")


async def open_table(db: Path, clock: Clock, ai_workers: int = 0, **host_options) -> Table:
    store = await Store.open(str(db))
    host = Host(store, AIRunner(ai_workers), clock=clock, **host_options)
    table = Table(host, store, clock, db)

    async def deliver(channel: str, replies: list[Reply]) -> None:
        table.delivered.extend(replies)

    host.attach("console", deliver)
    await host.start()
    return table


async def close_table(table: Table) -> None:
    await table.host.stop()
    table.host.ai.close()
    await table.store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def table(tmp_path: Path, clock: Clock) -> AsyncIterator[Table]:
    t = await open_table(tmp_path / "games.db", clock)
    yield t
    await close_table(t)


async def until(found: Callable[[], Any], timeout: float = 60.0) -> Any:
    """Wait until `found()` is true: the effect of a background task the test cannot await. The
    timeout only turns a hang into a failure; nothing depends on how long the wait takes."""
    async with asyncio.timeout(timeout):
        while not (value := found()):
            await asyncio.sleep(0.01)
    return value


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def _the_ai_never_fails_unnoticed(request: pytest.FixtureRequest) -> Iterator[None]:
    """When the AI fails, the host plays the first legal move so that no game is stuck; no test
    may pass through that path unless it says so (`@pytest.mark.ai_fallback`)."""
    seen = _Records()
    fallback_log.addHandler(seen)
    try:
        yield
    finally:
        fallback_log.removeHandler(seen)
    if seen.records and request.node.get_closest_marker("ai_fallback") is None:
        pytest.fail(f"the host played a fallback move for a failed AI: {seen.records[0].getMessage()}")
