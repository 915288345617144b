"""The state of a Chinese Checkers game, its moves, its views, and the sums the rules and the AI share.

A board is a tuple of 121 ints indexed by hole id (see `board.py`): 0 for an empty
hole, seat + 1 for a piece of that seat. Seats sit on the points of the star listed
in `board.SEAT_POINTS` and head for the opposite points, their goals.

A piece's distance is its number of steps to the far tip of its goal point; a
player's distance is the sum over their pieces minus 20, which is 0 exactly when
their ten pieces fill the goal point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from engines.checkers import board as B
from engines.checkers.rules import reach

ROUNDS = 200  # the game ends after this many turns of every player still playing
STALL_ROUNDS = 30  # ... or after this many rounds in which nobody got nearer their goal than ever before
PIECES = 10

# GOAL_POINT[seats][seat]: the point of the star that seat heads for.
GOAL_POINT: dict[int, tuple[int, ...]] = {n: tuple(B.opposite(p) for p in pts) for n, pts in B.SEAT_POINTS.items()}
# GOAL[seats][seat]: 121 bools, true on the holes of that seat's goal point.
GOAL: dict[int, tuple[tuple[bool, ...], ...]] = {
    n: tuple(tuple(B.POINT_OF[h] == g for h in range(B.SIZE)) for g in goals) for n, goals in GOAL_POINT.items()
}


@dataclass(frozen=True)
class Move:
    path: tuple[int, ...]  # hole ids: the start, then every landing

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def to(self) -> int:
        return self.path[-1]

    @property
    def jumps(self) -> int:
        """How many jumps (0 for a step)."""
        return 0 if (self.path[0], self.path[1]) in B.ADJACENT else len(self.path) - 1


@dataclass(frozen=True)
class State:
    seats: int
    board: tuple[int, ...]  # 0: empty, seat + 1: that seat's piece
    turn: int  # the seat to move (meaningless once `end` is set)
    turns: tuple[int, ...]  # turns each seat has had (a pass counts)
    best: tuple[int, ...]  # each seat's lowest distance to goal so far
    idle: int = 0  # turns in a row in which nobody reached a new lowest distance
    finished: tuple[int, ...] = ()  # seats in the order they filled their goal
    last: tuple[int, ...] = ()  # path of the last move
    last_seat: int | None = None
    end: str | None = None  # None while playing, else "goal", "rounds", "stalled" or "stuck"


class LastMoveView(TypedDict):
    seat: int  # who moved
    path: list[str]  # the labels of the start and of every landing


class CheckersView(TypedDict):
    """What everyone sees (the game hides nothing, so every seat sees the same)."""

    seats: int
    points: list[int]  # the point of the star each seat starts on
    board: str  # one digit per hole id: "0" empty, else seat + 1
    turn: int  # the seat to move (meaningless once `end` is set)
    round: int  # the round being played (the last one, once the game is over)
    idle: int  # turns in a row without anybody getting nearer their goal than ever before
    finished: list[int]  # seats in the order they filled their goal
    distance: list[int]  # each seat's distance to goal (0: goal filled)
    last: LastMoveView | None
    end: str | None  # None while playing, else "goal", "rounds", "stalled" or "stuck"


def distance(board: Sequence[int], seats: int, seat: int) -> int:
    """Total steps of `seat`'s pieces to the far tip of its goal point, minus 20 (0 = goal filled)."""
    table = B.TIP_DISTANCE[GOAL_POINT[seats][seat]]
    mark = seat + 1
    return sum(table[h] for h in range(B.SIZE) if board[h] == mark) - B.FULL


def goal_filled(board: Sequence[int], seats: int, seat: int) -> bool:
    """Every hole of the goal point occupied, at least one of them by `seat` (the anti-blocking rule)."""
    holes = B.POINTS[GOAL_POINT[seats][seat]]
    return all(board[h] for h in holes) and any(board[h] == seat + 1 for h in holes)


def start_board(seats: int) -> tuple[int, ...]:
    board = [0] * B.SIZE
    for seat, point in enumerate(B.SEAT_POINTS[seats]):
        for h in B.POINTS[point]:
            board[h] = seat + 1
    return tuple(board)


def can_move(board: Sequence[int], seats: int, seat: int) -> bool:
    goal = GOAL[seats][seat]
    mark = seat + 1
    return any(board[h] == mark and reach(board, h, goal) for h in range(B.SIZE))


def active(state: State) -> list[int]:
    """The seats that have not finished."""
    return [s for s in range(state.seats) if s not in state.finished]
