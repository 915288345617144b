"""What people type is cleaned once, where it enters the host, before anything reads,
stores or draws it.

- NFKC first: a Chinese keyboard's full-width "２", a superscript "²" and a circled "①"
  all become "2", the ideographic space a space; so the parser and the games read plain
  ASCII digits and words, whatever the keyboard.
- Control characters, line and paragraph separators and lone surrogates become spaces:
  they break text layout in pictures (Pillow's raqm refuses a name with a newline), forge
  extra lines in a message, and a lone surrogate cannot even be stored as UTF-8.
- Bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) are dropped: a name must not
  turn the rest of a sentence around.
- A display name is one line of at most `NAME_MAX` characters; one that is empty after
  cleaning is replaced by the user's handle (or "?").
- A refusal quotes what was typed (an unknown option, a word that is no move) in at most
  `QUOTE_MAX` characters.
- Every other field of an `Event` is cleaned there too (`event`), so nothing that reaches a
  database, a log or a platform can fail to encode: a handle and a locale as text (one line,
  capped), a button's id as text, and the ids the platforms made (channel, account, place)
  kept exactly as they are unless they hold a character no database stores (a lone surrogate,
  NUL) or that breaks a line, which is written as its escape (`\\udfff`), the same each time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from typing import Any

from bot.model import Event, User
from engines.base import Msg

NAME_MAX = 32
QUOTE_MAX = 40
HANDLE_MAX = 64  # an @username: 32 characters at most on Discord and Telegram
LOCALE_MAX = 35  # the longest language tag in common use ("zh-Hans-CN" is 10)
BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def text(typed: str) -> str:
    """`typed` as the host reads it: NFKC, no control characters, no bidi overrides."""
    return BIDI.sub("", BREAKING.sub(" ", unicodedata.normalize("NFKC", typed)))


def name(shown: str, fallback: str = "?") -> str:
    """A display name as the host keeps it: one line, at most `NAME_MAX` characters."""
    cleaned = " ".join(text(shown).split())
    if not cleaned:
        return "?" if fallback == "?" else name(fallback)
    return cleaned if len(cleaned) <= NAME_MAX else cleaned[: NAME_MAX - 1].rstrip() + "…"


def ident(given: str) -> str:
    """An id as the platform made it, but for characters no database stores or that break a line
    (a lone surrogate, NUL, a control), each written as its escape: the same id gives the same result."""
    return BREAKING.sub(lambda found: found[0].encode("unicode_escape").decode("ascii"), given)


def _line(given: str | None, most: int) -> str | None:
    """Cleaned text on one line of at most `most` characters; None if nothing is left."""
    cleaned = " ".join(text(given or "").split())[:most]
    return cleaned or None


def user(person: User) -> User:
    handle = _line(person.handle, HANDLE_MAX)
    return replace(person, id=ident(person.id), name=name(person.name, handle or "?"), handle=handle)


def event(typed: Event) -> Event:
    """The event with every field cleaned: its text, its user (id, name, handle), its mentions (the
    tokens and the people), its button, its locale, its channel and its place."""
    mentions = {text(token): user(person) for token, person in typed.mentions.items()}
    return replace(typed, channel=ident(typed.channel), user=user(typed.user), text=text(typed.text),
                   button=None if typed.button is None else text(typed.button), mentions=mentions,
                   locale=_line(typed.locale, LOCALE_MAX), place=None if typed.place is None else ident(typed.place))


def quoting(message: Msg, typed: str) -> Msg:
    """`message` with every parameter that quotes `typed` cut to `QUOTE_MAX` characters."""
    params: dict[str, Any] = {}
    for key, value in message.params.items():
        if isinstance(value, Msg):
            value = quoting(value, typed)
        elif isinstance(value, str) and len(value) > QUOTE_MAX and value in typed:
            value = value[: QUOTE_MAX - 1] + "…"
        params[key] = value
    return Msg(message.key, params)
