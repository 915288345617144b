"""The storage fixture of the modules that test the store itself on both databases.

A module with `BACKENDS = BOTH` that imports `opened_store` gets the fixture `store`: the test's
database (`database`, a new SQLite file or a new PostgreSQL database) opened, closed after the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage, open_storage


@pytest.fixture(name="store")
async def opened_store(database: Path | str) -> AsyncIterator[Storage]:
    opened = await open_storage(str(database))
    yield opened
    await opened.close()
