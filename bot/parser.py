"""The one command parser for every platform: text in, `Command` out.

Discord slash commands and Telegram commands both arrive as the text a user
would have typed ("/nim start 3 4 5", "/take@gamehost_bot 2 3"), so they share
this parser. It never raises: anything it cannot read is a `ParseError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engines.base import Msg, msg

MAX_TEXT = 1000  # characters; a longer command is refused in one line
MAX_ARGS = 40

MENTION = re.compile(r"^(@[\w.]{1,64}|<@!?\d{1,25}>)$")


@dataclass(frozen=True)
class Command:
    name: str  # a host command, a game action, or a word the session's game knows (/take, /moves)
    game: str | None = None  # set for game actions: the game's name
    args: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()  # mention tokens among the arguments, in order
    word: str = ""  # the command word as typed (for messages)


@dataclass(frozen=True)
class ParseError:
    reason: Msg


def parse(
    text: str, games: Mapping[str, str], actions: Mapping[str, str], bot_name: str | None = None,
    other_words: Mapping[str, str] | None = None,
) -> Command | ParseError | None:
    """Read a command. `games` maps every word that names a game to the game's name; `actions`
    maps the words a game's command may take first to the action (`start`, `solo`, `人机`: the
    command table's); `other_words` maps other words for commands to them (`认输`: `resign`).

    None: the text is not a command at all (ordinary chat).
    """
    text = text.strip()
    first = text[1:].split(maxsplit=1) if text.startswith("/") else []
    if not first:
        return None
    head, _, addressee = first[0].partition("@")
    if addressee and bot_name and addressee.lower() != bot_name.lower():
        return None  # "/start@otherbot" is for another bot in the group
    if len(text) > MAX_TEXT:
        return ParseError(msg("host.too_long", most=MAX_TEXT))
    word = head.lower()
    args = text[1:].split()[1:]
    if len(args) > MAX_ARGS:
        return ParseError(msg("host.too_many_words", most=MAX_ARGS))
    other_words = other_words or {}
    if not (word in games or word in other_words or re.fullmatch(r"[a-z0-9_]{1,32}", word)):
        return ParseError(msg("host.unknown_command", command=head[:32]))
    mentions = tuple(a for a in args if MENTION.match(a))
    if word in games:
        action = actions.get(args[0].lower()) if args else "start"
        if action is not None and args:
            args = args[1:]
        elif action is None:
            action = "start"  # "/nim 3 4 5" starts a game too
        return Command(action, games[word], tuple(args), mentions, word)
    return Command(other_words.get(word, word), None, tuple(args), mentions, word)
