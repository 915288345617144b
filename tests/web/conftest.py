"""The web site's fixtures: a database of real games (`tests.web.games`), played once per test
module, and a site serving it from a host of its own (real pictures, drawn in threads)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.ai import AIRunner
from bot.host import Host
from bot.web.site import Site
from tests.conftest import Clock
from tests.web.games import Played, fill


@pytest.fixture
async def played(database: Path | str) -> AsyncIterator[Played]:
    """The games, on a SQLite file (or on PostgreSQL too, where a module says `BACKENDS = BOTH`)."""
    found = await fill(database, Clock())
    yield found
    await found.store.close()


@pytest.fixture
async def site(played: Played) -> AsyncIterator[Site]:
    host = Host(played.store, AIRunner(0))
    yield Site(host.core)
    host.ai.close()


@pytest.fixture
async def client(site: Site) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(site.app())) as client:
        yield client
