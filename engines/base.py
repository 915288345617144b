"""The contract every game implements. The host uses nothing else of a game.

A game is a stateless object; a *state* is an immutable value the game creates
and transforms. States and views are plain JSON-able data once passed through
`to_json` / `view`, so they can be stored, sent to a worker process and drawn.

Everything a user may read comes out of an engine as a `Msg` (a catalog key and
its parameters), never as an English sentence: the host translates it.

Who checks what: the host owns turns (it asks `to_move` before anything else);
`parse_move` owns legality (it refuses, with a reason, any move the rules do not
allow); `apply` trusts a move that `parse_move` or `legal_moves` produced.
`tests/engines/test_contract.py` checks every registered game against this page.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

JSON = Any
S = TypeVar("S")  # a game's state type
M = TypeVar("M")  # a game's move type
M_co = TypeVar("M_co", covariant=True)

MAX_DIGITS = 9  # no number a player types needs more


@dataclass(frozen=True)
class Msg:
    """A user-facing sentence: a translation key plus its parameters.

    Parameter values are str, int, float or nested `Msg` (translated too).
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"key": self.key, "params": {k: v.to_json() if isinstance(v, Msg) else v
                                            for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: JSON) -> Msg:
        return cls(data["key"], {k: cls.from_json(v) if isinstance(v, dict) and "key" in v else v
                                 for k, v in data["params"].items()})


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


# A reader's translator: a `Msg` (or a ready string) -> a sentence in their language.
Translate = Callable[["Msg | str"], str]


class Refusal(Exception):
    """The rules refuse a move or an option; `msg` says why in one sentence.

    In a game with hidden hands, what the game refuses a player may tell what their seat holds
    ("You have no second 7"): the host shows it to that player alone. A refusal that cannot tell
    it (raised before the rules look at the seat's hidden cards) is an `OpenRefusal`."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.msg = Msg(key, params)


class OpenRefusal(Refusal):
    """A refusal that tells nothing of what the refused seat holds, even in a game with hidden
    hands ("The bidding is over"): the host may show it where everyone reads."""


def read_number(text: str) -> int | None:
    """The one reader of numbers players type: ASCII decimal digits only, at most `MAX_DIGITS`.

    `str.isdigit` also accepts "²" and "①", which `int` refuses; the host normalises every
    input with NFKC first (full-width "２" becomes "2"), so what is left here is plain ASCII.
    None: not such a number."""
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


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

    def to_json(self) -> JSON:
        return {"ranks": list(self.ranks), "reason": self.reason.to_json(),
                "scores": list(self.scores) if self.scores is not None else None}

    @classmethod
    def from_json(cls, data: JSON) -> Outcome | None:
        if data is None:
            return None
        scores = tuple(data["scores"]) if data.get("scores") is not None else None
        return cls(tuple(data["ranks"]), Msg.from_json(data["reason"]), scores)


FLAG_WORDS = {"on": True, "yes": True, "true": True, "1": True, "off": False, "no": False, "false": False, "0": False}


@dataclass(frozen=True)
class Option:
    """One setting of `/<game> start ...`, declared once in `Game.options`: the default
    `Game.parse_options` reads it, and the help and Discord's slash commands are built from
    it. Its description is the catalog message `<game>.option_<name>`; each of its choices is
    labelled `<game>.option_<name>_<value>` (a yes/no option needs no labels).

    A player types `name=value`, or the value alone: a word among `choices`, one of
    `spellings`, or (when `bare`) a number. Numbers are `choices` when there are some, else
    any number in `low..high`. `many` > 0 makes a list of up to that many numbers (Nim's heaps
    `3 4 5`). `spellings` are other words for a value (`"misère": True`, `"15x15": 15`); `keys`
    other names before `=` (`bidding=call`). A value out of range is refused with the catalog
    message `refusal` (parameters `option`, `value`, `low`, `high`), else `<game>.bad_option`;
    one number too many with `<game>.too_many_<name>` (`most`)."""

    name: str
    choices: tuple[JSON, ...] = ()  # the allowed values; empty: any number in low..high
    low: int = 0
    high: int = 0
    many: int = 0
    default: JSON = None
    bare: bool = False  # a number may be typed without `name=`
    spellings: Mapping[str, JSON] = field(default_factory=dict)
    keys: tuple[str, ...] = ()
    refusal: str | None = None

    @property
    def flag(self) -> bool:
        """A yes/no option (Nim's `misere`)."""
        return self.choices == (False, True)

    @property
    def numeric(self) -> bool:
        return not self.choices or all(type(c) is int for c in self.choices)

    @property
    def words(self) -> tuple[str, ...]:
        """The words that choose a value when typed alone."""
        return (*(c for c in self.choices if isinstance(c, str)), *self.spellings)

    def read(self, word: str) -> JSON:
        """The value `word` stands for; raises ValueError."""
        if word in self.spellings:
            return self.spellings[word]
        if self.flag:
            if word in FLAG_WORDS:
                return FLAG_WORDS[word]
            raise ValueError(word)
        if not self.numeric:
            if word in self.choices:
                return word
            raise ValueError(word)
        number = read_number(word)
        if number is None or not (number in self.choices if self.choices else self.low <= number <= self.high):
            raise ValueError(word)
        return number


def read_options(game: str, options: tuple[Option, ...], args: list[str]) -> dict[str, JSON]:
    """`["3", "4", "max=2", "misere"]` -> `{"heaps": [3, 4], "max": 2, "misere": True}`, as
    `options` declare them (see `Option`); raises Refusal for anything else."""
    values: dict[str, JSON] = {o.name: [] if o.many else o.default for o in options}
    named = {key: o for o in options for key in (o.name, *o.keys)}
    for arg in args:
        word = arg.lower()
        key, eq, value = word.partition("=")
        if eq:
            option, word = named.get(key), value
        else:
            option = next((o for o in options if word in o.words), None) or next(
                (o for o in options if o.bare and read_number(word) is not None), None
            )
        if option is None:
            raise Refusal(f"{game}.bad_option", option=arg)
        try:
            found = option.read(word)
        except ValueError:
            raise Refusal(option.refusal or f"{game}.bad_option", option=arg, value=word, low=option.low,
                          high=option.high) from None
        if option.many:
            if len(values[option.name]) >= option.many:
                raise Refusal(f"{game}.too_many_{option.name}", most=option.many)
            values[option.name].append(found)
        else:
            values[option.name] = found
    return {name: (value or None) if isinstance(value, list) else value for name, value in values.items()}


@dataclass(frozen=True)
class Setup:
    """What `parse_options` makes of `/<game> start ...`: JSON options and the seat count."""

    options: dict[str, JSON]
    seats: int


class Overlay(TypedDict, total=False):
    """A game's extras for one picture, from `Game.query` to its renderer (each reads its own keys)."""

    numbers: bool  # Gomoku: the move numbers on the stones
    piece: str  # Chinese Checkers: the piece whose destinations are marked
    marks: list[str]  # Chinese Checkers: those destinations
    path: list[str]  # Chinese Checkers: a path from its start to its end


@dataclass(frozen=True)
class QueryAnswer:
    """The answer to a game-specific read-only command (`/moves c4`, `/path c4 g8`).

    `overlay` is passed to the renderer with the public view (marks, paths)."""

    text: Msg
    overlay: Overlay | None = None


@dataclass(frozen=True)
class Limit:
    """How much an AI may think about one move.

    `work` counts the engine's own unit of thinking: search nodes (Gomoku, Chinese Checkers),
    sampled deals and playouts (Dou Dizhu). A level is defined by its work, so the same level
    plays the same move on an idle machine and on a busy one. `seconds` is a ceiling on the thinking
    thread's CPU time that a core never reaches at that work: only a safety net for a stalled host (the
    wall clock is a far backstop, `engines.budget.BACKSTOP` times it)."""

    work: int
    seconds: float

    def scaled(self, factor: float) -> Limit:
        return Limit(max(1, round(self.work * factor)), self.seconds)


class AIInfo(TypedDict, total=False):
    """What an AI says about one move it chose (every field optional)."""

    work: int  # units of work spent (see `Limit.work`)
    depth: int  # deepest completed search, in plies
    score: float  # the engine's own evaluation of the move, from the mover's side
    reason: str  # why it stopped early or chose without searching: "forced", "win", "seconds", ...
    seconds: float  # wall time taken (filled in by `engines.think`)
    cpu: float  # CPU time of the thinking process (filled in by `engines.think`)
    pid: int  # the thinking process (filled in by `engines.think`): not the host's, with worker processes


@dataclass(frozen=True)
class AIResult(Generic[M_co]):
    """A move an AI chose, with what it says about it."""

    move: M_co
    info: AIInfo = field(default_factory=lambda: AIInfo())


class Game(ABC, Generic[S, M]):
    """One game's rules. Pure: no I/O, no clocks, no global randomness."""

    name: ClassVar[str]  # the command word: /nim, /gomoku
    aliases: ClassVar[tuple[str, ...]] = ()  # other command words: /ddz
    seat_counts: ClassVar[tuple[int, ...]]  # allowed numbers of seats
    # The settings of `/<game> start`; `seats_option` names the one that is the number of seats.
    options: ClassVar[tuple[Option, ...]] = ()
    seats_option: ClassVar[str | None] = None
    levels: ClassVar[dict[str, Limit]]  # AI levels, weakest first, each with the work it thinks for
    default_level: ClassVar[str]
    offers: ClassVar[frozenset[str]] = frozenset({"undo", "restart"})  # consent offers: undo, draw, restart
    queries: ClassVar[tuple[str, ...]] = ()  # extra read-only commands, answered by `query`
    hidden_hands: ClassVar[bool] = False  # seat views hold what the public view does not
    hint_level: ClassVar[str | None] = None  # level of /hint; None: no hints
    # Command words that are moves: /take 2 3 -> parse_move("2 3"); /bid 2 -> "bid 2".
    move_words: ClassVar[dict[str, str]] = {}

    # --- setting up ---------------------------------------------------------------
    def parse_options(self, args: list[str]) -> Setup:
        """`/<game> start 3 4 5 max=3` -> Setup, read by `options`; raises Refusal for bad options."""
        values = read_options(self.name, self.options, args)
        seats = values.pop(self.seats_option) if self.seats_option else None
        return Setup(values, seats or self.seat_counts[0])

    @abstractmethod
    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> S:
        """A fresh game; every random choice comes from `seed`."""

    # --- playing -----------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat to move, or None when the game is over."""

    @abstractmethod
    def parse_move(self, state: S, seat: int, text: str) -> M:
        """Read a move typed by `seat`, the seat to move; raises Refusal if it is unreadable or
        illegal. The owner of legality: what it returns, `apply` plays without checking."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every legal move of `seat` (empty when it is not that seat's turn)."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> S:
        """The state after `seat` plays `move`, a move `parse_move` or `legal_moves` gave.
        Does not change `state`."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    def forfeit(self, state: S, seats: int, seat: int, reason: Msg) -> Outcome:
        """The outcome when `seat` resigns or lets its time run out: by default it comes last
        and everyone else shares first place. Games with sides or rankings override this."""
        return Outcome(tuple(seats if s == seat else 1 for s in range(seats)), reason)

    def roles(self, state: S) -> tuple[str, ...] | None:
        """Each seat's role where the game gives seats unequal parts (Dou Dizhu: one landlord,
        two farmers), else None. Ratings compare the sides by their average and learn each
        role's own edge, so whoever is dealt the harder part is not marked down for it."""
        return None

    @abstractmethod
    def move_text(self, state: S, move: M) -> str:
        """The move in the game's notation, as `parse_move` reads it back in `state`."""

    def move_name(self, state: S, move: M) -> Msg | str:
        """`move` (made in `state`) as a player reads it, in their language: by default its notation
        (`move_text`, the same in every language: `h8`, `3 3 4`); a game whose notation has words
        names it in the catalog (Dou Dizhu's `bid 1` reads 叫1分 in Chinese), as `parse_move` reads
        it back too."""
        return self.move_text(state, move)

    def describe(self, state: S, seat: int, move: M) -> Msg:
        """One sentence announcing `move` made in `state`; the host fills in `{name}`."""
        return Msg("host.moved", {"move": self.move_name(state, move)})

    def prompt(self, state: S, seat: int) -> Msg | None:
        """What `seat`, the seat to move, is asked to do, in one sentence (the host fills in `{name}`),
        where the rules ask more than a move (an opening's choice of colours); None: "{name}, your move"."""
        return None

    def quick_moves(self, state: S, seat: int) -> list[tuple[Msg, str]]:
        """Moves worth a button for the seat to move: (label, move text). Bids, pass."""
        return []

    # --- showing -----------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON:
        """What `seat` may see (None: the public, every channel message). JSON data."""

    @abstractmethod
    def text(self, view: JSON, tr: Translate) -> str:
        """A short plain-text board drawn from a view (the console prints it); its words come
        from the catalog through `tr`, the reader's translator."""

    def private_lines(self, state: S, seat: int, tr: Translate) -> list[str]:
        """What only `seat` may see, as short lines of text (a hidden hand); empty in open games."""
        return []

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
    def ai(self, state: S, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[M]:
        """A legal move for `seat`, the seat to move, at `level`, thinking within `limit`;
        every random choice comes from `rng`, so the same call gives the same move."""
