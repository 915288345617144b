"""Chinese Checkers (跳棋): the star board, the rules, the AI. See `game.py`."""

from engines.checkers.game import Checkers, Move, State

__all__ = ["Checkers", "Move", "State"]
