"""Threat-space search (VCF, VCT) and iterative-deepening PVS on a `Position`.

- VCF (victory by continuous fours): the attacker plays only fours, so every
  defence is the one forced block; a win is a five or two five points at once.
- VCT (victory by continuous threats): the attacker plays fours and open
  threes; against a three the defender may play any point that stops it (the
  attacker's four and open-four points) or a four of his own. Every defence
  must lose for the attack to count. `vct_deepening` searches it one depth at a
  time, so a short win is found before a deep search uses up the time.
- PVS with a Zobrist transposition table, killer and history move ordering,
  forced replies (a five threat must be blocked; against an open three only
  the stopping points and one's own fours are searched), a width limit on
  quiet nodes, and a leaf evaluation that scores a four-three or a live three
  of the side to move against no four of the other side as a win.

Work is counted in nodes (`nodes`, one per call of a search function). Everything stops by
raising `Timeout` when `nodes` reaches `stop` (the current stage's end, never past `limit`, the
move's whole budget), so the same position searched with the same budget gives the same result on
an idle machine and a busy one. `ceiling` is a wall-clock safety net on `clock`: a search that
passes it (a stalled host, never an idle core at the level's budget) sets `cut` and stops for good.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter

from engines.gomoku.board import BLACK
from engines.gomoku.patterns import T_FOUR_THREE
from engines.gomoku.position import B4_SHIFT, BIT_F3, BIT_F4, BIT_F5, THREAT, VALUE, Position

WIN = 10_000_000
MATE = WIN - 10_000  # scores beyond this are forced wins
INF = WIN + 1
EXACT, LOWER, UPPER = 0, 1, 2


class Timeout(Exception):
    pass


class Searcher:
    def __init__(
        self,
        pos: Position,
        limit: int = 1 << 62,
        width: int = 12,
        defend: float = 0.9,
        qdepth: int = 4,
        w_self: int = 100,
        w_opp: int = 100,
        qthree: bool = True,
        lmr: bool = True,
    ) -> None:
        self.pos = pos
        self.limit = limit  # nodes: the whole budget
        self.stop = limit  # nodes: the end of the current stage
        self.clock: Callable[[], float] = perf_counter
        self.ceiling = float("inf")  # on `clock`: the safety net
        self.cut = False  # the ceiling was reached
        self.width = width
        self.defend = defend
        self.qdepth = qdepth  # fours the side to move may still play at a leaf
        self.w_self = w_self
        self.w_opp = w_opp
        self.lmr = lmr
        self.qthree = qthree  # at a leaf, answer the opponent's open three before evaluating
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.vcf_memo: dict[int, int] = {}
        self.vct_memo: dict[int, int] = {}  # no win within this depth (attacker or defender to move)
        self.vct_won: dict[int, tuple[int, int]] = {}  # attacker to move: (depth, first move) of a win
        self.vct_lost: dict[int, int] = {}  # defender to move: every defence loses within this depth
        n = pos.geo.length
        self.history = [0] * n
        self.killers: list[list[int]] = [[0, 0] for _ in range(64)]
        self.side_key = (0, 0x5A17C0DE5EED1234, 0x3C3C0FF1CE5A5A5A)

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.stop:
            raise Timeout
        if not self.nodes & 1023 and self.clock() > self.ceiling:
            self.cut = True
            self.limit = self.stop = self.nodes
            raise Timeout

    def stage(self, nodes: float) -> int:
        """Let the next stage search `nodes` more nodes (within the whole budget); returns its end."""
        self.stop = min(self.limit, self.nodes + max(1, int(nodes)))
        return self.stop

    # --- helpers -----------------------------------------------------------------------
    def forbidden(self, c: int, p: int) -> bool:
        return c == BLACK and self.pos.renju and self.pos.is_forbidden(p)

    def ordered_fours(self, c: int) -> list[int]:
        pos = self.pos
        code = pos.code[c]
        oc = pos.code[3 - c]
        return sorted(pos.fours[c], key=lambda q: -(VALUE[code[q]] + VALUE[oc[q]]))

    # --- VCF ---------------------------------------------------------------------------
    def vcf(self, c: int, depth: int) -> int | None:
        """A first move of c that wins by continuous fours (c to move), or None."""
        self.tick()
        pos = self.pos
        o = 3 - c
        code = pos.code[c]
        fours = pos.fours[c]
        for q in fours:
            if code[q] >= BIT_F5:
                return q
        theirs = pos.fives(o)
        if theirs:
            if len(theirs) > 1 or theirs[0] not in fours:
                return None
            moves = theirs
        else:
            for q in fours:
                v = code[q]
                if (v >= BIT_F4 or (v >> B4_SHIFT) & 7 >= 2) and not self.forbidden(c, q):
                    return q
            if depth <= 0 or not fours:
                return None
            moves = self.ordered_fours(c)
        key = pos.hash ^ self.side_key[c]
        if self.vcf_memo.get(key, -1) >= depth:
            return None
        for q in moves:
            if self.forbidden(c, q):
                continue
            pos.make(q, c)
            blocks = pos.five_near(c, q)
            if not blocks:
                pos.unmake()
                continue
            if len(blocks) > 1:
                pos.unmake()
                return q
            r = blocks[0]
            if pos.code[o][r] >= BIT_F5 or (o == BLACK and pos.renju and pos.is_forbidden(r)):
                # the block makes a five (it loses for c) / black may not block (c wins)
                won = o == BLACK and pos.renju and pos.code[o][r] < BIT_F5
                pos.unmake()
                if won:
                    return q
                continue
            pos.make(r, o)
            found = self.vcf(c, depth - 1)
            pos.unmake()
            pos.unmake()
            if found is not None:
                return q
        self.vcf_memo[key] = depth
        return None

    def vcf_line(self, c: int, depth: int) -> list[int]:
        """c's winning VCF as played out: attacking moves and forced blocks, ending with the five."""
        pos = self.pos
        base = len(pos.moves)
        line: list[int] = []
        try:
            while True:
                q = self.vcf(c, depth)
                if q is None:
                    return []
                line.append(q)
                if pos.code[c][q] >= BIT_F5:
                    return line
                pos.make(q, c)
                blocks = pos.five_near(c, q)
                if len(blocks) != 1:
                    return line  # two five points: the block of one leaves the other
                line.append(blocks[0])
                pos.make(blocks[0], 3 - c)
        finally:
            while len(pos.moves) > base:
                pos.unmake()

    # --- VCT ---------------------------------------------------------------------------
    def vct(self, c: int, depth: int) -> int | None:
        """A first move of c that wins by continuous fours and threes (c to move), or None."""
        self.tick()
        pos = self.pos
        o = 3 - c
        code = pos.code[c]
        for q in pos.fours[c]:
            if code[q] >= BIT_F5:
                return q
        theirs = pos.fives(o)
        if theirs:
            if len(theirs) > 1 or self.forbidden(c, theirs[0]):
                return None
            q = theirs[0]
            pos.make(q, c)
            won = self._vct_defend(o, depth)
            pos.unmake()
            return q if won else None
        for q in pos.fours[c]:
            v = code[q]
            if (v >= BIT_F4 or (v >> B4_SHIFT) & 7 >= 2) and not self.forbidden(c, q):
                return q
        if depth <= 0:
            return None
        key = pos.hash ^ self.side_key[c]
        if self.vct_memo.get(key, -1) >= depth:
            return None
        won = self.vct_won.get(key)
        if won is not None and won[0] <= depth:  # the same position reached by another order of moves
            return won[1]
        oc = pos.code[o]
        moves = sorted(
            pos.fours[c] | pos.threes[c],
            key=lambda q: -(THREAT[code[q]] * 100000 + VALUE[code[q]] + VALUE[oc[q]]),
        )
        for q in moves:
            if self.forbidden(c, q):
                continue
            pos.make(q, c)
            won = self._vct_defend(o, depth - 1)
            pos.unmake()
            if won:
                self.vct_won[key] = (depth, q)
                return q
        self.vct_memo[key] = depth
        return None

    def vct_deepening(self, c: int, depth: int) -> int | None:
        """vct at depths 1, 2, ... depth: a short win costs little, so it is found before time runs out
        on the deeper searches (each depth costs several times the one before)."""
        for d in range(1, depth + 1):
            q = self.vct(c, d)
            if q is not None:
                return q
        return None

    def _vct_defend(self, o: int, depth: int) -> bool:
        """o to move against c's threat: True if every defence loses."""
        self.tick()
        pos = self.pos
        c = 3 - o
        if pos.fives(o):
            return False
        threats = pos.fives(c)
        if len(threats) > 1:
            return True
        if threats:
            replies = threats
        else:
            flex = pos.flex_points(c)
            if not flex:
                return False
            replies = list(pos.defences(c, flex) | pos.fours[o])
        key = pos.hash ^ self.side_key[o] ^ 0x77
        if self.vct_memo.get(key, -1) >= depth:
            return False
        if self.vct_lost.get(key, depth + 1) <= depth:
            return True
        for r in replies:
            if self.forbidden(o, r):
                continue
            pos.make(r, o)
            won = self.vct(c, depth) is not None
            pos.unmake()
            if not won:
                self.vct_memo[key] = depth
                return False
        self.vct_lost[key] = depth
        return True

    # --- the main search ---------------------------------------------------------------
    def evaluate(self, c: int, ply: int) -> int:
        """Leaf value for c to move; c has no five point and the opponent has none either."""
        pos = self.pos
        o = 3 - c
        if not pos.fours[o]:
            code = pos.code[c]
            for q in pos.fours[c]:
                v = code[q]
                if THREAT[v] >= T_FOUR_THREE and not self.forbidden(c, q):
                    return WIN - ply - 5
        return (pos.total[c] * self.w_self - pos.total[o] * self.w_opp) // 100

    def moves(self, c: int, ply: int, tt_move: int, width: int = 0) -> list[int]:
        """Candidate moves for c (who has no five and faces no five), best first, pruned."""
        pos = self.pos
        o = 3 - c
        mine, theirs = pos.code[c], pos.code[o]
        their_flex = pos.flex_points(o)
        if their_flex:
            pool = pos.defences(o, their_flex) | pos.fours[c]
            width = 64
        else:
            pool = pos.cand
            width = width or self.width
        d = self.defend
        hist = self.history
        scored = []
        for q in pool:
            scored.append((VALUE[mine[q]] + d * VALUE[theirs[q]] + hist[q], q))
        scored.sort(reverse=True)
        out = [q for _, q in scored[:width]]
        front = [m for m in (tt_move, *self.killers[ply]) if m and m in pool and m in out]
        if front:
            out = front + [q for q in out if q not in front]
        for m in (tt_move, *self.killers[ply]):
            if m and m in pool and m not in out and not pos.cells[m]:
                out.insert(0, m)
        if c == BLACK and pos.renju:
            out = [q for q in out if not (mine[q] >= BIT_F3 and pos.is_forbidden(q))]
        return out

    def search(self, c: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        # self.tick(), written out: the PVS is the most frequent caller
        nodes = self.nodes = self.nodes + 1
        if nodes >= self.stop:
            raise Timeout
        if not nodes & 1023 and self.clock() > self.ceiling:
            self.cut = True
            self.limit = self.stop = nodes
            raise Timeout
        pos = self.pos
        o = 3 - c
        code = pos.code[c]
        for q in pos.fours[c]:
            if code[q] >= BIT_F5:
                return WIN - ply
        theirs = pos.fives(o)
        if len(theirs) > 1:
            return -(WIN - ply - 1)
        if not theirs:
            for q in pos.fours[c]:
                v = code[q]
                if (v >= BIT_F4 or (v >> B4_SHIFT) & 7 >= 2) and not self.forbidden(c, q):
                    return WIN - ply - 3
        key = pos.hash
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            e_depth, e_flag, e_value, tt_move = entry
            if e_depth >= depth:
                if e_value > MATE:
                    e_value -= ply
                elif e_value < -MATE:
                    e_value += ply
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        if theirs:
            if self.forbidden(c, theirs[0]):
                return -(WIN - ply - 1)
            moves = theirs
            next_depth = depth  # a forced block does not use up depth
        elif depth <= 0 or ply >= 60:
            # Quiescence. Facing an open three the side to move must answer it (its stopping points or
            # a four); otherwise it may stop here or go on with its fours (each one answered by the
            # forced block in the next node).
            flex = pos.flex_points(o) if self.qthree and depth > -self.qdepth and ply < 60 else None
            if flex:
                mine, theirs_code = pos.code[c], pos.code[o]
                pool = pos.defences(o, flex) | pos.fours[c]
                moves = sorted(pool, key=lambda q: -(VALUE[mine[q]] + VALUE[theirs_code[q]]))
                moves = [q for q in moves if not self.forbidden(c, q)][:8]
                if not moves:
                    return self.evaluate(c, ply)
                next_depth = depth - 1
                best = -INF
                a = alpha
            else:
                stand = self.evaluate(c, ply)
                if stand >= beta or depth <= -self.qdepth or ply >= 60 or not pos.fours[c]:
                    return stand
                moves = [q for q in self.ordered_fours(c) if not self.forbidden(c, q)]
                if not moves:
                    return stand
                next_depth = depth - 1
                best = stand
                a = max(alpha, stand)
        else:
            moves = self.moves(c, ply, tt_move)
            if not moves:
                return self.evaluate(c, ply)
            next_depth = depth - 1
        if depth > 0 or theirs:
            best = -INF
            a = alpha
        best_move = moves[0]
        first = True
        # Late moves of a quiet node that neither threaten nor block a threat are searched one ply
        # shallower first, and again at full depth only if they look better than the best so far.
        reduce = self.lmr and depth >= 3 and not theirs
        mine, other = pos.code[c], pos.code[o]
        for i, q in enumerate(moves):
            quiet = reduce and i >= 3 and mine[q] < BIT_F3 and other[q] < BIT_F3
            pos.make(q, c)
            if first:
                v = -self.search(o, next_depth, -beta, -a, ply + 1)
            else:
                v = -self.search(o, next_depth - 1 if quiet else next_depth, -a - 1, -a, ply + 1)
                if quiet and v > a:
                    v = -self.search(o, next_depth, -a - 1, -a, ply + 1)
                if a < v < beta:
                    v = -self.search(o, next_depth, -beta, -a, ply + 1)
            pos.unmake()
            first = False
            if v > best:
                best = v
                best_move = q
                if v > a:
                    a = v
                    if a >= beta:
                        if depth > 0 and not theirs:
                            k = self.killers[ply]
                            if k[0] != q:
                                k[1] = k[0]
                                k[0] = q
                            self.history[q] += depth * depth
                        break
        stored = best
        if stored > MATE:
            stored += ply
        elif stored < -MATE:
            stored -= ply
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.tt[key] = (depth, flag, stored, best_move)
        return best

    def root(self, c: int, moves: list[int], depth: int, scores: dict[int, int]) -> tuple[int, int]:
        """One iteration at the root over `moves` (best first); returns (best move, value).
        `scores` receives the value of every move searched to the end."""
        pos = self.pos
        o = 3 - c
        alpha = -INF
        best = moves[0]
        for i, q in enumerate(moves):
            pos.make(q, c)
            if i == 0:
                v = -self.search(o, depth - 1, -INF, INF, 1)
            else:
                v = -self.search(o, depth - 1, -alpha - 1, -alpha, 1)
                if v > alpha:
                    v = -self.search(o, depth - 1, -INF, -alpha, 1)
            pos.unmake()
            scores[q] = v
            if v > alpha:
                alpha = v
                best = q
        return best, alpha
