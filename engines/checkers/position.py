"""The Chinese Checkers AI's board: a mutable copy of a state that the searches play moves on and take
back, with each seat's pieces, distance sum and a Zobrist hash kept up to date.

A move is `(start, to)`: the holes a piece leaves and lands on (the jumps between do not matter to
the search; `rules.shortest_path` finds them for the move played).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.checkers import board as B
from engines.checkers.state import GOAL, GOAL_POINT, State

Step = tuple[int, int]  # (start, to)


class Position:
    """A mutable copy of a state for searching: board, pieces per seat, distance sums, hash."""

    def __init__(self, state: State) -> None:
        n = state.seats
        self.n = n
        self.board = list(state.board)
        self.pieces = [[hole for hole in range(B.SIZE) if self.board[hole] == seat + 1] for seat in range(n)]
        self.goal = GOAL[n]
        self.dist = [B.TIP_DISTANCE[GOAL_POINT[n][seat]] for seat in range(n)]
        self.goal_holes = [B.POINTS[GOAL_POINT[n][seat]] for seat in range(n)]
        self.owner = [next((seat for seat in range(n) if self.goal[seat][hole]), -1) for hole in range(B.SIZE)]
        self.sum = [sum(self.dist[seat][hole] for hole in self.pieces[seat]) for seat in range(n)]
        self.side = [SIDEWAYS[GOAL_POINT[n][seat] % 3] for seat in range(n)]
        self.finished = set(state.finished)
        self.hash = 0
        for hole in range(B.SIZE):
            if self.board[hole]:
                self.hash ^= ZOBRIST[self.board[hole] - 1][hole]

    def moves(self, seat: int) -> list[Step]:
        """Every (start, destination) of `seat`; each destination once per piece."""
        board, goal, mark = self.board, self.goal[seat], seat + 1
        steps, jumps = B.STEPS, B.JUMPS
        out: list[Step] = []
        for start in self.pieces[seat]:
            board[start] = 0
            inside = goal[start]
            for next_hole in steps[start]:
                if not board[next_hole] and (not inside or goal[next_hole]):
                    out.append((start, next_hole))
            seen = {start}
            stack = [start]
            while stack:
                hole = stack.pop()
                in_goal = goal[hole]
                for over, land in jumps[hole]:
                    if board[over] and not board[land] and land not in seen and (not in_goal or goal[land]):
                        seen.add(land)
                        stack.append(land)
                        out.append((start, land))
            board[start] = mark
        return out

    def ordered(self, seat: int, first: Step | None = None) -> list[Step]:
        """Moves by gain toward the goal, then rear pieces first; `first` (the table's move) ahead of all."""
        dist = self.dist[seat]
        moves = self.moves(seat)
        # One int per move sorts without a key function: gain * 64 + distance, then the index (ties keep their order).
        codes = [((dist[start] - dist[to]) * 64 + dist[start]) << 14 | (16383 - i)
                 for i, (start, to) in enumerate(moves)]
        codes.sort(reverse=True)
        moves = [moves[16383 - (code & 16383)] for code in codes]
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def do(self, seat: int, start: int, to: int) -> None:
        self.board[start] = 0
        self.board[to] = seat + 1
        pieces = self.pieces[seat]
        pieces[pieces.index(start)] = to
        self.sum[seat] += self.dist[seat][to] - self.dist[seat][start]
        keys = ZOBRIST[seat]
        self.hash ^= keys[start] ^ keys[to]

    def undo(self, seat: int, start: int, to: int) -> None:
        self.board[to] = 0
        self.board[start] = seat + 1
        pieces = self.pieces[seat]
        pieces[pieces.index(to)] = start
        self.sum[seat] += self.dist[seat][start] - self.dist[seat][to]
        keys = ZOBRIST[seat]
        self.hash ^= keys[start] ^ keys[to]

    def filled(self, seat: int) -> bool:
        """Whether `seat` has finished: every hole of its goal taken, one of them by its own piece."""
        board, mark = self.board, seat + 1
        holes = self.goal_holes[seat]
        return all(board[hole] for hole in holes) and any(board[hole] == mark for hole in holes)

    def finisher(self, seat: int, to: int) -> int:
        """Who finishes because `seat` just landed on `to`: `seat`, the owner of that goal, or -1."""
        owner = self.owner[to]
        if owner >= 0 and owner not in self.finished and self.filled(owner):
            return owner
        return -1

    def cost(self, seat: int, straggle: float, lag: float, centre: float) -> float:
        """Distance to goal of `seat`, plus `straggle` for every step a piece is more than `lag` steps behind
        the average of its pieces, plus `centre` for every hole a piece is off its straight line to the goal."""
        dist = self.dist[seat]
        total: float = self.sum[seat]
        if straggle:
            limit = total / len(self.pieces[seat]) + lag
            total += straggle * sum(dist[hole] - limit for hole in self.pieces[seat] if dist[hole] > limit)
        if centre:
            side = self.side[seat]
            total += centre * sum(side[hole] for hole in self.pieces[seat])
        return total


def reach(dist: Sequence[int], start: int, to: int) -> int:
    """A greedy player's order of moves: farther toward the goal first; among equals, the rearmost piece."""
    return (dist[start] - dist[to]) * 64 + dist[start]


# SIDEWAYS[axis][hole]: how far the hole is from the line through the tips of points axis and axis + 3, in holes.
_SIDEWAYS = tuple(
    tuple(abs(x) / 2 for x in (q - s, r - s, q - r))[axis : axis + 1][0]
    for axis in range(3)
    for q, r in B.COORDS
    for s in (-q - r,)
)
SIDEWAYS = tuple(_SIDEWAYS[axis * B.SIZE : (axis + 1) * B.SIZE] for axis in range(3))

_rng = random.Random(20240517)
ZOBRIST = [[_rng.getrandbits(62) for _ in range(B.SIZE)] for _ in range(6)]  # per seat and hole
SIDE = [_rng.getrandbits(62) for _ in range(6)]  # per seat to move
