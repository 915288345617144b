"""Chinese Checkers puzzles: fill your goal in N moves, the other pieces staying where they are.

`fewest` is exact: an iterative-deepening search over every move of the seat's pieces, bounded
below by the goal's empty holes (a move fills at most one), with a table of the positions known
not to finish in so many moves. An answer is right when the goal can still be filled in the
moves left. `verify` asks that the fewest moves are the puzzle's N and that at most two first
moves keep it (near-unique: an order of two independent moves is no other idea).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engines.base import JSON, Msg, Translate, msg
from engines.checkers import board as B
from engines.checkers.game import Checkers
from engines.checkers.rules import reach
from engines.checkers.state import GOAL, GOAL_POINT, State, goal_filled
from engines.puzzles import GOOD, SOLVED, WRONG, Answer, Picture, Puzzles

MOST_FIRST = 2  # first moves that may keep the fewest
MOST_SLACK = 2  # moves a puzzle may spend beyond the goal's empty holes

_GAME = Checkers()


class Finder:
    """The fewest moves of `seat` to fill its goal on boards of `seats` players."""

    def __init__(self, seats: int, seat: int) -> None:
        self.seats, self.seat, self.mark = seats, seat, seat + 1
        self.goal = GOAL[seats][seat]
        self.holes = B.POINTS[GOAL_POINT[seats][seat]]
        self.failed: dict[tuple[int, ...], int] = {}  # board -> moves it cannot finish in
        self.nodes = 0

    def empty(self, board: Sequence[int]) -> int:
        return sum(1 for h in self.holes if not board[h])

    def moves(self, board: Sequence[int]) -> list[tuple[int, int]]:
        mark, goal = self.mark, self.goal
        found = [(h, to) for h in range(B.SIZE) if board[h] == mark for to in reach(board, h, goal)]
        found.sort(key=lambda m: (not goal[m[1]] or goal[m[0]], m))  # into the goal first
        return found

    def can(self, board: list[int], left: int) -> bool:
        """Whether the goal can be filled within `left` moves."""
        if goal_filled(board, self.seats, self.seat):
            return True
        need = self.empty(board)
        if need > left:
            return False
        key = tuple(board)
        if self.failed.get(key, -1) >= left:
            return False
        self.nodes += 1
        for start, to in self.moves(board):
            if need == left and (self.goal[start] or not self.goal[to]):
                continue  # no move to spare: each one must fill a hole of the goal
            board[start], board[to] = 0, self.mark
            won = self.can(board, left - 1)
            board[start], board[to] = self.mark, 0
            if won:
                return True
        self.failed[key] = left
        return False

    def fewest(self, board: Sequence[int], most: int) -> int | None:
        cells = list(board)
        for left in range(self.empty(cells), most + 1):
            if self.can(cells, left):
                return left
        return None

    def keeping(self, board: Sequence[int], left: int) -> list[tuple[int, int]]:
        """The moves after which the goal can still be filled in `left - 1` moves."""
        cells = list(board)
        out = []
        for start, to in self.moves(cells):
            cells[start], cells[to] = 0, self.mark
            if self.can(cells, left - 1):
                out.append((start, to))
            cells[start], cells[to] = self.mark, 0
        return out


def state_of(position: JSON) -> State:
    return _GAME.from_json(position["state"])


def _text(start: int, to: int) -> str:
    return f"{B.LABELS[start]} {B.LABELS[to]}"


class CheckersPuzzles(Puzzles):
    game = "checkers"

    def goal(self, puzzle: JSON) -> Msg:
        return msg("puzzle.checkers_goal", moves=puzzle["moves"])

    def start(self, puzzle: JSON) -> JSON:
        return {"state": puzzle["state"], "left": puzzle["moves"]}

    def answer(self, puzzle: JSON, position: JSON, text: str) -> Answer:
        state = state_of(position)
        seat = state.turn
        move = _GAME.parse_move(state, seat, text)
        finder = Finder(state.seats, seat)
        board = list(state.board)
        board[move.start], board[move.to] = 0, seat + 1
        left = position["left"] - 1
        if not finder.can(board, left):
            better = finder.keeping(state.board, position["left"])
            return Answer(WRONG, position, better=_text(*better[0]) if better else None)
        after = replace(_GAME.apply(state, seat, move), turn=seat)
        done = goal_filled(after.board, state.seats, seat)
        return Answer(SOLVED if done else GOOD, {"state": _GAME.to_json(after), "left": left})

    def solution(self, puzzle: JSON, position: JSON) -> list[str]:
        state = state_of(position)
        finder = Finder(state.seats, state.turn)
        board, left, line = list(state.board), position["left"], []
        while not goal_filled(board, state.seats, state.turn) and left > 0:
            start, to = finder.keeping(board, left)[0]
            line.append(_text(start, to))
            board[start], board[to] = 0, state.turn + 1
            left -= 1
        return line

    def picture(self, puzzle: JSON, position: JSON) -> Picture:
        state = state_of(position)
        done = goal_filled(state.board, state.seats, state.turn)
        return Picture(
            "checkers", dict(_GAME.view(state, None)), state.seats, (state.turn,), None if done else state.turn
        )

    def text(self, puzzle: JSON, position: JSON, tr: Translate) -> str:
        return _GAME.text(_GAME.view(state_of(position), None), tr)

    def verify(self, puzzle: JSON) -> bool:
        state = _GAME.from_json(puzzle["state"])
        if state.end:
            return False
        finder = Finder(state.seats, state.turn)
        n = puzzle["moves"]
        if finder.fewest(state.board, n) != n or n > finder.empty(state.board) + MOST_SLACK:
            return False
        return 1 <= len(finder.keeping(state.board, n)) <= MOST_FIRST
