"""The contract every game implements. The host uses nothing else of a game.

A game is a stateless object; a *state* is an immutable value the game creates
and transforms. States and views are plain JSON-able data once passed through
`to_json` / `view`, so they can be stored, sent to a worker process and drawn.

Everything a user may read comes out of an engine as a `Msg` (a catalog key and
its parameters), never as an English sentence: the host translates it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

JSON = Any
S = TypeVar("S")  # a game's state type
M = TypeVar("M")  # a game's move type


@dataclass(frozen=True)
class Msg:
    """A user-facing sentence: a translation key plus its parameters.

    Parameter values are str, int, float or nested `Msg` (translated too).
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


class Refusal(Exception):
    """The rules refuse a move or an option; `msg` says why in one sentence."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.msg = Msg(key, params)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    `ranks[seat]` is 1 for the best; equal ranks tie, all equal is a draw.
    `scores[seat]` are points won or lost where the game settles in points.
    `reason` says why it ended ("took the last stone", "five in a row").
    """

    ranks: tuple[int, ...]
    reason: Msg
    scores: tuple[float, ...] | None = None

    @property
    def draw(self) -> bool:
        return len(set(self.ranks)) == 1

    @property
    def winners(self) -> tuple[int, ...]:
        if self.draw:
            return ()
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


@dataclass(frozen=True)
class Setup:
    """What `parse_options` makes of `/<game> start ...`: JSON options and the seat count."""

    options: dict[str, JSON]
    seats: int


@dataclass(frozen=True)
class QueryAnswer:
    """The answer to a game-specific read-only command (`/moves c4`, `/path c4 g8`).

    `overlay` is passed to the renderer with the public view (marks, paths)."""

    text: Msg
    overlay: JSON = None


class Game(ABC, Generic[S, M]):
    """One game's rules. Pure: no I/O, no clocks, no global randomness."""

    name: ClassVar[str]  # the command word: /nim, /gomoku
    aliases: ClassVar[tuple[str, ...]] = ()  # other command words: /ddz
    seat_counts: ClassVar[tuple[int, ...]]  # allowed numbers of seats
    levels: ClassVar[tuple[str, ...]]  # AI levels, weakest first
    default_level: ClassVar[str]
    ai_budget: ClassVar[dict[str, float]]  # seconds of thinking per level
    offers: ClassVar[frozenset[str]] = frozenset({"undo", "restart"})  # consent offers: undo, draw, restart
    queries: ClassVar[tuple[str, ...]] = ()  # extra read-only commands, answered by `query`
    hidden_hands: ClassVar[bool] = False  # seat views hold what the public view does not
    hint_level: ClassVar[str | None] = None  # level of /hint; None: no hints
    # Command words that are moves: /take 2 3 -> parse_move("2 3"); /bid 2 -> "bid 2".
    move_words: ClassVar[dict[str, str]] = {}

    # --- setting up ---------------------------------------------------------------
    @abstractmethod
    def parse_options(self, args: list[str]) -> Setup:
        """`/<game> start 3 4 5 max=3` -> Setup; raises Refusal for bad options."""

    @abstractmethod
    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> S:
        """A fresh game; every random choice comes from `seed`."""

    # --- playing -----------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat to move, or None when the game is over."""

    @abstractmethod
    def parse_move(self, state: S, seat: int, text: str) -> M:
        """Read a move typed by `seat`; raises Refusal if it is unreadable or illegal."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every legal move of `seat` (empty when it is not that seat's turn)."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> S:
        """The state after `seat` plays `move`; raises Refusal if illegal. Does not change `state`."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    def forfeit(self, state: S, seats: int, seat: int, reason: Msg) -> Outcome:
        """The outcome when `seat` resigns or lets its time run out: by default it comes last
        and everyone else shares first place. Games with sides or rankings override this."""
        return Outcome(tuple(seats if s == seat else 1 for s in range(seats)), reason)

    @abstractmethod
    def move_text(self, state: S, move: M) -> str:
        """The move in the game's notation, as `parse_move` reads it back in `state`."""

    def describe(self, state: S, seat: int, move: M) -> Msg:
        """One sentence announcing `move` made in `state`; the host fills in `{name}`."""
        return Msg("host.moved", {"move": self.move_text(state, move)})

    def quick_moves(self, state: S, seat: int) -> list[tuple[Msg, str]]:
        """Moves worth a button for the seat to move: (label, move text). Bids, pass."""
        return []

    # --- showing -----------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON:
        """What `seat` may see (None: the public, every channel message). JSON data."""

    @abstractmethod
    def text(self, view: JSON) -> str:
        """A short plain-text board drawn from a view (the console prints it)."""

    def query(self, state: S, seat: int | None, name: str, args: list[str]) -> QueryAnswer:
        """Answer one of `queries`; raises Refusal for bad arguments."""
        raise Refusal("host.unknown_command", command=name)

    # --- storing -----------------------------------------------------------------
    @abstractmethod
    def to_json(self, state: S) -> JSON: ...

    @abstractmethod
    def from_json(self, data: JSON) -> S: ...

    # --- the AI ------------------------------------------------------------------
    @abstractmethod
    def ai(self, state: S, seat: int, level: str, budget: float, rng: random.Random) -> M:
        """A move for `seat` at `level`, thinking at most about `budget` seconds."""
