"""Shared fixtures: a host on a real database (a SQLite file; PostgreSQL where a module says
`BACKENDS = BOTH`), with a clock the test moves; and a guard that fails any test in which the
host had to play a fallback move for a failed AI."""

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
from bot.storage import Storage, open_storage
from tests.support import embedded_postgres
from tests.support.postgres import fresh_database


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
    store: Storage
    clock: Clock
    db: Path | str  # the SQLite file, or the PostgreSQL database's URL
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


async def open_table(db: Path | str, clock: Clock, ai_workers: int = 0, store: Storage | None = None,
                     **host_options) -> Table:
    store = store or await open_storage(str(db))
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


@pytest.hookimpl(trylast=True)  # after the terminal reporter is set up
def pytest_configure(config: pytest.Config) -> None:
    """The run's PostgreSQL: chosen (and started, if the run needs its own) once, by the main
    process; pytest-xdist's workers inherit its URL (`tests.support.embedded_postgres`)."""
    if hasattr(config, "workerinput"):
        return
    try:
        server, said = embedded_postgres.choose()
    except RuntimeError as error:
        raise pytest.UsageError(str(error)) from error
    config.stash[_POSTGRES] = server, said
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and server is not None:  # said even under -q: the run started a server
        reporter.write_line(said)


def pytest_report_header(config: pytest.Config) -> str | None:
    return config.stash.get(_POSTGRES, (None, None))[1]


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's own PostgreSQL, if it started one, stopped and deleted (after Ctrl-C too)."""
    server = config.stash.get(_POSTGRES, (None, None))[0]
    if server is not None:
        server.stop()


_POSTGRES = pytest.StashKey[tuple[embedded_postgres.Embedded | None, str]]()


@pytest.fixture
def clock() -> Clock:
    return Clock()


BOTH = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module that says `BACKENDS = BOTH` runs each of its tests on a database (`table`,
    `database`) once on SQLite and once on PostgreSQL; `@pytest.mark.backends("sqlite")` on a
    test says which it runs on instead (a fault only one of them has)."""
    marker = metafunc.definition.get_closest_marker("backends")
    backends = marker.args if marker is not None else getattr(metafunc.module, "BACKENDS", None)
    if backends and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", backends, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture
async def database(backend: str, tmp_path: Path) -> AsyncIterator[Path | str]:
    """Where the test's games are kept: a new SQLite file, or a new PostgreSQL database
    (created for this test alone and dropped after it)."""
    if backend == "sqlite":
        yield tmp_path / "games.db"
        return
    async with fresh_database() as url:
        yield url


@pytest.fixture
async def table(database: Path | str, clock: Clock) -> AsyncIterator[Table]:
    t = await open_table(database, clock)
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
