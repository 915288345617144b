"""Nim's review, exact: the theory (`engines.nim.mover_loses`) says who wins every position, so a
mistake is every move from a winning position to a losing one, and the better move is a winning one
(the fewest stones of the lowest heap among them). The chances are 1 or 0 at every point."""

from __future__ import annotations

from engines.base import JSON, msg
from engines.nim import Move, Nim, State, mover_loses
from engines.review import Mistake, Record, Review, finish

WORK = 1_000  # positions looked at a move at most (Nim's hard level): every legal move of a position


def review(record: Record, work: int | None = None) -> Review:
    game = Nim()
    steps = record.replay(game)
    chances: list[tuple[float, float]] = []
    mistakes: list[Mistake] = []
    used = 0
    for state, seat, move in steps:
        wins = not mover_loses(state)  # for the seat to move (seat 1 - the last mover once over)
        chances.append((1.0, 0.0) if wins == (state.turn == 0) else (0.0, 1.0))
        if move is None or not wins:
            continue
        after = game.apply(state, seat, move)
        if mover_loses(after):
            continue
        better, looked = _winning(game, state, seat, work or WORK)
        used += looked
        named = game.move_text(state, better) if better else None
        mistakes.append(Mistake(len(chances) - 1, seat, game.move_text(state, move), named, 1.0, True,
                                msg("review.nim_lost_win", heap=move.heap + 1, count=move.count,
                                    better_heap=better.heap + 1 if better else 0,
                                    better_count=better.count if better else 0)))
    return finish("nim", ((0,), (1,)), [seat for _, seat, m in steps if m is not None], chances,
                  [True] * len(chances), mistakes, lambda m: _board(game, steps[m.ply][0], steps[m.ply][2], m), used,
                  record.winners)


def _winning(game: Nim, state: State, seat: int, most: int) -> tuple[Move | None, int]:
    """A winning move of `seat` (the one taking the fewest stones, from the first heap), and the moves
    looked at (at most `most`)."""
    moves = sorted(game.legal_moves(state, seat), key=lambda m: (m.count, m.heap))[:most]
    for looked, move in enumerate(moves, 1):
        if mover_loses(game.apply(state, seat, move)):
            return move, looked
    return None, len(moves)


def _board(game: Nim, state: State, move: Move, mistake: Mistake) -> tuple[JSON, JSON]:
    better = game.parse_move(state, mistake.seat, mistake.better) if mistake.better else None
    return game.view(state, None), {"played": [move.heap, move.count],
                                    "better": [better.heap, better.count] if better else None}
