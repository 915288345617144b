"""`/web on|off` and the chat's links to the site, through the host (the platforms' own tests are
tests/discord and tests/telegram test_web.py): usage, moderators only, both languages, the console
shown by default, and links only where there is a site (`--web-url`) and a channel that allows it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.model import Event, User
from bot.web import access
from tests.conftest import ALICE, BOB, Table
from tests.console.test_console import play

URL = "https://example.org/games/"
CHANNEL, GUILD = "discord:300", "discord:guild:9"
DAN, MOD = User("discord:dan", "Dan"), User("discord:mona", "Mona", moderator=True)


async def say(table: Table, user: User, text: str, channel: str = CHANNEL) -> str:
    replies = await table.host.handle(Event(channel, user, text, place=GUILD if channel == CHANNEL else "console"))
    return "\n".join(r.text for r in replies)


async def finish(table: Table, channel: str = CHANNEL) -> str:
    a, b = (DAN, MOD) if channel == CHANNEL else (ALICE, BOB)
    await say(table, a, "/nim start 1", channel)
    await say(table, b, "/join", channel)
    return await say(table, a, "/take 1 1", channel)


async def test_web_on_and_off(table: Table) -> None:
    assert "Use /web on or /web off" in await say(table, MOD, "/web")
    assert "Use /web on or /web off" in await say(table, MOD, "/web maybe")
    assert "Only a moderator" in await say(table, DAN, "/web on")
    assert await table.store.setting(CHANNEL, access.WEB) is None
    assert await say(table, MOD, "/web on") == "This channel's finished games are now shown on the web site."
    assert await table.store.setting(CHANNEL, access.WEB) == "on"
    table.host.core.web_url = URL
    assert URL in await say(table, MOD, "/web ON")
    assert "no longer shown" in await say(table, MOD, "/web off")
    await say(table, MOD, "/lang zh")
    assert await say(table, MOD, "/网站 on") == "本频道已结束的对局现在会显示在网站上。\n" + URL
    assert "只有管理员" in await say(table, DAN, "/网站 off")


async def test_links_only_with_a_site_and_where_allowed(table: Table) -> None:
    assert "Replay:" not in await finish(table, "console:test")  # no --web-url: no links at all
    table.host.core.web_url = URL
    result = await finish(table, "console:test")  # the console shows its games by default
    token = re.search(r"Replay: https://example\.org/games/game/([\w-]{22})$", result, re.M)
    assert token is not None and (await access.shown_game(table.store, token[1])).channel == "console:test"
    assert "Replay:" not in await finish(table)  # a Discord channel that did not say /web on
    assert "More:" not in await say(table, DAN, "/leaderboard nim here")  # nor does any channel of its server
    assert "More: https://example.org/games/leaderboard/nim" in await say(table, DAN, "/leaderboard nim")
    await say(table, MOD, "/web on")
    assert "Replay: https://example.org/games/game/" in await finish(table)
    here = await say(table, DAN, "/leaderboard nim here")
    place = re.search(r"More: https://example\.org/games/leaderboard/nim\?place=([\w-]{22})$", here, re.M)
    assert place is not None and await access.target(table.store, access.PLACE_KIND, place[1]) == GUILD
    stats = await say(table, DAN, "/stats")
    player = re.search(r"Player page: https://example\.org/games/player/([\w-]{22})", stats)
    assert player is not None and await access.target(table.store, access.PLAYER, player[1]) == DAN.id


async def test_the_console_says_web_off_and_on(tmp_path: Path) -> None:
    text, _ = await play(tmp_path, "/web off", "/nim start 1", "/as bob", "join", "/as alice", "take 1 1", "/网站 on")
    assert "no longer shown on the web site" in text and "now shown on the web site" in text
