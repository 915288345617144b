"""A session's data: what the store keeps and the host works on. No I/O here.

One session per channel goes lobby -> playing -> finished (or cancelled). A session
row carries a version that every committed change increments; a write that does
not find the version it read changes nothing (`Conflict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from engines.base import JSON, Outcome

ResultKind = Literal["win", "loss", "draw"]  # a seat's result


class SessionStatus(StrEnum):
    LOBBY = "lobby"  # waiting for players
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        return self in (SessionStatus.LOBBY, SessionStatus.PLAYING)


class Aid(StrEnum):
    """How a player was helped during a game; a game in which they were is not rated for them."""

    HINT = "hint"  # asked for a hint
    UNDO = "undo"  # took a move back (or restarted the game against the bot alone)


class OfferKind(StrEnum):
    UNDO = "undo"
    DRAW = "draw"
    RESTART = "restart"


@dataclass
class Offer:
    """A request that needs the other people's consent (undo, draw, restart)."""

    kind: OfferKind
    seat: int  # who asked
    agreed: list[int] = field(default_factory=list)  # seats that said yes so far
    ply: int | None = None  # undo: the asker's last move, taken back with everything after it

    def to_json(self) -> JSON:
        data: dict[str, Any] = {"kind": str(self.kind), "seat": self.seat, "agreed": list(self.agreed)}
        if self.ply is not None:
            data["ply"] = self.ply
        return data

    @classmethod
    def from_json(cls, data: JSON) -> Offer | None:
        if not data:
            return None
        return cls(OfferKind(data["kind"]), data["seat"], list(data.get("agreed", [])), data.get("ply"))


@dataclass
class Seat:
    seat: int
    user_id: str | None = None  # None: an AI seat, or an open seat in a lobby
    name: str = ""
    handle: str | None = None
    ai_level: str | None = None  # set: the AI plays this seat
    away: bool = False  # its player let the timer run out; the AI plays until /back
    accepted: bool = True  # False: an invited player who has not accepted yet

    @property
    def is_open(self) -> bool:
        """Free for anyone to /join (an invited player's seat is not)."""
        return self.user_id is None and self.ai_level is None and self.accepted

    @property
    def played_by_ai(self) -> bool:
        return self.ai_level is not None or self.away


@dataclass
class Session:
    channel: str
    game: str
    status: SessionStatus
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    starter: str
    turn_seconds: int
    created_at: float
    updated_at: float
    state: Any = None  # the game's state as JSON; None until the game begins
    version: int = 0
    deadline: float | None = None
    offer: Offer | None = None
    outcome: Outcome | None = None
    ply: int = 0
    id: int | None = None
    bot_turn: bool = False  # a bot is to move (set at every commit): work any live process may claim
    # The seats whose player was helped in this game, and how they were first: not rated for them.
    aided: dict[int, Aid] = field(default_factory=dict)
    # The seats as last read or written, so a save rewrites them only when they changed.
    saved_seats: list[Seat] = field(default_factory=list, repr=False, compare=False)

    def seat_of(self, user_id: str) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.user_id is not None]

    @property
    def watched(self) -> bool:
        """Bots in every seat (`/<game> watch`): paced one move every `turn_seconds`, for onlookers."""
        return bool(self.seats) and all(s.user_id is None and s.ai_level is not None for s in self.seats)


@dataclass(frozen=True)
class MoveRow:
    ply: int
    seat: int
    move: str
    by_ai: bool
    state_before: Any
    at: float


@dataclass(frozen=True)
class Result:
    seat: int
    user_id: str
    name: str
    rank: int
    result: ResultKind
    score: float | None = None
    role: str | None = None  # the seat's part where the game gives parts (`Game.roles`)
    aided: Aid | None = None  # how the seat's player was helped, if they were: the game is not rated for them


@dataclass(frozen=True)
class Notice:
    """A row of the outbox written with a commit: the channel is owed what the host says about
    it. Held by `owner` (the committing process) for `lease` seconds while the host builds and
    sends the replies (`bot.outbox`); its owner gone, another process sends the board instead."""

    key: str
    channel: str
    owner: str
    lease: float
    due: float  # on the host's clock: now


@dataclass
class Change:
    """What one write does besides saving the session row and its seats."""

    move: MoveRow | None = None
    drop_moves_from: int | None = None  # undo / restart: forget moves from this ply on
    results: Sequence[Result] = field(default_factory=tuple)
    notice: Notice | None = None  # what the channel is owed for this commit (`bot.outbox`)


@dataclass
class Outgoing:
    """An outbox row as a deliverer claimed it: the public replies owed to `channel` (JSON; None
    while the process that committed still builds them, or if it died first), and what of them
    the platform already took (per reply, the ids of the messages it made)."""

    seq: int
    key: str
    channel: str
    session_id: int | None
    replies: str | None
    sent: list[dict[str, Any]]
    attempts: int
    due: float
    created_at: float
    lease_owner: str | None = None


class ChannelBusy(Exception):
    """The channel already has an active session."""


class Conflict(Exception):
    """The session changed since it was read (another process wrote it)."""
