"""An outside opponent for the Gomoku levels: a threat-space-search player that shares no code with
`engines/gomoku` (freestyle, any board size).

Its style is not the levels' (patterns looked up per point, an alpha-beta with threat searches beside
it): it counts stones in every five-cell window of the board (kept up to date move by move), plays a
win by continuous fours (VCF) or by fours and threes (VCT) when its threat-space search proves one,
refutes the opponent's VCT (each of its candidate moves checked in turn) when the opponent would have
one were it to move, and otherwise plays the point whose windows weigh most, for itself and against
the opponent, with no search at all. Everything it searches is counted in nodes (`TSS.cap` a move), so
a game from the same opening is the same game on any machine.

    nice -n 10 .venv/bin/python -m bench.gomoku --only white --games 10     # the levels against it
"""

from __future__ import annotations

import random

EMPTY, BLACK, WHITE = 0, 1, 2
ATTACK = (0, 2, 20, 220, 4000, 100_000)  # a window's weight for the side with `n` stones in it (the other none)
DEFEND = (0, 1, 15, 180, 3000, 50_000)  # ... when the point blocks the other side's window


class OutOfNodes(Exception):
    pass


class TSS:
    """A board of `size` with the stone counts of every five-cell window, and the player's searches."""

    def __init__(self, size: int, vcf_depth: int = 12, vct_depth: int = 5, cap: int = 20_000, guard: int = 4) -> None:
        self.size = size
        self.cells = [EMPTY] * (size * size)
        self.windows: list[tuple[int, ...]] = []
        for r in range(size):
            for c in range(size):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    er, ec = r + 4 * dr, c + 4 * dc
                    if 0 <= er < size and 0 <= ec < size:
                        self.windows.append(tuple((r + k * dr) * size + c + k * dc for k in range(5)))
        self.through: list[list[int]] = [[] for _ in self.cells]
        for w, cells in enumerate(self.windows):
            for p in cells:
                self.through[p].append(w)
        self.count = [[0] * len(self.windows) for _ in range(3)]
        rng = random.Random(99)
        self.zobrist = [[0] * len(self.cells)] + [[rng.getrandbits(64) for _ in self.cells] for _ in range(2)]
        self.hash = 0
        self.stones: list[int] = []
        self.vcf_depth, self.vct_depth, self.cap, self.guard = vcf_depth, vct_depth, cap, guard
        self.nodes = 0
        self.memo: dict[tuple[int, int, int], bool] = {}

    # --- the board ------------------------------------------------------------------------------
    def make(self, p: int, colour: int) -> None:
        self.cells[p] = colour
        self.stones.append(p)
        self.hash ^= self.zobrist[colour][p]
        count = self.count[colour]
        for w in self.through[p]:
            count[w] += 1

    def unmake(self) -> None:
        p = self.stones.pop()
        colour = self.cells[p]
        self.cells[p] = EMPTY
        self.hash ^= self.zobrist[colour][p]
        count = self.count[colour]
        for w in self.through[p]:
            count[w] -= 1

    def _windows_with(self, colour: int, n: int) -> list[int]:
        mine, theirs = self.count[colour], self.count[3 - colour]
        return [w for w in range(len(self.windows)) if mine[w] == n and not theirs[w]]

    def fives(self, colour: int) -> set[int]:
        """Empty points where `colour` would make five."""
        return {p for w in self._windows_with(colour, 4) for p in self.windows[w] if not self.cells[p]}

    def fours(self, colour: int) -> set[int]:
        """Empty points where `colour` would make a four (a point of five next)."""
        return {p for w in self._windows_with(colour, 3) for p in self.windows[w] if not self.cells[p]}

    def five_after(self, colour: int, p: int) -> set[int]:
        """The five points `colour` has through `p` (after playing it)."""
        mine, theirs = self.count[colour], self.count[3 - colour]
        return {q for w in self.through[p] if mine[w] == 4 and not theirs[w] for q in self.windows[w]
                if not self.cells[q]}

    def open_fours(self, colour: int) -> set[int]:
        """Empty points where `colour` would have two points of five at once (an open four or a double four)."""
        out = set()
        for p in self.fours(colour):
            self.make(p, colour)
            if len(self.five_after(colour, p)) >= 2:
                out.add(p)
            self.unmake()
        return out

    def threes(self, colour: int) -> set[int]:
        """Empty points after which `colour` would have an open-four point (it made a live three)."""
        mine, theirs = self.count[colour], self.count[3 - colour]
        near = {p for w in self._windows_with(colour, 2) for p in self.windows[w] if not self.cells[p]}
        out = set()
        for p in near:
            self.make(p, colour)
            ws = [w for w in self.through[p] if mine[w] == 3 and not theirs[w]]
            for q in {q for w in ws for q in self.windows[w] if not self.cells[q]}:
                self.make(q, colour)
                two = len(self.five_after(colour, q)) >= 2
                self.unmake()
                if two:
                    out.add(p)
                    break
            self.unmake()
        return out

    def defences(self, colour: int, open_fours: set[int]) -> set[int]:
        """The points that spoil `colour`'s open-four points: each of them and the empty cells of the
        windows of three through them."""
        mine, theirs = self.count[colour], self.count[3 - colour]
        out = set(open_fours)
        for q in open_fours:
            for w in self.through[q]:
                if mine[w] == 3 and not theirs[w]:
                    out.update(p for p in self.windows[w] if not self.cells[p])
        return out

    def score(self, p: int, colour: int) -> int:
        """The weight of the windows through `p`: for `colour` and against the other side."""
        mine, theirs = self.count[colour], self.count[3 - colour]
        s = 0
        for w in self.through[p]:
            a, b = mine[w], theirs[w]
            if not b:
                s += ATTACK[a + 1] if a < 5 else 0
            elif not a:
                s += DEFEND[b + 1] if b < 5 else 0
        return s

    def near(self) -> list[int]:
        """Empty points within two of a stone."""
        size, out = self.size, set()
        for p in self.stones:
            r, c = divmod(p, size)
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    if 0 <= r + dr < size and 0 <= c + dc < size and not self.cells[(r + dr) * size + c + dc]:
                        out.add((r + dr) * size + c + dc)
        return sorted(out)

    # --- the threat-space searches --------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.cap:
            raise OutOfNodes

    def vcf(self, colour: int, depth: int) -> int | None:
        """`colour` to move: a first move that wins by continuous fours, or None."""
        self._tick()
        mine = self.fives(colour)
        if mine:
            return min(mine)
        foe = 3 - colour
        if self.fives(foe) or depth <= 0:
            return None
        for p in sorted(self.fours(colour), key=lambda q: -self.score(q, colour)):
            self.make(p, colour)
            blocks = self.five_after(colour, p)
            won = len(blocks) >= 2
            if len(blocks) == 1:
                b = blocks.pop()
                self.make(b, foe)
                won = not self.fives(foe) and self.vcf(colour, depth - 1) is not None
                self.unmake()
            self.unmake()
            if won:
                return p
        return None

    def vct(self, colour: int, depth: int) -> int | None:
        """`colour` to move: a first move that wins by fours and threes, or None."""
        self._tick()
        mine = self.fives(colour)
        if mine:
            return min(mine)
        foe = 3 - colour
        theirs = self.fives(foe)
        if theirs:
            if len(theirs) > 1:
                return None
            p = theirs.pop()
            self.make(p, colour)
            won = self._defend(colour, depth)
            self.unmake()
            return p if won else None
        flex = self.open_fours(colour)
        if flex:
            return min(flex)
        if depth <= 0:
            return None
        key = (self.hash, colour, depth)
        if self.memo.get(key) is False:
            return None
        moves = sorted(self.fours(colour) | self.threes(colour), key=lambda q: -self.score(q, colour))
        for p in moves:
            self.make(p, colour)
            won = self._defend(colour, depth - 1)
            self.unmake()
            if won:
                return p
        self.memo[key] = False
        return None

    def _defend(self, colour: int, depth: int) -> bool:
        """The other side to move against `colour`'s threat: True when every defence loses."""
        self._tick()
        foe = 3 - colour
        if self.fives(foe):
            return False
        threats = self.fives(colour)
        if len(threats) > 1:
            return True
        if threats:
            replies = threats
        else:
            flex = self.open_fours(colour)
            if not flex:
                return False
            replies = self.defences(colour, flex) | self.fours(foe)
        for r in replies:
            self.make(r, foe)
            won = self.vct(colour, depth) is not None
            self.unmake()
            if not won:
                return False
        return True

    def search(self, fn, colour: int, depth: int) -> int | None:  # type: ignore[no-untyped-def]
        """`fn(colour, d)` for d = 1..depth within the node cap (None when it runs out)."""
        base = len(self.stones)
        try:
            for d in range(1, depth + 1):
                p = fn(colour, d)
                if p is not None:
                    return p
        except OutOfNodes:
            while len(self.stones) > base:
                self.unmake()
        return None

    # --- the move -------------------------------------------------------------------------------
    def choose(self, colour: int, rng: random.Random) -> int:
        foe = 3 - colour
        self.nodes, self.memo = 0, {}
        if not self.stones:
            return (self.size // 2) * self.size + self.size // 2
        for points in (self.fives(colour), self.fives(foe)):
            if points:
                return min(points)
        cap = self.cap
        for fn, depth, share in ((self.vcf, self.vcf_depth, 0.2), (self.vct, self.vct_depth, 0.5)):
            self.cap = self.nodes + int(cap * share)
            win = self.search(fn, colour, depth)
            if win is not None:
                self.cap = cap
                return win
        self.cap = cap
        ranked = sorted(self.near(), key=lambda p: -(self.score(p, colour) + rng.random()))
        # The opponent's threats, were it to move now: the first of the best few moves (and of the
        # opponent's threat points) after which it has none.
        self.cap = self.nodes + cap // 10
        danger = self.search(self.vct, foe, self.guard)
        if danger is None:
            return ranked[0]
        pool = list(dict.fromkeys(ranked[:8] + sorted(self.fours(foe) | self.threes(foe) | self.fours(colour),
                                                      key=lambda p: -self.score(p, colour))))
        for p in pool:
            if self.nodes >= cap:
                break
            base = len(self.stones)
            self.make(p, colour)
            self.cap = self.nodes + cap // 20
            blocks = self.five_after(colour, p)
            if len(blocks) == 1:
                self.make(blocks.pop(), foe)
            lost = self.search(self.vct, foe, self.guard) if len(blocks) < 2 else None
            while len(self.stones) > base:
                self.unmake()
            if lost is None:
                return p
        return ranked[0]


def play(stones: list[tuple[int, int]], size: int, rng: random.Random, **settings: int) -> tuple[int, int]:
    """The move (col, row) for the side to move after `stones` (col, row, black first)."""
    board = TSS(size, **settings)
    for i, (col, row) in enumerate(stones):
        board.make(row * size + col, BLACK if i % 2 == 0 else WHITE)
    p = board.choose(BLACK if len(stones) % 2 == 0 else WHITE, rng)
    row, col = divmod(p, size)
    return col, row
