"""Logging: the one set-up of the process's logs, and no secret in any line of it.

`setup` gives the root logger one handler (stderr) with one filter, `Redact`, and a text or a
JSON formatter (python-json-logger: one object per line). Every record of every library passes
through that filter before it is formatted, and the libraries do log secrets: httpx logs each
request's URL at INFO, and a Telegram URL holds the token (`…/bot<TOKEN>/getUpdates`, every
poll); python-telegram-bot logs its API URL at DEBUG; discord.py logs the URLs of interaction
follow-ups (`/webhooks/<id>/<interaction token>`) and every gateway event (interactions carry
their token) at DEBUG; a rejected token ends up in the text of an exception and its traceback.

The filter renders the message with its arguments, the exception's traceback, the stack and any
extra field, then masks in them:
- the secrets of this run, given by `setup` (the platform tokens, the webhook secret, the
  database's password), as they are and URL-quoted, and the secret half of a token on its own
  (a Telegram token's part after the colon, a Discord token's signature);
- whatever has the shape of one: a Telegram token, a Discord bot token, an `Authorization`
  header's credentials, a `"token": …` field, an interaction token in a URL, a password in a URL.

The libraries also log what they carry: at DEBUG python-telegram-bot logs every API call's
parameters and every update, discord.py every gateway event and request body, aiosqlite every
statement with its parameters. The same filter first reduces a library's record to what may be
shown (`bot.library_logs`: below INFO only the lines listed there, with their payloads reduced
to their types' names; at INFO and above, payload arguments reduced), or drops it; so a hand, a
hint or a link code never reaches the log, whichever library carried it.

Uncaught exceptions (of the main thread and of other threads) and `warnings` are logged through
the same handler, so they are masked too; `clean` masks a line printed without logging (the
one line `gamehost` prints when it cannot start).
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from collections.abc import Iterable
from typing import Any, TextIO
from urllib.parse import quote, urlsplit

from pythonjsonlogger.json import JsonFormatter

from bot import library_logs

MASK = "<redacted>"
SHORTEST = 6  # a secret shorter than this would mask ordinary words: not taken (no real token is)
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")

# Secrets by their shape, whoever's they are. (pattern, replacement)
SHAPES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(/bot)\d+:[\w-]+"), rf"\1{MASK}"),  # a Telegram API URL: /bot<token>/<method>
    (re.compile(r"\b\d{5,}:[A-Za-z0-9_-]{30,}"), MASK),  # a Telegram bot token: <bot id>:<35 characters>
    (re.compile(r"\b[\w-]{20,}\.[\w-]{5,8}\.[\w-]{20,}"), MASK),  # a Discord bot token: <id>.<time>.<signature>
    (re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?(?:bot|bearer|basic)\s+)[^\s'\",}]+"), rf"\1{MASK}"),
    (re.compile(r"""(?i)(['"](?:token|secret_token|password)['"]\s*:\s*['"])[^'"]+"""), rf"\1{MASK}"),
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[\w.-]+"), rf"\1{MASK}"),  # Discord's interaction tokens
    (re.compile(r"(?i)(x-telegram-bot-api-secret-token['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+"), rf"\1{MASK}"),
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@/\s]+(@)"), rf"\1{MASK}\2"),  # user:password@ in a URL
]

# The attributes every LogRecord has; anything else on a record is an `extra` field (the JSON
# formatter writes those out too, so they are masked as well).
STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


def variants(secret: str) -> set[str]:
    """The ways a secret shows up in a log line: itself, URL-quoted, and its secret part alone."""
    found = {secret, quote(secret, safe=""), quote(secret)}
    _, colon, after = secret.partition(":")
    if colon:
        found.add(after)  # Telegram: the bot id before the colon is public, the rest is the secret
    if secret.count(".") == 2:
        found.add(secret.rsplit(".", 1)[1])  # Discord: the signature
    return {v for v in found if len(v) >= SHORTEST}


def url_password(url: str | None) -> str | None:
    """The password in a database URL (postgresql://user:password@host/db), if any."""
    if not url or "://" not in url:
        return None
    try:
        return urlsplit(url).password
    except ValueError:
        return None


class Redact(logging.Filter):
    """Drops or reduces a library's record that carries data (`bot.library_logs`), then masks
    secrets in everything a record will print. On the root handler: every logger's records pass
    through it, whatever their level."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        super().__init__()
        self.known: list[str] = []
        self.add(secrets)
        self._plain = logging.Formatter()

    def add(self, secrets: Iterable[str | None]) -> None:
        found = set(self.known)
        for secret in secrets:
            if secret:
                found |= variants(secret)
        self.known = sorted(found, key=len, reverse=True)  # the longest first: a part never spoils a whole

    def clean(self, text: str) -> str:
        for secret in self.known:
            if secret in text:
                text = text.replace(secret, MASK)
        for pattern, replacement in SHAPES:
            text = pattern.sub(replacement, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not library_logs.reduce(record):
            return False
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the format: show both, masked
            message = f"{record.msg!r} % {record.args!r}"
        record.msg, record.args = self.clean(message), None
        if record.exc_info:
            # Rendered here, masked, and kept as the text every formatter prints instead.
            record.exc_text = self.clean(self._plain.formatException(record.exc_info))
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = self.clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self.clean(record.stack_info)
        for key, value in list(vars(record).items()):
            if key not in STANDARD and not isinstance(value, int | float | bool | type(None)):
                setattr(record, key, self.clean(value if isinstance(value, str) else repr(value)))
        return True


_redact = Redact()


def clean(text: str) -> str:
    """`text` with every secret masked, as the logs show it: for what is printed without logging."""
    return _redact.clean(text)


def formatter(fmt: str) -> logging.Formatter:
    if fmt == "json":
        return JsonFormatter(
            "%(asctime)s %(levelname)s %(name)s %(message)s", rename_fields={"asctime": "time", "levelname": "level",
            "name": "logger", "exc_info": "exception"}, json_ensure_ascii=False,
        )
    return logging.Formatter(TEXT_FORMAT)


def setup(level: str = "WARNING", fmt: str = "text", secrets: Iterable[str | None] = (),
          stream: TextIO | None = None) -> logging.Handler:
    """The process's logging: one handler on the root logger, every record masked by one filter,
    formatted as text or as one JSON object per line. Returns the handler."""
    if fmt not in FORMATS:
        raise ValueError(f"log format {fmt!r}: one of {', '.join(FORMATS)}")
    _redact.add(secrets)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.addFilter(_redact)
    handler.setFormatter(formatter(fmt))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.captureWarnings(True)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread
    return handler


def _uncaught(kind: type[BaseException], error: BaseException, trace: Any) -> None:
    logging.getLogger("gamehost").critical("uncaught exception", exc_info=(kind, error, trace))


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    where = args.thread.name if args.thread is not None else "a thread"
    logging.getLogger("gamehost").error("uncaught exception in %s", where,
                                        exc_info=(args.exc_type, args.exc_value, args.exc_traceback))
