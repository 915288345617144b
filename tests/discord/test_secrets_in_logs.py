"""No secret in the logs: the real `gamehost` at DEBUG with the real discord.py against the
stand-in Discord. At DEBUG discord.py logs every gateway event (an interaction carries its token,
which lets anyone answer it as the bot for 15 minutes, and the options typed: a move, a link
code) and every REST call's URL and body (a follow-up's URL holds that token; its body a hint, a
refusal that tells one's cards, a link code): the one filter on the root handler masks the
tokens and keeps the payloads out, in text and in JSON lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.logs import MASK
from tests.discord.conftest import board_saying, first_channel, run, said_to
from tests.discord.fake import ALICE, BOB, CAROL, MOD, TOKEN, FakeDiscord
from tests.support.running import SLOW, gamehost
from tests.support.setups import secret_of
from tests.telegram.test_secrets_in_logs import Secrets, assert_no_player_secret, assert_no_secret, latest


def endpoints(fake: FakeDiscord) -> dict[str, str]:
    return {"GAMEHOST_DISCORD_API_URL": fake.api.removesuffix("/api/v10"), "GAMEHOST_DISCORD_GATEWAY_URL": fake.gateway,
            "GAMEHOST_DISCORD_GUILDS": ",".join(map(str, fake.guild_ids))}


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
                        **endpoints(fake)) as bot:
        await fake.wait(lambda: fake.identified, timeout=SLOW)  # the process started
        await fake.connected()
        channel = first_channel(fake)
        await run(fake, ALICE, "games", channel)
    logs = bot.logs
    assert_no_secret(logs, TOKEN, *(i.token for i in fake.interactions.values()))
    lines = [json.loads(line) for line in logs.splitlines()]  # every line one JSON object
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert any(line["logger"] == "discord.gateway" and "INTERACTION_CREATE" in line["message"] for line in lines)


@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_a_dou_dizhu_game_at_debug_logs_no_card_hint_refusal_nor_code(fake: FakeDiscord, tmp_path: Path,
                                                                           fmt: str) -> None:
    """At DEBUG discord.py logs each interaction's options and each answer's body: the log holds
    no card, hint, refusal or link code (shown, or typed as `/link CODE`), and still tells which
    events came and which calls were made."""
    people, secrets = (ALICE, BOB, CAROL), Secrets()
    async with gamehost(tmp_path, "--log-level", "DEBUG", "--log-format", fmt, DISCORD_TOKEN=TOKEN,
                        **endpoints(fake)) as bot:
        await fake.wait(lambda: fake.identified, timeout=SLOW)  # the process started
        await fake.connected()
        channel = first_channel(fake)
        where = f"discord:{channel}"
        await run(fake, ALICE, "doudizhu start", channel)
        await run(fake, BOB, "join", channel)
        await run(fake, CAROL, "join", channel)
        await board_saying(fake, channel, "begins")
        secrets.hands(session := await latest(tmp_path / "g.db", where))
        await run(fake, people[secret_of(session).seat], "move", channel, move="3")  # the landlord, who leads
        await board_saying(fake, channel, "is the landlord")
        secrets.hands(session := await latest(tmp_path / "g.db", where))
        secret = secret_of(session)
        landlord = people[secret.seat]
        hint = (await said_to(fake, await run(fake, landlord, "hint", channel), "Hint: ")).content
        secrets.said(hint)
        secrets.said((await said_to(fake, await run(fake, landlord, "move", channel, move=secret.typed),
                                    secret.refusal)).content)
        await said_to(fake, await run(fake, landlord, "hand", channel), "Your hand")
        shown = (await said_to(fake, await run(fake, landlord, "link", channel), "code:")).content
        code = re.search(r"code: ([A-Z0-9]{6})", shown)
        assert code, shown
        secrets.said(shown, code[1])
        linked = await run(fake, MOD, "link", channel, code=code[1])  # typed on another account
        assert linked.said and code[1] not in linked.said[0].content, linked.said
    logs = bot.logs
    assert len(secrets.cards) == 54 and len(secrets.texts) >= 4, secrets
    assert_no_player_secret(logs, fmt, secrets)
    # It did log at DEBUG what came and went: the gateway's events, the REST calls.
    assert "INTERACTION_CREATE" in logs and "/callback" in logs and "DEBUG" in logs, logs[-3000:]
