"""The games, by name, and the AI entry point that runs in worker processes."""

from __future__ import annotations

import gc
import multiprocessing
import os
import random
import time
from functools import cache
from importlib import import_module
from typing import Any

from engines.base import JSON, AIInfo, Game, Limit

# name -> "module:Class"; a game is loaded the first time it is asked for.
REGISTRY = {
    "nim": "engines.nim:Nim",
    "gomoku": "engines.gomoku:Gomoku",
    "doudizhu": "engines.doudizhu:DouDizhu",
    "checkers": "engines.checkers:Checkers",
}


@cache
def get(name: str) -> Game[Any, Any]:
    module, _, cls = REGISTRY[name].partition(":")
    game: Game[Any, Any] = getattr(import_module(module), cls)()
    return game


def all_games() -> dict[str, Game[Any, Any]]:
    return {name: get(name) for name in REGISTRY}


def load_all() -> list[str]:
    """Import every game and run its `warm_up` if it has one (a worker process calls this once, to be
    ready for its first move)."""
    games = all_games()
    for game in games.values():
        warm_up = getattr(game, "warm_up", None)
        if warm_up is not None:
            warm_up()
    return list(games)


def think(game: str, state: JSON, seat: int, level: str, seed: int, limit: Limit | None = None) -> tuple[str, AIInfo]:
    """The AI's move as text, and what it says about it. Top-level, JSON in and text out, so it
    runs in a process pool. `limit`: the level's own unless given."""
    g = get(game)
    s = g.from_json(state)
    started, cpu = time.perf_counter(), time.process_time()
    result = g.ai(s, seat, level, limit or g.levels[level], random.Random(seed))
    info = AIInfo(**result.info)
    info["seconds"], info["cpu"] = time.perf_counter() - started, time.process_time() - cpu
    info["pid"] = os.getpid()
    if multiprocessing.parent_process() is not None:  # a worker process, not the host's thread
        settle()
    return g.move_text(s, result.move), info


def settle() -> None:
    """After a move, in a process that only thinks: collect what the move left, then freeze what
    survived (the AIs' caches: the Dou Dizhu solver's moves and hands' splits, hundreds of
    thousands of objects) out of the garbage collector's way. Otherwise every full collection
    walks them all, in the middle of a move (docs/benchmarks.md has the figures). The collection
    here walks only what is not frozen yet, and what the caches drop later is freed by its
    reference count (they hold no cycles)."""
    gc.collect()
    gc.freeze()
