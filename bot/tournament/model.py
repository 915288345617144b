"""A tournament's data: what the store keeps and the host works on. No I/O here.

An event goes open (people /join) -> running (rounds are paired and played) -> finished (or
cancelled). Its row carries a version that every committed change increments; a write that does
not find the version it read changes nothing (`Conflict`), so each pairing and each round change
is committed once, whichever process makes it. Its games are rows too: who sits where, the
place and the session each is played in, and the points each took once it is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.tournament.pairing import Entrant, Played

FORMATS = ("swiss", "roundrobin", "knockout")
BOT = "bot:"  # an entrant id of a bot: bot:<n>


class EventStatus(StrEnum):
    OPEN = "open"  # taking entries
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        return self in (EventStatus.OPEN, EventStatus.RUNNING)


@dataclass
class Entry:
    """Someone in the event: a person (their user id) or a bot (`bot:<n>`, its level)."""

    entrant: str
    name: str
    rating: float
    ai_level: str | None = None
    handle: str | None = None
    withdrawn: int = 0  # the round in which they withdrew (0: still in)

    @property
    def bot(self) -> bool:
        return self.ai_level is not None


@dataclass
class EventGame:
    """One table of a round (a bye: one player). `place`: the channel it is played in, once it
    has one; `session_id` once it began; `points` and `ranks` once it is over."""

    round: int
    table: int
    players: tuple[str, ...]
    place: str | None = None
    session_id: int | None = None
    points: tuple[float, ...] | None = None
    ranks: tuple[int, ...] | None = None

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def over(self) -> bool:
        return self.points is not None

    def played(self) -> Played:
        assert self.points is not None
        return Played(self.round, self.players, self.points, self.ranks or ())


@dataclass
class Tournament:
    channel: str
    game: str
    format: str
    status: EventStatus
    organiser: str
    # The game's options, the rounds (`rounds`), seconds per move (`turn_seconds`), seats per
    # table (`seats`), where games are played (`places`: threads, topics or here).
    options: dict[str, Any]
    created_at: float
    updated_at: float
    round: int = 0  # the round being played (0: not begun)
    version: int = 0
    id: int | None = None
    entries: list[Entry] = field(default_factory=list)
    games: list[EventGame] = field(default_factory=list)

    def entry(self, entrant: str) -> Entry | None:
        return next((e for e in self.entries if e.entrant == entrant), None)

    @property
    def seats(self) -> int:
        return int(self.options.get("seats", 2))

    @property
    def rounds(self) -> int:
        return int(self.options.get("rounds", 0))

    def still_in(self) -> list[Entrant]:
        return [Entrant(e.entrant, e.rating) for e in self.entries if not e.withdrawn]

    def everyone(self) -> list[Entrant]:
        return [Entrant(e.entrant, e.rating) for e in self.entries]

    def played(self) -> list[Played]:
        return [g.played() for g in self.games if g.over]

    def current(self) -> list[EventGame]:
        """The games of the round being played (deciders of a knockout round too)."""
        return [g for g in self.games if g.round == self.round]

    @property
    def completed(self) -> int:
        """How many rounds are over: the one being played counts once every game of it has ended."""
        games = self.current()
        return self.round if games and all(g.over for g in games) else max(self.round - 1, 0)

    def game_of(self, session_id: int) -> EventGame | None:
        return next((g for g in self.games if g.session_id == session_id), None)
