"""A game's place of its own (a thread, a topic) starts with its event channel's settings: its
language, hints, web and server, so a Chinese channel's tournament is played in Chinese and a
channel that shows its games on the web shows its tournament's games too."""

from __future__ import annotations

from pathlib import Path

from bot.info import HINTS
from bot.languages import CHANNEL_KEY
from bot.model import Reply
from bot.web.access import WEB
from tests.conftest import Clock, close_table, open_table, person
from tests.tournament.test_flows import finished, of_bots

MOD = person("mo", moderator=True)


async def test_a_place_of_its_own_starts_with_the_channel_settings(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "t.db", Clock())
    opened: list[str] = []
    said: dict[str, list[Reply]] = {}

    async def open_place(channel: str, name: str) -> str:
        opened.append(f"{channel}/{len(opened) + 1}")
        return opened[-1]

    async def deliver(channel: str, replies: list[Reply]) -> None:
        said.setdefault(channel, []).extend(replies)

    table.host.attach("console", deliver, open_place=open_place)
    try:
        await table.say(MOD, "/lang zh")
        await table.say(MOD, "/web off")
        await table.say(MOD, "/hints off")
        await of_bots(table, "/nim tournament swiss rounds=1 3 4 5", 2)
        await finished(table)
        assert len(opened) == 1
        store = table.store
        for key, value in ((CHANNEL_KEY, "zh"), (WEB, "off"), (HINTS, "off")):
            assert await store.setting(table.channel, key) == value
            assert await store.setting(opened[0], key) == value
        assert any("获胜" in r.text or "赢" in r.text for r in said[opened[0]])  # the game's result, in Chinese
    finally:
        await close_table(table)
