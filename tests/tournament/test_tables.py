"""Round robin and knockout at tables of three to six, by property: everyone at one table a round,
tables full, byes fair, every pair met, no table twice; the knockout's plan always ends in one
table of the right size and one champion, ties at the place that goes on replayed."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.pairing import MOST_GAMES, Entrant, Played, place_points
from bot.tournament.tables import knockout, knockout_rounds, plan, round_robin, schedule, snake

SEATS = st.sampled_from([3, 4, 6])


def field(n: int, seed: int) -> list[Entrant]:
    rng = random.Random(seed)
    return [Entrant(f"p{i}", rng.choice([1000.0, 1200.0, rng.uniform(800, 2000)])) for i in range(n)]


@settings(max_examples=60, deadline=None)
@given(SEATS, st.integers(0, 30), st.integers(0, 10**6))
def test_round_robin_at_tables(seats: int, extra: int, seed: int) -> None:
    n = seats + extra
    entrants = field(n, seed)
    ids = sorted(e.id for e in entrants)
    rounds = round_robin(entrants, seats)
    byes: Counter[str] = Counter()
    met: Counter[frozenset[str]] = Counter()
    tables: list[frozenset[str]] = []
    for r, pairing in enumerate(rounds):
        seated = [p for t in pairing.tables for p in t]
        assert sorted(seated + list(pairing.byes)) == ids  # everyone at one table or a bye
        assert all(len(t) == seats for t in pairing.tables)
        assert len(pairing.byes) == n % seats
        least = min(byes[p] for p in ids)
        forced = {p for p in ids if byes[p] == least} if sum(byes[p] == least for p in ids) <= n % seats else set()
        byes.update(pairing.byes)
        assert max(byes[p] for p in ids) - min(byes[p] for p in ids) <= 1  # fair after every round
        unmet = [frozenset(p) for p in combinations(ids, 2) if not met[frozenset(p)]]
        new = 0
        for t in pairing.tables:
            new += sum(met[frozenset(p)] == 0 for p in combinations(t, 2))
            met.update(frozenset(p) for p in combinations(t, 2))
            tables.append(frozenset(t))
        # Every round brings someone together for the first time, unless the byes' fairness (those
        # with the fewest must sit out) left every pair yet to meet with one of them sitting out.
        assert new > 0 or all(pair & forced for pair in unmet), r
    assert all(met[frozenset(p)] for p in combinations(ids, 2))  # every pair has met
    assert len(set(tables)) == len(tables)  # no table twice
    # No longer than needed by much: each player meets at most seats - 1 new people a game.
    games = math.ceil((n - 1) / (seats - 1))
    least = max(games, math.ceil(n * games / (n - n % seats)))
    assert len(rounds) <= 2 * least + 1


def test_round_robin_is_the_same_for_the_same_field() -> None:
    entrants = field(9, 1)
    assert round_robin(entrants, 3) == round_robin(list(reversed(entrants)), 3)
    assert len(schedule(9, 3)) == 4  # the nine at tables of three meet each other in four rounds (Kirkman)


def test_snake_seeding() -> None:
    assert snake([f"s{i}" for i in range(1, 10)], 3) == [("s1", "s6", "s7"), ("s2", "s5", "s8"),
                                                           ("s3", "s4", "s9")]


@settings(max_examples=200, deadline=None)
@given(SEATS, st.integers(0, 60))
def test_the_knockout_plan_ends_in_one_full_table(seats: int, extra: int) -> None:
    n = seats + extra
    field_size = n
    through = plan(n, seats)
    for r, going in enumerate(through):
        tables, spare = divmod(field_size, seats)
        assert tables >= 1 and 1 <= going < seats
        if r == len(through) - 1:
            assert (tables, spare, going) == (1, 0, 1)  # the final: one table, its winner
        field_size = going * tables + spare
        assert field_size >= seats or r == len(through) - 1
    assert field_size == 1


def play(table: tuple[str, ...], r: int, rng: random.Random) -> Played:
    ranks = tuple(rng.choice([1, 1, 2, 3, len(table)]) for _ in table)
    return Played(r, table, place_points(ranks), ranks)


@settings(max_examples=120, deadline=None)
@given(SEATS, st.integers(0, 40), st.integers(0, 10**6), st.booleans())
def test_the_knockout_ends_with_one_champion(seats: int, extra: int, seed: int, withdrawals: bool) -> None:
    n = seats + extra
    entrants, rng, played = field(n, seed), random.Random(seed), []
    out = {e.id for e in entrants if withdrawals and rng.random() < 0.2}
    for _ in range(200):
        bracket = knockout(entrants, played, seats, out)
        if bracket.champion is not None:
            break
        assert bracket.next.tables
        r = len(bracket.rounds)
        stage = bracket.rounds[-1]
        busy = [p for t in bracket.next.tables for p in t]
        assert len(busy) == len(set(busy))  # at one table at a time
        assert not set(busy) & set(stage.byes)
        for table in bracket.next.tables:
            assert len(table) == seats
            played.append(play(table, r, rng))
    else:
        raise AssertionError("the knockout did not end")
    assert len(bracket.rounds) == knockout_rounds(n, seats)
    assert sorted(bracket.podium) == sorted(bracket.rounds[-1].tables[0].players)
    assert bracket.champion == bracket.podium[0]
    if len(out) < n:
        assert bracket.champion not in out
    seeds = sorted(entrants, key=lambda e: (-e.rating, e.id))
    first = bracket.rounds[0]
    assert list(first.byes) == [e.id for e in seeds[: len(first.byes)]]  # the top seeds
    for stage in bracket.rounds:
        for table in stage.tables:
            assert table.decided and len(table.games) <= MOST_GAMES
            if table.games:
                # Who goes on finished above who did not in the table's first game, unless tied there.
                points = dict(zip(table.games[0].players, table.games[0].points, strict=True))
                for winner in table.advanced:
                    for loser in table.order[table.through:]:
                        if winner not in out and loser not in out:
                            assert points[winner] >= points[loser]


def test_a_tie_at_the_place_that_goes_on_is_played_again_with_seats_moved_on() -> None:
    entrants = [Entrant(x, r) for x, r in (("a", 3.0), ("b", 2.0), ("c", 1.0))]
    bracket = knockout(entrants, [], 3)
    assert bracket.next.tables == (("a", "b", "c"),) and bracket.rounds[0].through == 1
    played = [Played(1, ("a", "b", "c"), place_points((2, 1, 1)), (2, 1, 1))]  # b and c tie for first
    bracket = knockout(entrants, played, 3)
    assert bracket.champion is None and bracket.next.tables == (("b", "c", "a"),)
    played.append(Played(1, ("b", "c", "a"), place_points((2, 3, 1)), (2, 3, 1)))  # a's win counts for nothing
    bracket = knockout(entrants, played, 3)
    assert bracket.champion == "b" and bracket.podium == ("b", "c", "a")
    ties = [Played(1, ("a", "b", "c"), place_points((2, 1, 1)), (2, 1, 1))] * MOST_GAMES
    assert knockout(entrants, ties, 3).champion == "b"  # the higher seed of the tied, after the run of ties


def test_who_withdrew_loses_and_a_table_with_too_few_left_is_not_played() -> None:
    entrants = [Entrant(f"s{i}", 10.0 - i) for i in range(1, 5)]  # four at tables of three: two go on
    bracket = knockout(entrants, [], 3, out=["s3", "s4"])
    first = bracket.rounds[0]
    assert first.byes == ("s1",) and first.through == 2
    assert first.tables[0].advanced == ("s2", "s3")  # s2 alone is left in: no game; s3 is the higher seed
    assert bracket.next.tables == (("s1", "s2", "s3"),)  # the final


def test_a_round_robin_table_with_two_still_in_is_played_and_one_alone_is_given() -> None:
    from bot.tournament import rounds
    from bot.tournament.model import Entry, EventStatus, Tournament

    entries = [Entry(f"p{i}", f"P{i}", 10.0 - i) for i in range(6)]
    event = Tournament("console:t", "doudizhu", "roundrobin", EventStatus.RUNNING, "p0", {"seats": 3}, 0.0, 0.0,
                       entries=entries)
    event.options["rounds"] = rounds.default_rounds("roundrobin", 6, 3)
    assert event.options["rounds"] == len(schedule(6, 3))
    entries[1].withdrawn = 1
    games = rounds.advance(event) or []
    assert [len(g.players) for g in games] == [3, 3]
    for game in games:
        assert game.points is None  # two or three still in: played (a bot plays out the seat of who left)
    entries[2].withdrawn = entries[3].withdrawn = entries[4].withdrawn = 1
    for game in games:
        game.points, game.ranks = (0.0, 0.0, 0.0), (1, 1, 1)
    later = rounds.advance(event) or []
    for game in later:
        alive = [p for p in game.players if p in ("p0", "p5")]
        if len(alive) <= 1:  # one left in: theirs without a game, the others' lost
            assert game.ranks == tuple(1 if p in alive else 2 for p in game.players)
        else:
            assert game.points is None
