"""What the PostgreSQL store needs from around asyncpg: its errors (and the network's) as
`StorageUnavailable` with one line that says what happened, advisory lock keys, and a URL
fit to show (no password)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage.contract import StorageUnavailable

P = ParamSpec("P")
R = TypeVar("R")
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError, TimeoutError)


def key(name: str) -> int:
    """A 64-bit advisory lock key for `name`, the same in every process."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


MIGRATION_LOCK = key("gamehost.migrate")


def reason(error: BaseException) -> str:
    """One line that says what went wrong, connection refused or lost included."""
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


def guarded(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
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
