"""A stand-in Discord and the real bot (discord.py client + host on SQLite) connected to it."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.gateway import DiscordWebSocket

from bot.adapters.discord import DiscordBot
from bot.ai import AIRunner
from bot.host import Host
from bot.storage import Storage, open_storage
from tests.discord.fake import TOKEN, FakeDiscord, Interaction, Message, Person
from tests.support.pictures import PICTURE_SMALLEST, picture


@dataclass
class Bot:
    """One run of the bot process: store, AI, host and Discord client."""

    fake: FakeDiscord
    store: Storage
    ai: AIRunner
    host: Host
    discord: DiscordBot

    async def stop(self) -> None:
        await asyncio.wait_for(self.discord.stop(), 60)
        await self.host.stop()
        self.ai.close()
        await self.store.close()


async def start_bot(
    fake: FakeDiscord,
    db: Path | str,
    *,
    ai: AIRunner | None = None,
    guilds: Sequence[int] | None = None,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
    **host_options: Any,
) -> Bot:
    store = await open_storage(str(db))
    ai = ai or AIRunner(0)
    host = Host(store, ai, **host_options)
    bot = DiscordBot(host, TOKEN, guilds=fake.guild_ids if guilds is None else guilds, api=fake.api,
                     gateway=fake.gateway, shard_count=shard_count, shard_ids=shard_ids,
                     guild_ready_timeout=0.05)
    await host.start()
    await bot.start()
    await asyncio.wait_for(bot.ready.wait(), 60)
    return Bot(fake, store, ai, host, bot)


@pytest.fixture(autouse=True)
def _discord_endpoints() -> Iterator[None]:
    """The bot points discord.py's process-wide endpoints at the stand-in; put them back after."""
    base, gateway = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    library = logging.getLogger("discord")
    level = library.level
    library.setLevel(logging.WARNING)
    yield
    discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway
    library.setLevel(level)  # the tests that follow in this process log as they would alone


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.close()
    assert not server.unknown, f"the bot made requests the stand-in does not know: {server.unknown}"
    assert not server.refused, f"Discord would have refused messages the bot sent: {server.refused}"
    for name, data in server.uploads:  # every picture the bot sent decodes, is board-sized and not blank
        if name.endswith(".png"):
            picture(data, smallest=PICTURE_SMALLEST)
    late = {i.id: i.refused for i in server.interactions.values() if i.refused}
    assert not late, f"Discord refused calls about interactions: {late}"


@pytest.fixture
async def bot(fake: FakeDiscord, database: Path | str) -> AsyncIterator[Bot]:
    running = await start_bot(fake, database)  # SQLite, or PostgreSQL where a module says BACKENDS = BOTH
    yield running
    await running.stop()


# --- what the tests do as people -----------------------------------------------------------
PNG = b"\x89PNG\r\n\x1a\n"
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before punctuation: Discord shows the character


def shown(content: str) -> str:
    """The text Discord shows of a message's `content`: escapes undone, no zero-width space."""
    return ESCAPED.sub(r"\1", content).replace("\u200b", "")


def first_channel(fake: FakeDiscord) -> int:
    return next(iter(fake.channels))


async def run(
    fake: FakeDiscord, person: Person, command: str, channel: int | None = None, **options: object
) -> Interaction:
    """`person` runs a slash command; returns once the bot has answered it (its "thinking…" is gone)."""
    interaction = await fake.slash(person, command, channel, **options)
    await fake.wait(lambda: interaction.settled)
    return interaction


def boards(fake: FakeDiscord, channel: int) -> list[Message]:
    """The channel's messages that show a picture."""
    return [m for m in fake.channel(channel) if m.png]


async def board_saying(fake: FakeDiscord, channel: int, text: str) -> Message:
    """Wait for the channel's current board, once its text has `text`."""

    def current() -> Message | None:
        shown = boards(fake, channel)
        return shown[-1] if shown and text in shown[-1].content else None

    current.__name__ = f"a board saying {text!r}"
    return await fake.wait(current)


async def said_to(fake: FakeDiscord, interaction: Interaction, text: str) -> Message:
    """Wait for the bot to tell the user of `interaction`, privately, something with `text`."""

    def found() -> Message | None:
        return next((m for m in interaction.said if text in m.content), None)

    found.__name__ = f"{interaction.user.name} told {text!r}"
    return await fake.wait(found)
