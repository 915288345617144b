"""The games, by name, and the AI entry point that runs in worker processes."""

from __future__ import annotations

import random
from functools import cache
from importlib import import_module

from engines.base import JSON, Game

# name -> "module:Class"; a game is loaded the first time it is asked for.
REGISTRY = {
    "nim": "engines.nim:Nim",
    "gomoku": "engines.gomoku:Gomoku",
    "doudizhu": "engines.doudizhu:DouDizhu",
    "checkers": "engines.checkers:Checkers",
}


@cache
def get(name: str) -> Game:
    module, _, cls = REGISTRY[name].partition(":")
    return getattr(import_module(module), cls)()


def all_games() -> dict[str, Game]:
    return {name: get(name) for name in REGISTRY}


def load_all() -> list[str]:
    """Import every game (a worker process calls this once, to be ready for its first move)."""
    return list(all_games())


def think(game: str, state: JSON, seat: int, level: str, budget: float, seed: int) -> str:
    """The AI's move as text. Top-level and JSON in, text out, so it runs in a process pool."""
    g = get(game)
    s = g.from_json(state)
    return g.move_text(s, g.ai(s, seat, level, budget, random.Random(seed)))
