"""Chinese Checkers (跳棋): the star board (`board.py`), how pieces move (`rules.py`), the state
and its views (`state.py`), the AI (`ai.py`) and the game (`game.py`)."""

from engines.checkers.game import Checkers
from engines.checkers.state import CheckersView, Move, State

__all__ = ["Checkers", "CheckersView", "Move", "State"]
