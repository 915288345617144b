"""The gomoku AI: four levels, one entry point `choose(state, seat, level, limit, rng) -> AIResult`.

- easy: the one-ply pattern scorer (below) that always makes five and always
  blocks a four, but picks among its few best points with some chance, so it
  overlooks things now and then.
- medium: a shallow PVS (two plies, narrow) plus a short VCF.
- hard: a PVS with the pattern evaluation that deepens while its budget lasts,
  plus threat-space search: VCF and a short VCT for itself, only moves that
  refute the opponent's VCF, and a check that its move leaves the opponent no
  short VCT. The nodes that check leaves (it usually passes the PVS's move in
  a few thousand) go back to the PVS (`_resume`, issue 23): it goes on from
  the iteration it stopped in until 5 % of the budget is left, and a move it
  then prefers is played only if a VCT check in those last nodes finishes and
  finds nothing. Before, a quarter of the budget was left unsearched.
- master: wider and deeper: VCF of 20 fours, VCT of 5 attacking moves, a PVS
  whose quiescence answers open threes and whose evaluation weighs the other
  side's potential at 85 % of the mover's (`w_opp`, 100 before), stopped at
  60 % of the budget (hard: 70 %) for the checks below; after the PVS it checks its moves in
  the PVS's order (then the other points of either side's threats) for an
  opponent VCT of 1, 2, 3, 4 attacking moves and plays the first that leaves
  none, or, when every move checked loses, the one that loses deepest
  (`_hold_out`); the nodes left go back to the PVS as for hard (`_resume`,
  a new move checked for a VCT of 4). Until issue 23 a guard ran before the
  PVS instead (`_resist`, removed; see the git history): the opponent's VCT
  "were it to move now" is nearly always there for the side with the
  initiative, so the guard fired at almost every move of a defence and left
  the PVS a few thousand nodes (depth 1-3); master won 0 of 11 games as white
  against hard.

Budgets (`Gomoku.levels`, nodes of one move): medium 12,000, hard 30,000,
master 90,000; CPU p95 about 0.65 s (hard) and 2.0 s (master) a move at the
bench's 50,000-59,000 nodes per second (load 5-9; the wall clock is only a ceiling).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from engines.base import AIInfo, AIResult, Limit
from engines.gomoku.board import BLACK, WHITE, geometry
from engines.gomoku.patterns import B1, B2, B3, B4, F1, F2, F3, F4, F5, counts
from engines.gomoku.position import BIT_F5, Position
from engines.gomoku.search import MATE, Searcher, Timeout
from engines.gomoku.state import Point, State


@dataclass(frozen=True)
class Level:
    max_depth: int = 30  # plies of PVS at most
    width: int = 10  # moves searched at a quiet inner node
    root_width: int = 16
    vcf_depth: int = 16  # attacking moves
    vct_depth: int = 3  # attacking moves (0: no VCT)
    defend_vcf: bool = True  # keep only root moves that refute the opponent's VCF
    defend_vct: int = 0  # depth of the opponent-VCT check of the chosen move (0: none)
    hold_vct: int = 0  # depth of the check after PVS: the best move, in its order, that holds out longest (0: none)
    share_vcf: float = 0.15  # fractions of the node budget for each stage
    share_vct: float = 0.25
    share_pvs: float = 0.7  # PVS stops this far into the budget when the VCT check of its move follows
    qdepth: int = 4  # fours the side to move may play at a leaf
    w_self: int = 100  # evaluation weights (percent) of the mover's and the other side's potential
    w_opp: int = 100
    defend: float = 0.9  # move ordering: weight of the opponent's potential at a point
    qthree: bool = False  # quiescence answers open threes too
    lmr: bool = True  # late move reductions
    patient: bool = False  # deepen until the budget is spent (else stop when the next iteration would not finish)
    resume: float = 0.0  # after the VCT check: the PVS goes on until this fraction of the budget is left (0: no)


LEVELS = {
    "medium": Level(
        max_depth=2, width=8, root_width=12, vcf_depth=6, vct_depth=0, share_vct=0.0, qdepth=0, defend_vcf=False
    ),
    "hard": Level(defend_vct=3, patient=True, resume=0.05),
    "master": Level(
        width=12,
        root_width=20,
        vcf_depth=20,
        vct_depth=5,
        hold_vct=4,
        share_vcf=0.12,
        share_vct=0.3,
        w_opp=85,
        share_pvs=0.6,
        qthree=True,
        patient=True,
        resume=0.05,
    ),
}


def position_of(state: State) -> Position:
    """The AI's board for a game state."""
    geo = geometry(state.size)
    stones = [(geo.index(p.col, p.row), BLACK if i % 2 == 0 else WHITE) for i, p in enumerate(state.moves)]
    return Position(state.size, state.rule, stones)


def choose(state: State, seat: int, level: str | Level, limit: Limit, rng: random.Random,
           clock: Callable[[], float] = perf_counter) -> AIResult[Point]:
    """The move of `seat` (the seat to move) at `level` (a name, or a `Level` for tuning), searching
    `limit.work` nodes at most; `limit.seconds` on `clock` is only a safety net (see search.py)."""
    pos = position_of(state)
    c = BLACK if seat == 0 else WHITE
    if not state.moves:
        return AIResult(Point(state.size // 2, state.size // 2), AIInfo(work=0, reason="opening"))
    if level == "easy":
        p, info = one_ply(pos, c, rng, sloppy=True), AIInfo(work=len(pos.cand))
    else:
        p, info = think(pos, c, LEVELS[level] if isinstance(level, str) else level, limit, rng, clock)
    return AIResult(Point(*pos.geo.colrow(p)), info)


# --- one ply ------------------------------------------------------------------------------------

# The one-ply weights: attack (own stone) and defence (the opponent's stone there).
ATTACK = {F5: 100000, F4: 10000, B4: 1500, F3: 1200, B3: 150, F2: 120, B2: 15, F1: 10, B1: 1}
DEFEND = {F5: 50000, F4: 8000, B4: 1000, F3: 900, B3: 100, F2: 80, B2: 10, F1: 5, B1: 1}


def _one_ply_score(code: int, weights: dict[int, int], combo: int) -> int:
    n = counts(code)
    s = sum(weights[k] * n[k] for k in weights)
    if n[B4] >= 2 or (n[B4] and n[F3]):
        s += 8 * combo
    elif n[F3] >= 2:
        s += 5 * combo
    return s


def one_ply(pos: Position, c: int, rng: random.Random, sloppy: bool = False) -> int:
    o = 3 - c
    for q in pos.fours[c]:
        if pos.code[c][q] >= BIT_F5 and not _bad(pos, c, q):
            return q
    theirs = [q for q in pos.fives(o) if not _bad(pos, c, q)]
    if theirs:
        return theirs[0]
    mine, their = pos.code[c], pos.code[o]
    cent = pos.st.centrality
    scored = []
    for q in pos.cand or pos.geo.points:
        if pos.cells[q] or _bad(pos, c, q):
            continue
        s = _one_ply_score(mine[q], ATTACK, 1000) + _one_ply_score(their[q], DEFEND, 800)
        scored.append((s + cent[q] * 0.1 + rng.random() * 0.01, q))
    if not scored:
        return next(q for q in pos.geo.points if not pos.cells[q])
    scored.sort(reverse=True)
    if not sloppy:
        return scored[0][1]
    best = scored[0][0]
    # The best always stays in the pool (centrality can make every score negative).
    pool = [scored[0][1]] + [q for s, q in scored[1:4] if s >= best * 0.4]
    weights = [0.55, 0.25, 0.12, 0.08][: len(pool)]
    return rng.choices(pool, weights)[0]


def _bad(pos: Position, c: int, q: int) -> bool:
    return c == BLACK and pos.renju and pos.is_forbidden(q)


# --- search levels ------------------------------------------------------------------------------


def think(pos: Position, c: int, level: Level, limit: Limit, rng: random.Random,
          clock: Callable[[], float] = perf_counter) -> tuple[int, AIInfo]:
    """The search levels' move, and how it was found: `reason` the stage that chose it (five, block, vcf,
    vct, pvs; "seconds" if the wall-clock ceiling cut the search short), the PVS's depth and score, the
    nodes searched."""
    info = AIInfo(work=0)
    s = Searcher(pos, limit.work, level.width, level.defend, level.qdepth, level.w_self, level.w_opp, level.qthree,
                 level.lmr)
    s.clock = clock
    s.ceiling = clock() + limit.seconds
    q = _think(pos, c, level, s, info)
    info["work"] = s.nodes
    if s.cut:
        info["reason"] = "seconds"
    return q, info


def _think(pos: Position, c: int, level: Level, s: Searcher, info: AIInfo) -> int:
    o = 3 - c
    budget = s.limit
    mine = pos.code[c]
    # Immediate: a five, a forced block.
    for q in pos.fours[c]:
        if mine[q] >= BIT_F5 and not _bad(pos, c, q):
            info["reason"] = "five"
            return q
    theirs = [q for q in pos.fives(o) if not _bad(pos, c, q)]
    if theirs:
        info["reason"] = "block"
        return theirs[0]

    def run(f, share, *args):
        """f(*args) within `share` of the budget; None when the nodes run out."""
        s.stage(budget * share if share else budget)
        made = len(pos.moves)
        try:
            return f(*args)
        except Timeout:
            while len(pos.moves) > made:
                pos.unmake()
            return None

    q = run(s.vcf, level.share_vcf, c, level.vcf_depth)
    if q is not None:
        info["reason"] = "vcf"
        return q
    root = s.moves(c, 0, 0, level.root_width)
    if level.defend_vcf:
        root = _refutations(pos, c, s, root, lambda: s.vcf(o, level.vcf_depth), budget * 0.05, budget * 0.03,
                            budget)
    if level.vct_depth:
        q = run(s.vct_deepening, level.share_vct, c, level.vct_depth)
        if q is not None and not _bad(pos, c, q):
            info["reason"] = "vct"
            return q
    info["reason"] = "pvs"
    if len(root) == 1:
        return root[0]
    checking = bool(level.defend_vct or level.hold_vct)
    s.stop = min(s.limit, int(budget * level.share_pvs)) if checking else s.limit
    best, value, depth = _deepen(pos, c, level, s, root, 1, 0, info)
    info["score"] = value
    if checking and value < MATE:  # when lost, too: a move the opponent's VCT cannot see through may save it
        order = [best] + [q for q in root if q != best]
        if level.hold_vct:
            best = _hold_out(pos, c, s, _threat_points(pos, c, order), level.hold_vct)
        else:
            best = _check_vct(pos, c, s, order, level)
        if level.resume and value >= -MATE and s.nodes < s.limit * (1 - 2 * level.resume):
            best = _resume(pos, c, level, s, root, depth, best, value, info)
    return best


def _deepen(pos: Position, c: int, level: Level, s: Searcher, root: list[int], first: int, value: int,
            info: AIInfo) -> tuple[int, int, int]:
    """The PVS's iterations from depth `first` on `root` (sorted best first after each) until `s.stop`:
    (best move, its value, the depth of the iteration the nodes ran out in, or the next one). `value`:
    root[0]'s value from before, kept if no iteration finishes."""
    base = len(pos.moves)
    best = root[0]
    depth = first
    for depth in range(first, level.max_depth + 1):
        scores: dict[int, int] = {}
        began = s.nodes
        try:
            best, value = s.root(c, root, depth, scores)
        except Timeout:
            while len(pos.moves) > base:
                pos.unmake()
            done = [q for q in root if q in scores]
            if done:
                top = max(done, key=lambda q: scores[q])
                if top != root[0] and scores[top] > scores.get(root[0], -MATE):
                    best = top
            return best, value, depth
        info["depth"] = depth
        root.sort(key=lambda q: -scores.get(q, -10 * MATE))
        if value > MATE or value < -MATE:
            break
        # the next iteration takes a few times more nodes than this one: start it only if it can finish
        if not level.patient and s.nodes + 2.5 * (s.nodes - began) > s.stop:
            break
    return best, value, depth + 1


def _resume(pos: Position, c: int, level: Level, s: Searcher, root: list[int], depth: int, checked: int,
            value: int, info: AIInfo) -> int:
    """The nodes the VCT check of `checked` left: the PVS goes on from the iteration it stopped in (its
    table keeps what it had searched) until `level.resume` of the budget is left; a move it then
    prefers replaces `checked` only if a VCT check within those last nodes finishes and finds nothing."""
    s.stop = int(s.limit * (1 - level.resume))
    root.sort(key=lambda q: q != checked)
    best, value, _ = _deepen(pos, c, level, s, root, depth, value, info)
    if best == checked or value > MATE or value < -MATE:
        return checked
    o = 3 - c
    base = len(pos.moves)
    pos.make(best, c)
    blocks = pos.five_near(c, best)
    if len(blocks) == 1:
        pos.make(blocks[0], o)
    s.stop = s.limit
    try:
        safe = len(blocks) > 1 or s.vct_deepening(o, level.hold_vct or level.defend_vct) is None
    except Timeout:
        safe = False
    while len(pos.moves) > base:
        pos.unmake()
    if safe:
        info["score"] = value
        return best
    return checked


def _check_vct(pos: Position, c: int, s: Searcher, order: list[int], level: Level) -> int:
    """The first move in `order` after which the opponent has no VCT (as far as the budget allows to see)."""
    o = 3 - c
    for q in order[:6]:
        left = s.limit - s.nodes
        if left < s.limit // 50:
            break
        made = len(pos.moves)
        pos.make(q, c)
        blocks = pos.five_near(c, q)
        if len(blocks) == 1:  # a four only delays: after the forced block the threat must be gone
            pos.make(blocks[0], o)
        s.stage(left / 2)
        try:
            lost = len(blocks) < 2 and s.vct_deepening(o, level.defend_vct) is not None
        except Timeout:
            lost = False
        while len(pos.moves) > made:
            pos.unmake()
        if not lost:
            return q
    return order[0]


def _hold_out(pos: Position, c: int, s: Searcher, order: list[int], depth: int) -> int:
    """Master's check of its move after the PVS: the first move in `order` (the PVS's, then the other
    points of either side's threats) after which the opponent has no VCT of at most `depth` attacking
    moves; each check is given half of the nodes left, and one that runs out of them counts the move as
    safe (a refutation that deep may not exist). When every move checked loses, the one whose loss is
    deepest (the first of those in `order`): the hardest to refute."""
    o = 3 - c
    base = len(pos.moves)
    best, held = order[0], 0
    for q in order:
        left = s.limit - s.nodes
        if left < s.limit // 50:
            break
        if _played_through_block(pos, c, q):
            return q
        s.stage(left / 2)
        lost = 0
        try:
            for d in range(1, depth + 1):
                if s.vct(o, d) is not None:
                    lost = d
                    break
        except Timeout:
            lost = 0
        finally:
            while len(pos.moves) > base:
                pos.unmake()
        if not lost:
            return q
        if lost > held:
            best, held = q, lost
    return best


def _refutations(pos: Position, c: int, s: Searcher, root: list[int], threat, first: float, each: float,
                 stop: float) -> list[int]:
    """If `threat()` (within `first` nodes) finds the opponent a forced win were it to move now, the moves
    after which it finds none: tried in order, each check within `each` nodes, until the count of nodes
    reaches `stop`: the usual candidates, then every point of the opponent's threats and of one's own.
    No threat, or no move proven safe: `root` as it is."""
    base = len(pos.moves)

    def holds() -> bool | None:
        try:
            return threat() is not None
        except Timeout:
            return None
        finally:
            while len(pos.moves) > base:
                pos.unmake()

    s.stop = min(s.limit, int(stop), s.nodes + max(1, int(first)))
    if not holds():
        return root
    pool = _threat_points(pos, c, root)
    safe: list[int] = []
    for q in pool:
        if s.nodes >= min(stop, s.limit):
            break
        if _played_through_block(pos, c, q):
            safe.append(q)
            continue
        s.stop = min(s.limit, int(stop), s.nodes + max(1, int(each)))
        if holds() is False:
            safe.append(q)
    return safe or root


def _threat_points(pos: Position, c: int, root: list[int]) -> list[int]:
    """The guards' candidates for `c`: the usual ones (`root`), then every point of either side's threats."""
    o = 3 - c
    return [q for q in dict.fromkeys(root + sorted(pos.fours[o] | pos.threes[o] | pos.fours[c] | pos.threes[c]))
            if not pos.cells[q] and not _bad(pos, c, q)]


def _played_through_block(pos: Position, c: int, q: int) -> bool:
    """Play `q` for `c`. True (and nothing left played) when it makes two five points: the opponent cannot
    stop both. Otherwise `q` stays played, and when it made a four the opponent's block after it: the
    position the opponent's threat is checked in (the caller unmakes back to its base)."""
    pos.make(q, c)
    blocks = pos.five_near(c, q)
    if len(blocks) > 1:
        pos.unmake()
        return True
    if blocks:
        pos.make(blocks[0], 3 - c)
    return False
