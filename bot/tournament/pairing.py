"""Who plays whom in a tournament, and the standings. Pure: no I/O, no game's rules.

An entrant is an id and a rating; a played game is the ids at its table (in seat order) and the
points each took there (`Played`; a bye is a table of one). From those alone:

- `swiss`: tables of `seats` by score then rating (two seats: the top half of a score group
  meets its bottom half, 1 v 5, 2 v 6 ...), nobody meets anyone twice while that is possible,
  and the `len % seats` left over sit out (a bye) — the lowest ranked who has not had one.
- `round_robin`: every pair once, by the circle method (two seats; more: `tables`).
- `knockout` (two seats; more: `tables`): seeded by rating (1 meets the last seed), byes to the
  top seeds in a field that is not a power of two, and a decider game after a draw (after
  `MOST_GAMES` draws in a row the higher seed goes through).
- `standings`: points, then Buchholz (what one's opponents scored), Sonneborn-Berger (each
  opponent's score weighted by what one took from them), then games won.

Points of one game come from its finishing places (`place_points`: win 1, draw ½, loss 0 for two
seats) or, where the game settles in points (Dou Dizhu), from its settlement.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

BYE_POINTS = 1.0  # what a bye is worth where points come from places (a win)
MOST_GAMES = 3  # a knockout match's games before a run of draws sends the higher seed through
BUDGET = 20_000  # tables tried before a pairing gives up avoiding every rematch


@dataclass(frozen=True)
class Entrant:
    id: str
    rating: float


@dataclass(frozen=True)
class Played:
    """A finished game of the event (a bye: one player, its points `BYE_POINTS` or 0)."""

    round: int
    players: tuple[str, ...]  # in seat order
    points: tuple[float, ...]  # each player's, in the same order
    ranks: tuple[int, ...] = ()  # finishing places (1 best; equal: tied); empty for a bye

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    def won(self, player: str) -> bool:
        """Finished first and not everyone did (a draw): alone, or with partners (Dou Dizhu's farmers)."""
        if self.bye or not self.ranks:
            return False
        i = self.players.index(player)
        return self.ranks[i] == 1 and self.ranks.count(1) < len(self.ranks)


@dataclass(frozen=True)
class Pairing:
    tables: tuple[tuple[str, ...], ...]  # each in seat order
    byes: tuple[str, ...] = ()


def place_points(ranks: Sequence[int]) -> tuple[float, ...]:
    """Points by finishing place: 1 for beating everyone, 0 for losing to everyone, ties split
    (two seats: 1, ½, 0)."""
    n = len(ranks)
    if n < 2:
        return tuple(1.0 for _ in ranks)
    return tuple((sum(r < other for other in ranks) + 0.5 * (ranks.count(r) - 1)) / (n - 1) for r in ranks)


# --- standings ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Standing:
    id: str
    rank: int
    points: float
    buchholz: float
    sonneborn: float
    wins: int
    games: int


def scores(played: Iterable[Played]) -> dict[str, float]:
    total: dict[str, float] = defaultdict(float)
    for game in played:
        for player, points in zip(game.players, game.points, strict=True):
            total[player] += points
    return total


def standings(entrants: Sequence[Entrant], played: Sequence[Played]) -> list[Standing]:
    """Everyone ranked: points, Buchholz, Sonneborn-Berger, games won (equal in all four: the
    same rank, listed by rating). At a table of more than two, Buchholz adds every table-mate's
    score and Sonneborn-Berger weights their average by one's points there."""
    total = scores(played)
    buchholz: dict[str, float] = defaultdict(float)
    sonneborn: dict[str, float] = defaultdict(float)
    wins: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for game in played:
        for i, player in enumerate(game.players):
            mates = [p for p in game.players if p != player]
            if not mates:
                continue
            games[player] += 1
            wins[player] += game.won(player)
            buchholz[player] += sum(total[m] for m in mates)
            sonneborn[player] += game.points[i] * sum(total[m] for m in mates) / len(mates)
    rating = {e.id: e.rating for e in entrants}
    keys = {e.id: (round(total[e.id], 6), round(buchholz[e.id], 6), round(sonneborn[e.id], 6), wins[e.id])
            for e in entrants}
    order = sorted(keys, key=lambda p: (keys[p], rating[p]), reverse=True)
    table, rank = [], 0
    for i, player in enumerate(order):
        if i == 0 or keys[player] != keys[order[i - 1]]:
            rank = i + 1
        table.append(Standing(player, rank, total[player], buchholz[player], sonneborn[player], wins[player],
                              games[player]))
    return table


# --- Swiss --------------------------------------------------------------------------------------
def swiss(entrants: Sequence[Entrant], played: Sequence[Played], seats: int = 2) -> Pairing:
    """The next round of a Swiss among `entrants` (those still in): see the module's page."""
    total = scores(played)
    order = sorted(entrants, key=lambda e: (-total[e.id], -e.rating, e.id))
    ids = [e.id for e in order]
    met = _met(played)
    had_bye = {g.players[0] for g in played if g.bye}
    spare = len(ids) % seats
    # Byes: the lowest who had none (if everyone had one, the lowest), trying the next ones up
    # when the rest cannot be seated without a rematch.
    candidates = [p for p in reversed(ids) if p not in had_bye] or list(reversed(ids))
    options = [tuple(c) for c in combinations(candidates, spare)] if spare else [()]
    if spare and len(candidates) < spare:
        options = [tuple(reversed(ids))[:spare]]
    budget = [BUDGET]
    for byes in options[:64]:
        rest = [p for p in ids if p not in byes]
        try:
            tables = _seat(rest, met, seats, total, budget)
        except _Exhausted:
            break
        if tables is not None:
            return Pairing(tuple(_order_seats(t, played, ids) for t in tables), byes)
    byes = options[0]
    rest = [p for p in ids if p not in byes]
    return Pairing(tuple(_order_seats(t, played, ids) for t in _fewest_rematches(rest, met, seats)), byes)


class _Exhausted(Exception):
    pass


def _met(played: Iterable[Played]) -> set[frozenset[str]]:
    return {frozenset(pair) for game in played for pair in combinations(game.players, 2)}


def _seat(rest: list[str], met: set[frozenset[str]], seats: int, total: dict[str, float],
          budget: list[int]) -> list[tuple[str, ...]] | None:
    """Tables for everyone in `rest` (ranked) with no two who met, the top player's table first;
    None: there are none."""
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for group in _groups(first, others, seats, total):
        if any(frozenset(pair) in met for pair in combinations((first, *group), 2)):
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise _Exhausted
        left = [p for p in others if p not in group]
        if not _hopeless(left, met, seats):
            tables = _seat(left, met, seats, total, budget)
            if tables is not None:
                return [(first, *group), *tables]
    return None


def _groups(first: str, others: list[str], seats: int, total: dict[str, float]) -> Iterable[tuple[str, ...]]:
    """Whom `first` may sit with, best first. Two seats: its score group's bottom half from the
    top, then the rest of its group upwards, then the next groups down (and up) in order."""
    if seats != 2:
        yield from combinations(others, seats - 1)
        return
    group = [p for p in others if total[p] == total[first]]
    half = (len(group) + 1) // 2 - 1  # `first` is the top of its group's upper half
    near = group[half:] + list(reversed(group[:half]))
    yield from ((p,) for p in near)
    yield from ((p,) for p in others if total[p] != total[first])


def _hopeless(left: list[str], met: set[frozenset[str]], seats: int) -> bool:
    """Someone in `left` has fewer than `seats - 1` people they have not met."""
    return any(sum(frozenset((p, q)) not in met for q in left if q != p) < seats - 1 for p in left)


def _fewest_rematches(rest: list[str], met: set[frozenset[str]], seats: int) -> list[tuple[str, ...]]:
    """When no pairing avoids every rematch: each top player with those they met least."""
    tables = []
    rest = list(rest)
    while rest:
        first, others = rest[0], rest[1:]
        group = min(combinations(others, seats - 1),
                    key=lambda g: sum(frozenset(pair) in met for pair in combinations((first, *g), 2)))
        tables.append((first, *group))
        rest = [p for p in others if p not in group]
    return tables


def _order_seats(table: tuple[str, ...], played: Sequence[Played], ranked: list[str]) -> tuple[str, ...]:
    """Seats in a fair order: who moved first least often sits first (two seats: colours
    alternate), then who was not first last time, then by rank."""
    first = Counter(g.players[0] for g in played if not g.bye)
    last: dict[str, int] = {}
    for game in sorted(played, key=lambda g: g.round):
        if not game.bye:
            for i, p in enumerate(game.players):
                last[p] = i
    return tuple(sorted(table, key=lambda p: (first[p], last.get(p) == 0, ranked.index(p))))


# --- round robin --------------------------------------------------------------------------------
def round_robin(entrants: Sequence[Entrant]) -> list[Pairing]:
    """Every round of a round robin by the circle method: the first seed stays, the others turn
    one place a round; an odd field has a bye in each round instead of a partner."""
    ids: list[str | None] = [e.id for e in sorted(entrants, key=lambda e: (-e.rating, e.id))]
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rounds = []
    for r in range(n - 1):
        circle = [ids[0], *ids[1:][-r:], *ids[1:][:-r]] if r else list(ids)
        tables, byes = [], []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                byes.append(a if b is None else b)
            else:
                tables.append((a, b) if i or r % 2 == 0 else (b, a))
        rounds.append(Pairing(tuple(tables), tuple(p for p in byes if p is not None)))
    return rounds


# --- knockout -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    """Two seeds' match in a round of the bracket; `b` None: `a` has a bye."""

    a: str | None
    b: str | None
    winner: str | None = None
    games: tuple[Played, ...] = ()


@dataclass(frozen=True)
class Bracket:
    rounds: tuple[tuple[Match, ...], ...]  # the rounds known so far, first round first
    next: Pairing  # the games to play now (a round's matches, or deciders); empty when over
    champion: str | None = None


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power of two: 1, 8, 4, 5, 2, 7, 3, 6 for eight."""
    order = [1]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) + 1 - seed)]
    return order


def knockout(entrants: Sequence[Entrant], played: Sequence[Played], out: Iterable[str] = ()) -> Bracket:
    """The bracket as far as `played` decides it. `entrants` in seed order are those who entered
    (a player in `out` has withdrawn: their matches are lost)."""
    gone = set(out)
    seeds = sorted(entrants, key=lambda e: (-e.rating, e.id))
    size = 1
    while size < len(seeds):
        size *= 2
    slots: list[str | None] = [seeds[s - 1].id if s <= len(seeds) else None for s in seed_order(size)]
    seed_of = {e.id: i for i, e in enumerate(seeds)}
    rounds: list[tuple[Match, ...]] = []
    r = 0
    while len(slots) > 1:
        r += 1
        matches, pending = [], []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            match = _decide(a, b, r, played, gone, seed_of)
            matches.append(match)
            if match.winner is None and a is not None and b is not None:
                # Seats swap each game, so a decider gives the other player the first move.
                pending.append((a, b) if len(match.games) % 2 == 0 else (b, a))
        rounds.append(tuple(matches))
        if pending or any(m.winner is None and (m.a or m.b) for m in matches):
            return Bracket(tuple(rounds), Pairing(tuple(pending)))
        slots = [m.winner for m in matches]
    champion = slots[0] if slots else None
    return Bracket(tuple(rounds), Pairing(()), champion)


def _decide(a: str | None, b: str | None, r: int, played: Sequence[Played], gone: set[str],
            seed_of: dict[str, int]) -> Match:
    if a is None or b is None:
        return Match(a or b, None, a or b)
    games = tuple(g for g in played if g.round == r and set(g.players) == {a, b})
    for game in games:
        for player in (a, b):
            if game.won(player):
                return Match(a, b, player, games)
    if a in gone or b in gone:
        return Match(a, b, b if a in gone else a, games)
    if len(games) >= MOST_GAMES:
        return Match(a, b, min((a, b), key=seed_of.__getitem__), games)
    return Match(a, b, None, games)


def knockout_rounds(count: int) -> int:
    """How many rounds a knockout of `count` entrants has."""
    rounds = 0
    while (1 << rounds) < count:
        rounds += 1
    return rounds
