"""The Chinese Checkers AI's two planners: beam searches over its own moves, on one shared beam.

A `Beam` keeps, round after round, the `width` best positions the AI's own moves reach (each
position once), for `depth` rounds or until a move fills its goal; the first move of the best way
is played. It finds the ladders a search of every player's moves cannot see that far. What a
position is and what comes after each of the AI's moves is the planner's own:

- `OwnBeam` (hard with two players): the other stands still. A position is the set of the AI's pieces,
  scored by distance, stragglers and straying as the evaluation counts them, kept incrementally. A
  set's moves cost `OWN_COST` nodes of the level's work.
- `GreedyBeam` (hard at six seats): after each of its moves every other player still playing makes its
  longest move (`longest`: what a greedy player, the easy level, plays), so it counts on the stones the
  others will leave or bring. Boards are ranked by the AI's own cost after its move, before the
  replies; the ways on which another player finishes first (a goal full of anyone's pieces, one of them
  its owner's, counts) come after all others: the AI does not leave in place, where it can help it, the
  stone another player needs to finish first (its own piece still in its start point, the goal of the
  player opposite). A board's moves cost a node, and so do the others' replies to a move kept.

The board changes as the others move, so the plan is made anew every move.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from engines.base import AIInfo
from engines.budget import Budget, OutOfWork
from engines.checkers import board as B
from engines.checkers.levels import Search
from engines.checkers.position import ZOBRIST, Position, Step, reach

# What generating and scoring one set's moves costs in `OwnBeam` (in nodes of the level's work).
OWN_COST = 3

Entry = TypeVar("Entry")  # a position the beam keeps, with the way to it
Child = TypeVar("Child", bound=tuple[Any, ...])  # a move from one of them, sortable: best first; its index [2]


class _Found(Exception):
    """A way home was found: its first move, in the round `ply`."""

    def __init__(self, move: Step, ply: int) -> None:
        self.move, self.ply = move, ply


class Beam(ABC, Generic[Entry, Child]):
    """The shared beam: rounds of `expand` on every kept position, the `width` best children `grow`n into
    the next round's positions. `first` is the AI's first move on an entry's way (None at the start)."""

    def __init__(self, pos: Position, me: int, settings: Search, budget: Budget, shape: tuple[int, int]) -> None:
        self.pos, self.me, self.budget = pos, me, budget
        self.straggle, self.lag, self.centre = settings.straggle, settings.lag, settings.centre
        self.width, self.depth = shape
        self.seen: set[int] = set()  # the positions reached, by hash

    def run(self, urge: float) -> tuple[Step, AIInfo]:
        """The first move of the best way found; `urge` is taken off per step the first move gains."""
        info = AIInfo(depth=0)
        best_first = None
        beam = [self.start()]
        try:
            for ply in range(1, self.depth + 1):
                if not beam:
                    break
                children: list[Child] = []
                for index, entry in enumerate(beam):
                    self.expand(index, entry, ply, urge, children)
                children.sort()
                parents, beam = beam, []
                for child in children[: self.width]:
                    beam.append(self.grow(parents[child[2]], child, ply))
                if beam:
                    best_first = self.first(beam[0])
                    info["depth"] = ply
        except _Found as found:
            best_first = found.move
            info["depth"], info["reason"] = found.ply, "plan"
        except OutOfWork:
            if self.budget.stalled:
                info["reason"] = "seconds"
        finally:
            self.finish()
        info["work"] = self.budget.used
        if best_first is None:
            best_first = self.pos.ordered(self.me)[0]
        return best_first, info

    @abstractmethod
    def start(self) -> Entry:
        """The position now."""

    @abstractmethod
    def expand(self, index: int, entry: Entry, ply: int, urge: float, children: list[Child]) -> None:
        """Add the moves from `entry` (the `index`th of the round) to `children`; raise `_Found` for one
        that fills the goal."""

    @abstractmethod
    def grow(self, parent: Entry, child: Child, ply: int) -> Entry:
        """The position `child` reaches from `parent`, kept for the next round."""

    @abstractmethod
    def first(self, entry: Entry) -> Step | None:
        """The AI's first move on the way to `entry`."""

    def finish(self) -> None:
        """Put the board back as it was (after the last round, however the search ended)."""


# (pieces, distance sum, straying sum, pieces on the goal's empty holes, key, first move)
OwnEntry = tuple[tuple[int, ...], int, float, int, int, Step | None]
OwnChild = tuple[float, int, int, int, int]  # (value, key, index, start, to)


class OwnBeam(Beam[OwnEntry, OwnChild]):
    """The beam over the AI's own moves alone, as if the others stood still (see the module's docstring).
    While it runs the AI's pieces are off the board, put on for each set's moves in turn."""

    def __init__(self, pos: Position, me: int, settings: Search, budget: Budget) -> None:
        assert settings.plan is not None
        super().__init__(pos, me, settings, budget, settings.plan)
        self.mine = list(pos.pieces[me])
        self.count = len(self.mine)
        self.need: list[int] = []
        self.wanted = [False] * B.SIZE  # the goal's holes not taken by anyone else

    def start(self) -> OwnEntry:
        pos, me, mine = self.pos, self.me, self.mine
        for hole in mine:
            pos.board[hole] = 0
        self.need = [hole for hole in pos.goal_holes[me] if not pos.board[hole]]
        for hole in self.need:
            self.wanted[hole] = True
        keys, side = ZOBRIST[me], pos.side[me]
        key = 0
        for hole in mine:
            key ^= keys[hole]
        self.seen.add(key)
        return tuple(mine), pos.sum[me], sum(side[hole] for hole in mine), sum(self.wanted[hole] for hole in mine), \
            key, None

    def expand(self, index: int, entry: OwnEntry, ply: int, urge: float, children: list[OwnChild]) -> None:
        pieces, total, stray, inside, key, first = entry
        pos, me, budget, board, seen, wanted = self.pos, self.me, self.budget, self.pos.board, self.seen, self.wanted
        dist, side, keys = pos.dist[me], pos.side[me], ZOBRIST[me]
        straggle, lag, centre, count, need = self.straggle, self.lag, self.centre, self.count, len(self.need)
        budget.spend(OWN_COST)
        if budget.used > budget.end:
            raise OutOfWork
        if not index & 15 and budget.past_deadline():
            raise OutOfWork
        for hole in pieces:
            board[hole] = me + 1
        pos.pieces[me] = list(pieces)
        moves = pos.moves(me)
        for hole in pieces:
            board[hole] = 0
        dists = [dist[hole] for hole in pieces]
        lagging: dict[int, float] = {}  # distance sum -> the stragglers' excess of these pieces
        # The inner loop of the planner, short names: d_start and d_to are the two holes' distances.
        for start, to in moves:
            child_key = key ^ keys[start] ^ keys[to]
            if child_key in seen:
                continue
            seen.add(child_key)
            d_start, d_to = dist[start], dist[to]
            child_total = total + d_to - d_start
            if wanted[to] and inside - wanted[start] + 1 == need:
                raise _Found(first or (start, to), ply)
            value = child_total + centre * (stray + side[to] - side[start])
            if straggle:
                limit = child_total / count + lag
                excess = lagging.get(child_total)
                if excess is None:
                    excess = lagging[child_total] = sum(x - limit for x in dists if x > limit)
                excess += (d_to - limit if d_to > limit else 0) - (d_start - limit if d_start > limit else 0)
                value += straggle * excess
            if first is None:
                value -= urge * (d_start - d_to)
            children.append((value, child_key, index, start, to))

    def grow(self, parent: OwnEntry, child: OwnChild, ply: int) -> OwnEntry:
        _, child_key, _, start, to = child
        pieces, total, stray, inside, _, first = parent
        dist, side, wanted = self.pos.dist[self.me], self.pos.side[self.me], self.wanted
        return (tuple(to if hole == start else hole for hole in pieces), total + dist[to] - dist[start],
                stray + side[to] - side[start], inside + wanted[to] - wanted[start], child_key, first or (start, to))

    def first(self, entry: OwnEntry) -> Step | None:
        return entry[5]

    def finish(self) -> None:
        self.pos.pieces[self.me] = self.mine
        for hole in self.mine:
            self.pos.board[hole] = self.me + 1


def longest(pos: Position, seat: int) -> Step | None:
    """The move of `seat` that gains most toward its goal (among equals the rearmost piece, then the first
    found): what a greedy player plays, without the dice."""
    dist = pos.dist[seat]
    return max(pos.moves(seat), key=lambda move: reach(dist, *move), default=None)


# (the moves from the root: (seat, start, to), the AI's first move, whether another player finished on the way)
GreedyEntry = tuple[list[tuple[int, int, int]], Step | None, bool]
GreedyChild = tuple[bool, float, int, int, int]  # (another finishes first, value, index, start, to)


class GreedyBeam(Beam[GreedyEntry, GreedyChild]):
    """The beam over the AI's own moves with every other player's longest move after each (see the
    module's docstring). A board is reached by playing its line of moves from the root."""

    CLOCK_EVERY = 64  # a board's moves cost more than a node of `AlphaBeta`

    def __init__(self, pos: Position, me: int, settings: Search, budget: Budget) -> None:
        assert settings.beam is not None
        super().__init__(pos, me, settings, budget, settings.beam)

    def start(self) -> GreedyEntry:
        return [], None, False

    def expand(self, index: int, entry: GreedyEntry, ply: int, urge: float, children: list[GreedyChild]) -> None:
        line, first, lost = entry
        pos, me, seen = self.pos, self.me, self.seen
        dist = pos.dist[me]
        for seat, start, to in line:
            pos.do(seat, start, to)
        try:
            self.budget.tick()
            for start, to in pos.moves(me):
                pos.do(me, start, to)
                key = pos.hash
                if key not in seen:
                    seen.add(key)
                    if pos.filled(me):
                        pos.undo(me, start, to)
                        raise _Found(first or (start, to), ply)
                    value = pos.cost(me, self.straggle, self.lag, self.centre)
                    if first is None:
                        value -= urge * (dist[start] - dist[to])
                    # (the AI's goal is not filled: a finisher is another player)
                    children.append((lost or pos.finisher(me, to) >= 0, value, index, start, to))
                pos.undo(me, start, to)
        finally:
            for seat, start, to in reversed(line):
                pos.undo(seat, start, to)

    def grow(self, parent: GreedyEntry, child: GreedyChild, ply: int) -> GreedyEntry:
        lost, _, _, start, to = child
        line, first, _ = parent
        pos, me = self.pos, self.me
        line = [*line, (me, start, to)]
        if ply < self.depth:
            self.budget.tick()
            for seat, played_start, played_to in line:
                pos.do(seat, played_start, played_to)
            replies = []
            for k in range(1, pos.n):
                other = (me + k) % pos.n
                if other not in pos.finished:
                    move = longest(pos, other)
                    if move is not None:
                        pos.do(other, *move)
                        replies.append((other, *move))
                        lost = lost or pos.finisher(other, move[1]) not in (-1, me)
            for seat, played_start, played_to in reversed(replies):
                pos.undo(seat, played_start, played_to)
            for seat, played_start, played_to in reversed(line):
                pos.undo(seat, played_start, played_to)
            line += replies
        return line, first or (start, to), lost

    def first(self, entry: GreedyEntry) -> Step | None:
        return entry[1]
