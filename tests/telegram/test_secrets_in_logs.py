"""No secret in the logs: the real `gamehost` at DEBUG with the real python-telegram-bot against
the stand-in Bot API. httpx logs every request's URL, which holds the token, and
python-telegram-bot logs its API URL and the webhook's parameters: the one filter on the root
handler masks them all, in text and in JSON lines. python-telegram-bot also logs every call's
parameters and every update at DEBUG (hands, hints, link codes): none of that reaches the log."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from bot.i18n import Translator
from bot.logs import MASK
from bot.session import Session
from bot.storage import open_storage
from engines.doudizhu import DouDizhu
from tests.support.running import SLOW, gamehost
from tests.support.setups import secret_of
from tests.telegram.conftest import CHANNEL, GROUP
from tests.telegram.standin import TOKEN, BotAPI, Fault
from tests.telegram.test_running import free_port

SECRET_PART = TOKEN.partition(":")[2]


def assert_no_secret(logs: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in logs, f"{secret!r} is in the logs:\n" + "\n".join(
            line for line in logs.splitlines() if secret in line)


async def test_a_game_polled_at_debug_logs_no_token(tmp_path) -> None:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    alice = api.person(101, "Alice", "alice")
    api.faults.append(Fault({"getUpdates"}, 1, 502, {"error_code": 502, "description": "Bad Gateway"}))
    try:
        async with gamehost(tmp_path, "--log-level", "DEBUG", TELEGRAM_TOKEN=TOKEN,
                            GAMEHOST_TELEGRAM_API_URL=api.url) as bot:
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
                            GAMEHOST_TELEGRAM_API_URL=api.url) as bot:
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
                            GAMEHOST_TELEGRAM_WEBHOOK_PORT=str(port)) as bot:
            await api.wait(lambda: api.of("setWebhook"), timeout=SLOW)
            update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": api.chats[GROUP],
                      "from": alice, "text": "/games", "entities": [{"type": "bot_command", "offset": 0,
                      "length": 6}]}}
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


# --- nothing a player keeps to themselves -----------------------------------------------------------
@dataclass
class Secrets:
    """What a Dou Dizhu game's players keep to themselves, collected as the test plays."""

    cards: set[str] = field(default_factory=set)  # every card of every hand, as the hand lines write them
    texts: set[str] = field(default_factory=set)  # hints, refusals that tell what one holds, link codes

    def hands(self, session: Session) -> None:
        game = DouDizhu()
        state = game.from_json(session.state)
        for seat in range(3):
            for line in game.private_lines(state, seat, Translator("en")):
                self.cards.update(line.partition(": ")[2].split())

    def said(self, text: str, *parts: str) -> None:
        self.texts.update((text, *parts))


def forms(secret: str) -> set[str]:
    """The ways `secret` shows up in a log line: as it is, JSON-escaped, URL-quoted, in a repr."""
    return {secret, json.dumps(secret)[1:-1], quote(secret), repr(secret)[1:-1]}


def assert_no_player_secret(logs: str, fmt: str, secrets: Secrets) -> None:
    """No card, hint, refusal or code anywhere in `logs` (each JSON line decoded as well)."""
    texts = [logs]
    if fmt == "json":
        texts += [json.dumps(line, ensure_ascii=False) for line in map(json.loads, logs.splitlines())]
        texts += [str(value) for line in map(json.loads, logs.splitlines()) for value in line.values()]
    leaks = []
    for secret in sorted(secrets.cards | secrets.texts):
        for form in forms(secret):
            # A card alone ("7♠", "BJ") only where no letter or digit touches it: not "BJ" inside a word.
            pattern = re.compile(rf"(?<![\w♠♥♣♦]){re.escape(form)}(?![\w♠♥♣♦])")
            leaks += [f"{secret!r} as {form!r}: ...{t[max(0, m.start() - 150):m.end() + 150]}..."
                      for t in texts for m in pattern.finditer(t)][:1]
    assert not leaks, "\n\n".join(leaks)


async def latest(db: Path, channel: str) -> Session:
    """The channel's session as the running process saved it (the test reads its SQLite file)."""
    store = await open_storage(str(db))
    try:
        session = await store.latest(channel)
    finally:
        await store.close()
    assert session is not None
    return session


@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_a_dou_dizhu_game_at_debug_logs_no_card_hint_refusal_nor_code(tmp_path: Path, fmt: str) -> None:
    """At DEBUG the libraries log requests and updates: hands in inline answers, private hints
    and refusals, link codes shown and typed. The log holds none of them, and still tells which
    calls were made."""
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    people = [api.person(101, "Alice", "alice"), api.person(102, "Bob", "bob"), api.person(103, "Carol")]
    dave = api.person(104, "Dave", "dave")
    api.opened.update({101, 102, 103, 104})  # every answer meant for one person reaches their private chat
    secrets, db = Secrets(), tmp_path / "g.db"
    try:
        async with gamehost(tmp_path, "--log-level", "DEBUG", "--log-format", fmt, TELEGRAM_TOKEN=TOKEN,
                            GAMEHOST_TELEGRAM_API_URL=api.url) as bot:
            await api.wait(lambda: api.of("setMyCommands"), timeout=SLOW)
            await api.say(people[0], GROUP, "/ddz start")
            await api.wait(lambda: api.to_chat(GROUP), timeout=SLOW)
            await api.say(people[1], GROUP, "/join")
            await api.say(people[2], GROUP, "/join")
            await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP), timeout=SLOW)
            session = await latest(db, CHANNEL)
            secrets.hands(session)
            bidder = people[secret_of(session).seat]
            await api.say(bidder, GROUP, "/move 3")  # bids 3: the landlord, who takes the bottom cards and leads
            await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP), timeout=SLOW)
            session = await latest(db, CHANNEL)
            secrets.hands(session)
            secret = secret_of(session)
            landlord = people[secret.seat]
            for person in people:  # inline mode: each sees their hand (and the landlord their plays)
                asked = await api.inline(person)
                await api.wait(lambda q=asked: api.inline_answer(q), timeout=SLOW)

            async def private(person: dict[str, Any], text: str, chat: int = GROUP) -> str:
                """`person` types `text` in `chat`; the bot's answer in their private chat."""
                before = len(api.to_chat(person["id"]))
                await api.say(person, chat, text)
                return (await api.wait(lambda: api.to_chat(person["id"])[before:], timeout=SLOW))[0].text

            hint = await private(landlord, "/hint")
            assert hint.startswith("Hint: "), hint
            secrets.said(hint)
            refusal = await private(landlord, f"/move {secret.typed}")
            assert refusal == secret.refusal, refusal
            secrets.said(refusal)
            shown = await private(landlord, "/link")
            code = re.search(r"code: ([A-Z0-9]{6})", shown)
            assert code, shown
            secrets.said(shown, code[1], f"/link {code[1]}")
            linked = await private(dave, f"/link {code[1]}", dave["id"])  # Dave types it in his private chat
            assert code[1] not in linked, linked
        logs = bot.logs
    finally:
        await api.stop()
    assert len(secrets.cards) == 54 and len(secrets.texts) >= 5, secrets
    assert_no_player_secret(logs, fmt, secrets)
    # It did log at DEBUG, the libraries' calls too: which methods, never what they carried.
    assert "DEBUG" in logs and "answerInlineQuery" in logs and "sendMessage" in logs, logs[-3000:]
