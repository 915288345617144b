"""Dou Dizhu (斗地主): the state and views (`state`), the rules (`rules`, `cards`), the game (`game`), and
the AI: `ai` (the entry point) on `levels`, `knowledge` (what a seat knows, the worlds of the unseen
cards), `plan` (a hand's best split), `bidding`, `heuristics` (normal's scores), `policies` (the fast
policies), `playouts`, `endgame` with `solver`; `players` holds two simple players to measure the AI
against."""

from engines.doudizhu.game import DouDizhu
from engines.doudizhu.state import Move, State

__all__ = ["DouDizhu", "Move", "State"]
