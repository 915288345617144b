"""Dou Dizhu (斗地主): the state and views (`state`), the rules (`rules`, `cards`), the AI (`ai`,
with `plan` and `solver`), the game (`game`); `players` holds two simple players to measure the AI against."""

from engines.doudizhu.game import DouDizhu
from engines.doudizhu.state import Move, State

__all__ = ["DouDizhu", "Move", "State"]
