"""The values that cross the line between the host and the platform adapters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# Adapters prefix every user and channel id with their platform, so ids never clash.
CONSOLE, DISCORD, TELEGRAM = "console", "discord", "telegram"


@dataclass(frozen=True)
class User:
    id: str  # "discord:1234", "telegram:5678", "console:alice"
    name: str  # display name
    handle: str | None = None  # @username, without the @, for mentions typed as text
    moderator: bool = False  # may cancel any game in the channel (Discord: Manage Messages)


@dataclass(frozen=True)
class Event:
    """Something a user did: typed a command, or pressed a button."""

    channel: str
    user: User
    text: str = ""
    button: str | None = None  # a button's id, as the host made it
    mentions: Mapping[str, User] = field(default_factory=dict)  # mention token in `text` -> user
    locale: str | None = None  # the user's language as the platform says it ("zh-CN", "en"), if it does
    # The place the channel belongs to, as "here" leaderboards count it: a Discord server; None: the
    # channel itself (a Telegram group). Adapters prefix it like ids ("discord:guild:42", "console").
    place: str | None = None


@dataclass(frozen=True)
class Button:
    label: str
    id: str  # what comes back in Event.button
    command: str  # the command it stands for, for platforms without buttons ("/accept")


@dataclass(frozen=True)
class Reply:
    """Something to show: to the channel, or privately to one user (`to`)."""

    text: str = ""
    image: bytes | None = None
    image_name: str = "board.png"
    buttons: tuple[Button, ...] = ()
    to: str | None = None  # a user id: only that user may see it (hidden cards)
    ephemeral: bool = False  # for the acting user; shown only to them where the platform can
    board: bool = False  # the session's board message (adapters may edit it in place)
    text_board: str | None = None  # the board as text, for the console
    mentions: tuple[str, ...] = ()  # user ids to ping (the player to move)
    session: int | None = None
    names: Mapping[str, str] = field(default_factory=dict)  # display names of `mentions` and `to`, by user id
    # The language `text` is in: its reader's, or (None, filled in by the host before adapters see
    # it) the channel's. Adapters say what they add to a reply (a ping, a note) in it too.
    language: str | None = None

    @property
    def private(self) -> bool:
        return self.to is not None
