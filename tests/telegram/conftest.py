"""A host on real SQLite, the real python-telegram-bot Application, and the stand-in Bot API."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.telegram import Telegram, TelegramOptions
from tests.conftest import Clock, Table, close_table, open_table
from tests.support.pictures import PICTURE_SMALLEST, picture
from tests.telegram.standin import TOKEN, BotAPI

GROUP = -1001234
CHANNEL = f"telegram:{GROUP}"


@dataclass
class World:
    api: BotAPI
    table: Table
    tg: Telegram
    alice: dict[str, Any]
    bob: dict[str, Any]
    carol: dict[str, Any]

    async def stop(self) -> None:
        await self.tg.stop()
        await close_table(self.table)
        await self.api.stop()
        assert not self.api.broken_rules(), f"Telegram refused what the bot sent: {self.api.broken_rules()}"
        for photo in self.api.photos():  # each decodes, is board-sized and not blank
            picture(photo, smallest=PICTURE_SMALLEST)


async def make_world(tmp_path: Path, clock: Clock, db: Path | str | None = None,
                     host_options: dict[str, Any] | None = None, **options: Any) -> World:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    people = api.person(101, "Alice", "alice"), api.person(102, "Bob", "bob"), api.person(103, "Carol")
    table = await open_table(db or tmp_path / "games.db", clock, **(host_options or {}))
    options = {"poll_timeout": 5.0, "group_rate": 0, **options}
    tg = Telegram(table.host, TelegramOptions(TOKEN, api_url=api.url, **options))
    await tg.start()
    return World(api, table, tg, *people)


@pytest.fixture
async def world(tmp_path: Path, clock: Clock, database: Path | str) -> AsyncIterator[World]:
    w = await make_world(tmp_path, clock, database)  # SQLite, or PostgreSQL where a module says BACKENDS = BOTH
    yield w
    await w.stop()


# --- helpers for the tests ---------------------------------------------------------------
def last_message_id(world: World) -> int:
    return world.api.bot_messages(GROUP)[-1]["message_id"]


def button(call: Any, label: str) -> str:
    return next(b["callback_data"] for b in call.buttons if b["text"] == label)


async def session(world: World) -> Any:
    return await world.table.store.latest(CHANNEL)


async def two_player_nim(world: World, heaps: str) -> int:
    """Alice opens, Bob joins; the board photo's message id."""
    api = world.api
    await api.say(world.alice, GROUP, f"/nim start {heaps}")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(world.bob, GROUP, "/join")
    await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    return last_message_id(world)
