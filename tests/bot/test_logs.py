"""bot/logs.py: the process's one log handler masks every secret in every part of a record
(message and arguments, traceback, stack, extra fields), in text and JSON lines; ordinary text
stays as it was. A library's record shows no payload (bot/library_logs.py): below INFO only its
listed lines, their arguments reduced; above, its payload arguments reduced. The platforms' own
logs at DEBUG are tested in tests/telegram and tests/discord test_secrets_in_logs.py, with the
real clients."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
from collections.abc import Iterator

import pytest

from bot import logs
from bot.config import Settings
from bot.i18n import Translator
from bot.logs import MASK
from bot.storage import open_storage
from tests.conftest import ALICE, BOB, CAROL, Clock, close_table, open_table

TELEGRAM = "7123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1"  # the shape of a real one, not a real one
DISCORD = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """The process's logging as `gamehost` sets it up, written to a string; put back after."""
    root = logging.getLogger()
    before = root.handlers[:], root.level, sys.excepthook, threading.excepthook, logs._redact.known
    out = io.StringIO()
    yield out
    for handler in root.handlers[:]:
        root.removeHandler(handler)
    for handler in before[0]:
        root.addHandler(handler)
    root.setLevel(before[1])
    sys.excepthook, threading.excepthook, logs._redact.known = before[2], before[3], before[4]
    logging.captureWarnings(False)


def test_every_part_of_a_record_is_masked_in_text(captured: io.StringIO) -> None:
    logs.setup("DEBUG", "text", [TELEGRAM], stream=captured)
    log = logging.getLogger("bot.somewhere")  # the project's own: every line passes, masked
    log.debug("POST https://api.telegram.org/bot%s/getUpdates", TELEGRAM)
    log.info("quoted: %s", "7123456789%3AAAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1")
    log.info("the secret half alone: %s", TELEGRAM.partition(":")[2])
    try:
        raise ValueError(f"The token `{TELEGRAM}` was rejected by the server.")
    except ValueError:
        log.exception("start failed")
    log.warning("with a stack", stack_info=True, extra={"url": f"/bot{TELEGRAM}/x", "payload": {"token": TELEGRAM}})
    text = captured.getvalue()
    assert TELEGRAM not in text and TELEGRAM.partition(":")[2] not in text, text
    assert "ValueError: The token `<redacted>` was rejected" in text and "Traceback" in text
    assert f"/bot{MASK}/getUpdates" in text and text.count(MASK) >= 4


def test_json_lines_mask_the_same_and_are_one_object_each(captured: io.StringIO) -> None:
    logs.setup("INFO", "json", [DISCORD], stream=captured)
    log = logging.getLogger("somelib.http")
    log.info("PATCH %s with %s", "https://discord.com/api/v10/webhooks/123/aW50ZXJhY3Rpb246MTIz/messages/@original",
             {"token": "aW50ZXJhY3Rpb246MTIz", "d": {"t": "INTERACTION_CREATE"}})
    try:
        raise RuntimeError(f"headers {{'Authorization': 'Bot {DISCORD}'}}\nsecond line")
    except RuntimeError:
        log.error("failed", exc_info=True, extra={"detail": DISCORD})
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    assert len(lines) == 2 and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert "aW50ZXJhY3Rpb246MTIz" not in captured.getvalue() and "/webhooks/123/<redacted>" in lines[0]["message"]
    assert DISCORD not in captured.getvalue() and DISCORD.rsplit(".", 1)[1] not in captured.getvalue()
    assert "Traceback" in lines[1]["exception"] and lines[1]["detail"] == MASK and lines[1]["level"] == "ERROR"


def test_secrets_of_any_run_are_masked_by_their_shape(captured: io.StringIO) -> None:
    logs.setup("DEBUG", "text", [], stream=captured)  # none known: the shapes alone
    log = logging.getLogger("x")
    log.info("telegram %s discord %s", TELEGRAM, DISCORD)
    log.info("db postgresql://gamehost:hunter2-secret@db:5432/gamehost")
    log.info("header Authorization: Bot abc.def.ghi, X-Telegram-Bot-Api-Secret-Token: s3cret-value")
    text = captured.getvalue()
    for secret in (TELEGRAM, DISCORD, "hunter2-secret", "abc.def.ghi", "s3cret-value"):
        assert secret not in text, secret
    assert "postgresql://gamehost:<redacted>@db:5432/gamehost" in text


def test_ordinary_lines_stay_as_they_were(captured: io.StringIO) -> None:
    logs.setup("DEBUG", "text", ["123456:STAND-IN"], stream=captured)
    plain = ("lease owner vm:4242:deadbeef, at 127.0.0.1:5432, 2026-11-26 06:28:20,696, session 12:abc, "
             "render.fonts.DroidSansFallbackFull.ttf, 100% done, %s kept")
    logging.getLogger("x").warning(plain)
    assert captured.getvalue().rstrip("\n").endswith(plain)


def test_uncaught_exceptions_and_warnings_go_through_the_filter(captured: io.StringIO) -> None:
    logs.setup("WARNING", "text", [TELEGRAM], stream=captured)
    try:
        raise KeyError(TELEGRAM)
    except KeyError:
        sys.excepthook(*sys.exc_info())
    thread = threading.Thread(target=lambda: (_ for _ in ()).throw(OSError(f"no {TELEGRAM}")), name="worker")
    thread.start()
    thread.join()
    import warnings

    warnings.warn(f"careful with {TELEGRAM}", UserWarning, stacklevel=1)
    text = captured.getvalue()
    assert TELEGRAM not in text
    assert "uncaught exception" in text and "KeyError" in text and "in worker" in text and "careful with" in text


def test_the_settings_name_their_secrets_and_the_log_options_are_checked() -> None:
    settings = Settings(telegram_token=TELEGRAM, discord_token=DISCORD, telegram_webhook_secret="hook-secret",
                        db="postgresql://u:pg-password@h/db", log_format="JSON", log_level="debug")
    assert set(settings.secrets) == {TELEGRAM, DISCORD, "hook-secret", "pg-password"}
    assert (settings.log_format, settings.log_level) == ("json", "DEBUG")
    assert Settings(db="games.db").secrets == []
    with pytest.raises(ValueError, match="one of text, json"):
        Settings(log_format="xml")
    with pytest.raises(ValueError, match="one of DEBUG"):
        Settings(log_level="LOUD")


async def test_debug_is_the_bots_and_not_every_sql_statement(captured: io.StringIO, tmp_path) -> None:
    """aiosqlite logs every statement with its parameters at DEBUG (a session's state, hidden
    hands with it): at gamehost's DEBUG it says nothing below INFO, the bot's own lines stay."""
    logs.setup("DEBUG", stream=captured)
    store = await open_storage(str(tmp_path / "games.db"))  # the migrations: dozens of statements
    try:
        await store.schema_version()
    finally:
        await store.close()
    logging.getLogger("gamehost").debug("a line of the bot's own")
    assert "a line of the bot's own" in captured.getvalue()
    assert "aiosqlite" not in captured.getvalue() and "PRAGMA" not in captured.getvalue()


async def test_a_game_at_debug_tells_what_happened_and_not_the_hands(captured: io.StringIO, tmp_path) -> None:
    """What an operator reads at DEBUG: the table opened, each command (who, which word, how long),
    each save, the end and its results; never a hand, nor a session's state."""
    logs.setup("DEBUG", stream=captured)
    table = await open_table(tmp_path / "games.db", Clock())
    try:
        await table.say(ALICE, "/ddz start")
        await table.say(BOB, "/join")
        await table.say(CAROL, "/join")
        session = await table.session()
        game = table.host.games["doudizhu"]
        state = game.from_json(session.state)
        hands = [line for seat in range(3) for line in game.private_lines(state, seat, Translator())
                 if line.startswith("hand:")]
        await table.say(ALICE, "/hand")
        await table.say(BOB, "/resign")
    finally:
        await close_table(table)
    said = captured.getvalue()
    assert f"session {session.id}: {ALICE.id} opened a doudizhu table in {table.channel}" in said
    assert f"{table.channel}: {BOB.id} sent join, answered in" in said and f"{ALICE.id} sent hand" in said
    assert f"session {session.id} (doudizhu in {table.channel}) ended: " in said and f"{BOB.id} loss" in said
    assert len(hands) == 3 and not any(hand in said or hand[6:] in said for hand in hands)
    assert '"hands"' not in said and "aiosqlite" not in said


CODE = "QPZHLT"  # a link code
CARDS = "hand: 3♠ 4♣ 4♦ BJ"


class Update:
    """An API object, as the libraries' own are (python-telegram-bot's have to_dict)."""

    update_id = 7

    def to_dict(self) -> dict[str, str]:
        return {"text": f"/link {CODE}"}

    def __repr__(self) -> str:
        return f"Update(text='/link {CODE}', description='{CARDS}')"


def test_a_librarys_debug_shows_its_listed_lines_without_what_they_carry(captured: io.StringIO) -> None:
    logs.setup("DEBUG", "json", [], stream=captured)
    bot_api, gateway = logging.getLogger("telegram.ext.ExtBot"), logging.getLogger("discord.gateway")
    bot_api.debug("Calling Bot API endpoint `%s` with parameters `%s`", "answerInlineQuery",
                  {"results": [{"description": CARDS}]})
    bot_api.debug("Call to Bot API endpoint `%s` finished with return value `%s`", "sendMessage",
                  {"text": f"Your code: {CODE}"})
    logging.getLogger("telegram.ext.Application").debug("Processing update %s", Update())
    gateway.debug("For Shard ID %s: WebSocket Event: %s", None, {"op": 0, "t": "INTERACTION_CREATE", "s": 5,
                  "d": {"data": {"name": "link", "options": [{"name": "code", "value": CODE}]}}})
    logging.getLogger("discord.http").debug("%s %s with %s has returned %s", "POST", "https://x/api/v10/channels/1",
                                            f'{{"content": "{CARDS}"}}', 200)
    # Not listed: dropped, whatever they say (a new library, a new line, an f-string, a mapping, a traceback).
    logging.getLogger("newlib").debug("sending %s", CODE)
    gateway.debug(f"For Shard ID None: WebSocket Event: {CODE}")
    logging.getLogger("telegram.ext.Updater").debug("Webhook received data: %s", f'{{"text": "/link {CODE}"}}')
    logging.getLogger("discord.ui.view").debug("View interaction referenced an unknown item custom_id %s.", CODE)
    logging.getLogger("aiosqlite").debug("executing %(sql)s", {"sql": "UPDATE sessions SET state=?"})
    messages = [json.loads(line)["message"] for line in captured.getvalue().splitlines()]
    assert messages == [
        "Calling Bot API endpoint `answerInlineQuery` with parameters `<dict>`",
        "Call to Bot API endpoint `sendMessage` finished with return value `<dict>`",
        "Processing update 7",
        "For Shard ID None: WebSocket Event: INTERACTION_CREATE (op 0, seq 5)",
        "POST https://x/api/v10/channels/1 with <str> has returned 200",
    ]


def test_a_librarys_lines_above_debug_pass_without_their_payloads(captured: io.StringIO) -> None:
    logs.setup("INFO", "text", [], stream=captured)
    ptb = logging.getLogger("telegram.ext.Application")
    ptb.critical("Error while building CallbackContext for update %s. Update will not be processed.", Update())
    logging.getLogger("telegram.Bot").critical("Error while parsing updates! Received data was %r",
                                               [{"message": {"text": CARDS}}])
    logging.getLogger("telegram.ext.Updater").critical("Received data was: %r", f'{{"text": "/link {CODE}"}}')
    logging.getLogger("httpx").info('HTTP Request: %s %s "%s %d %s"', "POST", "http://h/bot1/sendMessage",
                                    "HTTP/1.1", 200, "OK")
    logging.getLogger("discord.gateway").info("Shard ID %s has connected to Gateway (Session ID: %s).", None, "ab12")
    logging.getLogger("gamehost").info("the project's own line: %s", {"as": "it is"})
    text = captured.getvalue()
    assert CODE not in text and "3♠" not in text, text
    assert "for update <Update>." in text and "Received data was <list>" in text and "data was: <str>" in text
    assert 'HTTP Request: POST http://h/bot1/sendMessage "HTTP/1.1 200 OK"' in text
    assert "(Session ID: ab12)." in text and "the project's own line: {'as': 'it is'}" in text
