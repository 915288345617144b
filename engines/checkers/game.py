"""Chinese Checkers (跳棋) for 2, 3, 4 or 6 players on the 121-hole star.

A move is a step to an adjacent empty hole or a chain of jumps, each over one
adjacent piece of any colour to the empty hole straight behind it; the chain may
turn, may not land twice on a hole, may stop anywhere, and no step follows a
jump. A piece in its goal point (the point opposite its start) may move inside it
but not leave it, not even in the middle of a chain. A player finishes when every
hole of the goal point is occupied and at least one of those pieces is theirs (so
pieces parked in a goal cannot block its owner); a finished player moves no more,
and their pieces stay where they are (in the goal or not) for the rest of the
game, as pieces to jump over and holes taken. With two players the first to
finish wins; with more the game goes on until all but one have finished, and the
places follow the order of finishing. A player with no legal move passes.

The game also ends after ROUNDS turns of every player still playing, when for
STALL_ROUNDS full rounds nobody brought their pieces closer to the goal than
ever before, or when nobody can move; then the players still on the way are
placed after those who finished, by total distance to goal (equal distances
share a place; see `state.py` for the distance).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import NoReturn, cast

from engines.base import JSON, AIResult, Game, Limit, Msg, Option, Outcome, QueryAnswer, Refusal, Translate, msg
from engines.checkers import ai
from engines.checkers import board as B
from engines.checkers.levels import LEVELS
from engines.checkers.rules import check_path, path_to, reach, shortest_path
from engines.checkers.state import (
    GOAL,
    ROUNDS,
    STALL_ROUNDS,
    CheckersView,
    LastMoveView,
    Move,
    State,
    active,
    can_move,
    distance,
    goal_filled,
    start_board,
)

# What may stand between the holes of a move: spaces and punctuation (after NFKC, which the host
# applies to all input, full-width "，" and "－" arrive as "," and "-"; "、" and "→" stay), the
# English "to", and the Chinese words for "to", "from", "via", "jump" and "step".
SEPARATORS = re.compile(r"[\s,;:\-–—>→、。~]+|\bto\b|从|经过|经|跳到|走到|移到|到|至|跳|走")


def words_of(text: str) -> list[str]:
    """`"l4-n6-l8"`, `"L4 to L6"`, `"从l4到l6"` -> the hole names typed, lower case."""
    return [w for w in SEPARATORS.split(text.strip().lower()) if w]


def _ranks(state: State, without: int | None = None) -> list[int]:
    """Finishers in their order, then the others by distance to goal (equal distances share a place)."""
    ranks = [0] * state.seats
    finished = [s for s in state.finished if s != without]
    for place, s in enumerate(finished):
        ranks[s] = place + 1
    rest = [s for s in active(state) if s != without]
    dist = {s: distance(state.board, state.seats, s) for s in rest}
    for s in rest:
        ranks[s] = len(finished) + 1 + sum(dist[o] < dist[s] for o in rest)
    return ranks


class Checkers(Game[State, Move]):
    name = "checkers"
    aliases = ("chinesecheckers", "tiaoqi")
    seat_counts = (2, 3, 4, 6)
    options = (Option("players", choices=(2, 3, 4, 6), bare=True, spellings={f"{n}p": n for n in (2, 3, 4, 6)},
                      refusal="checkers.bad_players"),)
    seats_option = "players"
    levels = {name: level.limit for name, level in LEVELS.items()}  # see levels.py
    default_level = "normal"
    offers = frozenset({"undo", "restart"})
    queries = ("moves", "path")
    hint_level = "hard"
    move_words = {"jump": ""}  # /jump l4 l8 (/move is the host's)

    # --- setting up ---------------------------------------------------------------
    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> State:
        if seats not in self.seat_counts:
            raise Refusal("checkers.bad_players", value=seats)
        board = start_board(seats)
        best = tuple(distance(board, seats, s) for s in range(seats))
        return State(seats, board, 0, (0,) * seats, best)

    # --- playing -----------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.end else state.turn

    def parse_move(self, state: State, seat: int, text: str) -> Move:
        """`l4 l6` (by the shortest way) or a whole path `l4-n6-l8`; refuses, saying why, any move
        the rules do not allow."""
        words = words_of(text)
        if len(words) < 2:
            raise Refusal("checkers.how_to_move")
        holes = []
        for word in words:
            hole = B.parse_label(word)
            if hole is None:
                if B.LABEL_PATTERN.fullmatch(word):
                    raise Refusal("checkers.no_hole", hole=word)
                raise Refusal("checkers.how_to_move")
            holes.append(hole)
        self._check_piece(state, seat, holes[0])
        goal = GOAL[state.seats][seat]
        if len(holes) > 2:
            check_path(state.board, holes, goal)
            return Move(tuple(holes))
        start, to = holes
        path = shortest_path(state.board, start, to, goal)
        if path is None:
            self._why_not(state, start, to, goal)
        return Move(path)

    def _check_piece(self, state: State, seat: int, hole: int) -> None:
        if not state.board[hole]:
            raise Refusal("checkers.empty", hole=B.LABELS[hole])
        if state.board[hole] != seat + 1:
            raise Refusal("checkers.not_yours", hole=B.LABELS[hole])

    def _why_not(self, state: State, start: int, to: int, goal: tuple[bool, ...]) -> NoReturn:
        a, b = B.LABELS[start], B.LABELS[to]
        if start == to:
            raise Refusal("checkers.same_hole", hole=a)
        if state.board[to]:
            raise Refusal("checkers.taken", hole=b)
        if goal[start] and not goal[to]:
            raise Refusal("checkers.leaves_goal", hole=a)
        raise Refusal("checkers.unreachable", start=a, to=b)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """One move per reachable (piece, hole), by a shortest path."""
        if self.to_move(state) != seat:
            return []
        goal = GOAL[state.seats][seat]
        moves: list[Move] = []
        for h in range(B.SIZE):
            if state.board[h] == seat + 1:
                parent = reach(state.board, h, goal)
                moves.extend(Move(path_to(parent, h, to)) for to in parent)
        return moves

    def apply(self, state: State, seat: int, move: Move) -> State:
        """The state after a legal move: who finished, the counters, whose turn, whether it ended."""
        n = state.seats
        start, to, path = move.start, move.to, move.path
        board = list(state.board)
        board[start], board[to] = 0, seat + 1
        finished = list(state.finished)
        owner = next((s for s in range(n) if GOAL[n][s][to]), None)
        for s in (seat, owner):
            if s is not None and s not in finished and goal_filled(board, n, s):
                finished.append(s)
        turns = list(state.turns)
        turns[seat] += 1
        best = list(state.best)
        d = distance(board, n, seat)
        idle = state.idle + 1
        if d < best[seat]:
            best[seat], idle = d, 0
        playing = [s for s in range(n) if s not in finished]
        end = None
        turn = seat
        if finished and (n == 2 or len(playing) <= 1):
            end = "goal"
        else:
            for _ in range(n):
                turn = next(s for s in [*range(turn + 1, n), *range(turn + 1)] if s not in finished)
                if all(turns[s] >= ROUNDS for s in playing):
                    end = "rounds"
                elif idle >= STALL_ROUNDS * len(playing):
                    end = "stalled"
                if end or can_move(board, n, turn):
                    break
                turns[turn] += 1  # no legal move: the seat passes
                idle += 1
            else:
                end = "stuck"
        return State(n, tuple(board), turn, tuple(turns), tuple(best), idle, tuple(finished), path, seat, end)

    def outcome(self, state: State) -> Outcome | None:
        if not state.end:
            return None
        reason = {
            "goal": msg("checkers.end_goal"),
            "rounds": msg("checkers.end_rounds", rounds=ROUNDS),
            "stalled": msg("checkers.end_stalled", rounds=STALL_ROUNDS),
            "stuck": msg("checkers.end_stuck"),
        }[state.end]
        return Outcome(tuple(_ranks(state)), reason)

    def forfeit(self, state: State, seats: int, seat: int, reason: Msg) -> Outcome:
        """Whoever resigns or times out comes last; the others are placed as if the game stopped now."""
        ranks = _ranks(state, without=seat)
        ranks[seat] = seats
        return Outcome(tuple(ranks), reason)

    def move_text(self, state: State, move: Move) -> str:
        return "-".join(B.LABELS[h] for h in move.path)

    def describe(self, state: State, seat: int, move: Move) -> Msg:
        if move.jumps:
            return msg("checkers.moved_jump", path=self.move_text(state, move), count=move.jumps)
        return msg("checkers.moved_step", start=B.LABELS[move.start], to=B.LABELS[move.to])

    # --- showing -----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> CheckersView:
        return {
            "seats": state.seats,
            "points": list(B.SEAT_POINTS[state.seats]),
            "board": "".join(str(v) for v in state.board),
            "turn": state.turn,
            "round": max(state.turns) + (0 if state.end else 1),
            "idle": state.idle,
            "finished": list(state.finished),
            "distance": [distance(state.board, state.seats, s) for s in range(state.seats)],
            "last": _last_move(state),
            "end": state.end,
        }

    def text(self, view: CheckersView, tr: Translate) -> str:
        """The star in text: one character per half column, so letters line up with the holes."""
        cells = {(B.ROW[h], B.COLUMN[h]): "." if v == "0" else v for h, v in enumerate(view["board"])}
        if view["last"]:
            start = cast(int, B.parse_label(view["last"]["path"][0]))  # a label the view wrote
            if view["board"][start] == "0":
                cells[(B.ROW[start], B.COLUMN[start])] = "*"
        letters = "".join(chr(ord("a") + c) for c in range(25))
        lines = ["    " + letters]
        for row in range(17, 0, -1):
            line = "".join(cells.get((row, c), " ") for c in range(25))
            lines.append(f"{row:>2}  {line}  {row}".rstrip())
        lines.append("    " + letters)
        return "\n".join(lines)

    def query(self, state: State, seat: int | None, name: str, args: list[str]) -> QueryAnswer:
        if name == "moves":
            args = words_of(" ".join(args))
            if len(args) != 1:
                raise Refusal("checkers.moves_usage")
            start = self._hole(args[0])
            owner = self._owner(state, start)
            parent = reach(state.board, start, GOAL[state.seats][owner])
            marks = sorted(parent, key=lambda h: (-B.ROW[h], B.COLUMN[h]))
            labels = [B.LABELS[h] for h in marks]
            text = (
                msg("checkers.moves_list", piece=B.LABELS[start], count=len(labels), holes=", ".join(labels))
                if labels
                else msg("checkers.moves_none", piece=B.LABELS[start])
            )
            return QueryAnswer(text, {"piece": B.LABELS[start], "marks": labels})
        if name == "path":
            args = words_of(" ".join(args))
            if len(args) != 2:
                raise Refusal("checkers.path_usage")
            start, to = self._hole(args[0]), self._hole(args[1])
            owner = self._owner(state, start)
            goal = GOAL[state.seats][owner]
            path = shortest_path(state.board, start, to, goal)
            if path is None:
                self._why_not(state, start, to, goal)
            move = Move(path)
            text = msg(
                "checkers.path_jumps" if move.jumps else "checkers.path_step",
                start=B.LABELS[start],
                to=B.LABELS[to],
                path=self.move_text(state, move),
                count=move.jumps,
            )
            return QueryAnswer(text, {"path": [B.LABELS[h] for h in path]})
        return super().query(state, seat, name, args)

    def _hole(self, word: str) -> int:
        hole = B.parse_label(word)
        if hole is None:
            raise Refusal("checkers.no_hole", hole=word)
        return hole

    def _owner(self, state: State, hole: int) -> int:
        if not state.board[hole]:
            raise Refusal("checkers.empty", hole=B.LABELS[hole])
        return state.board[hole] - 1

    # --- storing -----------------------------------------------------------------
    def to_json(self, state: State) -> JSON:
        return {
            "seats": state.seats,
            "board": "".join(str(v) for v in state.board),
            "turn": state.turn,
            "turns": list(state.turns),
            "best": list(state.best),
            "idle": state.idle,
            "finished": list(state.finished),
            "last": [B.LABELS[h] for h in state.last],
            "last_seat": state.last_seat,
            "end": state.end,
        }

    def from_json(self, data: JSON) -> State:
        return State(
            seats=data["seats"],
            board=tuple(int(c) for c in data["board"]),
            turn=data["turn"],
            turns=tuple(data["turns"]),
            best=tuple(data["best"]),
            idle=data["idle"],
            finished=tuple(data["finished"]),
            last=tuple(B.LABELS.index(x) for x in data["last"]),
            last_seat=data["last_seat"],
            end=data["end"],
        )

    # --- the AI ------------------------------------------------------------------
    def ai(self, state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
        return ai.choose(state, seat, level, limit, rng)

    def with_board(self, state: State, board: dict[str, int], turn: int = 0) -> State:
        """A state with pieces placed by label ({"m9": 0} puts seat 0 on m9), for tests and puzzles."""
        cells = [0] * B.SIZE
        for where, seat in board.items():
            cells[cast(int, B.parse_label(where))] = seat + 1
        cells_t = tuple(cells)
        best = tuple(distance(cells_t, state.seats, s) for s in range(state.seats))
        return replace(state, board=cells_t, turn=turn, best=best)


def _last_move(state: State) -> LastMoveView | None:
    """The move played last, as the view shows it."""
    if not state.last:
        return None
    return {"seat": cast(int, state.last_seat), "path": [B.LABELS[h] for h in state.last]}
