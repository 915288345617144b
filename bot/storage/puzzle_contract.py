"""The storage contract's puzzle part: attempts at puzzles (`bot.puzzles`) and their ratings.

An attempt is one person solving one puzzle in one channel (in a private chat: with the bot), kept
as a row from the first picture to the last answer, so a restart resumes it: its `position` is where
the puzzle stands, `version` grows with every save, and a save that does not find the version it
read changes nothing (`Conflict`). One open attempt per person and channel (the database says so).
When an attempt that counts (`rated`) ends, the player's and the puzzle's ratings change in the same
transaction: a solved puzzle is a win against it, a failed one a loss.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.ratings import Skill

OPEN, SOLVED, FAILED = "open", "solved", "failed"


@dataclass
class Attempt:
    channel: str
    user_id: str
    name: str
    puzzle: str  # "<game>:<number>"
    position: Any  # JSON: where the puzzle stands
    started_at: float
    daily: str | None = None  # the day ("2026-11-28") of a daily puzzle
    status: str = OPEN  # OPEN, SOLVED or FAILED
    aided: bool = False  # a hint was shown: the attempt no longer counts
    rated: bool = True  # the attempt counts for the ratings (the person's first at this puzzle, unaided)
    version: int = 0
    finished_at: float | None = None
    id: int | None = None


@dataclass(frozen=True)
class PuzzleSkill:
    """A rated player's or puzzle's rating, and how many attempts it counts."""

    skill: Skill
    solved: int = 0
    tried: int = 0
    name: str = ""


class PuzzleStore(ABC):
    @abstractmethod
    async def puzzle_attempt(self, channel: str, user_id: str) -> Attempt | None:
        """`user_id`'s open attempt in `channel`, if any."""

    @abstractmethod
    async def puzzle_begin(self, attempt: Attempt, prior: Skill) -> Attempt:
        """Write a new open attempt (its id and version 1 filled in); `prior` is the puzzle's rating
        if it has none yet. `Conflict` if the person already has one open there."""

    @abstractmethod
    async def puzzle_save(self, attempt: Attempt) -> dict[str, tuple[Skill, Skill]]:
        """Write the attempt at its next version (`Conflict` if it changed since it was read). An
        attempt that ends now and counts rates the player and the puzzle: returns who moved from
        what to what ({user_id: (before, after), puzzle: (before, after)}; empty otherwise)."""

    @abstractmethod
    async def puzzles_tried(self, user_id: str) -> set[str]:
        """The puzzles `user_id` has attempted."""

    @abstractmethod
    async def puzzle_skills(self, puzzles: Sequence[str]) -> dict[str, PuzzleSkill]:
        """The ratings of those puzzles that have one."""

    @abstractmethod
    async def puzzle_player(self, user_id: str) -> PuzzleSkill | None:
        """`user_id`'s puzzle rating, None before their first attempt that counted."""

    @abstractmethod
    async def puzzle_leaderboard(self, limit: int = 10) -> list[tuple[str, PuzzleSkill]]:
        """The best puzzle solvers (by conservative rating), as (user_id, rating)."""
