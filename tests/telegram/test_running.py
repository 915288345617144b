"""Configuration and the ways of running: `gamehost` with a token, polling, webhook."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from bot import startup
from bot.adapters.telegram import Telegram, TelegramOptions
from bot.config import Settings, load
from bot.main import run
from bot.startup import StartFailed
from tests.conftest import Clock, close_table, open_table
from tests.telegram.conftest import GROUP
from tests.telegram.standin import TOKEN, BotAPI, Fault


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
                              webhook_listen="127.0.0.1", webhook_port=port)
    tg = Telegram(table.host, options)
    await tg.start()
    try:
        [hook] = api.of("setWebhook")
        assert hook.params["url"] == url and hook.params["secret_token"] == "s3cret"
        update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": api.chats[GROUP], "from": alice,
                  "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}
        async with aiohttp.ClientSession() as http:
            forged = await http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "guess"})
            assert forged.status == 403
            real = await http.post(url, json={**update, "update_id": 2},
                                   headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"})
            assert real.status == 200
        [answer] = await api.wait(lambda: api.to_chat(GROUP))
        assert "Play a game in this channel" in answer.text and len(api.to_chat(GROUP)) == 1
    finally:
        await tg.stop()
        await close_table(table)
        await api.stop()


# --- a start that fails ----------------------------------------------------------------------------
async def gamehost(tmp_path: Path, **env: str) -> tuple[int, str, str]:
    """The real `gamehost` process, run to its end; (exit code, stdout, stderr)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.main", stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=Path(__file__).parents[2],
        env={**{k: v for k, v in os.environ.items() if "TOKEN" not in k}, "GAMEHOST_DB": str(tmp_path / "g.db"),
             "GAMEHOST_AI_WORKERS": "0", **env},
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode or 0, out.decode(), err.decode()


async def test_a_refused_token_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    api = BotAPI()
    await api.start()
    try:
        wrong = "999:WRONG-TOKEN"
        code, out, err = await gamehost(tmp_path, TELEGRAM_TOKEN=wrong, GAMEHOST_TELEGRAM_API_URL=api.url)
    finally:
        await api.stop()
    # One line, and no try again: a refused token does not get better by asking again.
    assert code == 1 and out == "" and err == "gamehost: Telegram refused the token (TELEGRAM_TOKEN)\n"


async def test_no_telegram_to_reach_is_one_line_after_the_last_try(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    code, out, err = await gamehost(tmp_path, TELEGRAM_TOKEN=TOKEN, GAMEHOST_TELEGRAM_API_URL=url,
                                    GAMEHOST_START_ATTEMPTS="1")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"gamehost: cannot reach Telegram at {url}: "), err
    assert TOKEN not in err


async def test_a_transient_failure_at_start_is_tried_again_with_back_off(tmp_path: Path, clock: Clock) -> None:
    api = BotAPI()
    await api.start()
    api.faults.append(Fault({"getMe"}, 2, 502, {"error_code": 502, "description": "Bad Gateway"}))
    table = await open_table(tmp_path / "g.db", clock)
    tg = Telegram(table.host, TelegramOptions(TOKEN, api_url=api.url, poll_timeout=5.0))
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    try:
        await startup.start(tg, attempts=5, sleep=sleep)
        assert waited == [1.0, 2.0] and [c.status for c in api.calls if c.method == "getMe"] == [502, 502, 200]
        api.group(GROUP)
        await api.say(api.person(101, "Alice", "alice"), GROUP, "/games")
        await api.wait(lambda: api.to_chat(GROUP))  # it runs
        api.faults.append(Fault({"getMe"}, 9, 502, {"error_code": 502, "description": "Bad Gateway"}))
        again = Telegram(table.host, TelegramOptions(TOKEN, api_url=api.url, poll_timeout=5.0))
        with pytest.raises(StartFailed, match="Bad Gateway") as failed:
            await startup.start(again, attempts=3, sleep=sleep)
        assert failed.value.transient and waited == [1.0, 2.0, 1.0, 2.0]
        await again.stop()
    finally:
        await tg.stop()
        await close_table(table)
        await api.stop()
