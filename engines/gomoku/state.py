"""What a gomoku game is at one moment, and the view of it that pictures, text boards and the AI read."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple, NotRequired, TypedDict

from engines.gomoku.board import BLACK, WHITE, point_name

# freestyle: five or more wins; standard: exactly five wins (for both colours); renju: black must make
# exactly five and may not make a double three, a double four or an overline; white wins with five or more.
RULES = ("freestyle", "standard", "renju")
# free: black (seat 0) moves first; swap2: the first player places three stones, the second chooses a
# colour or places two more and lets the first choose (see `opening.py`).
OPENINGS = ("free", "swap2")


class Point(NamedTuple):
    col: int  # 0 = column a
    row: int  # 0 = row 1 (the bottom row)

    @property
    def name(self) -> str:
        return point_name(self.col, self.row)


Move = Point | str  # a stone, or a swap2 choice: "black", "white", "more"


@dataclass(frozen=True)
class State:
    size: int
    rule: str
    moves: tuple[Point, ...]  # in the order played; black played the even ones
    board: tuple[int, ...]  # size * size, row-major from the bottom row: 0 empty, 1 black, 2 white
    win_line: tuple[Point, ...] = ()  # the winning five (or more), once someone has made it
    opening: str = "free"  # one of OPENINGS
    choices: tuple[str, ...] = ()  # swap2: the colour choices made so far ("black", "white", "more")

    @property
    def turn(self) -> int:
        """The colour to place the next stone: 0 black, 1 white (which seat that is: `opening.seat_to_move`)."""
        return len(self.moves) % 2

    @property
    def over(self) -> bool:
        return bool(self.win_line) or len(self.moves) == self.size * self.size

    def at(self, point: Point) -> int:
        return self.board[point.row * self.size + point.col]

    def placed(self, point: Point) -> State:
        """A stone of the colour to move on `point` (the winning line, if any, is the game's to find)."""
        board = list(self.board)
        board[point.row * self.size + point.col] = BLACK if self.turn == 0 else WHITE
        return replace(self, moves=(*self.moves, point), board=tuple(board))


class GomokuView(TypedDict):
    """The board as everyone sees it (gomoku hides nothing: every seat gets this view).
    Points are `[col, row]` pairs, 0-based from the bottom left."""

    size: int
    rule: str  # one of RULES
    moves: list[list[int]]  # every stone in the order played; black's are the even ones
    last: list[int] | None  # the stone just played
    win_line: list[list[int]]  # the winning five (or more), left to right; empty while the game goes on
    forbidden: list[list[int]]  # renju: the points black may not play now
    # swap2 only: the stage of the opening (see `opening.py`) and the seat that plays black (None until chosen)
    opening: NotRequired[str]
    phase: NotRequired[str]
    black_seat: NotRequired[int | None]
