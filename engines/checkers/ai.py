"""The computer players.

- easy: greedy — the piece that can go farthest (largest gain in distance to
  goal; among equals the piece farthest behind, then one at random).
- normal: lookahead of three plies on distance to goal alone.
- hard: iterative deepening (1, 3, 5, ... plies) within its budget of nodes, and an
  evaluation that also counts pieces left behind and pieces straying from the
  straight line to the goal. With two players it plans instead (below) until the
  other is near home.

A level is an amount of work, never of time: `Limit.work` is the number of search
nodes a move may visit (every iteration of the deepening counted), so the same
position, level and random generator give the same move on an idle machine and on a
busy one. `Limit.seconds` is only a safety net for a stalled host: the search reads
the wall clock (`clock`) for nothing else, and an idle core never reaches it.

Two players: negamax alpha-beta, moves ordered by their gain (the best few
searched at inner nodes), a transposition table (bounds and best move of each
position). Three or more players: best-reply search: the AI's own moves
alternate with one layer holding the most promising moves of all the other
players together, of which the worst for the AI is assumed (so the search
deepens like a two-player one however many players there are); the AI's
distance counts against the nearest rival's. Once no other piece is left
anywhere the AI's pieces still have to pass, the search looks at the AI's own
moves only (deeper, and it finds the quickest way home).

Hard at six seats (`GreedyBeam`): a race, its own distance alone scored (hindering
the nearest of five rivals costs it tempo): a beam search over its own moves (80
boards kept a round, 8 rounds) in which after each of them every other player plays
its longest move (what a greedy player, the easy level, plays): the boards its next
moves will meet, not the worst of twenty replies, so it counts on the stones the
others will leave or bring, and it sees ladders eight moves ahead. Ways on which
another player finishes first are kept only when there are not enough others.

Hard with two players: a beam search over its own moves alone, as if the other
stood still (`Plan`): 200 sets of its pieces kept a round, 10 rounds (at most about
2,000 sets' moves generated, 6,000 nodes of work, well within the level's), the first
move of the best way played, the plan made anew every move. It finds the ladders a
search of both sides cannot see that far. Once the other is within PLAN_UNTIL steps of
home the alpha-beta takes over, so as not to hand it a win.

Wins are scored as WIN minus the ply at which they happen, so the AI takes the
shortest way home; with two players a move that lets the other finish is a loss.
A small bonus for progress made now, growing while nobody makes progress, breaks
ties between waiting and moving on, so the AI does not dawdle.
"""

from __future__ import annotations

import random

from engines.base import AIInfo, AIResult, Limit
from engines.budget import Budget, OutOfWork
from engines.checkers import board as B
from engines.checkers.levels import LEVELS, Search
from engines.checkers.rules import shortest_path
from engines.checkers.state import GOAL, GOAL_POINT, Move, State

WIN = 1_000_000
INF = 10**9


# With three or more players, what another player finishing counts against the AI.
OTHER_FINISHES = 20.0
# Moves searched at each node of the search over the AI's own moves alone.
SOLO_WIDTH = 8
# What generating and scoring one set's moves costs in the plan search (in nodes of the level's work).
PLAN_COST = 3
# With two players hard plans until the other's distance to goal is this low (then it searches
# both sides, so as not to hand the other a win).
PLAN_UNTIL = 12
# Bonus per step of progress of the move played, and its growth per round without progress.
URGE, URGE_PER_ROUND = 0.25, 0.5


class Position:
    """A mutable copy of a state for searching: board, pieces per seat, distance sums, hash."""

    def __init__(self, state: State) -> None:
        n = state.seats
        self.n = n
        self.board = list(state.board)
        self.pieces = [[h for h in range(B.SIZE) if self.board[h] == s + 1] for s in range(n)]
        self.goal = GOAL[n]
        self.dist = [B.TIP_DISTANCE[GOAL_POINT[n][s]] for s in range(n)]
        self.goal_holes = [B.POINTS[GOAL_POINT[n][s]] for s in range(n)]
        self.owner = [next((s for s in range(n) if self.goal[s][h]), -1) for h in range(B.SIZE)]
        self.sum = [sum(self.dist[s][h] for h in self.pieces[s]) for s in range(n)]
        self.side = [SIDEWAYS[GOAL_POINT[n][s] % 3] for s in range(n)]
        self.finished = set(state.finished)
        self.hash = 0
        for h in range(B.SIZE):
            if self.board[h]:
                self.hash ^= ZOBRIST[self.board[h] - 1][h]

    def moves(self, s: int) -> list[tuple[int, int]]:
        """Every (start, destination) of seat s; each destination once per piece."""
        board, goal, mark = self.board, self.goal[s], s + 1
        steps, jumps = B.STEPS, B.JUMPS
        out: list[tuple[int, int]] = []
        for h in self.pieces[s]:
            board[h] = 0
            inside = goal[h]
            for n in steps[h]:
                if not board[n] and (not inside or goal[n]):
                    out.append((h, n))
            seen = {h}
            stack = [h]
            while stack:
                x = stack.pop()
                gx = goal[x]
                for over, land in jumps[x]:
                    if board[over] and not board[land] and land not in seen and (not gx or goal[land]):
                        seen.add(land)
                        stack.append(land)
                        out.append((h, land))
            board[h] = mark
        return out

    def ordered(self, s: int, first: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """Moves by gain toward the goal, then rear pieces first; `first` (the table's move) ahead of all."""
        d = self.dist[s]
        moves = self.moves(s)
        # One int per move sorts without a key function: gain * 64 + distance, then the index (ties keep their order).
        codes = [((d[f] - d[t]) * 64 + d[f]) << 14 | (16383 - i) for i, (f, t) in enumerate(moves)]
        codes.sort(reverse=True)
        moves = [moves[16383 - (c & 16383)] for c in codes]
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def do(self, s: int, f: int, t: int) -> None:
        self.board[f] = 0
        self.board[t] = s + 1
        p = self.pieces[s]
        p[p.index(f)] = t
        self.sum[s] += self.dist[s][t] - self.dist[s][f]
        z = ZOBRIST[s]
        self.hash ^= z[f] ^ z[t]

    def undo(self, s: int, f: int, t: int) -> None:
        self.board[t] = 0
        self.board[f] = s + 1
        p = self.pieces[s]
        p[p.index(t)] = f
        self.sum[s] += self.dist[s][f] - self.dist[s][t]
        z = ZOBRIST[s]
        self.hash ^= z[f] ^ z[t]

    def filled(self, s: int) -> bool:
        board, mark = self.board, s + 1
        holes = self.goal_holes[s]
        return all(board[h] for h in holes) and any(board[h] == mark for h in holes)

    def finisher(self, s: int, t: int) -> int:
        """Who finishes because seat s just landed on t: s, the owner of that goal, or -1."""
        o = self.owner[t]
        if o >= 0 and o not in self.finished and self.filled(o):
            return o
        return -1

    def cost(self, s: int, straggle: float, lag: float, centre: float) -> float:
        """Distance to goal of seat s, plus a penalty for every step a piece lags behind the pack."""
        d = self.dist[s]
        total = self.sum[s]
        if straggle:
            limit = total / len(self.pieces[s]) + lag
            total += straggle * sum(d[h] - limit for h in self.pieces[s] if d[h] > limit)
        if centre:
            side = self.side[s]
            total += centre * sum(side[h] for h in self.pieces[s])
        return total


# SIDEWAYS[axis][h]: how far h is from the line through the tips of points axis and axis + 3, in holes.
SIDEWAYS = tuple(
    tuple(abs(x) / 2 for x in (q - s_, r - s_, q - r))[axis : axis + 1][0]
    for axis in range(3)
    for q, r in B.COORDS
    for s_ in (-q - r,)
)
SIDEWAYS = tuple(SIDEWAYS[axis * B.SIZE : (axis + 1) * B.SIZE] for axis in range(3))

_rng = random.Random(20240517)
ZOBRIST = [[_rng.getrandbits(62) for _ in range(B.SIZE)] for _ in range(6)]
SIDE = [_rng.getrandbits(62) for _ in range(6)]
EXACT, LOWER, UPPER = 0, 1, 2


# --- easy ----------------------------------------------------------------------------------
def reach(d: list[int], f: int, t: int) -> int:
    """A greedy player's order of moves: farther toward the goal first; among equals, the rearmost piece."""
    return (d[f] - d[t]) * 64 + d[f]


def greedy(pos: Position, s: int, rng: random.Random) -> tuple[int, int]:
    """The move that goes farthest toward the goal; among equals, the rearmost piece; then at random."""
    d = pos.dist[s]
    moves = pos.moves(s)
    best = max(reach(d, f, t) for f, t in moves)
    return rng.choice([(f, t) for f, t in moves if reach(d, f, t) == best])


# --- two players: alpha-beta ------------------------------------------------------------------
class AlphaBeta:
    """Negamax alpha-beta for two players, on `pos`, for seat `me`, as `settings` say, within `budget`."""

    def __init__(self, pos: Position, me: int, settings: Search, budget: Budget) -> None:
        self.pos = pos
        self.me = me
        self.settings = settings
        self.budget = budget
        self.straggle, self.lag, self.centre = settings.straggle, settings.lag, settings.centre
        # position hash -> (depth, value, best move, EXACT / LOWER / UPPER bound)
        self.table: dict[int, tuple[int, float, tuple[int, int], int]] = {}
        # Root moves scoring within `margin` of the best are searched exactly (the progress bonus
        # may still make one of them the choice); the others only shown to be worse.
        self.margin = 1e-9

    def evaluate(self, s: int) -> float:
        """From the side of seat s (two players)."""
        pos, w, lag, c = self.pos, self.straggle, self.lag, self.centre
        return pos.cost(1 - s, w, lag, c) - pos.cost(s, w, lag, c)

    def negamax(self, s: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.budget.tick()
        pos = self.pos
        key = pos.hash ^ SIDE[s]
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth and abs(entry[1]) < WIN - 1000:
            kind, value = entry[3], entry[1]
            if kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha):
                return value
        moves = pos.ordered(s, entry[2] if entry else None)
        if not moves:
            return self.evaluate(s)
        width = self.settings.leaf if depth == 1 else self.settings.inner
        alpha0 = alpha
        best = -INF
        best_move = moves[0]
        for f, t in moves[:width]:
            pos.do(s, f, t)
            done = pos.finisher(s, t)
            if done == s:
                v = WIN - ply
            elif done >= 0:
                v = -(WIN - ply)
            elif depth == 1:
                v = self.evaluate(s)
            else:
                v = -self.negamax(1 - s, depth - 1, -beta, -alpha, ply + 1)
            pos.undo(s, f, t)
            if v > best:
                best, best_move = v, (f, t)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        kind = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, best_move, kind)
        return best

    def root(self, depth: int, moves: list[tuple[int, int]]) -> list[tuple[float, tuple[int, int]]]:
        """Scores of the root moves at `depth` (a move that cannot beat the best so far: an upper bound)."""
        pos, s = self.pos, self.me
        scored = []
        alpha = -INF
        for f, t in moves:
            pos.do(s, f, t)
            done = pos.finisher(s, t)
            if done == s:
                v = WIN
            elif done >= 0:
                v = -WIN
            elif depth == 1:
                v = self.evaluate(s)
            else:
                v = -self.negamax(1 - s, depth - 1, -INF, -(alpha - self.margin), 1)
            pos.undo(s, f, t)  # (after OutOfWork the position is left as it is: it is not used again)
            scored.append((v, (f, t)))
            alpha = max(alpha, v)
        return scored


def _deepen(
    search: AlphaBeta, moves: list[tuple[int, int]], depths: tuple[int, ...], urge: float
) -> tuple[tuple[int, int], AIInfo]:
    """Iterative deepening: the best move of the deepest search that finished within the nodes.

    A deeper search is begun only if it is likely to finish: its nodes are guessed from
    how many more the last search took than the one before. `urge` is added per step
    a move gains toward the goal, so that of two moves the search values alike the one
    that makes progress now is played (no dawdling).
    """
    d = search.pos.dist[search.me]
    search.margin = urge * max(0, *(d[f] - d[t] for f, t in moves)) + 1e-9
    best = moves[0]
    info = AIInfo(depth=0)
    growth = 8.0
    took = 0
    budget = search.budget
    for depth in depths:
        started = budget.used
        if depth > depths[0] and started + took * growth > budget.work:
            break
        try:
            scored = search.root(depth, moves)
        except OutOfWork:
            if budget.stalled:
                info["reason"] = "seconds"
            break
        before, took = took, budget.used - started
        if before > 100:
            growth = max(2.0, took / before)
        # Stable sort: among equal scores the better-ordered (larger gain) move stays first.
        order = sorted(range(len(scored)), key=lambda i: -(scored[i][0] + urge * (d[moves[i][0]] - d[moves[i][1]])))
        moves = [scored[i][1] for i in order]
        best = moves[0]
        info["depth"], info["score"] = depth, scored[order[0]][0]
        if scored[order[0]][0] >= WIN - 1000:
            info["reason"] = "win"
            break
    info["work"] = budget.used
    return best, info


# --- three or more players: best-reply search -----------------------------------------------------
class BestReply(AlphaBeta):
    def evaluate(self, s: int) -> float:
        """From the side of the AI: its distance against that of its closest rival."""
        pos, me = self.pos, self.me
        w, lag, c = self.straggle, self.lag, self.centre
        rivals = [pos.cost(o, w, lag, c) for o in range(pos.n) if o != me and o not in pos.finished]
        return (min(rivals) if rivals else 0) - pos.cost(me, w, lag, c)

    def replies(self) -> list[tuple[int, int, int]]:
        """The most promising moves of every other player still playing: (seat, start, destination)."""
        pos, k = self.pos, self.settings.inner
        out = []
        for o in range(pos.n):
            if o != self.me and o not in pos.finished:
                out.extend((o, f, t) for f, t in pos.ordered(o)[:k])
        return out

    def brs(self, mine: bool, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.budget.tick()
        pos, me = self.pos, self.me
        if mine:
            width = self.settings.leaf if depth == 1 else self.settings.inner * 2
            moves = [(me, f, t) for f, t in pos.ordered(me)[:width]]
        else:
            moves = self.replies()
        if not moves:
            return self.evaluate(me) if depth == 1 else self.brs(not mine, depth - 1, alpha, beta, ply + 1)
        best = -INF if mine else INF
        for s, f, t in moves:
            pos.do(s, f, t)
            done = pos.finisher(s, t)
            if done == me:
                v = WIN - ply
            elif done >= 0:  # someone else takes a place; the game goes on
                v = self.evaluate(me) - OTHER_FINISHES
            elif depth == 1:
                v = self.evaluate(me)
            else:
                v = self.brs(not mine, depth - 1, alpha, beta, ply + 1)
            pos.undo(s, f, t)
            if mine:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def root(self, depth: int, moves: list[tuple[int, int]]) -> list[tuple[float, tuple[int, int]]]:
        pos, me = self.pos, self.me
        scored = []
        alpha = -INF
        for f, t in moves:
            pos.do(me, f, t)
            done = pos.finisher(me, t)
            if done == me:
                v = WIN
            elif done >= 0:
                v = self.evaluate(me) - OTHER_FINISHES
            elif depth == 1:
                v = self.evaluate(me)
            else:
                v = self.brs(False, depth - 1, alpha - self.margin, INF, 1)
            pos.undo(me, f, t)
            scored.append((v, (f, t)))
            alpha = max(alpha, v)
        return scored


# --- six seats: the others answer as greedy players -----------------------------------------------
def longest(pos: Position, s: int) -> tuple[int, int] | None:
    """The move of seat s that gains most toward its goal (among equals the rearmost piece, then
    the first found): what a greedy player plays, without the dice."""
    d = pos.dist[s]
    return max(pos.moves(s), key=lambda m: reach(d, *m), default=None)


class GreedyBeam:
    """Beam search over the AI's own moves in which, after each of them, every other player
    still playing makes its longest move (`longest`, what a greedy player, the easy level,
    plays): each round keeps the `width` best boards reached (each once; best by the AI's own
    cost after its move, before the replies: distance, stragglers, straying), for `depth`
    rounds or until a move fills the goal; the first move of the best way is played. It
    counts on the stones the others will leave or bring, and sees ladders further than a
    search of every move could. Boards on whose way another player finishes (a goal full of
    anyone's pieces, one of them its owner's, counts) come after all others: the AI does not
    leave in place, where it can help it, the stone another player needs to finish first (its
    own piece still in its start point, the goal of the player opposite). A round's moves of a
    board cost a node, and so do the others' replies to a move kept."""

    CLOCK_EVERY = 64  # a round's moves of a board cost more than a node of `AlphaBeta`

    def __init__(self, pos: Position, me: int, settings: Search, budget: Budget) -> None:
        assert settings.beam is not None
        self.pos, self.me, self.budget = pos, me, budget
        self.straggle, self.lag, self.centre = settings.straggle, settings.lag, settings.centre
        self.width, self.depth = settings.beam

    def run(self, urge: float) -> tuple[tuple[int, int], AIInfo]:
        pos, me, n = self.pos, self.me, self.pos.n
        d = pos.dist[me]
        w, lag, c = self.straggle, self.lag, self.centre
        info = AIInfo(depth=0)
        # beam entries: the moves from the root (seat, start, destination), the AI's first move, and
        # whether another player has finished on the way (the first place lost)
        beam: list[tuple[list[tuple[int, int, int]], tuple[int, int] | None, bool]] = [([], None, False)]
        seen: set[int] = set()
        best_first = None
        try:
            for ply in range(1, self.depth + 1):
                children = []
                for index, (line, first, lost) in enumerate(beam):
                    for o, f, t in line:
                        pos.do(o, f, t)
                    try:
                        self.budget.tick()
                        for f, t in pos.moves(me):
                            pos.do(me, f, t)
                            key = pos.hash
                            if key not in seen:
                                seen.add(key)
                                if pos.filled(me):
                                    pos.undo(me, f, t)
                                    info["depth"], info["reason"] = ply, "plan"
                                    raise _Found(first or (f, t))
                                value = pos.cost(me, w, lag, c)
                                if first is None:
                                    value -= urge * (d[f] - d[t])
                                # (the AI's goal is not filled: a finisher is another player)
                                children.append((lost or pos.finisher(me, t) >= 0, value, index, f, t))
                            pos.undo(me, f, t)
                    finally:
                        for o, f, t in reversed(line):
                            pos.undo(o, f, t)
                children.sort()
                parents, beam = beam, []
                for lost, _, index, f, t in children[: self.width]:
                    line, first, _ = parents[index]
                    line = [*line, (me, f, t)]
                    if ply < self.depth:
                        self.budget.tick()
                        for o, rf, rt in line:
                            pos.do(o, rf, rt)
                        replies = []
                        for k in range(1, n):
                            o = (me + k) % n
                            if o not in pos.finished:
                                move = longest(pos, o)
                                if move is not None:
                                    pos.do(o, *move)
                                    replies.append((o, *move))
                                    lost = lost or pos.finisher(o, move[1]) not in (-1, me)
                        for o, rf, rt in reversed(replies):
                            pos.undo(o, rf, rt)
                        for o, rf, rt in reversed(line):
                            pos.undo(o, rf, rt)
                        line += replies
                    beam.append((line, first or (f, t), lost))
                if beam:
                    best_first = beam[0][1]
                    info["depth"] = ply
        except _Found as found:
            best_first = found.move
        except OutOfWork:
            if self.budget.stalled:
                info["reason"] = "seconds"
        info["work"] = self.budget.used
        if best_first is None:
            best_first = pos.ordered(me)[0]
        return best_first, info


# --- a race without contact: the AI's own moves only -------------------------------------------------
def apart(pos: Position, me: int, margin: int) -> bool:
    """True when no other player's piece (finished players' excepted) is anywhere the AI's pieces
    still have to pass: all are farther from the AI's goal than its last piece, by `margin`."""
    d = pos.dist[me]
    rear = max(d[h] for h in pos.pieces[me]) + margin
    return all(d[h] > rear for o in range(pos.n) if o != me and o not in pos.finished for h in pos.pieces[o])


class Solo(AlphaBeta):
    """Depth-first search over the AI's own next moves, as if the others passed: the shortest
    way home once nobody can get in the way (depth = own moves)."""

    def evaluate(self, s: int) -> float:
        return -self.pos.cost(self.me, self.straggle, self.lag, self.centre)

    def solo(self, depth: int, ply: int) -> float:
        self.budget.tick()
        pos, me = self.pos, self.me
        best = -INF
        for f, t in pos.ordered(me)[:SOLO_WIDTH]:
            pos.do(me, f, t)
            if pos.filled(me):
                v = WIN - ply
            elif depth == 1:
                v = self.evaluate(me)
            else:
                v = self.solo(depth - 1, ply + 1)
            pos.undo(me, f, t)
            best = max(best, v)
        return best if best > -INF else self.evaluate(me)

    def root(self, depth: int, moves: list[tuple[int, int]]) -> list[tuple[float, tuple[int, int]]]:
        pos, me = self.pos, self.me
        scored = []
        for f, t in moves:
            pos.do(me, f, t)
            if pos.filled(me):
                v = WIN
            elif depth == 1:
                v = self.evaluate(me)
            else:
                v = self.solo(depth - 1, 1)
            pos.undo(me, f, t)
            scored.append((v, (f, t)))
        return scored


class _Found(Exception):
    """A way home was found: its first move."""

    def __init__(self, move: tuple[int, int]) -> None:
        self.move = move


class Plan:
    """Beam search over the AI's own moves alone, as if the others stood still: each round
    keeps the `width` best sets of the AI's pieces reached in as many moves (each set once;
    best by distance, stragglers and straying, as the evaluation counts them), for `depth`
    rounds or until a set fills the goal; the first move of the best way is played. The
    board changes as the others move, so the plan is made anew every move. A set's moves
    cost PLAN_COST nodes of the level's work."""

    def __init__(self, pos: Position, me: int, settings: Search, budget: Budget) -> None:
        assert settings.plan is not None
        self.pos, self.me, self.budget = pos, me, budget
        self.straggle, self.lag, self.centre = settings.straggle, settings.lag, settings.centre
        self.width, self.depth = settings.plan

    def run(self, urge: float) -> tuple[tuple[int, int], AIInfo]:
        pos, me = self.pos, self.me
        d, side, z = pos.dist[me], pos.side[me], ZOBRIST[me]
        w, lag, c = self.straggle, self.lag, self.centre
        count = len(pos.pieces[me])
        mine = list(pos.pieces[me])
        for h in mine:
            pos.board[h] = 0
        need = [h for h in pos.goal_holes[me] if not pos.board[h]]
        wanted = [False] * B.SIZE
        for h in need:
            wanted[h] = True
        key = 0
        for h in mine:
            key ^= z[h]
        # beam entries: (pieces, distance sum, straying sum, pieces on wanted holes, key, first move)
        beam = [(tuple(mine), pos.sum[me], sum(side[h] for h in mine), sum(wanted[h] for h in mine), key, None)]
        seen = {key}
        best_first = None
        info = AIInfo(depth=0)
        ply = 0
        board = pos.board
        budget = self.budget
        try:
            while beam and ply < self.depth:
                ply += 1
                children = []
                for index, (pieces, total, stray, inside, key, first) in enumerate(beam):
                    budget.spend(PLAN_COST)
                    if budget.used > budget.end:
                        raise OutOfWork
                    if not index & 15 and budget.past_deadline():
                        info["reason"] = "seconds"
                        raise OutOfWork
                    for h in pieces:
                        board[h] = me + 1
                    pos.pieces[me] = list(pieces)
                    moves = pos.moves(me)
                    for h in pieces:
                        board[h] = 0
                    dists = [d[h] for h in pieces]
                    lagging: dict[int, float] = {}  # distance sum -> the stragglers' excess of these pieces
                    for f, t in moves:
                        ckey = key ^ z[f] ^ z[t]
                        if ckey in seen:
                            continue
                        seen.add(ckey)
                        df, dt = d[f], d[t]
                        ctotal = total + dt - df
                        if wanted[t] and inside - wanted[f] + 1 == len(need):
                            info["depth"], info["reason"] = ply, "plan"
                            raise _Found(first or (f, t))
                        value = ctotal + c * (stray + side[t] - side[f])
                        if w:
                            limit = ctotal / count + lag
                            excess = lagging.get(ctotal)
                            if excess is None:
                                excess = lagging[ctotal] = sum(x - limit for x in dists if x > limit)
                            excess += (dt - limit if dt > limit else 0) - (df - limit if df > limit else 0)
                            value += w * excess
                        if first is None:
                            value -= urge * (df - dt)
                        children.append((value, ckey, index, f, t))
                children.sort()
                parents, beam = beam, []
                for _, ckey, index, f, t in children[: self.width]:
                    pieces, total, stray, inside, _, first = parents[index]
                    beam.append((tuple(t if h == f else h for h in pieces), total + d[t] - d[f],
                                 stray + side[t] - side[f], inside + wanted[t] - wanted[f], ckey, first or (f, t)))
                if beam:
                    best_first = beam[0][5]
                    info["depth"] = ply
        except _Found as found:
            best_first = found.move
        except OutOfWork:
            pass
        finally:
            pos.pieces[me] = mine
            for h in mine:
                board[h] = me + 1
        info["work"] = budget.used
        if best_first is None:
            best_first = pos.ordered(me)[0]
        return best_first, info


# --- entry point ---------------------------------------------------------------------------------
def choose(state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
    """The move of `seat` (the seat to move) at `level`, by the shortest path to the hole it chose."""
    start, to, info = _choose(state, seat, level, limit, rng)
    path = shortest_path(state.board, start, to, GOAL[state.seats][seat])
    assert path is not None, "the AI chose an unreachable hole"
    return AIResult(Move(path), info)


def _choose(state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> tuple[int, int, AIInfo]:
    pos = Position(state)
    two = state.seats == 2
    settings = LEVELS[level]
    search = settings.two if two else settings.six if state.seats == 6 and settings.six else settings.more
    if search is None:
        return (*greedy(pos, seat, rng), AIInfo(work=1, depth=1, reason="greedy"))
    moves = pos.ordered(seat)
    if len(moves) == 1:
        return (*moves[0], AIInfo(work=0, depth=0, reason="forced"))
    # The longer nobody has made progress, the more the AI prefers progress to waiting.
    urge = URGE + URGE_PER_ROUND * (state.idle // state.seats)
    work = limit.scaled(search.work)
    if search.plan and two and pos.sum[1 - seat] - B.FULL > PLAN_UNTIL:
        best, info = Plan(pos, seat, search, Budget(work)).run(urge)
    elif apart(pos, seat, 1 if two else 3):
        best, info = _deepen(Solo(pos, seat, search, Budget(work)), moves[: search.root], search.solo, urge)
    elif search.beam:
        best, info = GreedyBeam(pos, seat, search, Budget(work, every=GreedyBeam.CLOCK_EVERY)).run(urge)
    else:
        alpha_beta = (AlphaBeta if two else BestReply)(pos, seat, search, Budget(work))
        best, info = _deepen(alpha_beta, moves[: search.root], search.depths, urge)
    return (*best, info)
