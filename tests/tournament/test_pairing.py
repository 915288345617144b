"""The pairing rules of tournaments, by property: Swiss (no rematch while one can be avoided, a bye
to the lowest who had none), round robin (every pair once), knockout (seeds, byes, deciders), and
the standings' tie-breaks worked by hand."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.pairing import (
    BYE_POINTS,
    MOST_GAMES,
    Entrant,
    Pairing,
    Played,
    knockout,
    knockout_rounds,
    place_points,
    round_robin,
    seed_order,
    standings,
    swiss,
)


def field(n: int, seed: int) -> list[Entrant]:
    rng = random.Random(seed)
    return [Entrant(f"p{i}", rng.choice([1000.0, 1200.0, 1500.0, rng.uniform(800, 2000)])) for i in range(n)]


def play_round(pairing: Pairing, r: int, rng: random.Random) -> list[Played]:
    games = [Played(r, (p,), (BYE_POINTS,)) for p in pairing.byes]
    for table in pairing.tables:
        ranks = tuple(rng.randint(1, len(table)) for _ in table)
        games.append(Played(r, table, place_points(ranks), ranks))
    return games


def pairs(games: list[Played]) -> list[frozenset[str]]:
    return [frozenset(p) for g in games for p in combinations(g.players, 2)]


def rematch_free_exists(players: list[str], met: set[frozenset[str]], seats: int) -> bool:
    """Brute force: can `players` sit at tables of `seats` with no two who met?"""
    if not players:
        return True
    first = players[0]
    for group in combinations(players[1:], seats - 1):
        table = (first, *group)
        fresh = all(frozenset(p) not in met for p in combinations(table, 2))
        if fresh and rematch_free_exists([p for p in players[1:] if p not in group], met, seats):
            return True
    return False


def check_round(entrants: list[Entrant], pairing: Pairing, seats: int) -> None:
    seated = [p for t in pairing.tables for p in t] + list(pairing.byes)
    assert sorted(seated) == sorted(e.id for e in entrants)  # everyone once
    assert all(len(t) == seats for t in pairing.tables)
    assert len(pairing.byes) == len(entrants) % seats


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 24), st.integers(0, 10**6), st.sampled_from([2, 2, 3]))
def test_swiss_never_rematches_while_it_can_be_avoided(n: int, seed: int, seats: int) -> None:
    if n < seats:
        return
    entrants, rng, played = field(n, seed), random.Random(seed), []
    for r in range(1, n + 1):
        met = set(pairs(played))
        pairing = swiss(entrants, played, seats)
        check_round(entrants, pairing, seats)
        new = [frozenset(p) for t in pairing.tables for p in combinations(t, 2)]
        rematches = [p for p in new if p in met]
        if rematches:
            # Allowed only when no way to seat them avoids it (checked by brute force where small).
            if n <= 12:
                had_bye = {g.players[0] for g in played if g.bye}
                for byes in combinations([e.id for e in entrants], n % seats):
                    if set(byes) & had_bye and len(had_bye) < n:
                        continue
                    rest = [e.id for e in entrants if e.id not in byes]
                    assert not rematch_free_exists(rest, met, seats), (r, pairing)
            else:
                # Beyond the rounds where one surely exists: two seats, Dirac's bound (everyone has not met
                # half the field); three, a conservative one (the rounds till a third of the field is met).
                playing = n - n % seats
                assert r > (playing // 2 if seats == 2 else (n - 1) // (2 * seats) + 1), (r, pairing)
            return
        played += play_round(pairing, r, rng)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 12).map(lambda k: 2 * k + 1), st.integers(0, 10**6))
def test_swiss_byes_go_to_the_lowest_who_has_had_none(n: int, seed: int) -> None:
    entrants, rng, played = field(n, seed), random.Random(seed), []
    rating = {e.id: e.rating for e in entrants}
    for r in range(1, n // 2 + 1):  # rounds in which a rematch-free pairing always exists
        pairing = swiss(entrants, played, 2)
        (bye,) = pairing.byes
        had = {g.players[0] for g in played if g.bye}
        assert bye not in had
        total = {e.id: sum(p for g in played for q, p in zip(g.players, g.points, strict=True) if q == e.id)
                 for e in entrants}
        lower = [p for p in total if p not in had and (total[p], rating[p]) < (total[bye], rating[bye])]
        # Someone lower without a bye is passed over only when seating the rest needs it.
        for p in lower:
            rest = [q for q in total if q != p]
            assert not rematch_free_exists(rest, set(pairs(played)), 2)
        played += play_round(pairing, r, rng)


def test_swiss_first_round_is_top_half_against_bottom_half() -> None:
    entrants = [Entrant(f"s{i}", 2000.0 - i) for i in range(1, 9)]
    pairing = swiss(entrants, [])
    assert {frozenset(t) for t in pairing.tables} == {frozenset(("s1", "s5")), frozenset(("s2", "s6")),
                                                       frozenset(("s3", "s7")), frozenset(("s4", "s8"))}


def test_swiss_second_round_pairs_within_score_groups_and_alternates_seats() -> None:
    entrants = [Entrant(f"s{i}", 2000.0 - i) for i in range(1, 9)]
    first = swiss(entrants, [])
    played = [Played(1, t, (1.0, 0.0), (1, 2)) for t in first.tables]  # the first seat won each
    second = swiss(entrants, played)
    winners = {t[0] for t in first.tables}
    for table in second.tables:
        assert (table[0] in winners) == (table[1] in winners)  # score groups
    # Whoever sat first in round one sits second now where the other did not.
    firsts = {t[0] for t in first.tables}
    for a, b in second.tables:
        if (a in firsts) != (b in firsts):
            assert b in firsts


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 20), st.integers(0, 10**6))
def test_round_robin_meets_every_pair_once(n: int, seed: int) -> None:
    entrants = field(n, seed)
    rounds = round_robin(entrants)
    assert len(rounds) == (n if n % 2 else n - 1)
    met = [frozenset(t) for pairing in rounds for t in pairing.tables]
    assert sorted(met, key=sorted) == sorted((frozenset(p) for p in combinations([e.id for e in entrants], 2)),
                                             key=sorted)
    for pairing in rounds:
        check_round(entrants, pairing, 2)
    byes = [p for pairing in rounds for p in pairing.byes]
    assert sorted(byes) == (sorted(e.id for e in entrants) if n % 2 else [])
    first = [t[0] for pairing in rounds for t in pairing.tables]
    assert max(first.count(e.id) for e in entrants) - min(first.count(e.id) for e in entrants) <= 1


def test_seed_order_meets_one_with_the_last() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(4) == [1, 4, 2, 3]


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10**6))
def test_knockout_plays_down_to_one_champion(n: int, seed: int) -> None:
    entrants, rng, played = field(n, seed), random.Random(seed), []
    games_played = 0
    while True:
        bracket = knockout(entrants, played)
        if bracket.champion is not None:
            break
        assert bracket.next.tables
        r = len(bracket.rounds)
        for table in bracket.next.tables:
            draw = rng.random() < 0.3
            ranks = (1, 1) if draw else ((1, 2) if rng.random() < 0.5 else (2, 1))
            played.append(Played(r, table, place_points(ranks), ranks))
            games_played += 1
    assert len(bracket.rounds) == knockout_rounds(n)
    size = 1 << knockout_rounds(n)
    byes = [m for m in bracket.rounds[0] if m.b is None]
    assert len(byes) == size - n
    seeds = sorted(entrants, key=lambda e: (-e.rating, e.id))
    assert {m.a for m in byes} == {e.id for e in seeds[: size - n]}  # the top seeds
    for matches in bracket.rounds:
        for m in matches:
            assert len(m.games) <= MOST_GAMES


def test_knockout_draw_needs_a_decider_with_seats_swapped() -> None:
    entrants = [Entrant("a", 1500.0), Entrant("b", 1400.0)]
    bracket = knockout(entrants, [])
    assert bracket.next.tables == (("a", "b"),)
    played = [Played(1, ("a", "b"), (0.5, 0.5), (1, 1))]
    bracket = knockout(entrants, played)
    assert bracket.champion is None and bracket.next.tables == (("b", "a"),)
    played.append(Played(1, ("b", "a"), (1.0, 0.0), (1, 2)))
    assert knockout(entrants, played).champion == "b"
    drawn = [Played(1, ("a", "b"), (0.5, 0.5), (1, 1))] * MOST_GAMES
    assert knockout(entrants, drawn).champion == "a"  # the higher seed after the run of draws


def test_knockout_withdrawn_player_loses_the_match() -> None:
    entrants = [Entrant(x, r) for x, r in (("a", 4.0), ("b", 3.0), ("c", 2.0), ("d", 1.0))]
    bracket = knockout(entrants, [], out=["a"])
    assert bracket.rounds[0][0].winner == "d"
    assert bracket.next.tables == (("b", "c"),)


def test_place_points() -> None:
    assert place_points((1, 2)) == (1.0, 0.0)
    assert place_points((1, 1)) == (0.5, 0.5)
    assert place_points((2, 1, 3)) == (0.5, 1.0, 0.0)
    assert place_points((1, 1, 3)) == (0.75, 0.75, 0.0)


def test_tie_breaks_worked_by_hand() -> None:
    # a beats b, b beats c, c beats a: all on 1; a also drew d.
    entrants = [Entrant(x, 1000.0) for x in "abcd"]
    played = [
        Played(1, ("a", "b"), (1.0, 0.0), (1, 2)),
        Played(1, ("c", "d"), (0.5, 0.5), (1, 1)),
        Played(2, ("b", "c"), (1.0, 0.0), (1, 2)),
        Played(2, ("a", "d"), (0.5, 0.5), (1, 1)),
        Played(3, ("c", "a"), (1.0, 0.0), (1, 2)),
        Played(3, ("d",), (BYE_POINTS,)),
    ]
    table = {s.id: s for s in standings(entrants, played)}
    assert table["a"].points == 1.5 and table["c"].points == 1.5 and table["d"].points == 2.0
    assert table["a"].buchholz == 1.0 + 2.0 + 1.5  # b, d, c
    assert table["c"].buchholz == 2.0 + 1.0 + 1.5  # d, b, a
    assert table["a"].sonneborn == 1.0 * 1.0 + 0.5 * 2.0  # beat b (1), drew d (2)
    assert table["c"].sonneborn == 0.5 * 2.0 + 1.0 * 1.5  # drew d, beat a
    assert table["d"].rank == 1 and table["c"].rank == 2 and table["a"].rank == 3
    assert table["d"].wins == 0 and table["d"].games == 2
