"""The gomoku AI: four levels (`levels.py`), one entry point `choose(state, seat, level, limit, rng) -> AIResult`.

- easy: the one-ply pattern scorer (below) that always makes five and always
  blocks a four, but picks among its few best points with some chance, so it
  overlooks things now and then.
- medium: a shallow PVS (two plies, narrow) plus a short VCF.
- hard: a PVS with the pattern evaluation that deepens while its budget lasts,
  plus threat-space search: VCF and a short VCT for itself, only moves that
  refute the opponent's VCF, and a check that its move leaves the opponent no
  short VCT. The nodes that check leaves (it usually passes the PVS's move in
  a few thousand) go back to the PVS (`_resume`): it goes on from the iteration
  it stopped in until 5 % of the budget is left, and a move it then prefers is
  played only if a VCT check in those last nodes finishes and finds nothing.
- master: wider and deeper: VCF of 20 fours, VCT of 5 attacking moves, a PVS
  whose quiescence answers open threes and whose evaluation weighs the other
  side's potential at 85 % of the mover's (`w_opp`), stopped at 60 % of the
  budget (hard: 70 %; half of that when three root moves or fewer refute the
  opponent's VCF) for the checks below; after the PVS it checks its moves in
  the PVS's order (then the other points of either side's threats), the first
  three side by side, for an opponent VCT of 1, 2, ... 7 attacking moves and
  plays the first that leaves none, or, when every move checked loses, the one
  that loses deepest (`_hold_out`); the nodes left go back to the PVS as for
  hard (`_resume`, a new move checked for a VCT of 7). The check comes after the PVS, not
  before it: the opponent's VCT "were it to move now" is nearly always there
  for the side with the initiative, so a guard before the PVS would fire at
  almost every move of a defence and leave the PVS a few thousand nodes.

Every level but easy counts its nodes on one `Budget` (engines/budget.py): the
searches (`search.py`) stop when a stage's share of it is spent.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from engines.base import AIInfo, AIResult, Limit
from engines.budget import Budget, Clock, OutOfWork
from engines.gomoku.board import BLACK, WHITE, geometry
from engines.gomoku.fastpos import new_position
from engines.gomoku.levels import LEVELS, Level
from engines.gomoku.patterns import B1, B2, B3, B4, F1, F2, F3, F4, F5, counts
from engines.gomoku.position import BIT_F5, Position
from engines.gomoku.search import CLOCK_EVERY, MATE, Searcher
from engines.gomoku.state import Point, State


def position_of(state: State) -> Position:
    """The AI's board for a game state."""
    geo = geometry(state.size)
    stones = [(geo.index(p.col, p.row), BLACK if i % 2 == 0 else WHITE) for i, p in enumerate(state.moves)]
    return new_position(state.size, state.rule, stones)


def choose(state: State, seat: int, level: str | Level, limit: Limit, rng: random.Random,
           clock: Clock | None = None) -> AIResult[Point]:
    """The move of `seat` (the seat to move) at `level` (a name, or a `Level` for tuning), searching
    `limit.work` nodes at most; `limit.seconds` of CPU time on `clock` is only a safety net (engines/budget.py)."""
    pos = position_of(state)
    colour = BLACK if seat == 0 else WHITE
    if not state.moves:
        return AIResult(Point(state.size // 2, state.size // 2), AIInfo(work=0, reason="opening"))
    settings = LEVELS[level] if isinstance(level, str) else level
    if settings.one_ply:
        point, info = one_ply(pos, colour, rng, sloppy=True), AIInfo(work=len(pos.cand))
    else:
        point, info = think(pos, colour, settings, limit, clock)
    return AIResult(Point(*pos.geo.colrow(point)), info)


# --- one ply ------------------------------------------------------------------------------------

# The one-ply weights: attack (own stone) and defence (the opponent's stone there).
ATTACK = {F5: 100000, F4: 10000, B4: 1500, F3: 1200, B3: 150, F2: 120, B2: 15, F1: 10, B1: 1}
DEFEND = {F5: 50000, F4: 8000, B4: 1000, F3: 900, B3: 100, F2: 80, B2: 10, F1: 5, B1: 1}


def _one_ply_score(code: int, weights: dict[int, int], combo: int) -> int:
    n = counts(code)
    score = sum(weights[k] * n[k] for k in weights)
    if n[B4] >= 2 or (n[B4] and n[F3]):
        score += 8 * combo
    elif n[F3] >= 2:
        score += 5 * combo
    return score


def one_ply(pos: Position, colour: int, rng: random.Random, sloppy: bool = False) -> int:
    """The point the one-ply scorer likes best for `colour` (a five first, then the block of the
    opponent's five); `sloppy`: one of the best few, picked with some chance."""
    foe = 3 - colour
    for point in pos.fours[colour]:
        if pos.code[colour][point] >= BIT_F5 and not _bad(pos, colour, point):
            return point
    theirs = [point for point in pos.fives(foe) if not _bad(pos, colour, point)]
    if theirs:
        return theirs[0]
    mine, their = pos.code[colour], pos.code[foe]
    cent = pos.st.centrality
    scored = []
    for point in pos.cand or pos.geo.points:
        if pos.cells[point] or _bad(pos, colour, point):
            continue
        score = _one_ply_score(mine[point], ATTACK, 1000) + _one_ply_score(their[point], DEFEND, 800)
        scored.append((score + cent[point] * 0.1 + rng.random() * 0.01, point))
    if not scored:
        return next(point for point in pos.geo.points if not pos.cells[point])
    scored.sort(reverse=True)
    if not sloppy:
        return scored[0][1]
    best = scored[0][0]
    # The best always stays in the pool (centrality can make every score negative).
    pool = [scored[0][1]] + [point for score, point in scored[1:4] if score >= best * 0.4]
    weights = [0.55, 0.25, 0.12, 0.08][: len(pool)]
    return rng.choices(pool, weights)[0]


def _bad(pos: Position, colour: int, point: int) -> bool:
    return colour == BLACK and pos.renju and pos.is_forbidden(point)


# --- search levels ------------------------------------------------------------------------------


class Found(NamedTuple):
    """A search level's move, and how it was found."""

    point: int
    reason: str  # the stage that chose it: five, block, vcf, vct, pvs
    score: int | None = None  # the PVS's value of the move
    depth: int | None = None  # the deepest PVS iteration that finished


class Deepened(NamedTuple):
    """What the PVS's iterations found."""

    best: int
    value: int
    depth: int  # the iteration the nodes ran out in, or the next one
    finished: int | None  # the deepest iteration that finished (None: none did)


def think(pos: Position, colour: int, level: Level, limit: Limit, clock: Clock | None = None) -> tuple[int, AIInfo]:
    """The search levels' move, and how it was found: `reason` the stage that chose it (five, block, vcf,
    vct, pvs; "seconds" if the ceiling cut the search short), the PVS's depth and score, the
    nodes searched."""
    budget = Budget(limit, clock, every=CLOCK_EVERY)
    found = _think(pos, colour, level, Searcher(pos, level, budget))
    info = AIInfo(work=budget.used, reason="seconds" if budget.stalled else found.reason)
    if found.depth is not None:
        info["depth"] = found.depth
    if found.score is not None:
        info["score"] = found.score
    return found.point, info


def _think(pos: Position, colour: int, level: Level, searcher: Searcher) -> Found:
    foe = 3 - colour
    budget = searcher.budget
    work = budget.work
    mine = pos.code[colour]
    # Immediate: a five, a forced block.
    for point in pos.fours[colour]:
        if mine[point] >= BIT_F5 and not _bad(pos, colour, point):
            return Found(point, "five")
    theirs = [point for point in pos.fives(foe) if not _bad(pos, colour, point)]
    if theirs:
        return Found(theirs[0], "block")

    def run(search: Callable[[int, int], int | None], share: float, depth: int) -> int | None:
        """search(colour, depth) within `share` of the budget; None when the nodes run out."""
        budget.stage(work * share if share else work)
        made = len(pos.moves)
        try:
            return search(colour, depth)
        except OutOfWork:
            while len(pos.moves) > made:
                pos.unmake()
            return None

    win = run(searcher.vcf, level.share_vcf, level.vcf_depth)
    if win is not None:
        return Found(win, "vcf")
    root = searcher.moves(colour, 0, 0, level.root_width)
    if level.defend_vcf:
        root = _refutations(pos, colour, searcher, root, lambda: searcher.vcf(foe, level.vcf_depth), work * 0.05,
                            work * 0.03, work)
    if level.vct_depth:
        win = run(searcher.vct_deepening, level.share_vct, level.vct_depth)
        if win is not None and not _bad(pos, colour, win):
            return Found(win, "vct")
    if len(root) == 1:
        return Found(root[0], "pvs")
    checking = bool(level.defend_vct or level.hold_vct)
    # Few root moves (the others lose to a VCF): the checks tell them apart better than the PVS.
    share_pvs = level.share_pvs if len(root) > 3 else level.share_pvs / 2
    budget.stop_at(min(budget.work, int(work * share_pvs)) if checking else budget.work)
    deepened = _deepen(pos, colour, level, searcher, root, 1, 0)
    best, value, finished = deepened.best, deepened.value, deepened.finished
    score = value
    if checking and value < MATE:  # when lost, too: a move the opponent's VCT cannot see through may save it
        order = [best] + [point for point in root if point != best]
        if level.hold_vct:
            best = _hold_out(pos, colour, searcher, _threat_points(pos, colour, order), level.hold_vct)
        else:
            best = _check_vct(pos, colour, searcher, order, level)
        if level.resume and value >= -MATE and budget.used < budget.work * (1 - 2 * level.resume):
            resumed = _resume(pos, colour, level, searcher, root, deepened.depth, best, value)
            best = resumed.point
            if resumed.depth is not None:
                finished = resumed.depth
            if resumed.score is not None:
                score = resumed.score
    return Found(best, "pvs", score, finished)


def _deepen(pos: Position, colour: int, level: Level, searcher: Searcher, root: list[int], first: int,
            value: int) -> Deepened:
    """The PVS's iterations from depth `first` on `root` (sorted best first after each) until the budget's
    stage ends. `value`: root[0]'s value from before, kept if no iteration finishes."""
    budget = searcher.budget
    base = len(pos.moves)
    best = root[0]
    depth = first
    finished = None
    for depth in range(first, level.max_depth + 1):
        scores: dict[int, int] = {}
        began = budget.used
        try:
            best, value = searcher.root(colour, root, depth, scores)
        except OutOfWork:
            while len(pos.moves) > base:
                pos.unmake()
            done = [point for point in root if point in scores]
            if done:
                top = max(done, key=lambda point: scores[point])
                if top != root[0] and scores[top] > scores.get(root[0], -MATE):
                    best = top
            return Deepened(best, value, depth, finished)
        finished = depth
        root.sort(key=lambda point: -scores.get(point, -10 * MATE))
        if value > MATE or value < -MATE:
            break
        # The next iteration takes a few times more nodes than this one: start it only if it can finish
        # (the stage stops at the count end + 1).
        if not level.patient and budget.used + 2.5 * (budget.used - began) > budget.end + 1:
            break
    return Deepened(best, value, depth + 1, finished)


def _resume(pos: Position, colour: int, level: Level, searcher: Searcher, root: list[int], depth: int,
            checked: int, value: int) -> Found:
    """The nodes the VCT check of `checked` left: the PVS goes on from the iteration it stopped in (its
    table keeps what it had searched) until `level.resume` of the budget is left; a move it then
    prefers replaces `checked` only if a VCT check within those last nodes finishes and finds nothing
    (the move's score is then the PVS's new one)."""
    budget = searcher.budget
    budget.stop_at(int(budget.work * (1 - level.resume)))
    root.sort(key=lambda point: point != checked)
    deepened = _deepen(pos, colour, level, searcher, root, depth, value)
    best, value = deepened.best, deepened.value
    if best == checked or value > MATE or value < -MATE:
        return Found(checked, "pvs", None, deepened.finished)
    foe = 3 - colour
    base = len(pos.moves)
    pos.make(best, colour)
    blocks = pos.five_near(colour, best)
    if len(blocks) == 1:
        pos.make(blocks[0], foe)
    budget.stop_at(budget.work)
    try:
        safe = len(blocks) > 1 or searcher.vct_deepening(foe, level.hold_vct or level.defend_vct) is None
    except OutOfWork:
        safe = False
    while len(pos.moves) > base:
        pos.unmake()
    if safe:
        return Found(best, "pvs", value, deepened.finished)
    return Found(checked, "pvs", None, deepened.finished)


def _check_vct(pos: Position, colour: int, searcher: Searcher, order: list[int], level: Level) -> int:
    """The first move in `order` after which the opponent has no VCT (as far as the budget allows to see)."""
    foe = 3 - colour
    budget = searcher.budget
    for point in order[:6]:
        left = budget.left
        if left < budget.work // 50:
            break
        made = len(pos.moves)
        pos.make(point, colour)
        blocks = pos.five_near(colour, point)
        if len(blocks) == 1:  # a four only delays: after the forced block the threat must be gone
            pos.make(blocks[0], foe)
        budget.stage(left / 2)
        try:
            lost = len(blocks) < 2 and searcher.vct_deepening(foe, level.defend_vct) is not None
        except OutOfWork:
            lost = False
        while len(pos.moves) > made:
            pos.unmake()
        if not lost:
            return point
    return order[0]


def _hold_out(pos: Position, colour: int, searcher: Searcher, order: list[int], depth: int, window: int = 3) -> int:
    """Master's check of its move after the PVS: the first move in `order` (the PVS's, then the other
    points of either side's threats) after which the opponent has no VCT of at most `depth` attacking
    moves. The first `window` moves still standing are checked side by side, each a step deeper in
    turn (1, 3, 5, ... attacking moves: a threat that needs a defence several moves before it becomes a
    VCT costs many times more nodes to see than a short one), so the nodes go to telling the leading
    moves apart rather than to proving one of them safe at a depth the others were never looked at; a
    move proven lost makes room for the next in `order`. Each check is given half of the nodes left,
    and one that runs out of them ends the checks: the moves still standing count as safe (a refutation
    that deep may not exist). When every move checked loses, the one whose loss is deepest (the first
    of those in `order`): the hardest to refute."""
    foe = 3 - colour
    budget = searcher.budget
    base = len(pos.moves)
    waiting = iter(order)
    standing: list[int] = []  # in `order`'s order
    lost: dict[int, int] = {}  # a move -> the depth of the opponent's VCT found after it
    held: dict[int, int] = {}  # a move -> the deepest check it passed

    def refill() -> int | None:
        """Fill the window from `order`; a move that makes two fours at once is returned (it wins)."""
        while len(standing) < window:
            point = next(waiting, None)
            if point is None:
                return None
            if _played_through_block(pos, colour, point):
                return point
            while len(pos.moves) > base:
                pos.unmake()
            standing.append(point)
            held[point] = 0
        return None

    winner = refill()
    if winner is not None:
        return winner
    for d in range(1, depth + 1):
        i = 0
        while i < len(standing):
            point = standing[i]
            if held[point] >= d:
                i += 1
                continue
            left = budget.left
            if left < budget.work // 50:
                return standing[0]
            _played_through_block(pos, colour, point)
            budget.stage(left / 2)
            try:
                found = searcher.vct(foe, d) is not None
            except OutOfWork:
                return standing[0]
            finally:
                while len(pos.moves) > base:
                    pos.unmake()
            if found:
                lost[point] = d
                standing.pop(i)
                winner = refill()
                if winner is not None:
                    return winner
            else:
                held[point] = d
                i += 1
        if not standing:
            break
    if standing:
        return standing[0]
    deepest = max(lost.values(), default=0)
    return next((point for point in order if lost.get(point) == deepest), order[0])


def _refutations(pos: Position, colour: int, searcher: Searcher, root: list[int], threat: Callable[[], int | None],
                 first: float, each: float, until: float) -> list[int]:
    """If `threat()` (within `first` nodes) finds the opponent a forced win were it to move now, the moves
    after which it finds none: tried in order, each check within `each` nodes, until the count of nodes
    reaches `until`: the usual candidates, then every point of the opponent's threats and of one's own.
    No threat, or no move proven safe: `root` as it is."""
    budget = searcher.budget
    base = len(pos.moves)

    def holds() -> bool | None:
        try:
            return threat() is not None
        except OutOfWork:
            return None
        finally:
            while len(pos.moves) > base:
                pos.unmake()

    budget.stop_at(min(budget.work, int(until), budget.used + max(1, int(first))))
    if not holds():
        return root
    pool = _threat_points(pos, colour, root)
    safe: list[int] = []
    for point in pool:
        if budget.used >= min(until, budget.work):
            break
        if _played_through_block(pos, colour, point):
            safe.append(point)
            continue
        budget.stop_at(min(budget.work, int(until), budget.used + max(1, int(each))))
        if holds() is False:
            safe.append(point)
    return safe or root


def _threat_points(pos: Position, colour: int, root: list[int]) -> list[int]:
    """The guards' candidates for `colour`: the usual ones (`root`), then every point of either side's threats."""
    foe = 3 - colour
    threats = pos.fours[foe] | pos.threes[foe] | pos.fours[colour] | pos.threes[colour]
    return [point for point in dict.fromkeys(root + sorted(threats)) if not pos.cells[point]
            and not _bad(pos, colour, point)]


def _played_through_block(pos: Position, colour: int, point: int) -> bool:
    """Play `point` for `colour`. True (and nothing left played) when it makes two five points: the opponent
    cannot stop both. Otherwise `point` stays played, and when it made a four the opponent's block after it:
    the position the opponent's threat is checked in (the caller unmakes back to its base)."""
    pos.make(point, colour)
    blocks = pos.five_near(colour, point)
    if len(blocks) > 1:
        pos.unmake()
        return True
    if blocks:
        pos.make(blocks[0], 3 - colour)
    return False
