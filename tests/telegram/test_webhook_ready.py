"""A webhook bot that nobody talks to still knows whether Telegram is there: while idle it asks
getWebhookInfo (through python-telegram-bot, against the stand-in) every few seconds, and /readyz
and `gamehost_platform_ready` follow Telegram going away and coming back, the webhook being
dropped, and Telegram failing to deliver updates to it."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from pathlib import Path

import aiohttp

from bot.adapters.telegram import Telegram, TelegramOptions
from bot.ops import Ops
from tests.conftest import Clock, close_table, open_table, until
from tests.support.ops import get, scrape, value
from tests.telegram.conftest import GROUP
from tests.telegram.standin import TOKEN, BotAPI
from tests.telegram.test_running import free_port

EVERY = 0.2  # seconds: the test's short probe period (5 s by default)
SECRET = "s3cret"


async def test_an_idle_webhook_bot_is_ready_only_while_telegram_answers_and_delivers(
    tmp_path: Path, clock: Clock
) -> None:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    table = await open_table(tmp_path / "g.db", clock)
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg-hook"
    tg = Telegram(table.host, TelegramOptions(TOKEN, api_url=api.url, webhook_url=url, webhook_secret=SECRET,
                                              webhook_listen="127.0.0.1", webhook_port=port, webhook_check=EVERY))
    await tg.start()
    ops = Ops(table.store, {"telegram": tg.readiness}, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{await ops.start()}"

    async def telegram_becomes(state: str) -> None:
        """Wait until /readyz says `state` of Telegram; the metric agrees."""
        async with asyncio.timeout(60):  # only turns a hang into a failure
            while True:
                status, body = await get(f"{base}/readyz")
                if json.loads(body)["telegram"] == state:
                    break
                await asyncio.sleep(0.01)
        assert status == (200 if state == "up" else 503)
        assert value(await scrape(base), "gamehost_platform_ready", platform="telegram") == (state == "up")

    try:
        await telegram_becomes("up")
        asked = len(api.of("getWebhookInfo"))
        api.unreachable = True  # the bot makes no request of its own: only the watch can notice
        await telegram_becomes("down: no answer (NetworkError)")
        api.unreachable = False
        await telegram_becomes("up")
        assert len(api.of("getWebhookInfo")) > asked

        hook = api.webhook
        api.webhook = {}  # Telegram dropped the webhook (another process deleted it, polls instead...)
        await telegram_becomes("down: Telegram has no webhook for the bot")
        api.webhook = {**hook, "url": "https://elsewhere.example/tg"}
        await telegram_becomes("down: the bot's webhook is set to another URL")
        api.webhook = hook
        await telegram_becomes("up")

        await until(lambda: time.time() >= tg.watch.heard_at.timestamp() + 1)  # type: ignore[union-attr]
        api.webhook_error = (int(time.time()), "Connection refused")  # Telegram cannot reach the bot
        await telegram_becomes("down: Telegram cannot deliver updates: Connection refused")
        update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": api.chats[GROUP], "text": "hi",
                                              "from": api.person(101, "Alice")}}
        async with aiohttp.ClientSession() as http:  # delivery works again: an update arrives
            answer = await http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": SECRET})
            assert answer.status == 200
        await telegram_becomes("up")
    finally:
        await ops.stop()
        await tg.stop()
        await close_table(table)
        await api.stop()
    # Cheap: never more often than the period (a lower bound a busy machine cannot break).
    probes = [c.at for c in api.calls if c.method == "getWebhookInfo"]
    assert all(later - earlier >= EVERY * 0.9 for earlier, later in itertools.pairwise(probes))

