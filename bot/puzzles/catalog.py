"""The puzzles there are: the shipped ones (`data/<game>.json`, made by `bench.puzzles`) and Nim's,
made on the spot. A puzzle's id is `<game>:<number>`. Which one a person gets: the daily puzzle
of a day (the same for everyone), or one they have not tried whose rating is near theirs."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from bot.rating_model import Skill
from engines.base import JSON
from engines.nim_puzzles import COUNT, make

DATA = Path(__file__).parent / "data"
GAMES = ("gomoku", "doudizhu", "checkers", "nim")
NEAREST = 5  # a new puzzle is drawn among the untried ones this near the player's rating


@cache
def shipped(game: str) -> tuple[JSON, ...]:
    if game == "nim":
        return tuple(make(n) for n in range(COUNT))
    path = DATA / f"{game}.json"
    return tuple(json.loads(path.read_text())) if path.exists() else ()


def ids(game: str) -> list[str]:
    return [f"{game}:{n}" for n in range(len(shipped(game)))]


def find(puzzle_id: str) -> tuple[str, JSON] | None:
    """The game and data of a puzzle id, None if there is no such puzzle."""
    game, _, number = puzzle_id.partition(":")
    if game not in GAMES or not number.isdigit() or int(number) >= len(shipped(game)):
        return None
    return game, shipped(game)[int(number)]


def prior(puzzle_id: str) -> Skill:
    """A puzzle's rating before anyone tried it: the longer its win, the harder it is taken to be."""
    game, data = find(puzzle_id) or ("", {})
    if game == "gomoku":
        return Skill(21.0 + 2.0 * data["fours"])
    if game == "checkers":
        return Skill(17.0 + 2.0 * data["moves"])
    if game == "doudizhu":
        return Skill(20.0 + sum(map(len, data["state"]["hands"])) / 4)
    if game == "nim":
        return Skill(19.0 + (3.0 if data["misere"] else 2.0 if data["max"] else 0.0))
    return Skill()


def daily(day: str) -> str:
    """The puzzle of `day` ("2026-11-28"): the games in turn, a puzzle drawn from the day's hash."""
    number = int.from_bytes(hashlib.sha256(day.encode()).digest()[:8], "big")
    game = [g for g in GAMES if shipped(g)][number % len(GAMES)] if all(shipped(g) for g in GAMES) else "nim"
    return f"{game}:{(number // len(GAMES)) % len(shipped(game))}"


def pick(game: str, tried: set[str], skills: Mapping[str, Skill], rating: float, rng: random.Random) -> str:
    """One of `game`'s puzzles for a player rated `rating`: untried if any, among the `NEAREST` nearest in
    rating (`skills`: the rated ones; the others by their prior)."""
    every = ids(game)
    fresh = [p for p in every if p not in tried] or every
    near = sorted(fresh, key=lambda p: (abs((skills.get(p) or prior(p)).mu - rating), p))[:NEAREST]
    return rng.choice(near)
