"""Dou Dizhu's rating is fair to the landlord and the farmers: a simulation.

Nine players sit down three at a time, 2,000 deals per run. Who wins a deal is drawn from
their true strengths: the landlord's against the farmers' average, plus an edge of the
part itself (here the landlord wins 40 % of deals between equals, as when bidding pushes
people into hands they cannot quite carry). Player A is dealt one part always: the
landlord at every table A sits at, or a farmer at every one. Equally strong, A must end
where the others end; stronger, A must rise above them in either part.

The naive scheme (openskill's teams as they are: one landlord against the sum of two
farmers) fails the first check, which is why `bot.rating_model` rates side against side by
their average with each role a rated player of its own.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

from bot.rating_model import MODEL, Entry, Ladder, Played

SCALE = 4.0  # true strength points per factor e of the odds
EDGE = SCALE * math.log(0.4 / 0.6)  # the landlord's part: 40 % of deals between equals
PLAYERS = "ABCDEFGHI"
GAMES, SEEDS = 2000, (1, 2, 3, 4, 5, 6)
Deal = Callable[[list[str], random.Random], str]  # who is the landlord at this table


def landlord_always(table: list[str], rng: random.Random) -> str:
    return "A" if "A" in table else rng.choice(table)


def landlord_never(table: list[str], rng: random.Random) -> str:
    return rng.choice([p for p in table if p != "A"])


def deals(strength: dict[str, float], deal: Deal, seed: int):
    """(landlord, farmers, landlord won) for each deal of one run."""
    rng = random.Random(seed)
    for _ in range(GAMES):
        table = rng.sample(PLAYERS, 3)
        landlord = deal(table, rng)
        farmers = [p for p in table if p != landlord]
        edge = strength[landlord] + EDGE - sum(strength[f] for f in farmers) / 2
        yield landlord, farmers, rng.random() < 1 / (1 + math.exp(-edge / SCALE))


def a_above_the_rest(strength: dict[str, float], deal: Deal, seed: int) -> float:
    """How far A's rating (mu) stays above the others' average once settled, rated as gamehost rates."""
    ladder = Ladder()
    gaps = []
    for n, (landlord, farmers, won) in enumerate(deals(strength, deal, seed)):
        ranks = (1, 2) if won else (2, 1)
        entries = (Entry(landlord, ranks[0], "landlord"), *(Entry(f, ranks[1], "farmer") for f in farmers))
        ladder.play(Played(n, "doudizhu", n * 1e6, entries))  # a day apart: no repetition discount
        if n >= GAMES // 2 and n % 10 == 0:  # settled: the gap averaged over the second half
            mu = {p: ladder.skills[("doudizhu", p)].mu for p in PLAYERS}
            gaps.append(mu["A"] - statistics.mean(mu[p] for p in PLAYERS if p != "A"))
    return statistics.mean(gaps)


def a_above_the_rest_naively(strength: dict[str, float], deal: Deal, seed: int) -> float:
    """The same, rated with openskill's teams as they are (the farmers' means added)."""
    skill = {p: MODEL.rating() for p in PLAYERS}
    for landlord, farmers, won in deals(strength, deal, seed):
        [[skill[landlord]], [skill[farmers[0]], skill[farmers[1]]]] = MODEL.rate(
            [[skill[landlord]], [skill[f] for f in farmers]], ranks=[1, 2] if won else [2, 1]
        )
    return skill["A"].mu - statistics.mean(skill[p].mu for p in PLAYERS if p != "A")


EQUAL = dict.fromkeys(PLAYERS, 0.0)
STRONGER = {**EQUAL, "A": 5.0}  # A wins 70 % of deals as landlord against two of the others


def test_equal_players_keep_equal_ratings_always_landlord():
    gaps = [a_above_the_rest(EQUAL, landlord_always, seed) for seed in SEEDS]
    assert abs(statistics.mean(gaps)) < 1.0, gaps


def test_equal_players_keep_equal_ratings_never_landlord():
    gaps = [a_above_the_rest(EQUAL, landlord_never, seed) for seed in SEEDS]
    assert abs(statistics.mean(gaps)) < 1.0, gaps


def test_a_stronger_player_rises_as_landlord():
    gaps = [a_above_the_rest(STRONGER, landlord_always, seed) for seed in SEEDS]
    assert all(g > 2.0 for g in gaps), gaps


def test_a_stronger_player_rises_as_farmer():
    gaps = [a_above_the_rest(STRONGER, landlord_never, seed) for seed in SEEDS]
    assert all(g > 2.0 for g in gaps), gaps


def test_the_naive_team_sum_is_unfair():
    """Why the scheme exists: adding the farmers' means marks the always-landlord up."""
    gaps = [a_above_the_rest_naively(EQUAL, landlord_always, seed) for seed in SEEDS]
    assert statistics.mean(gaps) > 1.0, gaps
