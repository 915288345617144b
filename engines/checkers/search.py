"""The Chinese Checkers AI's tree searches, each node counted on the move's `Budget`.

- `AlphaBeta` (two players): negamax alpha-beta, moves ordered by their gain (the best few searched at
  inner nodes), a transposition table (bounds and best move of each position).
- `BestReply` (three or more players): the AI's own moves alternate with one layer holding the most
  promising moves of all the other players together, of which the worst for the AI is assumed (so the
  search deepens like a two-player one however many players there are); the AI's distance counts
  against the nearest rival's.
- `Solo`: the AI's own moves only, as if the others passed, once no other piece is left anywhere the
  AI's pieces still have to pass (deeper, and it finds the quickest way home).

`deepen` runs any of them deeper and deeper within the budget. Wins are scored as WIN minus the ply at
which they happen, so the AI takes the shortest way home; with two players a move that lets the other
finish is a loss.
"""

from __future__ import annotations

from engines.base import AIInfo
from engines.budget import Budget, OutOfWork
from engines.checkers.levels import Search
from engines.checkers.position import SIDE, Position, Step

WIN = 1_000_000
INF = 10**9
EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is: exact, a lower bound, an upper bound
# With three or more players, what another player finishing counts against the AI.
OTHER_FINISHES = 20.0
# Moves searched at each node of the search over the AI's own moves alone.
SOLO_WIDTH = 8


class AlphaBeta:
    """Negamax alpha-beta for two players, on `pos`, for seat `me`, as `settings` say, within `budget`."""

    def __init__(self, pos: Position, me: int, settings: Search, budget: Budget) -> None:
        self.pos = pos
        self.me = me
        self.settings = settings
        self.budget = budget
        self.straggle, self.lag, self.centre = settings.straggle, settings.lag, settings.centre
        # position hash -> (depth, value, best move, EXACT / LOWER / UPPER bound)
        self.table: dict[int, tuple[int, float, Step, int]] = {}
        # Root moves scoring within `margin` of the best are searched exactly (the progress bonus
        # may still make one of them the choice); the others only shown to be worse.
        self.margin = 1e-9

    def evaluate(self, seat: int) -> float:
        """From the side of `seat` (two players)."""
        pos, straggle, lag, centre = self.pos, self.straggle, self.lag, self.centre
        return pos.cost(1 - seat, straggle, lag, centre) - pos.cost(seat, straggle, lag, centre)

    def negamax(self, seat: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.budget.tick()
        pos = self.pos
        key = pos.hash ^ SIDE[seat]
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth and abs(entry[1]) < WIN - 1000:
            kind, value = entry[3], entry[1]
            if kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha):
                return value
        moves = pos.ordered(seat, entry[2] if entry else None)
        if not moves:
            return self.evaluate(seat)
        width = self.settings.leaf if depth == 1 else self.settings.inner
        alpha0 = alpha
        best: float = -INF
        best_move = moves[0]
        for start, to in moves[:width]:
            pos.do(seat, start, to)
            done = pos.finisher(seat, to)
            if done == seat:
                value = WIN - ply
            elif done >= 0:
                value = -(WIN - ply)
            elif depth == 1:
                value = self.evaluate(seat)
            else:
                value = -self.negamax(1 - seat, depth - 1, -beta, -alpha, ply + 1)
            pos.undo(seat, start, to)
            if value > best:
                best, best_move = value, (start, to)
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        kind = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, best_move, kind)
        return best

    def root(self, depth: int, moves: list[Step]) -> list[tuple[float, Step]]:
        """Scores of the root moves at `depth` (a move that cannot beat the best so far: an upper bound)."""
        pos, me = self.pos, self.me
        scored: list[tuple[float, Step]] = []
        alpha: float = -INF
        for start, to in moves:
            pos.do(me, start, to)
            value = self.after(to, depth, alpha)
            pos.undo(me, start, to)  # (after OutOfWork the position is left as it is: it is not used again)
            scored.append((value, (start, to)))
            alpha = max(alpha, value)
        return scored

    def after(self, to: int, depth: int, alpha: float) -> float:
        """The score of the root move just made (to `to`), searched `depth` deep; `alpha`: the best so far."""
        done = self.pos.finisher(self.me, to)
        if done == self.me:
            return WIN
        if done >= 0:
            return -WIN
        if depth == 1:
            return self.evaluate(self.me)
        return -self.negamax(1 - self.me, depth - 1, -INF, -(alpha - self.margin), 1)


class BestReply(AlphaBeta):
    """Best-reply search for three or more players (see the module's docstring)."""

    def evaluate(self, seat: int) -> float:
        """From the side of the AI: its distance against that of its closest rival."""
        pos, me = self.pos, self.me
        straggle, lag, centre = self.straggle, self.lag, self.centre
        rivals = [pos.cost(other, straggle, lag, centre) for other in range(pos.n)
                  if other != me and other not in pos.finished]
        return (min(rivals) if rivals else 0) - pos.cost(me, straggle, lag, centre)

    def replies(self) -> list[tuple[int, int, int]]:
        """The most promising moves of every other player still playing: (seat, start, destination)."""
        pos, width = self.pos, self.settings.inner
        out: list[tuple[int, int, int]] = []
        for other in range(pos.n):
            if other != self.me and other not in pos.finished:
                out.extend((other, start, to) for start, to in pos.ordered(other)[:width])
        return out

    def brs(self, mine: bool, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.budget.tick()
        pos, me = self.pos, self.me
        if mine:
            width = self.settings.leaf if depth == 1 else self.settings.inner * 2
            moves = [(me, start, to) for start, to in pos.ordered(me)[:width]]
        else:
            moves = self.replies()
        if not moves:
            return self.evaluate(me) if depth == 1 else self.brs(not mine, depth - 1, alpha, beta, ply + 1)
        best: float = -INF if mine else INF
        for seat, start, to in moves:
            pos.do(seat, start, to)
            done = pos.finisher(seat, to)
            if done == me:
                value: float = WIN - ply
            elif done >= 0:  # someone else takes a place; the game goes on
                value = self.evaluate(me) - OTHER_FINISHES
            elif depth == 1:
                value = self.evaluate(me)
            else:
                value = self.brs(not mine, depth - 1, alpha, beta, ply + 1)
            pos.undo(seat, start, to)
            if mine:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def after(self, to: int, depth: int, alpha: float) -> float:
        done = self.pos.finisher(self.me, to)
        if done == self.me:
            return WIN
        if done >= 0:
            return self.evaluate(self.me) - OTHER_FINISHES
        if depth == 1:
            return self.evaluate(self.me)
        return self.brs(False, depth - 1, alpha - self.margin, INF, 1)


def apart(pos: Position, me: int, margin: int) -> bool:
    """True when no other player's piece (finished players' excepted) is anywhere the AI's pieces
    still have to pass: all are farther from the AI's goal than its last piece, by `margin`."""
    dist = pos.dist[me]
    rear = max(dist[hole] for hole in pos.pieces[me]) + margin
    return all(dist[hole] > rear for other in range(pos.n) if other != me and other not in pos.finished
               for hole in pos.pieces[other])


class Solo(AlphaBeta):
    """Depth-first search over the AI's own next moves, as if the others passed: the shortest
    way home once nobody can get in the way (depth = own moves)."""

    def evaluate(self, seat: int) -> float:
        return -self.pos.cost(self.me, self.straggle, self.lag, self.centre)

    def solo(self, depth: int, ply: int) -> float:
        self.budget.tick()
        pos, me = self.pos, self.me
        best: float = -INF
        for start, to in pos.ordered(me)[:SOLO_WIDTH]:
            pos.do(me, start, to)
            if pos.filled(me):
                value: float = WIN - ply
            elif depth == 1:
                value = self.evaluate(me)
            else:
                value = self.solo(depth - 1, ply + 1)
            pos.undo(me, start, to)
            best = max(best, value)
        return best if best > -INF else self.evaluate(me)

    def after(self, to: int, depth: int, alpha: float) -> float:
        if self.pos.filled(self.me):
            return WIN
        if depth == 1:
            return self.evaluate(self.me)
        return self.solo(depth - 1, 1)


def deepen(search: AlphaBeta, moves: list[Step], depths: tuple[int, ...], urge: float) -> tuple[Step, AIInfo]:
    """Iterative deepening: the best move of the deepest search that finished within the nodes.

    A deeper search is begun only if it is likely to finish: its nodes are guessed from
    how many more the last search took than the one before. `urge` is added per step
    a move gains toward the goal, so that of two moves the search values alike the one
    that makes progress now is played (no dawdling).
    """
    dist = search.pos.dist[search.me]
    search.margin = urge * max(0, *(dist[start] - dist[to] for start, to in moves)) + 1e-9
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
        order = sorted(range(len(scored)),
                       key=lambda i: -(scored[i][0] + urge * (dist[moves[i][0]] - dist[moves[i][1]])))
        moves = [scored[i][1] for i in order]
        best = moves[0]
        info["depth"], info["score"] = depth, scored[order[0]][0]
        if scored[order[0]][0] >= WIN - 1000:
            info["reason"] = "win"
            break
    info["work"] = budget.used
    return best, info
