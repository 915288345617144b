"""Where games are kept: one contract (`Storage`), two databases.

`open_storage(where)` opens a SQLite file (the default, `gamehost.db`: no server) or,
for a `postgresql://` URL, a PostgreSQL database that several gamehost processes may
share. The host sees only the contract (`bot.storage.contract`) and its exceptions.
"""

from __future__ import annotations

from bot.session import ChannelBusy, Conflict
from bot.storage.contract import PLACE, Redeemed, Storage, StorageUnavailable, Throttle
from bot.storage.migrations import MIGRATIONS

__all__ = ["MIGRATIONS", "PLACE", "ChannelBusy", "Conflict", "Redeemed", "Storage", "StorageUnavailable", "Throttle",
           "is_postgres", "open_storage"]


def is_postgres(where: str) -> bool:
    return where.startswith(("postgresql://", "postgres://"))


async def open_storage(where: str, pool_size: int = 10) -> Storage:
    """The database at `where`: a `postgresql://` URL, else a SQLite file's path."""
    if is_postgres(where):
        from bot.storage.postgres import PostgresStorage  # asyncpg only when it is used

        return await PostgresStorage.open(where, pool_size=pool_size)
    from bot.storage.sqlite import SQLiteStorage

    return await SQLiteStorage.open(where)
