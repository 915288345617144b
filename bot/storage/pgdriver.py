"""What the PostgreSQL store needs from around asyncpg: its errors (and the network's) as
`StorageUnavailable` with one line that says what happened, connections that never wait on a server
that does not answer (`Bounded`), advisory lock keys and a channel's lock, a URL fit to show (no
password), and the `Tx` the portable SQL of `bot.storage.rated` runs on."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import re
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage.contract import StorageUnavailable
from bot.storage.rated import Tx

P = ParamSpec("P")
R = TypeVar("R")
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError, TimeoutError)


def key(name: str) -> int:
    """A 64-bit advisory lock key for `name`, the same in every process."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


MIGRATION_LOCK = key("gamehost.migrate")


def channel_key(channel: str) -> int:
    """The advisory lock key of one channel's commands."""
    return key(f"gamehost.channel:{channel}")


async def lock_channel(conn: asyncpg.Connection, channel: str) -> None:
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", channel_key(channel))
    except DRIVER_ERRORS as error:
        raise StorageUnavailable(reason(error)) from error


@dataclass
class Held:
    """A command in the store's `exclusive`: its task, its connection, and the channel whose lock
    it has not taken yet (None once taken: the command's first trip takes it)."""

    task: asyncio.Task[Any] | None
    conn: asyncpg.Connection
    pending: str | None

    async def take(self) -> None:
        if self.pending is not None:
            channel, self.pending = self.pending, None  # from here on the server may hold it
            await lock_channel(self.conn, channel)


class Bounded(asyncpg.Connection):  # type: ignore[misc]
    """A connection whose trip to the server timed out (the pool's `command_timeout`) is closed at
    once, never reused: what it sent may still be in flight, and the ROLLBACK, cancel request or
    reset that would tidy it up waits on the same server that did not answer. The server drops
    the session (its locks and open transaction with it) when it sees the connection gone; the
    pool opens a new one when one is next needed."""

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        return await self._bounded(super().execute(*args, **kwargs))

    async def executemany(self, *args: Any, **kwargs: Any) -> Any:
        return await self._bounded(super().executemany(*args, **kwargs))

    async def fetch(self, *args: Any, **kwargs: Any) -> Any:
        return await self._bounded(super().fetch(*args, **kwargs))

    async def fetchval(self, *args: Any, **kwargs: Any) -> Any:
        return await self._bounded(super().fetchval(*args, **kwargs))

    async def fetchrow(self, *args: Any, **kwargs: Any) -> Any:
        return await self._bounded(super().fetchrow(*args, **kwargs))

    async def _bounded(self, trip: Awaitable[R]) -> R:
        try:
            return await trip
        except TimeoutError:
            self.terminate()
            raise


async def let_go(pool: asyncpg.Pool, conn: asyncpg.Connection, locked: bool = True) -> None:
    """Free the channels' locks `conn` holds (if any was taken) and give it back to `pool`. A
    connection that broke or timed out has gone back by itself, and the server frees its locks;
    one that fails to unlock is closed (which frees them). Neither is the command's failure."""
    try:
        if locked:
            await conn.execute("SELECT pg_advisory_unlock_all()")
    except BaseException as error:
        with contextlib.suppress(Exception):
            conn.terminate()
        if not isinstance(error, Exception):
            raise  # a cancellation goes on
    finally:
        with contextlib.suppress(Exception):
            await pool.release(conn)


def reason(error: BaseException) -> str:
    """One line that says what went wrong, connection refused or lost included. A trip that timed out
    is said as such, also when what failed next was the transaction's end on the closed connection."""
    chain: list[BaseException] = [error]
    while len(chain) < 10 and (earlier := chain[-1].__cause__ or chain[-1].__context__) is not None:
        chain.append(earlier)
    error = next((e for e in chain if isinstance(e, TimeoutError)), error)
    if isinstance(error, ConnectionRefusedError):
        text = f"connection refused ({error})"
    elif isinstance(error, asyncpg.ConnectionDoesNotExistError | ConnectionResetError | BrokenPipeError):
        text = f"connection lost ({error})"
    elif isinstance(error, TimeoutError):
        text = "PostgreSQL did not answer in time"
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.split())


def shown(url: str) -> str:
    """`url` without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")
    user = netloc[0].partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[2]}"))


def guarded(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """The driver's and the network's errors out of `method` become `StorageUnavailable`."""

    @functools.wraps(method)
    async def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except DRIVER_ERRORS as error:
            raise StorageUnavailable(reason(error)) from error

    return wrapped


async def keep(connection: asyncpg.Connection) -> None:
    """Nothing to reset when a connection goes back to the pool (an open transaction is still
    rolled back by asyncpg): `exclusive` frees its locks itself, and no command sets state."""


def numbered(sql: str) -> str:
    """Portable SQL's `?` placeholders as PostgreSQL's `$1`, `$2`, ... (the SQL is ours: no `?`
    stands in a literal)."""
    count = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


class PgTx(Tx):
    """A connection inside a transaction; `lock` takes a transaction-level advisory lock."""

    errors = DRIVER_ERRORS

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in await self.conn.fetch(numbered(sql), *params)]

    async def run(self, sql: str, *params: Any) -> None:
        await self.conn.execute(numbered(sql), *params)

    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(numbered(sql), rows)

    async def lock(self, name: str) -> None:
        await self.conn.execute("SELECT pg_advisory_xact_lock($1)", key(f"gamehost.{name}"))

    def savepoint(self) -> Any:
        return self.conn.transaction()  # inside a transaction: a savepoint
