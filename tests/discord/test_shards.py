"""Splitting a large Discord bot over processes: each runs the shards its settings name."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.adapters.discord import DiscordBot
from bot.config import load
from tests.conftest import Clock, close_table, open_table


async def test_the_shard_settings_drive_the_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("GAMEHOST_DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("GAMEHOST_DISCORD_SHARD_IDS", "2,3")
    table = await open_table(tmp_path / "g.db", Clock())
    try:
        bot = DiscordBot.from_settings(table.host, load([]))
        assert isinstance(bot.client, discord.AutoShardedClient)
        assert bot.client.shard_count == 4 and bot.client.shard_ids == [2, 3]
    finally:
        await close_table(table)
