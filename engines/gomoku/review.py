"""Gomoku's review: the threat-space searches (`search.py`) look at every position of the game.

At each position the side to move is asked for a forced win (a VCF of up to `VCF_DEPTH` fours, then a
VCT of up to `VCT_DEPTH` attacking moves) within `WORK` nodes. What counts as a mistake is proved:

- a move after which the opponent has a forced win that the position before did not give: a better
  move is found after which the same searches find none for the opponent;
- a missed win by fours: the mover had a VCF and played a move that neither wins nor keeps it going.

Elsewhere the chances come from the engine's static evaluation (each side's line patterns), turned into a
chance by a logistic curve: an estimate. A proved forced win is a chance of 1 (0 for the other side).
The opening of swap2, before the colours are settled, is not judged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from engines.base import JSON, Limit, msg
from engines.budget import Budget, OutOfWork
from engines.gomoku import Gomoku
from engines.gomoku.ai import position_of
from engines.gomoku.board import BLACK, geometry, point_name
from engines.gomoku.levels import LEVELS
from engines.gomoku.opening import PLAY, black_seat, phase
from engines.gomoku.position import BIT_F5, Position
from engines.gomoku.search import INF, Searcher
from engines.gomoku.state import Point, State
from engines.review import Mistake, Record, Review, finish

WORK = 20_000  # nodes a position: the forced-win searches of the side to move
CHECK = 3_000  # nodes for each candidate better move (at most `CANDIDATES` of them)
CANDIDATES = 8
VCF_DEPTH, VCT_DEPTH = 16, 5  # fours; attacking moves (as the master level's VCT)
SCALE = 600.0  # evaluation points per e-fold of the odds (the evaluation is in pattern points)
TEMPO = 250.0  # what the last word of the two-ply PVS takes from the mover, in the same points
EVAL_DEPTH = 2  # plies of the PVS that values a position with no forced win
LEVEL = LEVELS["hard"]
CEILING = 600.0  # seconds: only for a stalled host (the work is the limit)


class _Threat(NamedTuple):
    """The forced win of the side to move, if the searches find one: its kind and first move;
    `complete`: the searches finished within their nodes (else "none found" proves nothing)."""

    kind: str | None
    point: int | None
    complete: bool = True


def review(record: Record, work: int | None = None) -> Review:
    game = Gomoku()
    steps = record.replay(game)
    per = work or WORK
    final: State = steps[-1][0]
    black = black_seat(final)
    black = 0 if black is None else black
    used = 0

    def searched(state: State) -> tuple[Position, Searcher, Budget]:
        pos = position_of(state)
        budget = Budget(_limit(per))
        return pos, Searcher(pos, LEVEL, budget), budget

    threats: list[_Threat] = []
    values: list[float] = []  # black's chance at each point
    for state, _, _ in steps:
        if phase(state) != PLAY or state.over:
            threats.append(_Threat(None, None))
            values.append(_end_value(state) if state.over else 0.5)
            continue
        _, searcher, budget = searched(state)
        colour = BLACK if state.turn == 0 else 3 - BLACK
        threat = _forced(searcher, colour)
        used += budget.used
        threats.append(threat)
        mover_chance = 1.0 if threat.kind is not None else _chance(_value(searcher, colour))
        values.append(mover_chance if colour == BLACK else 1 - mover_chance)
    mistakes: list[Mistake] = []
    for ply, (state, seat, move) in enumerate(steps[:-1]):
        if not isinstance(move, Point) or phase(state) != PLAY:
            continue
        colour = BLACK if state.turn == 0 else 3 - BLACK
        mine = values[ply] if colour == BLACK else 1 - values[ply]
        after = values[ply + 1] if colour == BLACK else 1 - values[ply + 1]
        now, then = threats[ply], threats[ply + 1]
        found: Mistake | None = None
        start = _name(state, now.point) if now.point is not None else None
        if start is not None and start != move.name and not _kept(state, move, now, threats[ply + 2:], per):
            key = "review.gomoku_missed_vcf" if now.kind in ("vcf", "four_three") else "review.gomoku_missed_win"
            found = Mistake(ply, seat, move.name, start, max(0.0, mine - after), True,
                            msg(key, move=move.name, better=start))
        elif then.kind is not None and now.kind is None:
            better, held, spent = _holding(state, colour, per)
            used += spent
            if better is not None:
                foe = msg("gomoku.white" if colour == BLACK else "gomoku.black")
                mine = max(mine, held)  # the position was worth at least what the better move keeps
                values[ply] = mine if colour == BLACK else 1 - mine
                found = Mistake(ply, seat, move.name, better, max(0.0, mine - after), True,
                                msg(f"review.gomoku_gave_{then.kind}", move=move.name, better=better, foe=foe))
        if found is not None:
            mistakes.append(found)
    exact = [t.kind is not None or s.over for t, (s, _, _) in zip(threats, steps, strict=True)]
    values = _smoothed(values, exact)
    chances = [(v, 1 - v) if black == 0 else (1 - v, v) for v in values]
    movers = [seat for _, seat, move in steps if move is not None]
    return finish("gomoku", ((0,), (1,)), movers, chances, exact, mistakes, _board(game, steps), used,
                  record.winners, estimate=True)


def _smoothed(values: list[float], exact: list[bool]) -> list[float]:
    """The estimates, each averaged with the estimates beside it (1 2 1): a two-ply value favours one
    side or the other by whose move it is; proved points stay as they are."""
    out = list(values)
    for i in range(1, len(values) - 1):
        if not (exact[i - 1] or exact[i] or exact[i + 1]):
            out[i] = (values[i - 1] + 2 * values[i] + values[i + 1]) / 4
    return out


def _limit(work: int) -> Limit:
    return Limit(work, CEILING)


def _forced(searcher: Searcher, colour: int) -> _Threat:
    """The side to move's forced win: "five" (a five or an open four now), "four_three" (a VCF of one
    four), "vcf", "vct", or none found within the budget."""
    pos = searcher.pos
    base = len(pos.moves)
    try:
        point = searcher.vcf(colour, 0)
        if point is not None:
            return _Threat("five", point)
        point = searcher.vcf(colour, VCF_DEPTH)
        if point is not None:
            line = searcher.vcf_line(colour, VCF_DEPTH)
            return _Threat("four_three" if len(line) <= 3 else "vcf", point)
        point = searcher.vct_deepening(colour, VCT_DEPTH)
        if point is not None:
            return _Threat("vct", point)
    except OutOfWork:
        while len(pos.moves) > base:
            pos.unmake()
        return _Threat(None, None, False)
    return _Threat(None, None)


def _chance(value: float) -> float:
    """The side to move's chance from its PVS value (which, ending on the other side's move, undervalues the mover)."""
    return 1 / (1 + math.exp(-max(-40.0, min(40.0, (value + TEMPO) / SCALE))))


def _value(searcher: Searcher, colour: int) -> float:
    """The side to move's value by a short PVS (`EVAL_DEPTH` plies) within what is left of the budget;
    the static evaluation if that runs out."""
    pos = searcher.pos
    base = len(pos.moves)
    searcher.budget.stop_at(searcher.budget.work)
    try:
        return float(searcher.search(colour, EVAL_DEPTH, -INF, INF, 0))
    except OutOfWork:
        while len(pos.moves) > base:
            pos.unmake()
        return float(pos.evaluation(colour))


def _kept(state: State, move: Point, won: _Threat, later: list[_Threat], work: int) -> bool:
    """Whether `move`, not the first move of the mover's forced win `won`, still keeps a win: a VCF
    kept going (`_keeps_vcf`), or, for any other win, one the searches find again at the mover's next
    turn (or could not rule out)."""
    if won.kind in ("vcf", "four_three"):
        return _keeps_vcf(state, move, work)
    return bool(later) and (later[0].kind is not None or not later[0].complete)


def _keeps_vcf(state: State, move: Point, work: int) -> bool:
    """Whether `move` wins at once or is a four after whose forced block the mover still has a VCF."""
    pos = position_of(state)
    colour = BLACK if state.turn == 0 else 3 - BLACK
    point = pos.geo.index(move.col, move.row)
    if pos.code[colour][point] >= BIT_F5:
        return True
    pos.make(point, colour)
    blocks = pos.five_near(colour, point)
    if len(blocks) != 1:
        return len(blocks) > 1
    pos.make(blocks[0], 3 - colour)
    try:
        return Searcher(pos, LEVEL, Budget(_limit(work))).vcf(colour, VCF_DEPTH) is not None
    except OutOfWork:
        return True  # not proved lost: not called a mistake


def _holding(state: State, colour: int, work: int) -> tuple[str | None, float, int]:
    """A move for `colour` after which the opponent's searches find no forced win (the candidates: the
    PVS's ordering of moves, the points of the opponent's threats first), `colour`'s chance after it,
    and the nodes spent."""
    pos = position_of(state)
    foe = 3 - colour
    searcher = Searcher(pos, LEVEL, Budget(_limit(work)))
    order = searcher.moves(colour, 0, 0, LEVEL.root_width)
    rank = {point: i for i, point in enumerate(order)}
    threats = sorted((p for p in pos.fours[foe] | pos.threes[foe] if not pos.cells[p]),
                     key=lambda p: rank.get(p, len(rank)))
    candidates = list(dict.fromkeys([*threats, *order]))[:CANDIDATES]
    used = searcher.budget.used
    for point in candidates:
        if colour == BLACK and pos.renju and pos.is_forbidden(point):
            continue
        base = len(pos.moves)
        five = pos.code[colour][point] >= BIT_F5
        pos.make(point, colour)
        blocks = pos.five_near(colour, point)
        theirs = pos.fives(foe)  # a five of the opponent's comes first, whatever the move threatens
        if len(blocks) == 1 and not theirs:
            pos.make(blocks[0], foe)
        budget = Budget(_limit(CHECK))
        checker = Searcher(pos, LEVEL, budget)
        if five or (len(blocks) > 1 and not theirs):
            held, chance = True, 1.0
        elif theirs:
            held, chance = False, 0.0
        else:
            threat = _forced(checker, foe)
            held = threat.kind is None and threat.complete
            chance = 1 - _chance(_value(checker, foe)) if held else 0.0
        used += budget.used
        while len(pos.moves) > base:
            pos.unmake()
        if held:
            return point_name(*pos.geo.colrow(point)), chance, used
    return None, 0.0, used


def _name(state: State, point: int) -> str:
    return point_name(*geometry(state.size).colrow(point))


def _end_value(state: State) -> float:
    """Black's chance once the game is over: 1 or 0 for a five, 0.5 for a full board."""
    if not state.win_line:
        return 0.5
    return 1.0 if (len(state.moves) - 1) % 2 == 0 else 0.0


def _board(game: Gomoku, steps: list[tuple[Any, int, Any]]) -> Callable[[Mistake], tuple[JSON, JSON]]:
    def board(mistake: Mistake) -> tuple[JSON, JSON]:
        state = steps[mistake.ply][0]
        points = [game.parse_move(state, mistake.seat, text) if text else None
                  for text in (mistake.played, mistake.better)]
        played, better = (list(p) if isinstance(p, Point) else None for p in points)
        return game.view(state, None), {"played": played, "better": better}

    return board

