"""Chinese Checkers' review, in turns to finish: an estimate from the hard AI's evaluation of a seat's
pieces (`Position.cost`: the steps to its goal, more for a piece left behind or off the straight line to
the goal) at `PACE` steps a turn. A move is judged by where it leaves the mover's pieces after its best
next move of its own (two moves of its own in a row, the others standing still: a move that builds a
ladder counts for what it opens), and compared with the best reachable move (the `CANDIDATES` that go
farthest, `Position.ordered`, judged the same way): a move that left `MISTAKE_TURNS` turns or more to
finish than the best of them is a mistake, by that many turns. Each seat's chance is a softmax of minus
its turns to finish (`TEMPER` turns an e-fold); a seat that has finished first has won.
"""

from __future__ import annotations

import math

from engines.base import JSON, msg
from engines.checkers import board as B
from engines.checkers.game import Checkers
from engines.checkers.levels import CENTRE, LAG, STRAGGLE
from engines.checkers.position import Position, Step
from engines.checkers.rules import shortest_path
from engines.checkers.state import GOAL, Move, State
from engines.review import Mistake, Record, Review, finish

WORK = 1_000  # positions judged a move at most (candidates past it are not judged)
PACE = 3.5  # steps toward the goal a turn (a two-player game of about 45 moves each covers ~160 steps)
CANDIDATES = 12
MISTAKE_TURNS = 1.5
TEMPER = 4.0


def review(record: Record, work: int | None = None) -> Review:
    game = Checkers()
    steps = record.replay(game)
    seats = record.seats
    budget = work or WORK
    turns = [_turns(Position(steps[0][0]), s) for s in range(seats)]
    used = seats
    chances = [_chances(turns, ())]
    mistakes: list[Mistake] = []
    for ply, (state, seat, move) in enumerate(steps[:-1]):
        pos = Position(state)
        candidates = [s for s in pos.ordered(seat) if s != (move.start, move.to)][:CANDIDATES]
        played, spent = _after(pos, seat, (move.start, move.to))
        best, best_step = played, None
        for step in candidates:
            if spent >= budget:
                break
            found, cost = _after(pos, seat, step)
            spent += cost
            if found < best:
                best, best_step = found, step
        used += spent
        turns[seat] = played
        after: State = steps[ply + 1][0]
        chances.append(_chances(turns, after.finished))
        loss = played - best
        if best_step is not None and loss >= MISTAKE_TURNS:
            path = shortest_path(state.board, best_step[0], best_step[1], GOAL[seats][seat])
            assert path is not None, "a candidate is a reachable hole"
            better = game.move_text(state, Move(path))
            mistakes.append(Mistake(ply, seat, game.move_text(state, move), better, float(loss), False,
                                    msg("review.checkers_slower", move=game.move_text(state, move), better=better,
                                        turns=max(1, round(loss)), count=max(1, round(loss)))))
    top = max((m.loss for m in mistakes), default=1.0)
    scaled = [Mistake(m.ply, m.seat, m.played, m.better, m.loss / top, m.exact, m.said) for m in mistakes]
    movers = [seat for _, seat, move in steps if move is not None]
    return finish("checkers", tuple((s,) for s in range(seats)), movers, chances, [False] * len(chances), scaled,
                  lambda m: _board(game, steps[m.ply][0], m), used, record.winners, estimate=True)


def _after(pos: Position, seat: int, step: Step) -> tuple[float, int]:
    """`seat`'s turns to finish after `step` and its best next move of its own (the step's turn counted),
    and the positions looked at."""
    pos.do(seat, *step)
    try:
        best, looked = _turns(pos, seat), 1
        for follow in pos.ordered(seat)[:CANDIDATES]:
            pos.do(seat, *follow)
            best = min(best, _turns(pos, seat) + 1)
            pos.undo(seat, *follow)
            looked += 1
    finally:
        pos.undo(seat, *step)
    return best + 1, looked


def _turns(pos: Position, seat: int) -> float:
    """`seat`'s turns to finish, estimated from the hard AI's evaluation of its pieces."""
    if pos.filled(seat):
        return 0.0
    return max(0.0, pos.cost(seat, STRAGGLE, LAG, CENTRE) - B.FULL) / PACE


def _chances(turns: list[float], finished: tuple[int, ...]) -> tuple[float, ...]:
    if finished:
        return tuple(1.0 if s == finished[0] else 0.0 for s in range(len(turns)))
    weights = [math.exp(-(t - min(turns)) / TEMPER) for t in turns]
    total = sum(weights)
    return tuple(w / total for w in weights)


def _board(game: Checkers, state: State, mistake: Mistake) -> tuple[JSON, JSON]:
    paths = [game.parse_move(state, mistake.seat, text).path if text else None
             for text in (mistake.played, mistake.better)]
    played, better = ([B.LABELS[h] for h in path] if path else None for path in paths)
    return game.view(state, None), {"played": played, "better": better}
