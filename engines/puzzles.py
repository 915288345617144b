"""Puzzles: positions from play with a forced win, and the checker of each answer.

A puzzle is JSON data made ahead of time by `bench.puzzles` (Nim's are made on the spot): a game
position with one side to play and win, verified by the game's exact solver or forced-win search.
Solving it is a sequence of answers: each one the player types is checked against that search (the
win must still hold after it), and the defence replies with a move of its own, until the win is
complete or an answer lets it go. `position` is where a puzzle being solved stands, plain JSON, so
it is kept in a row between two answers.

Each game's `Puzzles` lives beside its rules (`engines/<game>/puzzles.py`, `engines/nim_puzzles.py`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Final, Literal

from engines.base import JSON, Msg, Translate

GOOD: Final = "good"
SOLVED: Final = "solved"
WRONG: Final = "wrong"

KINDS = {
    "gomoku": "engines.gomoku.puzzles:GomokuPuzzles",
    "doudizhu": "engines.doudizhu.puzzles:DdzPuzzles",
    "checkers": "engines.checkers.puzzles:CheckersPuzzles",
    "nim": "engines.nim_puzzles:NimPuzzles",
}


@dataclass(frozen=True)
class Answer:
    """What an answer did: `verdict` GOOD (the win holds, the puzzle goes on), SOLVED or WRONG;
    `position` after it and the defence's reply (unchanged when WRONG); `reply` the defence's move
    in the game's notation, if it made one; `better` a move that kept the win, when WRONG."""

    verdict: Literal["good", "solved", "wrong"]
    position: JSON
    reply: str | None = None
    better: str | None = None


@dataclass(frozen=True)
class Picture:
    """What to draw: a renderer's name (`render.draw`) and its view; the game's seats, the player's
    among them and the seat to move (None once solved)."""

    renderer: str
    view: JSON
    seats: int
    mine: tuple[int, ...]
    to_move: int | None


class Puzzles(ABC):
    """One game's puzzles."""

    game: str

    @abstractmethod
    def goal(self, puzzle: JSON) -> Msg:
        """The task in one sentence ("Black to play and win with fours")."""

    @abstractmethod
    def start(self, puzzle: JSON) -> JSON:
        """The position the player starts from."""

    @abstractmethod
    def answer(self, puzzle: JSON, position: JSON, text: str) -> Answer:
        """Check the move `text`; raises `Refusal` when it is unreadable or illegal (nothing changes)."""

    @abstractmethod
    def solution(self, puzzle: JSON, position: JSON) -> list[str]:
        """A winning line from `position`, the player's moves and the defence's, in notation."""

    @abstractmethod
    def picture(self, puzzle: JSON, position: JSON) -> Picture:
        """The position as a renderer draws it."""

    @abstractmethod
    def text(self, puzzle: JSON, position: JSON, tr: Translate) -> str:
        """The position as plain text (where no picture can be sent)."""

    @abstractmethod
    def verify(self, puzzle: JSON) -> bool:
        """Check the puzzle again with the exact search: the win is there and the first move unique."""


@cache
def puzzles_of(game: str) -> Puzzles:
    module, _, cls = KINDS[game].partition(":")
    kind: Puzzles = getattr(import_module(module), cls)()
    return kind
