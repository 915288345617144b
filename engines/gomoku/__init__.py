"""Gomoku (五子棋): five in a row on a 15x15 (or 19x19) board; freestyle, standard or renju rules.

Seat 0 plays black and moves first. Points are named as in gomoku literature:
columns a-o (a-s on 19x19) from the left, rows 1-15 from the bottom, so h8 is
the centre of the 15x15 board; `H8`, `h8` and `8h` all mean h8.

Modules, each depending only on those before it: `board` (geometry, point
names), `state` (State, Point, the view), `rules` (fives, renju's forbidden
moves), `patterns` and `position` (the AI's board), `search` (threat search
and PVS), `ai` (the levels), this game; `players` (benchmark players) on top.
"""

from __future__ import annotations

import random

from engines.base import JSON, AIResult, Game, Limit, Option, Outcome, QueryAnswer, Refusal, Translate, msg
from engines.gomoku import ai
from engines.gomoku.board import BLACK, EMPTY, LETTERS, SIZES, WHITE, geometry, parse_point, point_name
from engines.gomoku.patterns import code_tables, tables
from engines.gomoku.rules import forbidden_points, forbidden_reason, padded, winning_line
from engines.gomoku.state import RULES, GomokuView, Point, State

__all__ = ["Gomoku", "GomokuView", "Point", "State"]


class Gomoku(Game[State, Point]):
    name = "gomoku"
    aliases = ("gobang", "wuziqi")
    seat_counts = (2,)
    options = (
        Option("size", choices=SIZES, default=15, bare=True,
               spellings={f"{n}{sep}{n}": n for n in SIZES for sep in "x×"} | {f"{n}路": n for n in SIZES},
               refusal="gomoku.bad_size"),
        Option("rule", choices=RULES, default="freestyle",
               spellings={"gomoku": "freestyle", "无禁手": "freestyle", "标准": "standard", "连珠": "renju"}),
    )  # fmt: skip
    # A level searches this many nodes (easy: none, it scores one ply), the same on an idle machine and a
    # busy one; about 0.4 s (medium), 1 s (hard) and 3 s (master) on an idle core (bench.gomoku prints the
    # rate). The seconds are only a safety net for a stalled host, ten times that (a busy host with 2 cores
    # shared by 7 busy processes takes 3-8 times the idle time).
    levels = {"easy": Limit(1, 2.0), "medium": Limit(12_000, 4.0), "hard": Limit(30_000, 10.0),
              "master": Limit(90_000, 30.0)}
    default_level = "medium"
    offers = frozenset({"undo", "draw", "restart"})
    queries = ("board",)
    hint_level = "hard"
    move_words = {"play": "", "put": ""}

    def __init__(self) -> None:
        # The AI's pattern tables for the default rule, built now rather than during the first AI move.
        tables(False, False)
        code_tables()

    # --- setting up ---------------------------------------------------------------
    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> State:
        size = int(options.get("size") or 15)
        rule = str(options.get("rule") or "freestyle")
        if size not in SIZES:
            raise Refusal("gomoku.bad_size", value=str(size))
        if rule not in RULES:
            raise Refusal("gomoku.bad_option", option=rule)
        return State(size, rule, (), (EMPTY,) * (size * size))

    # --- playing -----------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.over else state.turn

    def parse_move(self, state: State, seat: int, text: str) -> Point:
        parsed = parse_point(text)
        if parsed is None:
            raise Refusal("gomoku.how_to_move", example=point_name(state.size // 2, state.size // 2))
        letter, number = parsed
        last_letter = LETTERS[state.size - 1]
        if letter not in LETTERS[: state.size]:
            raise Refusal("gomoku.no_such_column", column=letter, last=last_letter)
        if not 1 <= number <= state.size:
            raise Refusal("gomoku.no_such_row", row=number, last=state.size)
        point = Point(LETTERS.index(letter), number - 1)
        if state.over:
            raise Refusal("gomoku.game_over")
        if state.at(point) != EMPTY:
            raise Refusal("gomoku.taken", point=point.name)
        reason = forbidden_reason(state, point)
        if reason is not None:
            raise Refusal(f"gomoku.forbidden_{reason}", point=point.name)
        return point

    def legal_moves(self, state: State, seat: int) -> list[Point]:
        if state.over or seat != state.turn:
            return []
        bad = set(forbidden_points(state))
        n = state.size
        return [
            Point(i % n, i // n) for i, v in enumerate(state.board) if v == EMPTY and Point(i % n, i // n) not in bad
        ]

    def apply(self, state: State, seat: int, move: Point) -> State:
        move = Point(*move)
        board = list(state.board)
        board[move.row * state.size + move.col] = BLACK if seat == 0 else WHITE
        new = State(state.size, state.rule, (*state.moves, move), tuple(board))
        geo = geometry(state.size)
        line = winning_line(padded(new), geo, geo.index(move.col, move.row), state.rule)
        if line:
            five = tuple(sorted(Point(*geo.colrow(p)) for p in line))  # left to right (bottom to top)
            new = State(new.size, new.rule, new.moves, new.board, five)
        return new

    def outcome(self, state: State) -> Outcome | None:
        if state.win_line:
            winner = 1 - state.turn  # who played last
            ranks = (1, 2) if winner == 0 else (2, 1)
            points = " ".join(p.name for p in state.win_line)
            if len(state.win_line) == 5:
                return Outcome(ranks, msg("gomoku.five", points=points))
            return Outcome(ranks, msg("gomoku.long_line", count=len(state.win_line), points=points))
        if len(state.moves) == state.size * state.size:
            return Outcome((1, 1), msg("gomoku.board_full"))
        return None

    def move_text(self, state: State, move: Point) -> str:
        return point_name(move.col, move.row)

    # --- showing -----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> GomokuView:
        return {
            "size": state.size,
            "rule": state.rule,
            "moves": [[p.col, p.row] for p in state.moves],
            "last": [state.moves[-1].col, state.moves[-1].row] if state.moves else None,
            "win_line": [[p.col, p.row] for p in state.win_line],
            "forbidden": [[p.col, p.row] for p in forbidden_points(state)],
        }

    def text(self, view: GomokuView, tr: Translate) -> str:
        size = view["size"]
        grid = [["·"] * size for _ in range(size)]
        for i, (c, r) in enumerate(view["moves"]):
            grid[r][c] = "●" if i % 2 == 0 else "○"
        for c, r in view["forbidden"]:
            grid[r][c] = "×"
        letters = "   " + " ".join(LETTERS[:size])
        lines = [letters]
        for r in range(size - 1, -1, -1):
            lines.append(f"{r + 1:>2} " + " ".join(grid[r]) + f" {r + 1}")
        lines.append(letters)
        if view["last"]:
            lines.append(tr(msg("gomoku.last", point=point_name(*view["last"]))))
        return "\n".join(lines)

    def query(self, state: State, seat: int | None, name: str, args: list[str]) -> QueryAnswer:
        if name != "board":
            return super().query(state, seat, name, args)
        words = [a.lower() for a in args]
        if not words or words == ["plain"]:
            return QueryAnswer(msg("gomoku.board_plain"), {"numbers": False})
        if words[0] in ("numbers", "number", "numbered", "nums", "n", "序号", "手数", "编号"):
            return QueryAnswer(msg("gomoku.board_numbers"), {"numbers": True})
        raise Refusal("gomoku.board_usage")

    # --- storing -----------------------------------------------------------------
    def to_json(self, state: State) -> JSON:
        return {
            "size": state.size,
            "rule": state.rule,
            "moves": [p.name for p in state.moves],
            "win_line": [p.name for p in state.win_line],
        }

    def from_json(self, data: JSON) -> State:
        size = data["size"]
        board = [EMPTY] * (size * size)
        moves = []
        for i, name in enumerate(data["moves"]):
            letter, number = parse_point(name)
            p = Point(LETTERS.index(letter), number - 1)
            moves.append(p)
            board[p.row * size + p.col] = BLACK if i % 2 == 0 else WHITE
        win = []
        for name in data.get("win_line", []):
            letter, number = parse_point(name)
            win.append(Point(LETTERS.index(letter), number - 1))
        return State(size, data["rule"], tuple(moves), tuple(board), tuple(win))

    # --- the AI ------------------------------------------------------------------
    def ai(self, state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Point]:
        return ai.choose(state, seat, level, limit, rng)
