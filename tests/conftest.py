"""Shared fixtures: a host on a real SQLite file, with a clock the test moves."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.ai import AIRunner
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
