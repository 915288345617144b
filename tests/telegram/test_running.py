"""Configuration and the ways of running: `gamehost` with a token, polling, webhook."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.telegram import Telegram, TelegramOptions
from bot.config import Settings, load
from bot.main import run
from tests.conftest import Clock, close_table, open_table
from tests.telegram.conftest import GROUP
from tests.telegram.standin import TOKEN, BotAPI


def test_the_token_comes_from_telegram_token_or_gamehost_telegram_token(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "TELEGRAM_TOKEN",
        "GAMEHOST_TELEGRAM_TOKEN",
        "DISCORD_TOKEN",
        "GAMEHOST_DISCORD_TOKEN",
        "GAMEHOST_CONSOLE",
    ):
        monkeypatch.delenv(name, raising=False)
    assert load([]).telegram_token is None and load([]).wants_console
    monkeypatch.setenv("GAMEHOST_TELEGRAM_TOKEN", "1:prefixed")
    assert load([]).telegram_token == "1:prefixed" and not load([]).wants_console
    monkeypatch.delenv("GAMEHOST_TELEGRAM_TOKEN")
    monkeypatch.setenv("TELEGRAM_TOKEN", "2:plain")
    settings = load(["--telegram-webhook-url", "https://games.example/tg"])
    assert settings.telegram_token == "2:plain" and settings.telegram_webhook_url == "https://games.example/tg"
    assert load(["--console"]).wants_console  # the console too, on request


async def test_gamehost_starts_telegram_when_a_token_is_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "GAMEHOST_DISCORD_TOKEN", "GAMEHOST_CONSOLE"):
        monkeypatch.delenv(name, raising=False)
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    alice = api.person(101, "Alice", "alice")
    settings = Settings(telegram_token=TOKEN, telegram_api_url=api.url, db=str(tmp_path / "g.db"), ai_workers=0)
    assert not settings.wants_console
    running = asyncio.ensure_future(run(settings))
    try:
        await api.wait(lambda: api.of("setMyCommands"))
        await api.say(alice, GROUP, "/nim solo 2 2")
        [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
        assert "Alice, your move." in board.text
    finally:
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        await api.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_webhook_mode_sets_the_webhook_and_checks_the_secret(tmp_path: Path, clock: Clock) -> None:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    alice = api.person(101, "Alice", "alice")
    table = await open_table(tmp_path / "g.db", clock)
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg-hook"
    options = TelegramOptions(TOKEN, api_url=api.url, webhook_url=url, webhook_secret="s3cret",
                              webhook_listen="127.0.0.1", webhook_port=port)  # fmt: skip
    tg = Telegram(table.host, options)
    await tg.start()
    try:
        [hook] = api.of("setWebhook")
        assert hook.params["url"] == url and hook.params["secret_token"] == "s3cret"
        update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": api.chats[GROUP], "from": alice,
                  "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}  # fmt: skip
        async with aiohttp.ClientSession() as http:
            forged = await http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "guess"})
            assert forged.status == 403
            real = await http.post(url, json={**update, "update_id": 2},
                                   headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"})  # fmt: skip
            assert real.status == 200
        [answer] = await api.wait(lambda: api.to_chat(GROUP))
        assert "Play a game in this channel" in answer.text and len(api.to_chat(GROUP)) == 1
    finally:
        await tg.stop()
        await close_table(table)
        await api.stop()
