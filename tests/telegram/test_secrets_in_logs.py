"""No token in the logs: the real `gamehost` at DEBUG with the real
python-telegram-bot against the stand-in Bot API. httpx logs every request's URL, which holds the
token, and python-telegram-bot logs its API URL and the webhook's parameters: the one filter on
the root handler masks them all, in text and in JSON lines."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from bot.logs import MASK
from tests.running import SLOW, gamehost
from tests.telegram.conftest import GROUP
from tests.telegram.standin import TOKEN, BotAPI, Fault
from tests.telegram.test_running import free_port

SECRET_PART = TOKEN.partition(":")[2]


def assert_no_secret(logs: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in logs, f"{secret!r} is in the logs:\n" + "\n".join(
            line for line in logs.splitlines() if secret in line)  # fmt: skip


async def test_a_game_polled_at_debug_logs_no_token(tmp_path) -> None:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    alice = api.person(101, "Alice", "alice")
    api.faults.append(Fault({"getUpdates"}, 1, 502, {"error_code": 502, "description": "Bad Gateway"}))
    try:
        async with gamehost(tmp_path, "--log-level", "DEBUG", TELEGRAM_TOKEN=TOKEN,
                            GAMEHOST_TELEGRAM_API_URL=api.url) as bot:  # fmt: skip
            await api.wait(lambda: api.of("setMyCommands"), timeout=SLOW)
            await api.say(alice, GROUP, "/nim solo 2 2")
            await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP), timeout=SLOW)
            before = len(api.calls)
            await api.say(alice, GROUP, "/take 1 2")
            await api.wait(lambda: len(api.calls) > before + 1, timeout=SLOW)  # the move answered
        logs = bot.logs
    finally:
        await api.stop()
    assert_no_secret(logs, TOKEN, SECRET_PART)
    # The logs did log the requests (at DEBUG and by httpx at INFO), with the token masked.
    assert "getUpdates" in logs and "httpx" in logs and f"/bot{MASK}/getUpdates" in logs, logs[-3000:]


async def test_a_rejected_token_at_debug_is_not_logged_nor_printed(tmp_path) -> None:
    api = BotAPI()
    await api.start()
    wrong = "999:WRONG-TOKEN-abcdef"
    try:
        async with gamehost(tmp_path, "--log-level", "DEBUG", TELEGRAM_TOKEN=wrong,
                            GAMEHOST_TELEGRAM_API_URL=api.url) as bot:  # fmt: skip
            code = await bot.process.wait()
        logs = bot.logs
    finally:
        await api.stop()
    assert code == 1 and "\ngamehost: Telegram refused the token (TELEGRAM_TOKEN)\n" in logs, logs[-2000:]
    assert_no_secret(logs, wrong, wrong.partition(":")[2])
    assert "getMe" in logs and MASK in logs  # it was logged, masked


async def test_json_lines_of_a_webhook_at_debug_hold_no_token_nor_the_webhook_secret(tmp_path) -> None:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    alice = api.person(101, "Alice", "alice")
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg-hook"
    secret = "webhook-secret-0123456789"
    try:
        async with gamehost(tmp_path, "--log-level", "DEBUG", "--log-format", "json", TELEGRAM_TOKEN=TOKEN,
                            GAMEHOST_TELEGRAM_API_URL=api.url, GAMEHOST_TELEGRAM_WEBHOOK_URL=url,
                            GAMEHOST_TELEGRAM_WEBHOOK_SECRET=secret, GAMEHOST_TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                            GAMEHOST_TELEGRAM_WEBHOOK_PORT=str(port)) as bot:  # fmt: skip
            await api.wait(lambda: api.of("setWebhook"), timeout=SLOW)
            update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": api.chats[GROUP],
                      "from": alice, "text": "/games", "entities": [{"type": "bot_command", "offset": 0,
                      "length": 6}]}}  # fmt: skip
            async with aiohttp.ClientSession() as http, asyncio.timeout(SLOW):
                while True:  # setWebhook may come before the server listens
                    try:
                        answer = await http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret})
                        break
                    except aiohttp.ClientConnectorError:
                        await asyncio.sleep(0.05)
                assert answer.status == 200
            await api.wait(lambda: api.to_chat(GROUP), timeout=SLOW)
        logs = bot.logs
    finally:
        await api.stop()
    assert_no_secret(logs, TOKEN, SECRET_PART, secret)
    lines = [json.loads(line) for line in logs.splitlines()]  # every line one JSON object
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert any(line["level"] == "DEBUG" and "setWebhook" in line["message"] for line in lines)
    assert any(MASK in line["message"] for line in lines)
