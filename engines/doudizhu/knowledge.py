"""What one seat knows in Dou Dizhu, and the deals of the cards it has not seen that agree with it.

Everything the AI decides starts from a seat's private view (`state.view(state, seat)`): its own hand,
the card counts, the bottom cards and every card played. `knowledge` reads that view into a
`Knowledge`; the AI is handed nothing else.

The deals of the unseen cards (worlds) agree with what the seat saw: the card counts, the bottom cards
the landlord still holds, and the passes. A seat that let its enemy's play go while it held a plain
answer (no bomb) is less likely to hold one: such a world counts `PASS_WEIGHT` per pass (weighed, not
ruled out, because people do keep cards back).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from operator import add
from typing import Any, cast

from engines.doudizhu.cards import RANKS, Counts, counts_of_cards, rank_of, ranks_of_counts
from engines.doudizhu.rules import Combo, classify, has_plain_answer
from engines.doudizhu.state import DdzPrivateView

World = tuple[Counts, Counts, Counts]  # every seat's hand


@dataclass(frozen=True)
class Knowledge:
    seat: int
    landlord: int | None
    hand: Counts
    counts: tuple[int, int, int]  # cards held per seat
    unseen: Counts  # the cards the two other seats hold together
    trick: tuple[int, Combo] | None  # who made the play to beat, and the play; None: we lead
    landlord_known: Counts  # bottom cards the landlord has not played (known to be in its hand)
    mode: str
    bid: int
    bids: tuple[tuple[int, int], ...]
    played: tuple[int, int, int]  # plays (not passes) made per seat
    # Every pass of another seat on its enemy's play: (seat, the play it let go, the cards that seat played since).
    passes: tuple[tuple[int, Combo, Counts], ...] = ()

    @property
    def bidding(self) -> bool:
        return self.landlord is None

    def team(self, seat: int) -> bool:
        """True for the landlord's side."""
        return seat == self.landlord

    def partner(self) -> int | None:
        if self.landlord is None or self.seat == self.landlord:
            return None
        return 3 - self.seat - self.landlord

    def next_seat(self) -> int:
        return (self.seat + 1) % 3

    def enemies(self) -> list[int]:
        if self.seat == self.landlord:
            return [s for s in range(3) if s != self.seat]
        return [self.landlord] if self.landlord is not None else []


def knowledge(view: DdzPrivateView) -> Knowledge:
    """What the seat whose private view this is knows."""
    seat = cast(int, view["seat"])  # a private view's seat is never None
    hand = counts_of_cards(view["hand"])
    unseen = tuple(view["unseen"])
    landlord = view["landlord"]
    known = [0] * RANKS
    played = [0, 0, 0]
    if landlord is not None and view["bottom"]:
        left = set(view["bottom"])
        for s, cards in view["history"]:
            if cards:
                played[s] += 1
            if s == landlord:
                left -= set(cards)
        if seat != landlord:
            for card in left:
                known[rank_of(card)] += 1
    passes = _passes(view["history"], seat, landlord) if landlord is not None else ()
    trick = None
    if view["trick"] is not None:
        t = view["trick"]
        trick = (t["seat"], Combo(t["kind"], t["rank"], t["chain"], len(t["cards"])))
    return Knowledge(
        seat, landlord, hand, _three(view["counts"]), unseen, trick, tuple(known), view["mode"], view["bid"],
        tuple((s, b) for s, b in view["bids"]), _three(played), passes,
    )


def _three(values: list[int]) -> tuple[int, int, int]:
    """A value per seat."""
    return cast(tuple[int, int, int], tuple(values))


def _passes(history: Sequence[Sequence[Any]], seat: int, landlord: int) -> tuple[tuple[int, Combo, Counts], ...]:
    """The passes of the other seats on a play of their enemy, each with the cards its seat played later."""
    found: list[tuple[int, Combo, list[int]]] = []
    owner, combo, passed = -1, None, 0
    for s, cards in history:
        if cards:
            counts = counts_of_cards(cards)
            owner, combo, passed = s, classify(counts), 0
            for p, _, later in found:
                if p == s:
                    for r in range(RANKS):
                        later[r] += counts[r]
            continue
        if combo is not None and s != seat and (s == landlord) != (owner == landlord):
            found.append((s, combo, [0] * RANKS))
        passed += 1
        if passed >= 2:
            combo = None
    return tuple((s, c, tuple(later)) for s, c, later in found)


# A world in which a seat let its enemy's play go while it held a plain answer (no bomb) is less likely
# than one in which it could not answer: it counts this much per such pass (people do keep cards back now
# and then, so the worlds are weighed, not ruled out).
PASS_WEIGHT = 0.2
SAMPLE_TRIES = 20  # draws per world wanted, at most, when worlds are sampled by their weight


def world_weight(me: Knowledge, hands: Sequence[Counts]) -> float:
    """How likely a deal of the unseen cards is, by the passes seen (1: nothing speaks against it)."""
    weight = 1.0
    for seat, combo, later in me.passes:
        then = tuple(map(add, hands[seat], later))
        if has_plain_answer(then, combo):
            weight *= PASS_WEIGHT
    return weight


def sample_worlds(me: Knowledge, limit: int, rng: random.Random) -> list[tuple[tuple[Counts, Counts, Counts], float]]:
    """Deals of the unseen cards to the two other seats that agree with what we know, with their weights:
    every deal with its weight if there are at most `limit`, else `limit` deals drawn by weight (weight 1)."""
    others = [s for s in range(3) if s != me.seat]
    fixed = {s: [0] * RANKS for s in others}
    free = list(me.unseen)
    if me.landlord is not None and me.landlord != me.seat:
        for r in range(RANKS):
            fixed[me.landlord][r] = me.landlord_known[r]
            free[r] -= me.landlord_known[r]
    need = [me.counts[s] - sum(fixed[s]) for s in others]
    pool = list(ranks_of_counts(free))

    def make(first: Sequence[int]) -> tuple[Counts, Counts, Counts]:
        a = list(fixed[others[0]])
        for r in first:
            a[r] += 1
        b = [u - x for u, x in zip(me.unseen, a, strict=True)]
        hands: list[Counts] = [(), (), ()]
        hands[me.seat] = me.hand
        hands[others[0]] = tuple(a)
        hands[others[1]] = tuple(b)
        return hands[0], hands[1], hands[2]

    if comb(len(pool), need[0]) <= limit:
        seen: set[tuple[int, ...]] = set()
        every = []
        for pick in combinations(pool, need[0]):
            if pick not in seen:
                seen.add(pick)
                world = make(pick)
                every.append((world, world_weight(me, world)))
        return every
    worlds: list[tuple[tuple[Counts, Counts, Counts], float]] = []
    spare: list[tuple[float, int, tuple[Counts, Counts, Counts]]] = []
    for attempt in range(SAMPLE_TRIES * limit):
        rng.shuffle(pool)
        world = make(sorted(pool[: need[0]]))
        weight = world_weight(me, world) if me.passes else 1.0
        if weight >= 1.0 or rng.random() < weight:
            worlds.append((world, 1.0))
            if len(worlds) == limit:
                return worlds
        else:
            spare.append((-weight, attempt, world))
    spare.sort()  # too few drawn by weight: the likeliest of the others make up the number
    worlds.extend((world, 1.0) for _, _, world in spare[: limit - len(worlds)])
    return worlds


def world_count(me: Knowledge) -> int:
    """How many deals of the unseen cards there are (the bottom cards and the passes aside)."""
    return comb(sum(me.unseen), me.counts[me.next_seat()])
