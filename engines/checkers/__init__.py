"""Chinese Checkers (跳棋): the star board (`board.py`), how pieces move (`rules.py`), the state
and its views (`state.py`), the game (`game.py`), and the AI: `ai.py` (the entry point) on
`levels.py`, with the board it searches (`position.py`), its tree searches (`search.py`) and its
planners (`beam.py`)."""

from engines.checkers.game import Checkers
from engines.checkers.state import CheckersView, Move, State

__all__ = ["Checkers", "CheckersView", "Move", "State"]
