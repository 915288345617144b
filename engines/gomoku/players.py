"""Players that only benchmarks and tests use, beside the game's levels.

- `oneply`: score every empty point by the patterns a stone there makes for
  both sides and play the best (it always makes five and blocks a four); a
  fixed yardstick the levels are measured against.
- a level with some fields changed, written `hard:width=12,w_self=120`, for
  tuning (see `levels.Level` for the fields).

`move(state, seat, name, limit, rng)` plays any of them, or a level by name.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engines.base import AIInfo, AIResult, Limit
from engines.budget import Clock
from engines.gomoku.ai import choose, one_ply, position_of
from engines.gomoku.board import BLACK, WHITE
from engines.gomoku.levels import LEVELS, Level
from engines.gomoku.state import Point, State


def tuned(name: str) -> Level:
    """`hard:width=12,w_self=120` -> the hard level with those fields changed."""
    base, _, extra = name.partition(":")
    level = LEVELS[base]
    changes: dict[str, Any] = {}  # the field types vary: bool, int, float
    for item in filter(None, extra.split(",")):
        key, _, value = item.partition("=")
        kind = type(getattr(level, key))
        changes[key] = value.lower() in ("1", "true", "yes") if kind is bool else kind(value)
    return replace(level, **changes)


def oneply(state: State, seat: int, rng: random.Random) -> AIResult[Point]:
    if not state.moves:
        return AIResult(Point(state.size // 2, state.size // 2), AIInfo(work=0, reason="opening"))
    pos = position_of(state)
    p = one_ply(pos, BLACK if seat == 0 else WHITE, rng)
    return AIResult(Point(*pos.geo.colrow(p)), AIInfo(work=len(pos.cand)))


def move(state: State, seat: int, name: str, limit: Limit, rng: random.Random,
         clock: Clock | None = None) -> AIResult[Point]:
    """The move of the player `name`: "oneply", a level ("hard"), or a tuned level ("hard:width=12")."""
    if name == "oneply":
        return oneply(state, seat, rng)
    return choose(state, seat, tuned(name) if ":" in name else name, limit, rng, clock)
