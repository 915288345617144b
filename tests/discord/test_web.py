"""The web site from a Discord server, through the real discord.py client against the stand-in
Discord: `/web` is a slash command with its choice, for moderators (Manage Messages); off by
default, then a finished game's result links to its replay, /leaderboard and /stats to their pages."""

from __future__ import annotations

import re

from bot.web import access
from tests.discord.conftest import Bot, board_saying, run, said_to
from tests.discord.fake import ALICE, BOB, CAROL, MOD, FakeDiscord

URL = "https://example.org/games"


async def alice_wins(fake: FakeDiscord, channel: int) -> str:
    await run(fake, ALICE, "nim start", channel, heaps="1")
    await run(fake, BOB, "join", channel)
    await run(fake, ALICE, "take", channel, args="1 1")
    return (await board_saying(fake, channel, "Alice wins")).content


async def test_web_on_by_a_moderator_then_replays_and_pages_are_linked(fake: FakeDiscord, bot: Bot) -> None:
    bot.host.core.web_url = URL
    channel = next(iter(fake.channels))
    assert "Replay:" not in await alice_wins(fake, channel)  # off by default on Discord
    refused = await run(fake, ALICE, "web", channel, state="on")
    await said_to(fake, refused, "Only a moderator")
    await run(fake, MOD, "web", channel, state="on")
    assert "now shown on the web site" in fake.channel(channel)[-1].content
    token = re.search(r"Replay: https://example\.org/games/game/([\w-]{22})", await alice_wins(fake, channel))
    assert token is not None and await access.shown_game(bot.host.store, token[1]) is not None
    await run(fake, CAROL, "leaderboard", channel, game="nim", scope="global")
    assert "More: https://example.org/games/leaderboard/nim" in fake.channel(channel)[-1].content
    await run(fake, BOB, "stats", channel, user=ALICE)
    assert re.search(r"Player page: https://example\.org/games/player/[\w-]{22}", fake.channel(channel)[-1].content)
