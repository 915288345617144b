"""No token in the logs: the real `gamehost` at DEBUG with the real discord.py
against the stand-in Discord. At DEBUG discord.py logs every gateway event (an interaction
carries its token, which lets anyone answer it as the bot for 15 minutes) and every REST call's
URL (a follow-up's URL holds that token): the one filter on the root handler masks them, and the
bot's own token, in text and in JSON lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.logs import MASK
from tests.discord.conftest import board_saying, first_channel, run
from tests.discord.fake import ALICE, TOKEN, FakeDiscord
from tests.running import SLOW, gamehost
from tests.telegram.test_secrets_in_logs import assert_no_secret


def endpoints(fake: FakeDiscord) -> dict[str, str]:
    return {"GAMEHOST_DISCORD_API_URL": fake.api.removesuffix("/api/v10"), "GAMEHOST_DISCORD_GATEWAY_URL": fake.gateway,
            "GAMEHOST_DISCORD_GUILDS": ",".join(map(str, fake.guild_ids))}  # fmt: skip


async def test_a_game_at_debug_logs_no_token(fake: FakeDiscord, tmp_path: Path) -> None:
    async with gamehost(tmp_path, "--log-level", "DEBUG", DISCORD_TOKEN=TOKEN, **endpoints(fake)) as bot:
        await fake.wait(lambda: fake.identified, timeout=SLOW)  # the process started
        await fake.connected()
        channel = first_channel(fake)
        await run(fake, ALICE, "nim solo", channel, heaps="2 2")
        await board_saying(fake, channel, "Nim begins")
        await run(fake, ALICE, "hint", channel)  # an ephemeral follow-up: a URL with the interaction's token
    logs = bot.logs
    tokens = [i.token for i in fake.interactions.values()]
    assert len(tokens) == 2
    assert_no_secret(logs, TOKEN, *tokens)
    # It did log the events and the follow-ups' URLs, with the tokens masked.
    assert "INTERACTION_CREATE" in logs and re.search(rf"/webhooks/\d+/{re.escape(MASK)}", logs), logs[-3000:]


async def test_a_rejected_token_at_debug_is_not_logged_nor_printed(fake: FakeDiscord, tmp_path: Path) -> None:
    wrong = "wrong-token-0123456789"
    async with gamehost(tmp_path, "--log-level", "DEBUG", DISCORD_TOKEN=wrong, **endpoints(fake)) as bot:
        code = await bot.process.wait()
    logs = bot.logs
    assert code == 1 and "\ngamehost: Discord refused the token (DISCORD_TOKEN)\n" in logs, logs[-2000:]
    assert_no_secret(logs, wrong)
    assert "/users/@me" in logs  # the refused call was logged


async def test_json_lines_at_debug_hold_no_token(fake: FakeDiscord, tmp_path: Path) -> None:
    async with gamehost(tmp_path, "--log-level", "DEBUG", "--log-format", "json", DISCORD_TOKEN=TOKEN,
                        **endpoints(fake)) as bot:  # fmt: skip
        await fake.wait(lambda: fake.identified, timeout=SLOW)  # the process started
        await fake.connected()
        channel = first_channel(fake)
        await run(fake, ALICE, "games", channel)
    logs = bot.logs
    assert_no_secret(logs, TOKEN, *(i.token for i in fake.interactions.values()))
    lines = [json.loads(line) for line in logs.splitlines()]  # every line one JSON object
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert any(line["logger"] == "discord.gateway" and "INTERACTION_CREATE" in line["message"] for line in lines)
