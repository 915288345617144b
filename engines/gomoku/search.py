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

Work is counted in nodes (one per call of a search function) on a `Budget`: every search stops
by raising `OutOfWork` when the count passes the current stage's end, so the same position searched
with the same budget gives the same result on an idle machine and a busy one; the budget's ceiling
(CPU time, the wall clock a far backstop) is only a safety net for a stalled host.
"""

from __future__ import annotations

from engines.budget import Budget, OutOfWork
from engines.gomoku.board import BLACK
from engines.gomoku.levels import Level
from engines.gomoku.patterns import T_FOUR_THREE
from engines.gomoku.position import BIT_F3, BIT_F5, THREAT, VALUE, Position

WIN = 10_000_000
MATE = WIN - 10_000  # scores beyond this are forced wins
INF = WIN + 1
EXACT, LOWER, UPPER = 0, 1, 2
CLOCK_EVERY = 1024  # nodes between two looks at the clocks


class Searcher:
    """The searches of one move on `pos`, with the settings of `level`, counting nodes on `budget`
    (its stages end at the counts the AI sets with `Budget.stage` and `Budget.stop_at`)."""

    def __init__(self, pos: Position, level: Level, budget: Budget) -> None:
        self.pos = pos
        self.level = level
        self.budget = budget
        budget.stop_at(budget.work)
        # The settings the PVS reads at every node, as attributes of their own.
        self.width = level.width
        self.defend = level.defend
        self.qdepth = level.qdepth  # fours the side to move may still play at a leaf
        self.w_self = level.w_self
        self.w_opp = level.w_opp
        self.lmr = level.lmr
        self.qthree = level.qthree  # at a leaf, answer the opponent's open three before evaluating
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.vcf_memo: dict[int, int] = {}
        self.vct_memo: dict[int, int] = {}  # no win within this depth (attacker or defender to move)
        self.vct_won: dict[int, tuple[int, int]] = {}  # attacker to move: (depth, first move) of a win
        self.vct_lost: dict[int, int] = {}  # defender to move: every defence loses within this depth
        n = pos.geo.length
        self.history = [0] * n
        self.killers: list[list[int]] = [[0, 0] for _ in range(64)]
        self.side_key = (0, 0x5A17C0DE5EED1234, 0x3C3C0FF1CE5A5A5A)

    # --- helpers -----------------------------------------------------------------------
    def forbidden(self, colour: int, point: int) -> bool:
        return colour == BLACK and self.pos.renju and self.pos.is_forbidden(point)

    def ordered_fours(self, colour: int) -> list[int]:
        pos = self.pos
        code = pos.code[colour]
        foe_code = pos.code[3 - colour]
        return sorted(pos.fours[colour], key=lambda point: -(VALUE[code[point]] + VALUE[foe_code[point]]))

    # --- VCF ---------------------------------------------------------------------------
    def vcf(self, attacker: int, depth: int) -> int | None:
        """A first move of attacker that wins by continuous fours (attacker to move), or None."""
        self.budget.tick()
        pos = self.pos
        defender = 3 - attacker
        fours = pos.fours[attacker]
        fives = pos.fives(attacker)
        if fives:
            return fives[0]
        theirs = pos.fives(defender)
        if theirs:
            if len(theirs) > 1 or theirs[0] not in fours:
                return None
            moves = theirs
        else:
            for point in pos.flex_points(attacker):
                if not self.forbidden(attacker, point):
                    return point
            if depth <= 0 or not fours:
                return None
            moves = self.ordered_fours(attacker)
        key = pos.hash ^ self.side_key[attacker]
        if self.vcf_memo.get(key, -1) >= depth:
            return None
        for point in moves:
            if self.forbidden(attacker, point):
                continue
            pos.make(point, attacker)
            blocks = pos.five_near(attacker, point)
            if not blocks:
                pos.unmake()
                continue
            if len(blocks) > 1:
                pos.unmake()
                return point
            r = blocks[0]
            if pos.code[defender][r] >= BIT_F5 or (defender == BLACK and pos.renju and pos.is_forbidden(r)):
                # the block makes a five (it loses for attacker) / black may not block (attacker wins)
                won = defender == BLACK and pos.renju and pos.code[defender][r] < BIT_F5
                pos.unmake()
                if won:
                    return point
                continue
            pos.make(r, defender)
            found = self.vcf(attacker, depth - 1)
            pos.unmake()
            pos.unmake()
            if found is not None:
                return point
        self.vcf_memo[key] = depth
        return None

    def vcf_line(self, attacker: int, depth: int) -> list[int]:
        """c's winning VCF as played out: attacking moves and forced blocks, ending with the five."""
        pos = self.pos
        base = len(pos.moves)
        line: list[int] = []
        try:
            while True:
                point = self.vcf(attacker, depth)
                if point is None:
                    return []
                line.append(point)
                if pos.code[attacker][point] >= BIT_F5:
                    return line
                pos.make(point, attacker)
                blocks = pos.five_near(attacker, point)
                if len(blocks) != 1:
                    return line  # two five points: the block of one leaves the other
                line.append(blocks[0])
                pos.make(blocks[0], 3 - attacker)
        finally:
            while len(pos.moves) > base:
                pos.unmake()

    # --- VCT ---------------------------------------------------------------------------
    def vct(self, attacker: int, depth: int) -> int | None:
        """A first move of attacker that wins by continuous fours and threes (attacker to move), or None."""
        self.budget.tick()
        pos = self.pos
        defender = 3 - attacker
        code = pos.code[attacker]
        fives = pos.fives(attacker)
        if fives:
            return fives[0]
        theirs = pos.fives(defender)
        if theirs:
            if len(theirs) > 1 or self.forbidden(attacker, theirs[0]):
                return None
            point = theirs[0]
            pos.make(point, attacker)
            won = self._vct_defend(defender, depth)
            pos.unmake()
            return point if won else None
        for point in pos.flex_points(attacker):
            if not self.forbidden(attacker, point):
                return point
        if depth <= 0:
            return None
        key = pos.hash ^ self.side_key[attacker]
        if self.vct_memo.get(key, -1) >= depth:
            return None
        known = self.vct_won.get(key)
        if known is not None and known[0] <= depth:  # the same position reached by another order of moves
            return known[1]
        defender_code = pos.code[defender]
        moves = sorted(
            pos.fours[attacker] | pos.threes[attacker],
            key=lambda point: -(THREAT[code[point]] * 100000 + VALUE[code[point]] + VALUE[defender_code[point]]),
        )
        for point in moves:
            if self.forbidden(attacker, point):
                continue
            pos.make(point, attacker)
            won = self._vct_defend(defender, depth - 1)
            pos.unmake()
            if won:
                self.vct_won[key] = (depth, point)
                return point
        self.vct_memo[key] = depth
        return None

    def vct_deepening(self, attacker: int, depth: int) -> int | None:
        """vct at depths 1, 2, ... depth: a short win costs little, so it is found before time runs out
        on the deeper searches (each depth costs several times the one before)."""
        for d in range(1, depth + 1):
            point = self.vct(attacker, d)
            if point is not None:
                return point
        return None

    def _vct_defend(self, defender: int, depth: int) -> bool:
        """o to move against c's threat: True if every defence loses."""
        self.budget.tick()
        pos = self.pos
        attacker = 3 - defender
        if pos.fives(defender):
            return False
        threats = pos.fives(attacker)
        if len(threats) > 1:
            return True
        if threats:
            replies = threats
        else:
            flex = pos.flex_points(attacker)
            if not flex:
                return False
            replies = list(pos.defences(attacker, flex) | pos.fours[defender])
        key = pos.hash ^ self.side_key[defender] ^ 0x77
        if self.vct_memo.get(key, -1) >= depth:
            return False
        if self.vct_lost.get(key, depth + 1) <= depth:
            return True
        for r in replies:
            if self.forbidden(defender, r):
                continue
            pos.make(r, defender)
            won = self.vct(attacker, depth) is not None
            pos.unmake()
            if not won:
                self.vct_memo[key] = depth
                return False
        self.vct_lost[key] = depth
        return True

    # --- the main search ---------------------------------------------------------------
    def evaluate(self, colour: int, ply: int) -> int:
        """Leaf value for colour to move; colour has no five point and the opponent has none either."""
        pos = self.pos
        foe = 3 - colour
        if not pos.fours[foe]:
            code = pos.code[colour]
            for point in pos.fours[colour]:
                v = code[point]
                if THREAT[v] >= T_FOUR_THREE and not self.forbidden(colour, point):
                    return WIN - ply - 5
        return (pos.total[colour] * self.w_self - pos.total[foe] * self.w_opp) // 100

    def moves(self, colour: int, ply: int, tt_move: int, width: int = 0) -> list[int]:
        """Candidate moves for colour (who has no five and faces no five), best first, pruned."""
        pos = self.pos
        foe = 3 - colour
        mine, theirs = pos.code[colour], pos.code[foe]
        their_flex = pos.flex_points(foe)
        if their_flex:
            pool = pos.defences(foe, their_flex) | pos.fours[colour]
            width = 64
        else:
            pool = pos.cand
            width = width or self.width
        d = self.defend
        hist = self.history
        scored = []
        for point in pool:
            scored.append((VALUE[mine[point]] + d * VALUE[theirs[point]] + hist[point], point))
        scored.sort(reverse=True)
        out = [point for _, point in scored[:width]]
        front = [m for m in (tt_move, *self.killers[ply]) if m and m in pool and m in out]
        if front:
            out = front + [point for point in out if point not in front]
        for m in (tt_move, *self.killers[ply]):
            if m and m in pool and m not in out and not pos.cells[m]:
                out.insert(0, m)
        if colour == BLACK and pos.renju:
            out = [point for point in out if not (mine[point] >= BIT_F3 and pos.is_forbidden(point))]
        return out

    def search(self, colour: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        # budget.tick(), written out: the PVS is the most frequent caller
        budget = self.budget
        nodes = budget.used = budget.used + 1
        if nodes > budget.end:
            raise OutOfWork
        if not nodes & budget.mask and budget.past_deadline():
            budget.stop()
        pos = self.pos
        foe = 3 - colour
        if pos.fives(colour):
            return WIN - ply
        theirs = pos.fives(foe)
        if len(theirs) > 1:
            return -(WIN - ply - 1)
        if not theirs:
            for point in pos.flex_points(colour):
                if not self.forbidden(colour, point):
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
            if self.forbidden(colour, theirs[0]):
                return -(WIN - ply - 1)
            moves = theirs
            next_depth = depth  # a forced block does not use up depth
        elif depth <= 0 or ply >= 60:
            # Quiescence. Facing an open three the side to move must answer it (its stopping points or
            # a four); otherwise it may stop here or go on with its fours (each one answered by the
            # forced block in the next node).
            flex = pos.flex_points(foe) if self.qthree and depth > -self.qdepth and ply < 60 else None
            if flex:
                mine, theirs_code = pos.code[colour], pos.code[foe]
                pool = pos.defences(foe, flex) | pos.fours[colour]
                moves = sorted(pool, key=lambda point: -(VALUE[mine[point]] + VALUE[theirs_code[point]]))
                moves = [point for point in moves if not self.forbidden(colour, point)][:8]
                if not moves:
                    return self.evaluate(colour, ply)
                next_depth = depth - 1
                best = -INF
                a = alpha
            else:
                stand = self.evaluate(colour, ply)
                if stand >= beta or depth <= -self.qdepth or ply >= 60 or not pos.fours[colour]:
                    return stand
                moves = [point for point in self.ordered_fours(colour) if not self.forbidden(colour, point)]
                if not moves:
                    return stand
                next_depth = depth - 1
                best = stand
                a = max(alpha, stand)
        else:
            moves = self.moves(colour, ply, tt_move)
            if not moves:
                return self.evaluate(colour, ply)
            next_depth = depth - 1
        if depth > 0 or theirs:
            best = -INF
            a = alpha
        best_move = moves[0]
        first = True
        # Late moves of a quiet node that neither threaten nor block a threat are searched one ply
        # shallower first, and again at full depth only if they look better than the best so far.
        reduce = self.lmr and depth >= 3 and not theirs
        mine, other = pos.code[colour], pos.code[foe]
        for i, point in enumerate(moves):
            quiet = reduce and i >= 3 and mine[point] < BIT_F3 and other[point] < BIT_F3
            pos.make(point, colour)
            if first:
                v = -self.search(foe, next_depth, -beta, -a, ply + 1)
            else:
                v = -self.search(foe, next_depth - 1 if quiet else next_depth, -a - 1, -a, ply + 1)
                if quiet and v > a:
                    v = -self.search(foe, next_depth, -a - 1, -a, ply + 1)
                if a < v < beta:
                    v = -self.search(foe, next_depth, -beta, -a, ply + 1)
            pos.unmake()
            first = False
            if v > best:
                best = v
                best_move = point
                if v > a:
                    a = v
                    if a >= beta:
                        if depth > 0 and not theirs:
                            k = self.killers[ply]
                            if k[0] != point:
                                k[1] = k[0]
                                k[0] = point
                            self.history[point] += depth * depth
                        break
        stored = best
        if stored > MATE:
            stored += ply
        elif stored < -MATE:
            stored -= ply
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.tt[key] = (depth, flag, stored, best_move)
        return best

    def root(self, colour: int, moves: list[int], depth: int, scores: dict[int, int]) -> tuple[int, int]:
        """One iteration at the root over `moves` (best first); returns (best move, value).
        `scores` receives the value of every move searched to the end."""
        pos = self.pos
        foe = 3 - colour
        alpha = -INF
        best = moves[0]
        for i, point in enumerate(moves):
            pos.make(point, colour)
            if i == 0:
                v = -self.search(foe, depth - 1, -INF, INF, 1)
            else:
                v = -self.search(foe, depth - 1, -alpha - 1, -alpha, 1)
                if v > alpha:
                    v = -self.search(foe, depth - 1, -INF, -alpha, 1)
            pos.unmake()
            scores[point] = v
            if v > alpha:
                alpha = v
                best = point
        return best, alpha
