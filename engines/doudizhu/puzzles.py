"""Dou Dizhu endgame puzzles (残局): every hand open, few cards, one side to play and win.

The exact solver (`solver.py`, best play from both sides with every hand known) checks each
answer: it must keep the side's win. The defence is the other side's: a seat before the player's
turn plays the move that leaves the player the fewest winning answers (ties: a play before a pass). The
player plays every seat of their side (both farmers, when the farmers are to win).
`verify` asks that one or two first moves win (near-unique), among at least five, none of them the
whole hand at once.
"""

from __future__ import annotations

from engines.base import JSON, Limit, Msg, Translate, msg
from engines.budget import Budget
from engines.doudizhu.cards import counts_of_cards, counts_of_ranks
from engines.doudizhu.game import DouDizhu, cards_text
from engines.doudizhu.rules import Play, classify
from engines.doudizhu.solver import Solver, Trick
from engines.doudizhu.state import SEATS, Move, State, seat_to_move, trick, winner
from engines.puzzles import GOOD, SOLVED, WRONG, Answer, Picture, Puzzles

WORK = Limit(50_000_000, 86_400.0)  # positions: the count alone stops a search (the ceiling is never reached)
FEWEST_MOVES = 5  # a puzzle's first position offers at least this many moves
MOST_WINNING = 2  # ... and at most this many of them win

_GAME = DouDizhu()


def side_of(state: State, seat: int) -> bool:
    """True for the landlord's side."""
    return seat == state.landlord


def _hands(state: State) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    a, b, c = (counts_of_cards(h) for h in state.hands)
    return a, b, c


def _trick(state: State) -> Trick:
    current = trick(state)
    return None if current is None else (current[2], current[0])


def _play(move: Move) -> Play | None:
    if move.kind == "pass":
        return None
    counts = counts_of_ranks(move.ranks)
    combo = classify(counts)
    assert combo is not None
    return Play(combo, counts)


_SOLVERS: dict[int, Solver] = {}
MEMO = 300_000  # positions a landlord's solver remembers across puzzles (then it starts again)


def _solver(landlord: int) -> Solver:
    """The solver for `landlord`'s puzzles, its memo shared by the positions of one process (the positions
    of one game overlap a lot), with a fresh budget."""
    solver = _SOLVERS.get(landlord)
    if solver is None or len(solver.memo) > MEMO:
        solver = _SOLVERS[landlord] = Solver(landlord, Budget(WORK))
    solver.budget = Budget(WORK)
    return solver


class Solved:
    """The solver for one puzzle's landlord, its memo kept across the questions of one answer."""

    def __init__(self, state: State) -> None:
        assert state.landlord is not None
        self.solver = _solver(state.landlord)

    def landlord_wins_after(self, state: State, move: Move) -> bool:
        seat = seat_to_move(state)
        assert seat is not None
        return self.solver.after(_hands(state), seat, _trick(state), _play(move))

    def winning(self, state: State) -> list[Move]:
        """The moves of the seat to move after which its side wins."""
        seat = seat_to_move(state)
        assert seat is not None
        mine = side_of(state, seat)
        return [m for m in _GAME.legal_moves(state, seat) if self.landlord_wins_after(state, m) == mine]

    def defence(self, state: State, side: bool) -> Move:
        """The defending seat's move: the one that leaves `side` (the player's) the fewest winning answers
        when the player is next, else (a partner of the defence is next) the first play it has; a play
        before a pass."""
        seat = seat_to_move(state)
        assert seat is not None
        moves = _GAME.legal_moves(state, seat)
        return min(moves, key=lambda m: (self._answers(_GAME.apply(state, seat, m), side), m.kind == "pass"))

    def _answers(self, state: State, side: bool) -> int:
        seat = seat_to_move(state)
        if seat is None:
            return 0 if side_of(state, winner(state) or 0) != side else 99
        return len(self.winning(state)) if side_of(state, seat) == side else 0


def state_of(position: JSON) -> State:
    return _GAME.from_json(position)


class DdzPuzzles(Puzzles):
    game = "doudizhu"

    def goal(self, puzzle: JSON) -> Msg:
        state = state_of(puzzle["state"])
        seat = seat_to_move(state)
        assert seat is not None
        return msg("puzzle.doudizhu_goal_" + ("landlord" if side_of(state, seat) else "farmers"))

    def start(self, puzzle: JSON) -> JSON:
        return puzzle["state"]

    def answer(self, puzzle: JSON, position: JSON, text: str) -> Answer:
        state = state_of(position)
        seat = seat_to_move(state)
        assert seat is not None
        side = side_of(state, seat)
        move = _GAME.parse_move(state, seat, text)
        solved = Solved(state)
        if solved.landlord_wins_after(state, move) != side:
            better = solved.winning(state)
            return Answer(WRONG, position, better=_GAME.move_text(state, better[0]) if better else None)
        state = _GAME.apply(state, seat, move)
        replies = []
        while (turn := seat_to_move(state)) is not None and side_of(state, turn) != side:
            reply = solved.defence(state, side)
            replies.append(_GAME.move_text(state, reply))
            state = _GAME.apply(state, turn, reply)
        over = seat_to_move(state) is None
        return Answer(SOLVED if over else GOOD, _GAME.to_json(state), reply=", ".join(replies) or None)

    def solution(self, puzzle: JSON, position: JSON) -> list[str]:
        state = state_of(position)
        seat = seat_to_move(state)
        assert seat is not None
        side = side_of(state, seat)
        solved = Solved(state)
        line = []
        while (turn := seat_to_move(state)) is not None:
            move = solved.winning(state)[0] if side_of(state, turn) == side else solved.defence(state, side)
            line.append(_GAME.move_text(state, move))
            state = _GAME.apply(state, turn, move)
        return line

    def picture(self, puzzle: JSON, position: JSON) -> Picture:
        state = state_of(position)
        view = dict(_GAME.view(state, None))
        view["hands"] = [list(h) for h in state.hands]
        # What each seat did since the play to beat (a lead: nothing), not what came before it.
        plays = [i for i, (_, cards) in enumerate(state.plays) if cards]
        recent: list[list[int] | None] = [None] * SEATS
        if trick(state) is not None:
            for who, cards in state.plays[plays[-1] :]:
                recent[who] = list(cards)
        view["recent"] = recent
        first = state_of(puzzle["state"])
        seat = seat_to_move(first)
        assert seat is not None
        side = side_of(first, seat)
        mine = tuple(s for s in range(SEATS) if side_of(first, s) == side)
        return Picture("puzzle_ddz", view, SEATS, mine, seat_to_move(state))

    def text(self, puzzle: JSON, position: JSON, tr: Translate) -> str:
        state = state_of(position)
        lines = []
        current = trick(state)
        for seat in range(SEATS):
            role = tr(msg("puzzle.landlord" if seat == state.landlord else "puzzle.farmer"))
            mark = "▶ " if seat == seat_to_move(state) else "  "
            lines.append(f"{mark}{seat + 1} {role}: {cards_text(state.hands[seat], tr)}")
        if current is not None:
            lines.append(tr(msg("puzzle.to_beat", seat=current[0] + 1, cards=cards_text(current[1], tr))))
        return "\n".join(lines)

    def verify(self, puzzle: JSON) -> bool:
        state = state_of(puzzle["state"])
        seat = seat_to_move(state)
        if seat is None or state.landlord is None:
            return False
        moves = _GAME.legal_moves(state, seat)
        if len(moves) < FEWEST_MOVES or any(not state.hands[seat][len(m.ranks) :] for m in moves):
            return False  # too few choices, or the whole hand goes at once
        return 1 <= len(Solved(state).winning(state)) <= MOST_WINNING
