"""Dou Dizhu (斗地主): the engine (`game`), the rules (`rules`), the AI (`ai`)."""

from engines.doudizhu.game import DouDizhu, Move, State

__all__ = ["DouDizhu", "Move", "State"]
