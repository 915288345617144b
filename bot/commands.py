"""The one command parser for every platform: text in, `Command` out.

Discord slash commands and Telegram commands both arrive as the text a user
would have typed ("/nim start 3 4 5", "/take@gamehost_bot 2 3"), so they share
this parser. It never raises: anything it cannot read is a `ParseError`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
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
    text: str, games: dict[str, str], actions: Collection[str], bot_name: str | None = None
) -> Command | ParseError | None:
    """Read a command. `games` maps every game name and alias to the game's name; `actions` are
    the words a game's command may take first (`start`, `solo`; the command table's).

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
    if not re.fullmatch(r"[a-z0-9_]{1,32}", word):
        return ParseError(msg("host.unknown_command", command=head[:32]))
    mentions = tuple(a for a in args if MENTION.match(a))
    if word in games:
        action = args[0].lower() if args else "start"
        if action in actions:
            args = args[1:]
        else:
            action = "start"  # "/nim 3 4 5" starts a game too
        return Command(action, games[word], tuple(args), mentions, word)
    return Command(word, None, tuple(args), mentions, word)
