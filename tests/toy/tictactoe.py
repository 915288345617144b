"""Tic-tac-toe: X (seat 0) and O (seat 1) take turns on a 3x3 grid, X first unless the table
says `first=o`; three in a row wins, a full grid without one is a draw. Squares are named a1
(bottom left) to c3 (top right).

The bot: `easy` plays a random square; `hard` wins when it can, blocks when it must, else takes
the centre, a corner, a side. Its work is the squares it looks at.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TypedDict

from engines.base import JSON, AIResult, Game, Limit, Option, Outcome, Refusal, Translate, msg

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
MARKS = "XO"


class TicTacToeView(TypedDict):
    cells: list[str]  # "X", "O" or "" for each square, a1 b1 c1 a2 ... c3
    last: int | None
    line: list[int]  # the winning three, if any


@dataclass(frozen=True)
class State:
    cells: tuple[str, ...]
    last: int | None = None
    first: int = 0  # the seat that moved first

    @property
    def turn(self) -> int:
        return (self.first + sum(1 for c in self.cells if c)) % 2


def name(square: int) -> str:
    return "abc"[square % 3] + str(square // 3 + 1)


def winning_line(cells: tuple[str, ...]) -> tuple[int, int, int] | None:
    return next((line for line in LINES if cells[line[0]] and len({cells[i] for i in line}) == 1), None)


class TicTacToe(Game[State, int]):
    name = "tictactoe"
    aliases = ("ttt",)
    seat_counts = (2,)
    options = (Option("first", choices=("x", "o"), default="x"),)
    levels = {"easy": Limit(9, 1.0), "hard": Limit(9 * 9, 1.0)}
    default_level = "hard"
    hint_level = "hard"
    offers = frozenset({"undo", "draw", "restart"})
    move_words = {"mark": ""}  # /mark b2, and in Chinese its catalog's word: /画 b2

    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> State:
        return State(("",) * 9, first=MARKS.lower().index(options.get("first") or "x"))

    def to_move(self, state: State) -> int | None:
        return None if self.outcome(state) is not None else state.turn

    def parse_move(self, state: State, seat: int, text: str) -> int:
        m = re.fullmatch(r"\s*([abc])\s*([123])\s*", text.lower())
        if m is None:
            raise Refusal("tictactoe.how_to_move")
        square = "abc".index(m[1]) + 3 * (int(m[2]) - 1)
        if state.cells[square]:
            raise Refusal("tictactoe.taken", square=name(square))
        return square

    def legal_moves(self, state: State, seat: int) -> list[int]:
        if self.to_move(state) != seat:
            return []
        return [i for i, c in enumerate(state.cells) if not c]

    def apply(self, state: State, seat: int, move: int) -> State:
        cells = list(state.cells)
        cells[move] = MARKS[seat]
        return State(tuple(cells), move, state.first)

    def outcome(self, state: State) -> Outcome | None:
        line = winning_line(state.cells)
        if line is not None:
            winner = MARKS.index(state.cells[line[0]])
            return Outcome((1, 2) if winner == 0 else (2, 1), msg("tictactoe.three"))
        if all(state.cells):
            return Outcome((1, 1), msg("tictactoe.full"))
        return None

    def move_text(self, state: State, move: int) -> str:
        return name(move)

    def view(self, state: State, seat: int | None) -> TicTacToeView:
        return {"cells": list(state.cells), "last": state.last, "line": list(winning_line(state.cells) or ())}

    def text(self, view: JSON, tr: Translate) -> str:
        rows = []
        for r in (2, 1, 0):
            rows.append(f"{r + 1} " + " ".join(view["cells"][3 * r + c] or "·" for c in range(3)))
        return "\n".join([*rows, "  a b c"])

    def to_json(self, state: State) -> JSON:
        return {"cells": list(state.cells), "last": state.last, "first": state.first}

    def from_json(self, data: JSON) -> State:
        return State(tuple(data["cells"]), data["last"], data["first"])

    def ai(self, state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[int]:
        free = self.legal_moves(state, seat)
        if level == "easy":
            return AIResult(rng.choice(free), {"work": len(free)})
        work = 0
        for mark in (MARKS[seat], MARKS[1 - seat]):  # win, else block
            for square in free:
                work += 1
                cells = list(state.cells)
                cells[square] = mark
                if winning_line(tuple(cells)):
                    return AIResult(square, {"work": work, "reason": "win" if mark == MARKS[seat] else "block"})
        for preferred in ([4], [0, 2, 6, 8], [1, 3, 5, 7]):
            choice = [s for s in preferred if s in free]
            if choice:
                return AIResult(rng.choice(choice), {"work": work + len(free)})
        raise AssertionError("a game that is not over has a free square")
