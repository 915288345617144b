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
class Everyone:
    """For everyone in the channel."""


@dataclass(frozen=True)
class NotSecret:
    """For `user` (the one acting): shown to them alone where the platform can, but nothing in
    it is secret, so a platform that cannot may show it in the channel ("It is Bob's turn")."""

    user: str


@dataclass(frozen=True)
class Private:
    """Secret: only `user` may ever see it (their hidden cards, a hint, a link code, a refusal
    that tells what they hold). No adapter can post it to a channel: see `Public`."""

    user: str


EVERYONE = Everyone()
Audience = Everyone | NotSecret | Private


@dataclass(frozen=True)
class Reply:
    """Something to show, and to whom: `audience` (every reply says, there is no default)."""

    text: str = ""
    image: bytes | None = None
    image_name: str = "board.png"
    buttons: tuple[Button, ...] = ()
    board: bool = False  # the session's board message (adapters may edit it in place)
    over: bool = False  # the session (`session`) ended with this reply: adapters tidy what was its (a ping)
    # A file name ("record.txt"): where the text does not fit one message, the adapter sends it whole
    # as a text file of this name, with its first line as the message (a long game's record).
    document: str | None = None
    text_board: str | None = None  # the board as text, for the console
    mentions: tuple[str, ...] = ()  # user ids to ping (the player to move)
    session: int | None = None
    names: Mapping[str, str] = field(default_factory=dict)  # display names of `mentions` and the reader, by user id
    # The language `text` is in: its reader's, or (None, filled in by the host before adapters see
    # it) the channel's. Adapters say what they add to a reply (a ping, a note) in it too.
    language: str | None = None
    audience: Audience = field(kw_only=True)

    @property
    def private(self) -> bool:
        """Secret, for one person only."""
        return isinstance(self.audience, Private)

    @property
    def reader(self) -> str | None:
        """The one person it is for (Private or NotSecret); None: for everyone."""
        return None if isinstance(self.audience, Everyone) else self.audience.user


@dataclass(frozen=True)
class Public:
    """A reply a whole channel may see. Every adapter function that posts to a channel (a group,
    a server channel) takes a `Public`, never a `Reply`, and a `Public` cannot hold a Private
    reply: making one of it raises. So no path, present or future, posts a secret publicly."""

    reply: Reply

    def __post_init__(self) -> None:
        if isinstance(self.reply.audience, Private):
            raise TypeError("a Private reply is never shown to a channel")
