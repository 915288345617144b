"""Several webhook workers behind one URL, on one PostgreSQL database: one process registers the
webhook with Telegram, the others only serve it (GAMEHOST_TELEGRAM_WEBHOOK_REGISTER=false), and a
game goes on whichever worker each update reaches."""

from __future__ import annotations

import socket

import aiohttp
import pytest
from pydantic import ValidationError

from bot.adapters.telegram import Telegram, TelegramOptions
from bot.config import load
from tests.conftest import Clock, close_table, open_table
from tests.telegram.conftest import GROUP
from tests.telegram.standin import TOKEN, BotAPI

BACKENDS = ("postgres",)
SECRET = "one-secret-for-every-worker"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_one_worker_registers_the_webhook_and_every_worker_serves_it(database: str) -> None:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    alice, bob = api.person(101, "Alice", "alice"), api.person(102, "Bob", "bob")
    clock = Clock()
    tables, workers, urls = [], [], []
    try:
        for register in (True, False):
            port = free_port()
            urls.append(f"http://127.0.0.1:{port}/tg")
            # Behind a proxy each worker has its own address; Telegram knows only the registered URL.
            table = await open_table(database, clock)
            tables.append(table)
            worker = Telegram(table.host, TelegramOptions(
                TOKEN, api_url=api.url, webhook_url=urls[-1], webhook_secret=SECRET, webhook_listen="127.0.0.1",
                webhook_port=port, webhook_register=register, group_rate=0))
            workers.append(worker)
            await worker.start()
        [hook] = api.of("setWebhook")  # the registering worker's, and no other
        assert hook.params["url"] == urls[0] and hook.params["secret_token"] == SECRET

        async def post(url: str, number: int, sender: dict, text: str, secret: str = SECRET) -> int:
            update = {"update_id": number, "message": {
                "message_id": number, "date": 0, "chat": api.chats[GROUP], "from": sender, "text": text,
                "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]}}
            async with aiohttp.ClientSession() as http:
                answer = await http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret})
                return answer.status

        assert await post(urls[1], 1, alice, "/nim start 3 4", secret="guess") == 403  # the secret is checked
        assert await post(urls[0], 2, alice, "/nim start 3 4") == 200
        await api.wait(lambda: [m for m in api.to_chat(GROUP) if "opened a table" in (m.text or "")])
        assert await post(urls[1], 3, bob, "/join") == 200  # the other worker: the same game
        await api.wait(lambda: [c for c in api.of("sendPhoto", chat_id=GROUP)
                                if "Nim begins" in c.params.get("caption", "")])
        # Each worker posts a board anew in turn; each then edits the newest, whoever posted it.
        for number, (worker, moved) in enumerate([(0, "/take 1 1"), (1, "/take 2 1"), (0, "/take 1 1")], 4):
            assert await post(urls[1 - worker], number * 2, alice, "/board") == 200
            newest = await api.wait(lambda n=number: len(api.of("sendPhoto", chat_id=GROUP)) == n - 2 and
                                    api.bot_messages(GROUP)[-1]["message_id"])
            assert await post(urls[worker], number * 2 + 1, (alice, bob)[number % 2], moved) == 200
            edit = await api.wait(lambda n=number: len(api.of("editMessageMedia", chat_id=GROUP)) == n - 3 and
                                  api.of("editMessageMedia", chat_id=GROUP)[-1])
            assert edit.params["message_id"] == newest and "took 1 stone" in edit.params["media"]["caption"]
    finally:
        for worker in workers:
            await worker.stop()
        for table in tables:
            await close_table(table)
        await api.stop()


def test_a_worker_that_does_not_register_needs_the_url_and_the_shared_secret(monkeypatch) -> None:
    monkeypatch.setenv("GAMEHOST_TELEGRAM_WEBHOOK_REGISTER", "false")
    with pytest.raises(ValidationError, match="needs telegram_webhook_url and the registering process's"):
        load([])
    monkeypatch.setenv("GAMEHOST_TELEGRAM_WEBHOOK_URL", "https://games.example/tg")
    monkeypatch.setenv("GAMEHOST_TELEGRAM_WEBHOOK_SECRET", SECRET)
    assert load([]).telegram_webhook_register is False

