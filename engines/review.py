"""Reviews of finished games: what a game's analysis finds, and the entry point the AI workers run.

A review plays a finished game again from its record and says, within a fixed amount of work, how
each side's chance to win went over the moves, which moves were mistakes, and which one mattered most
(the critical moment: the position before it, the move played and a better one). Each game's own
analysis lives beside its rules (`engines/<game>/review.py`, Nim's in `engines/nim_review.py`); what
counts as a mistake is the game's to say, and whether it is exact (a solved position) or an estimate.

Everything here is JSON in and out, so a review runs in a worker process and is stored as it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from engines.base import JSON, Game, Msg

# game -> "module:function"; the function takes a `Record` and the work it may spend, and returns a `Review`.
ANALYSES = {
    "nim": "engines.nim_review:review",
    "gomoku": "engines.gomoku.review:review",
    "doudizhu": "engines.doudizhu.review:review",
    "checkers": "engines.checkers.review:review",
}
SWING = 0.25  # a move that moves its side's chance by this much (or more) is a turning point


@dataclass(frozen=True)
class Record:
    """A finished game as the host keeps it: how it was set up, and every move as typed, by whom."""

    game: str
    options: dict[str, JSON]
    seats: int
    seed: int
    moves: tuple[tuple[int, str], ...]  # (seat, move text) in the order played
    winners: tuple[int, ...] = ()  # the seats that won (none: a draw), however the game ended

    def to_json(self) -> JSON:
        return {"game": self.game, "options": self.options, "seats": self.seats, "seed": self.seed,
                "moves": [list(m) for m in self.moves], "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: JSON) -> Record:
        return cls(data["game"], data["options"], data["seats"], data["seed"],
                   tuple((int(s), str(m)) for s, m in data["moves"]), tuple(data.get("winners", ())))

    def replay(self, game: Game[Any, Any]) -> list[tuple[Any, int, Any]]:
        """(the state before, the seat, the move) of every move, and the state after the last as
        (state, -1, None) at the end."""
        state = game.new_state(self.options, self.seats, self.seed)
        steps: list[tuple[Any, int, Any]] = []
        for seat, text in self.moves:
            move = game.parse_move(state, seat, text)
            steps.append((state, seat, move))
            state = game.apply(state, seat, move)
        steps.append((state, -1, None))
        return steps


@dataclass(frozen=True)
class Mistake:
    """One move that cost its side: `loss` of its side's chance (0..1), or turns (Chinese Checkers)."""

    ply: int  # the move's index in the record (0-based; the players' "move N" is ply + 1)
    seat: int
    played: str  # the move as typed
    better: str | None  # a better move, as typed
    loss: float
    exact: bool  # proved (a solved position, a forced win found) rather than estimated
    said: Msg  # what happened, in one sentence ({name}: the mover, filled in by the host)

    def to_json(self) -> JSON:
        return {"ply": self.ply, "seat": self.seat, "played": self.played, "better": self.better,
                "loss": self.loss, "exact": self.exact, "said": self.said.to_json()}

    @classmethod
    def from_json(cls, data: JSON) -> Mistake:
        return cls(data["ply"], data["seat"], data["played"], data["better"], data["loss"], data["exact"],
                   Msg.from_json(data["said"]))


@dataclass(frozen=True)
class Review:
    """What a review found. `chances[i][k]`: side k's chance to win after the first i moves (i = 0:
    before any), so one more point than moves; `exact[i]`: that point is proved, not estimated.
    `sides`: the seats of each side (Dou Dizhu: the landlord, the farmers). `turning`: the plies whose
    move swung the chances. `critical`: the mistake that mattered most; `board` the public view of the
    position before it (Dou Dizhu's with every hand: the game is over), `marks` the move played and the
    better one in the view's terms, for the picture (`{"played": ..., "better": ...}`: Gomoku points
    `[col, row]`, Chinese Checkers paths of labels, Nim `[heap, count]`, Dou Dizhu card ids).
    `work`: the units of work spent, as the game's AI counts them."""

    game: str
    sides: tuple[tuple[int, ...], ...]
    chances: tuple[tuple[float, ...], ...]
    exact: tuple[bool, ...]
    mistakes: tuple[Mistake, ...]
    turning: tuple[int, ...]
    critical: Mistake | None
    board: JSON
    marks: JSON
    work: int
    estimate: bool = False  # some chances are estimates (say so)
    cpu: float = 0.0  # CPU seconds the review took (filled in by `run`)

    def to_json(self) -> JSON:
        return {
            "game": self.game, "sides": [list(s) for s in self.sides], "chances": [list(c) for c in self.chances],
            "exact": list(self.exact), "mistakes": [m.to_json() for m in self.mistakes], "turning": list(self.turning),
            "critical": self.critical.to_json() if self.critical else None, "board": self.board, "marks": self.marks,
            "work": self.work,
            "estimate": self.estimate, "cpu": self.cpu,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Review:
        return cls(
            data["game"], tuple(tuple(s) for s in data["sides"]), tuple(tuple(c) for c in data["chances"]),
            tuple(data["exact"]), tuple(Mistake.from_json(m) for m in data["mistakes"]), tuple(data["turning"]),
            Mistake.from_json(data["critical"]) if data["critical"] else None, data["board"], data["marks"],
            data["work"], data["estimate"], data["cpu"],
        )

    def side_of(self, seat: int) -> int:
        return next(k for k, seats in enumerate(self.sides) if seat in seats)


def finish(game: str, sides: Sequence[Sequence[int]], movers: Sequence[int], chances: Sequence[Sequence[float]],
           exact: Sequence[bool], mistakes: Sequence[Mistake], board: Callable[[Mistake], tuple[JSON, JSON]],
           work: int, winners: Sequence[int] = (), estimate: bool = False) -> Review:
    """A `Review` from a game's analysis. `movers[ply]`: the seat that made each move. The turning points
    are the mistakes proved and the moves after which their side's chance fell by `SWING` or more; the
    critical moment is the mistake that lost the most, among the losers' mistakes when someone won (the
    later of equals: the one the game did not come back from); `board(critical)` gives the picture's view
    and marks (see `Review`)."""
    side = {seat: k for k, seats in enumerate(sides) for seat in seats}
    swings = {m.ply for m in mistakes if m.exact and m.loss >= SWING}
    for ply, seat in enumerate(movers):
        k = side[seat]
        if chances[ply][k] - chances[ply + 1][k] >= SWING:
            swings.add(ply)
    lost = [m for m in mistakes if m.seat not in winners] if winners else list(mistakes)
    critical = max(lost or mistakes, key=lambda m: (m.exact, round(m.loss, 3), m.ply), default=None)
    view, marks = board(critical) if critical else (None, None)
    return Review(game, tuple(tuple(s) for s in sides), tuple(tuple(round(x, 4) for x in c) for c in chances),
                  tuple(exact), tuple(mistakes), tuple(sorted(swings)), critical, view, marks, work, estimate)


@cache
def _analysis(game: str) -> Callable[[Record, int | None], Review]:
    module, _, name = ANALYSES[game].partition(":")
    found: Callable[[Record, int | None], Review] = getattr(import_module(module), name)
    return found


def review(record: Record, work: int | None = None) -> Review:
    """The review of a finished game, within `work` units (None: the game's own review budget)."""
    return _analysis(record.game)(record, work)


def run(record: JSON, work: int | None = None) -> JSON:
    """`review` with JSON in and out and its CPU time: top-level, so it runs in a process pool."""
    cpu = time.process_time()
    found = review(Record.from_json(record), work)
    data = found.to_json()
    data["cpu"] = time.process_time() - cpu
    return data
