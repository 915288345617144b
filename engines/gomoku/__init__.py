"""Gomoku (五子棋): five in a row on a 15x15 (or 19x19) board; freestyle, standard or renju rules,
and the swap2 opening on demand.

Seat 0 plays black and moves first; with the swap2 opening seat 0 places the first three stones and
either seat may end up with black (`opening.py`). Points are named as in gomoku literature:
columns a-o (a-s on 19x19) from the left, rows 1-15 from the bottom, so h8 is
the centre of the 15x15 board; `H8`, `h8` and `8h` all mean h8.

Modules, each depending only on those before it: `board` (geometry, point
names), `state` (State, Point, the view), `rules` (fives, renju's forbidden
moves), `levels` (what each AI level may do), `patterns` and `position` (the
AI's board), `search` (threat search and PVS), `ai` (the levels' moves),
`opening` (swap2 and the AI's part in it), this game; `players` (benchmark
players) on top.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import cast

from engines.base import JSON, AIResult, Game, Limit, Msg, Option, Outcome, QueryAnswer, Refusal, Translate, msg
from engines.gomoku import ai, fastpos, opening
from engines.gomoku.board import BLACK, EMPTY, LETTERS, SIZES, WHITE, geometry, parse_point, point_name
from engines.gomoku.levels import LEVELS
from engines.gomoku.opening import DECIDE, PICK, PLACE2, PLACE3, PLAY, SWAP2, SWAP_WORDS, phase, read_choice, seat_of
from engines.gomoku.patterns import code_tables, tables
from engines.gomoku.rules import forbidden_points, forbidden_reason, padded, winning_line
from engines.gomoku.state import OPENINGS, RULES, GomokuView, Move, Point, State

__all__ = ["Gomoku", "GomokuView", "Point", "State"]


class Gomoku(Game[State, Move]):
    name = "gomoku"
    aliases = ("gobang", "wuziqi")
    seat_counts = (2,)
    options = (
        Option("size", choices=SIZES, default=15, bare=True,
               spellings={f"{n}{sep}{n}": n for n in SIZES for sep in "x×"} | {f"{n}路": n for n in SIZES},
               refusal="gomoku.bad_size"),
        Option("rule", choices=RULES, default="freestyle",
               spellings={"gomoku": "freestyle", "无禁手": "freestyle", "标准": "standard", "连珠": "renju"}),
        Option("opening", choices=OPENINGS, default="free",
               spellings={"自由": "free", "交换": "swap2", "二次交换": "swap2"}),
    )
    levels = {name: level.limit for name, level in LEVELS.items()}  # see levels.py
    default_level = "medium"
    offers = frozenset({"undo", "draw", "restart"})
    queries = ("board",)
    hint_level = "hard"
    # /swap black, /swap white, /swap more: the swap2 choices (parse_move reads "swap black").
    move_words = {"play": "", "put": "", "swap": "swap"}

    def __init__(self) -> None:
        # The AI's pattern tables for the default rule, built now rather than during the first AI move.
        tables(False, False)
        code_tables()

    def warm_up(self) -> None:
        """In an AI worker, before its first move: load the compiled core of the AI's board (importing
        numba takes seconds, so the host itself never does it)."""
        fastpos.load()

    # --- setting up ---------------------------------------------------------------
    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> State:
        size = int(options.get("size") or 15)
        rule = str(options.get("rule") or "freestyle")
        start = str(options.get("opening") or "free")
        if size not in SIZES:
            raise Refusal("gomoku.bad_size", value=str(size))
        if rule not in RULES:
            raise Refusal("gomoku.bad_option", option=rule)
        if start not in OPENINGS:
            raise Refusal("gomoku.bad_option", option=start)
        return State(size, rule, (), (EMPTY,) * (size * size), (), start)

    # --- playing -----------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.over else opening.seat_to_move(state)

    def parse_move(self, state: State, seat: int, text: str) -> Move:
        if state.over:
            raise Refusal("gomoku.game_over")
        stage = phase(state)
        choice = read_choice(text)
        if choice is not None:
            if stage == DECIDE or (stage == PICK and choice != "more"):
                return choice
            if stage == PICK:
                raise Refusal("gomoku.swap_pick_usage")
            if stage in (PLACE3, PLACE2):
                raise Refusal(f"gomoku.swap_place_first_{3 if stage == PLACE3 else 2}")
            raise Refusal("gomoku.swap_settled" if state.opening == SWAP2 else "gomoku.swap_off")
        first = text.lower().split()[:1]
        if first and first[0] in SWAP_WORDS:
            raise Refusal("gomoku.swap_usage")
        parsed = parse_point(text)
        if parsed is None:
            if stage == DECIDE:
                raise Refusal("gomoku.swap_decide_usage")
            if stage == PICK:
                raise Refusal("gomoku.swap_pick_usage")
            raise Refusal("gomoku.how_to_move", example=point_name(state.size // 2, state.size // 2))
        letter, number = parsed
        last_letter = LETTERS[state.size - 1]
        if letter not in LETTERS[: state.size]:
            raise Refusal("gomoku.no_such_column", column=letter, last=last_letter)
        if not 1 <= number <= state.size:
            raise Refusal("gomoku.no_such_row", row=number, last=state.size)
        point = Point(LETTERS.index(letter), number - 1)
        if stage == PICK:
            raise Refusal("gomoku.swap_pick_usage")
        if state.at(point) != EMPTY:
            raise Refusal("gomoku.taken", point=point.name)
        reason = forbidden_reason(state, point)
        if reason is not None:
            raise Refusal(f"gomoku.forbidden_{reason}", point=point.name)
        return point

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state.over or seat != opening.seat_to_move(state):
            return []
        stage = phase(state)
        if stage == PICK:
            return ["black", "white"]
        bad = set(forbidden_points(state))
        n = state.size
        points: list[Move] = [
            Point(i % n, i // n) for i, v in enumerate(state.board) if v == EMPTY and Point(i % n, i // n) not in bad
        ]
        return ["black", "white", "more", *points] if stage == DECIDE else points

    def apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, str):  # a swap2 choice
            return replace(state, choices=(*state.choices, move))
        move = Point(*move)
        new = state.placed(move)
        if phase(state) == DECIDE:  # a stone where the second player chooses is their white stone: they chose white
            new = replace(new, choices=(*state.choices, "white"))
        geo = geometry(state.size)
        line = winning_line(padded(new), geo, geo.index(move.col, move.row), state.rule)
        if line:
            five = tuple(sorted(Point(*geo.colrow(p)) for p in line))  # left to right (bottom to top)
            new = replace(new, win_line=five)
        return new

    def outcome(self, state: State) -> Outcome | None:
        if state.win_line:
            winner = seat_of(state, 1 - state.turn)  # the colour that played last
            ranks = (1, 2) if winner == 0 else (2, 1)
            points = " ".join(p.name for p in state.win_line)
            if len(state.win_line) == 5:
                return Outcome(ranks, msg("gomoku.five", points=points))
            return Outcome(ranks, msg("gomoku.long_line", count=len(state.win_line), points=points))
        if len(state.moves) == state.size * state.size:
            return Outcome((1, 1), msg("gomoku.board_full"))
        return None

    def move_text(self, state: State, move: Move) -> str:
        if isinstance(move, str):
            return f"swap {move}"
        return point_name(move.col, move.row)

    def move_name(self, state: State, move: Move) -> Msg | str:
        return msg(f"gomoku.move_swap_{move}") if isinstance(move, str) else self.move_text(state, move)

    def describe(self, state: State, seat: int, move: Move) -> Msg:
        stage = phase(state)
        if stage == PLAY:
            return super().describe(state, seat, move)
        if isinstance(move, str):
            return msg(f"gomoku.swap_{'picked' if stage == PICK else 'chose'}_{move}")
        colour = msg("gomoku.black" if state.turn == 0 else "gomoku.white")
        if stage == DECIDE:
            return msg("gomoku.swap_white_stone", move=self.move_text(state, move))
        return msg("gomoku.swap_placed", colour=colour, move=self.move_text(state, move))

    def prompt(self, state: State, seat: int) -> Msg | None:
        if state.opening != SWAP2 or state.over:
            return None
        stage = phase(state)
        mid = state.size // 2
        empty = [Point(i % state.size, i // state.size) for i, v in enumerate(state.board) if v == EMPTY]
        free = min(empty, key=lambda p: (max(abs(p.col - mid), abs(p.row - mid)), p.row, p.col))  # nearest the centre
        example = point_name(*free)
        colour = msg("gomoku.black" if state.turn == 0 else "gomoku.white")
        if stage == PLACE3:
            return msg("gomoku.swap_prompt_place3", number=len(state.moves) + 1, colour=colour, example=example)
        if stage == DECIDE:
            return msg("gomoku.swap_prompt_decide")
        if stage == PLACE2:
            return msg("gomoku.swap_prompt_place2", number=len(state.moves) - 2, colour=colour)
        if stage == PICK:
            return msg("gomoku.swap_prompt_pick")
        return msg("gomoku.swap_prompt_play", colour=colour)

    def quick_moves(self, state: State, seat: int) -> list[tuple[Msg, str]]:
        stage = phase(state)
        if state.over or stage not in (DECIDE, PICK):
            return []
        choices = ("black", "white", "more") if stage == DECIDE else ("black", "white")
        return [(msg(f"gomoku.swap_button_{c}"), f"swap {c}") for c in choices]

    # --- showing -----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> GomokuView:
        view: GomokuView = {
            "size": state.size,
            "rule": state.rule,
            "moves": [[p.col, p.row] for p in state.moves],
            "last": [state.moves[-1].col, state.moves[-1].row] if state.moves else None,
            "win_line": [[p.col, p.row] for p in state.win_line],
            "forbidden": [[p.col, p.row] for p in forbidden_points(state)],
        }
        if state.opening == SWAP2:
            view["opening"], view["phase"], view["black_seat"] = SWAP2, phase(state), opening.black_seat(state)
        return view

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
        if view.get("opening") == SWAP2:
            black = view.get("black_seat")
            lines.append(tr(msg("gomoku.swap_open" if black is None else f"gomoku.swap_black_{black}")))
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
        data = {
            "size": state.size,
            "rule": state.rule,
            "moves": [p.name for p in state.moves],
            "win_line": [p.name for p in state.win_line],
        }
        if state.opening != "free":
            data["opening"], data["choices"] = state.opening, list(state.choices)
        return data

    def from_json(self, data: JSON) -> State:
        size = data["size"]
        board = [EMPTY] * (size * size)
        moves = []
        for i, name in enumerate(data["moves"]):
            p = _stored(name)
            moves.append(p)
            board[p.row * size + p.col] = BLACK if i % 2 == 0 else WHITE
        win = [_stored(name) for name in data.get("win_line", [])]
        return State(size, data["rule"], tuple(moves), tuple(board), tuple(win), data.get("opening", "free"),
                     tuple(data.get("choices", ())))

    # --- the AI ------------------------------------------------------------------
    def ai(self, state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
        if phase(state) != PLAY:
            return opening.move(state, level, limit, rng)
        return ai.choose(state, state.turn, level, limit, rng)  # the AI's `seat` is the colour: 0 black


def _stored(name: str) -> Point:
    """A point as `to_json` stored it (so a readable one)."""
    letter, number = cast(tuple[str, int], parse_point(name))
    return Point(LETTERS.index(letter), number - 1)
