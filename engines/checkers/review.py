"""Chinese Checkers' review, in turns to finish. A seat's turns to finish from a position are measured by a
solo playout: the greedy player (`ai.greedy`'s order, the rearmost piece among equals) moves that seat's
pieces alone, the others standing still, until its goal is full (at most `HORIZON` turns; past that the
distance left is counted at two steps a turn). It is an estimate: the others' pieces move, ladders come
and go.

Each move is compared with the best reachable move: the moves that go farthest toward the goal
(`Position.ordered`, the first `CANDIDATES`) are each played out the same way, and a move that took
`MISTAKE_TURNS` turns or more longer than the best of them is a mistake, by that many turns. Each seat's
chance is a softmax of minus its turns to finish (`TEMPER` turns an e-fold); a seat that has finished
first has won.
"""

from __future__ import annotations

import math

from engines.base import JSON, msg
from engines.checkers import board as B
from engines.checkers.game import Checkers
from engines.checkers.position import Position, Step, reach
from engines.checkers.rules import shortest_path
from engines.checkers.state import GOAL, Move, State
from engines.review import Mistake, Record, Review, finish

WORK = 3_000  # playout turns a move at most (candidates past it are not played out)
HORIZON = 60  # turns a solo playout goes on at most
CANDIDATES = 6
MISTAKE_TURNS = 3
TEMPER = 4.0


def review(record: Record, work: int | None = None) -> Review:
    game = Checkers()
    steps = record.replay(game)
    seats = record.seats
    budget = work or WORK
    turns = [float(_solo(Position(steps[0][0]), s)[0]) for s in range(seats)]
    used = seats * HORIZON
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
                                        turns=int(loss))))
    top = max((m.loss for m in mistakes), default=1.0)
    scaled = [Mistake(m.ply, m.seat, m.played, m.better, m.loss / top, m.exact, m.said) for m in mistakes]
    movers = [seat for _, seat, move in steps if move is not None]
    return finish("checkers", tuple((s,) for s in range(seats)), movers, chances, [False] * len(chances), scaled,
                  lambda m: _board(game, steps[m.ply][0], m), used, record.winners, estimate=True)


def _after(pos: Position, seat: int, step: Step) -> tuple[int, int]:
    """`seat`'s turns to finish when it plays `step` now (that turn counted), and the playout's turns."""
    pos.do(seat, *step)
    try:
        turns, spent = _solo(pos, seat)
    finally:
        pos.undo(seat, *step)
    return turns + 1, spent


def _solo(pos: Position, seat: int) -> tuple[int, int]:
    """`seat`'s turns to fill its goal, the greedy player moving its pieces alone; the playout's turns.
    The position is left as it was."""
    done: list[Step] = []
    dist = pos.dist[seat]
    try:
        for turn in range(HORIZON):
            if pos.filled(seat):
                return turn, turn
            moves = pos.moves(seat)
            if not moves:
                break
            step = max(moves, key=lambda m: reach(dist, *m))
            if dist[step[0]] - dist[step[1]] <= 0 and len(done) > 2 and done[-2] == (step[1], step[0]):
                break  # shuffling back and forth: no greedy progress left
            pos.do(seat, *step)
            done.append(step)
        left = pos.sum[seat] - B.FULL
        return len(done) + math.ceil(left / 2), len(done)
    finally:
        for step in reversed(done):
            pos.undo(seat, *step)


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
