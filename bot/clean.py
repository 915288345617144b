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


def user(person: User) -> User:
    return replace(person, name=name(person.name, person.handle or "?"))


def event(typed: Event) -> Event:
    """The event with its text, its user's name and its mentions cleaned."""
    mentions = {text(token): user(person) for token, person in typed.mentions.items()}
    return replace(typed, text=text(typed.text), user=user(typed.user), mentions=mentions)


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
