"""What the libraries' log records may show: their lines without what they carry.

At DEBUG the libraries log what they send and receive: python-telegram-bot every API call's
parameters and every update (a hand in an inline answer, a hint, a link code, `/link CODE` as
typed), discord.py every gateway event (an interaction's options) and every REST call's body,
httpcore every request's steps. So a library's record is shown by one rule, whatever its text
(`reduce`, called by the root handler's one filter, `bot.logs.Redact`):

- below INFO, only the lines listed in `LINES` pass: which call was made, which event came,
  with what status, how the connection goes. Each argument is shown as its view says, by
  default `shown` (a number, a word, an address: yes; a body, an update, free text: its type's
  name only). Every other line below INFO is dropped: a library's new line, or a new
  library's, says nothing until it is listed here.
- at INFO and above, the line passes with whatever argument is a payload (a dict, a list,
  bytes, a JSON text, an API object) replaced by its type's name: python-telegram-bot logs the
  data it could not read at CRITICAL.

The project's own loggers (`OWN`) say no payload (tests/bot/test_logs.py); their records pass
as they are. Every record is then masked for secrets by `bot.logs.Redact`.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Mapping
from typing import Any

OWN = ("gamehost", "bot", "engines", "render")  # the project's loggers
ADDRESS = ("URL", "Route", "Endpoint")  # types whose text is an address: httpx.URL, yarl.URL, ...
LONGEST = 300  # characters of a string argument shown below INFO

View = Callable[[Any], str]


class Withheld(str):
    """What stands for an argument not shown: its type's name, through %s and %r alike."""

    def __repr__(self) -> str:
        return str(self)


def named(value: Any) -> str:
    return Withheld(f"<{type(value).__name__}>")


def shown(value: Any) -> str:
    """An argument below INFO: a number, a flag, a word or an address as it is; else its type."""
    if value is None or isinstance(value, bool | int | float | enum.Enum):
        return str(value)
    if isinstance(value, list | tuple) and all(isinstance(v, int) for v in value):
        return str(value)  # ids: the update ids polled
    if type(value).__name__ in ADDRESS:
        return str(value)
    if isinstance(value, str) and word(value):
        return value
    return named(value)


def word(text: str) -> bool:
    """A name, a number or an address: no space, not JSON, not long."""
    return 0 < len(text) <= LONGEST and text[0] not in "{[" and text.isprintable() and " " not in text


def as_is(value: Any) -> str:
    """An argument the library made up itself (a label of its own, with an error's reason)."""
    return str(value)


def gateway_event(payload: Any) -> str:
    """A Discord gateway payload: its event name and sequence, never its data."""
    if not isinstance(payload, Mapping):
        return named(payload)
    op, event, seq = (shown(payload.get(key)) for key in ("op", "t", "s"))
    return f"{event} (op {op}, seq {seq})" if payload.get("t") else f"op {op}"


def update_id(update: Any) -> str:
    """A Telegram update: its number, never its content."""
    number = getattr(update, "update_id", None)
    return str(number) if isinstance(number, int) else named(update)


# The lines a library may log below INFO, by logger prefix and template; None: every argument
# `shown`, else a view per argument. Each was read in the library's source: its arguments are
# names, numbers, addresses, statuses, or are reduced by their views.
LINES: dict[str, dict[str, tuple[View, ...] | None]] = {
    "telegram": {
        "Calling Bot API endpoint `%s` with parameters `%s`": None,  # the endpoint; the parameters: <dict>
        "Call to Bot API endpoint `%s` finished with return value `%s`": None,
        "Getting updates: %s": None,  # update ids
        "No new updates found.": None,
        "Set Bot API URL: %s": None,
        "Set Bot API File URL: %s": None,
        "Processing update %s": (update_id,),
        "%s Starting": (as_is,),  # the network loops (polling, webhook set-up)
        "%s Action succeeded. Stopping loop.": (as_is,),
        "%s Cancelled": (as_is,),
        "%s Failed run number %s of %s. Retrying.": (as_is, shown, shown),
        "Updater started (polling)": None,
        "Updater thread started (webhook)": None,
        "Deleting webhook": None,
        "Setting webhook": None,
        "Bootstrap done": None,
        "Waiting for polling to start": None,
        "Polling updates from Telegram started": None,
        "Webhook Server started.": None,
        "Webhook Server stopped": None,
        "Webhook triggered": None,
        "Request did not include the secret token": None,
        "Stopping Updater": None,
        "Updater.stop() is complete": None,
        "Waiting background polling task to finish up.": None,
        "Application stopped fetching of updates.": None,
        "Waiting for `create_task` calls to be processed": None,
    },
    "discord": {
        "For Shard ID %s: WebSocket Event: %s": (shown, gateway_event),
        "Created websocket connected to %s": None,
        "Shard ID %s has sent the IDENTIFY payload.": None,
        "Shard ID %s has sent the RESUME payload.": None,
        "Keeping shard ID %s websocket alive with sequence %s.": None,
        "Received RECONNECT opcode.": None,
        "Unknown event %s.": None,
        "Received %s": None,  # a closing frame: <WSMessage>
        "Timed out receiving packet. Attempting a reconnect.": None,
        "Websocket closed with %s, attempting a reconnect.": None,
        "Websocket closed with %s, cannot reconnect.": None,
        "Dispatching event %s": None,
        "Got a request to %s the websocket.": None,
        "Got a request to %s the websocket at Shard ID %s.": None,
        "%s %s with %s has returned %s": None,  # method, URL, the body (<str>), status
        "%s %s has received %s": None,  # method, URL, the answer (<dict>)
        "A rate limit bucket (%s) has been exhausted. Pre-emptively rate limiting...": None,
        "Done sleeping for the rate limit. Retrying...": None,
        "Global rate limit is now over.": None,
        "Webhook ID %s with %s %s has returned status code %s": None,
        "Webhook ID %s has exhausted its rate limit bucket (retry: %s).": None,
    },
}


def own(name: str) -> bool:
    return any(name == mine or name.startswith(f"{mine}.") for mine in OWN)


def library_lines(name: str) -> dict[str, tuple[View, ...] | None]:
    library = name.partition(".")[0]
    return LINES.get(library, {})


def reduce(record: logging.LogRecord) -> bool:
    """Make a library's `record` safe to show (its arguments reduced), or say False: drop it."""
    if own(record.name):
        return True
    if record.levelno < logging.INFO:
        template = record.msg if isinstance(record.msg, str) else None
        lines = library_lines(record.name)
        if template is None or template not in lines or isinstance(record.args, Mapping):
            return False
        views = lines[template]
        args = record.args or ()
        if views is not None and len(views) != len(args):
            return False
        record.args = tuple((views[i] if views else shown)(arg) for i, arg in enumerate(args))
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
    if isinstance(record.args, Mapping):
        record.args = {key: _unless_payload(value) for key, value in record.args.items()}
    elif isinstance(record.args, tuple):
        record.args = tuple(_unless_payload(arg) for arg in record.args)
    return True


def _unless_payload(value: Any) -> Any:
    """An argument at INFO and above: as it is, unless it carries data (then its type's name)."""
    if isinstance(value, Mapping | list | tuple | set | frozenset | bytes | bytearray):
        return named(value)
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        return named(value)  # a JSON body
    if hasattr(value, "to_dict") or hasattr(value, "to_json"):
        return named(value)  # an API object: an update, a message
    return value
