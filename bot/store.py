"""Kept for code written against the single SQLite store: new code imports `bot.storage`."""

from bot.storage import MIGRATIONS, ChannelBusy, Conflict, StorageUnavailable
from bot.storage.sqlite import SQLiteStorage as Store

__all__ = ["MIGRATIONS", "ChannelBusy", "Conflict", "StorageUnavailable", "Store"]
