"""Round robin and knockout for games of more than two at a table (Dou Dizhu 3, checkers 3-6).
Pure: no I/O, no game's rules. Two seats: `pairing` (the circle method, the classic bracket).

`round_robin(entrants, seats)`: every round seats the field at tables of `seats`; the
`len % seats` left over sit out (a bye). The schedule is a greedy one, built over the seeds
(so it depends only on the field's size and the table size) and deterministic. It guarantees:
- everyone sits at one table or has a bye in each round, every table has `seats` players;
- byes go to those who have had the fewest, so nobody has two byes more than anyone else
  (counts differ by at most one after every round);
- every pair of entrants shares a table at least once by the last round, and the schedule
  ends with the round that completes that (each round seats someone with someone new, but where
  the rule of byes leaves no other choice);
- no table (the same players) is played twice.
Within those it prefers the round that brings the most new pairs together, then the one whose
meetings are spread most evenly; its length is checked against the lower bound in the tests.

`knockout(entrants, played, seats, out)`: each round the field (seeded by rating) is seated at
tables of `seats` by snake seeding (seeds 1..T one to a table, the next T back up, ...), the
top seeds left over have a bye; the top `through` of each table go on, until one table (the
final) decides the champion. `through` is chosen per round by `plan`: the fewest rounds (then
the fewest byes, then the fewest going on) that end in a table of exactly `seats`. A tie at the
place that goes on (equal points) is decided by the table playing again, seats moved on one
place; only the tied players' order in it counts. After `MOST_GAMES` games the higher seed goes
on. Who withdrew (`out`) finishes last at their table; a table with no more players left in than
go on needs no game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations

from bot.tournament.pairing import MOST_GAMES, Entrant, Pairing, Played

WORK = 80_000  # seat choices weighed per round robin round, spread over its trials (at most TRIALS)
TRIALS = 40


def seeded(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Seed order: rating, then id."""
    return sorted(entrants, key=lambda e: (-e.rating, e.id))


# --- round robin --------------------------------------------------------------------------------
Round = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]  # tables of seeds (0 best), byes


def round_robin(entrants: Sequence[Entrant], seats: int) -> list[Pairing]:
    """Every round of a round robin at tables of `seats` (see the module's page)."""
    ids = [e.id for e in seeded(entrants)]
    return [Pairing(tuple(tuple(ids[s] for s in t) for t in tables), tuple(ids[s] for s in byes))
            for tables, byes in schedule(len(ids), seats)]


@lru_cache(maxsize=32)
def schedule(n: int, seats: int) -> tuple[Round, ...]:
    """The round robin of `n` seeds (0 the best) at tables of `seats`."""
    if seats < 2 or n < seats:
        raise ValueError(f"no tables of {seats} among {n}")
    met = [[0] * n for _ in range(n)]
    byes, first = [0] * n, [0] * n
    played: set[frozenset[int]] = set()
    unmet = n * (n - 1) // 2
    rounds: list[Round] = []
    while unmet:
        out = _byes(n, n % seats, byes, met)
        playing = [p for p in range(n) if p not in out]
        tables = _best_round(playing, seats, met, played, random.Random(f"{n}/{seats}/{len(rounds)}"))
        seated = []
        for table in tables:
            order = tuple(sorted(table, key=lambda p: (first[p], p)))  # who sat first least, first
            first[order[0]] += 1
            for p, q in combinations(order, 2):
                unmet -= not met[p][q]
                met[p][q] += 1
                met[q][p] += 1
            played.add(frozenset(order))
            seated.append(order)
        for p in out:
            byes[p] += 1
        rounds.append((tuple(seated), out))
        if len(rounds) > n * n:  # cannot happen (rounds without a new pair are rare): a guard, not a rule
            raise RuntimeError("the round robin does not end")
    return tuple(rounds)


def _byes(n: int, count: int, byes: list[int], met: list[list[int]]) -> tuple[int, ...]:
    """Who sits out: those with the fewest byes so far must (so the counts stay within one of each
    other); among the rest of the next fewest, who has the fewest left to meet, then the lowest
    seed. If that would leave every pair yet to meet with one of them sitting out, the first such
    pair the rule allows to keep is kept at the tables."""
    if not count:
        return ()
    least = min(byes)
    must = [p for p in range(n) if byes[p] == least]
    forced, pool = (must, [p for p in range(n) if byes[p] == least + 1]) if len(must) <= count else ([], must)
    left = [sum(1 for q in range(n) if q != p and not met[p][q]) for p in range(n)]
    pool.sort(key=lambda p: (left[p], -p))
    wanted = count - len(forced)
    out = {*forced, *pool[:wanted]}
    unmet = [(p, q) for p, q in combinations(range(n), 2) if not met[p][q]]
    if unmet and all(p in out or q in out for p, q in unmet):
        for p, q in unmet:
            rest = [x for x in pool if x not in (p, q)]
            if p not in forced and q not in forced and len(rest) >= wanted:
                out = {*forced, *rest[:wanted]}
                break
    return tuple(sorted(out))


def _best_round(playing: list[int], seats: int, met: list[list[int]], played: set[frozenset[int]],
                rng: random.Random) -> list[tuple[int, ...]]:
    """The best of a few greedy seatings: the first takes the players with the most left to meet
    first, the others a shuffled order; each table is filled by whoever adds the most new pairs."""
    left = {p: sum(1 for q in playing if q != p and not met[p][q]) for p in playing}
    trials = min(TRIALS, max(2, WORK // max(1, len(playing) ** 2 * seats)))
    best: tuple[tuple[int, int, int], list[tuple[int, ...]]] | None = None
    for trial in range(trials):
        order = sorted(playing, key=lambda p: (-left[p], p))
        if trial:
            rng.shuffle(order)
        tables = _greedy(order, seats, met, played)
        new = sum(not met[p][q] for t in tables for p, q in combinations(t, 2))
        spread = sum(met[p][q] ** 2 for t in tables for p, q in combinations(t, 2))
        again = sum(frozenset(t) in played for t in tables)
        score = (again, -new, spread)
        if best is None or score < best[0]:
            best = (score, tables)
    assert best is not None
    return best[1]


def _greedy(order: list[int], seats: int, met: list[list[int]], played: set[frozenset[int]]) -> list[tuple[int, ...]]:
    pool = list(order)
    tables = []
    while pool:
        table = [pool.pop(0)]
        while len(table) < seats:
            pick = min(pool, key=partial(_cost, tuple(table), len(table) == seats - 1, met, played))
            pool.remove(pick)
            table.append(pick)
        tables.append(tuple(table))
    return tables


def _cost(table: tuple[int, ...], last: bool, met: list[list[int]], played: set[frozenset[int]],
          c: int) -> tuple[bool, int, int]:
    """Seating `c` at `table`: a table played before (when it would complete one), then how many
    there `c` has met, then how often."""
    return (last and frozenset((*table, c)) in played, sum(met[c][p] > 0 for p in table), sum(met[c][p] for p in table))


# --- knockout -----------------------------------------------------------------------------------
@lru_cache(maxsize=512)
def _plan(m: int, seats: int) -> tuple[int, int, tuple[int, ...]]:
    """(rounds, byes, how many go on from each table in each round) for a field of `m`."""
    if m == seats:
        return (1, 0, (1,))
    tables, spare = divmod(m, seats)
    options = []
    for through in range(1, seats):
        after = through * tables + spare
        if after >= seats:
            rounds, byes, rest = _plan(after, seats)
            options.append((rounds + 1, byes + spare, (through, *rest)))
    return min(options)


def plan(entrants: int, seats: int) -> tuple[int, ...]:
    """How many go on from each table, round by round (the last: the final's 1)."""
    if seats < 2 or entrants < seats:
        raise ValueError(f"no tables of {seats} among {entrants}")
    return _plan(entrants, seats)[2]


def knockout_rounds(entrants: int, seats: int) -> int:
    return len(plan(entrants, seats))


@dataclass(frozen=True)
class Table:
    """A table of a knockout round: its players in seed order (the seats of its first game), how
    many go on, its games so far, and once decided the finishing order (the first `through` go on)."""

    players: tuple[str, ...]
    through: int
    games: tuple[Played, ...] = ()
    order: tuple[str, ...] = ()

    @property
    def decided(self) -> bool:
        return bool(self.order)

    @property
    def advanced(self) -> tuple[str, ...]:
        return self.order[: self.through]


@dataclass(frozen=True)
class Stage:
    """A knockout round: its tables, who had a bye (went on without playing), how many go on a table."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    through: int


@dataclass(frozen=True)
class TableBracket:
    rounds: tuple[Stage, ...]  # the rounds known so far, first round first
    next: Pairing  # the games to play now (a round's tables, or a table playing again); empty when over
    champion: str | None = None
    podium: tuple[str, ...] = ()  # the final table's finishing order, once it is decided


def snake(players: Sequence[str], tables: int) -> list[tuple[str, ...]]:
    """Seeds dealt to tables: 1..T one each, T+1..2T back up, and so on (each table in seed order)."""
    dealt: list[list[str]] = [[] for _ in range(tables)]
    for i, player in enumerate(players):
        row, column = divmod(i, tables)
        dealt[column if row % 2 == 0 else tables - 1 - column].append(player)
    return [tuple(t) for t in dealt]


def knockout(entrants: Sequence[Entrant], played: Sequence[Played], seats: int, out: Iterable[str] = ()
             ) -> TableBracket:
    """The knockout of tables as far as `played` decides it (see the module's page). `entrants`
    are all who entered; `out` those who withdrew."""
    gone = set(out)
    seeds = [e.id for e in seeded(entrants)]
    seed_of = {p: i for i, p in enumerate(seeds)}
    field = seeds
    stages: list[Stage] = []
    for r, through in enumerate(plan(len(seeds), seats), 1):
        count, spare = divmod(len(field), seats)
        byes, rest = field[:spare], field[spare:]
        tables = tuple(_decide(t, through, r, played, gone, seed_of) for t in snake(rest, count))
        stages.append(Stage(tables, tuple(byes), through))
        pending = tuple(_next_seats(t) for t in tables if not t.decided)
        if pending:
            return TableBracket(tuple(stages), Pairing(pending))
        field = sorted([*byes, *(p for t in tables for p in t.advanced)], key=seed_of.__getitem__)
    final = stages[-1].tables[0]
    return TableBracket(tuple(stages), Pairing(()), final.order[0], final.order)


def _decide(players: tuple[str, ...], through: int, r: int, played: Sequence[Played], gone: set[str],
            seed_of: dict[str, int]) -> Table:
    """The table's order as far as its games decide it: who withdrew last, then each game splits
    the players it left tied by their points in it."""
    games = tuple(g for g in played if g.round == r and set(g.players) == set(players))
    groups = [g for g in ([p for p in players if p not in gone], [p for p in players if p in gone]) if g]
    for game in games:
        points = dict(zip(game.players, game.points, strict=True))
        groups = [part for group in groups for part in _split(group, points)]
    seated, straddling = 0, None  # the group the place that goes on falls in, if it splits one
    for group in groups:
        if seated < through < seated + len(group):
            straddling = group
        seated += len(group)
    tied = straddling is not None and not set(straddling) <= gone  # (who withdrew need not play it out)
    if tied and len(games) < MOST_GAMES:
        return Table(players, through, games)
    order = tuple(p for group in groups for p in sorted(group, key=seed_of.__getitem__))
    return Table(players, through, games, order)


def _split(group: list[str], points: dict[str, float]) -> list[list[str]]:
    values = sorted({points[p] for p in group}, reverse=True)
    return [[p for p in group if points[p] == v] for v in values]


def _next_seats(table: Table) -> tuple[str, ...]:
    """The first game in seed order; each game after it with the seats moved on one place."""
    if not table.games:
        return table.players
    last = table.games[-1].players
    return (*last[1:], last[0])
