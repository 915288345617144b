"""PostgreSQL for the tests: a database of its own for each test, raw SQL on either backend,
and a proxy that plays a server going away or hanging.

The server is the one `tests.support.embedded_postgres` chose for the run: `GAMEHOST_TEST_POSTGRES`, else
postgres on 127.0.0.1:5432 (trust auth) if it answers, else one the run started itself. Each test
gets a database created for it and dropped after it, with a name no other run uses, so engineers
and CI runs sharing the server never meet. A server that cannot be reached fails the test with
one clear line: the PostgreSQL half of the suite is never skipped in silence.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage import Storage
from bot.storage.pgdriver import numbered
from tests.support.embedded_postgres import admin_url


def url_of(database: str) -> str:
    return urlunsplit(urlsplit(admin_url())._replace(path=f"/{database}"))


async def admin_connection() -> asyncpg.Connection:
    try:
        return await asyncpg.connect(admin_url(), timeout=10)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
        reason = f"{type(error).__name__}: {error}"
    pytest.fail(f"PostgreSQL is not reachable at {admin_url()} ({reason}); the PostgreSQL tests need it"
                " (with GAMEHOST_TEST_POSTGRES unset and nothing at the default address, the run starts its own)",
                pytrace=False)


@contextlib.asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new, empty database; its URL. Dropped afterwards (its connections cut)."""
    name = f"gamehost_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin = await admin_connection()
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield url_of(name)
    finally:
        admin = await admin_connection()
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def scalar(store: Storage, sql: str, *params: Any) -> Any:
    """The first value of `sql` (written with ? placeholders) on either backend, raw."""
    if hasattr(store, "pool"):
        numbered = iter(range(1, 1 + sql.count("?")))
        return await store.pool.fetchval(re.sub(r"\?", lambda _: f"${next(numbered)}", sql), *params)
    cursor = await store.db.execute(sql, params)
    row = await cursor.fetchone()
    return None if row is None else row[0]


async def rows(store: Storage, sql: str, *params: Any) -> list[dict[str, Any]]:
    """The rows of `sql` (written with ? placeholders) on either backend, raw, as dicts."""
    if hasattr(store, "pool"):
        return [dict(r) for r in await store.pool.fetch(numbered(sql), *params)]
    return [dict(r) for r in await store.db.execute_fetchall(sql, params)]


async def execute(store: Storage, sql: str, *params: Any) -> None:
    """Run `sql` (? placeholders) on either backend, raw, outside the store's transactions."""
    if hasattr(store, "pool"):
        await store.pool.execute(numbered(sql), *params)
    else:
        await store.db.execute(sql, params)


async def database_clock(store: Storage) -> float:
    """The clock leases run on: the database's, in seconds since 1970."""
    from bot.storage import postgres, sqlite

    return await scalar(store, f"SELECT {postgres.NOW if hasattr(store, 'pool') else sqlite.NOW}")


class Proxy:
    """A TCP proxy to the server: `cut()` drops every connection and refuses new ones (the
    server is gone, as far as the client can tell), `restore()` lets them through again;
    `stall()` holds every byte either way, on the connections open and on new ones (which it
    still accepts: the server hangs, as a paused one does), `resume()` lets them flow again,
    what was held first."""

    def __init__(self, target: str | None = None) -> None:
        parts = urlsplit(target or admin_url())
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 5432
        self.server: asyncio.Server | None = None
        self.listen_port = 0
        self.pipes: set[asyncio.Task[None]] = set()
        self.writers: set[asyncio.StreamWriter] = set()
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.marker: bytes | None = None

    def url(self, database_url: str) -> str:
        """`database_url`, reached through the proxy."""
        parts = urlsplit(database_url)
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.listen_port}"))

    async def restore(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.listen_port)
        self.listen_port = self.server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()
        for writer in list(self.writers):
            writer.transport.abort()
        for task in list(self.pipes):
            task.cancel()
        await asyncio.gather(*self.pipes, return_exceptions=True)

    def stall(self) -> None:
        self.flowing.clear()

    def stall_at(self, marker: bytes) -> None:
        """Stall when the client sends `marker` (a statement's text: sent the first time a
        connection prepares it), what came before it forwarded."""
        self.marker = marker

    @property
    def stalled(self) -> bool:
        return not self.flowing.is_set()

    def resume(self) -> None:
        self.marker = None
        self.flowing.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        self.writers |= {writer, up_writer}
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.ensure_future(self._pipe(source, sink))
            self.pipes.add(task)
            task.add_done_callback(self.pipes.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                if self.marker is not None and self.marker in data:
                    self.flowing.clear()
                await self.flowing.wait()
                sink.write(data)
                await sink.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            sink.transport.abort()
            self.writers.discard(sink)
