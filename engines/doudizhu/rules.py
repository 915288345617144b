"""Play types, the classifier, comparison and the generator of legal plays.

The play types are the usual ones (single, pair, three, three with a single or a
pair, straight, pair chain, trio chain, airplanes, four with two, bomb, rocket).
Where house rules differ, these hold (and the rules text says so):
- single wings of an airplane are cards of ranks outside the trios with at most
  two of a rank (a pair may be among them, three or four of a kind may not) and
  not both jokers; pair wings are pairs of different ranks (jokers are no pair);
- four with two singles: any two other cards but not both jokers; four with two
  pairs: two pairs of different ranks (so 33334444 is no play);
- a trio chain is never read as a shorter airplane with wings (with the wing
  rule above no trio chain can be read that way anyway).

Every multiset of cards has at most one reading, so `classify` is a function;
tests/engines/test_doudizhu_classifier.py checks it against a brute-force
enumeration written straight from the definitions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import NamedTuple

from engines.doudizhu.cards import ACE, BLACK_JOKER, RANKS, RED_JOKER, TWO, Counts

SINGLE, PAIR, TRIO, TRIO1, TRIO2 = "single", "pair", "trio", "trio_single", "trio_pair"
STRAIGHT, PAIRS, PLANE, PLANE1, PLANE2 = "straight", "pair_chain", "trio_chain", "airplane_singles", "airplane_pairs"
FOUR2, FOUR22, BOMB, ROCKET = "four_two_singles", "four_two_pairs", "bomb", "rocket"
KINDS = (SINGLE, PAIR, TRIO, TRIO1, TRIO2, STRAIGHT, PAIRS, PLANE, PLANE1, PLANE2, FOUR2, FOUR22, BOMB, ROCKET)
CHAINS = {STRAIGHT: (1, 5), PAIRS: (2, 3), PLANE: (3, 2)}  # kind -> (cards per rank, shortest chain)


class Combo(NamedTuple):
    """A classified play: its type, main rank (the top rank of a chain), chain length and card count."""

    kind: str
    rank: int
    chain: int
    size: int


class Play(NamedTuple):
    combo: Combo
    counts: Counts


def classify(counts: Sequence[int]) -> Combo | None:
    """The play a multiset of ranks makes, or None if it is not a legal play."""
    n = 0
    ranks: list[int] = []
    singles: list[int] = []
    pairs: list[int] = []
    trios: list[int] = []
    fours: list[int] = []
    for rank in range(RANKS):
        c = counts[rank]
        if c:
            n += c
            ranks.append(rank)
            (singles, pairs, trios, fours)[c - 1].append(rank)
    if n == 0:
        return None
    if n == 1:
        return Combo(SINGLE, ranks[0], 1, 1)
    if n == 2:
        if pairs:
            return Combo(PAIR, pairs[0], 1, 2)
        if ranks == [BLACK_JOKER, RED_JOKER]:
            return Combo(ROCKET, RED_JOKER, 1, 2)
        return None
    if len(ranks) == 1:
        return Combo(TRIO, ranks[0], 1, 3) if n == 3 else Combo(BOMB, ranks[0], 1, 4)
    top, width = ranks[-1], len(ranks)
    run = top - ranks[0] + 1 == width and top <= ACE  # distinct ranks forming one run below 2
    if run and len(singles) == width and n >= 5:
        return Combo(STRAIGHT, top, n, n)
    if run and len(pairs) == width and width >= 3:
        return Combo(PAIRS, top, width, n)
    if run and len(trios) == width:
        return Combo(PLANE, top, width, n)
    if fours:
        if len(fours) > 1 or trios:
            return None
        if n == 6 and not (counts[BLACK_JOKER] and counts[RED_JOKER]):
            return Combo(FOUR2, fours[0], 1, 6)
        if n == 8 and len(pairs) == 2:
            return Combo(FOUR22, fours[0], 1, 8)
        return None
    k = len(trios)
    if k == 1:
        if n == 4:
            return Combo(TRIO1, trios[0], 1, 4)
        if n == 5 and len(pairs) == 1:
            return Combo(TRIO2, trios[0], 1, 5)
        return None
    if k >= 2 and trios[-1] - trios[0] + 1 == k and trios[-1] <= ACE:
        wings = n - 3 * k
        if wings == k and not (counts[BLACK_JOKER] and counts[RED_JOKER]):
            return Combo(PLANE1, trios[-1], k, n)
        if wings == 2 * k and not singles and len(pairs) == k:
            return Combo(PLANE2, trios[-1], k, n)
    return None


def beats(play: Combo, previous: Combo) -> bool:
    """Whether `play` may be played on `previous`: the same type and size and higher; a bomb on anything but a
    higher bomb or the rocket; the rocket on anything."""
    if play.kind == ROCKET:
        return True
    if previous.kind == ROCKET:
        return False
    if play.kind == BOMB:
        return previous.kind != BOMB or play.rank > previous.rank
    return play.kind == previous.kind and play.size == previous.size and play.rank > previous.rank


# --- generating plays -----------------------------------------------------------------


def _add(base: list[int], ranks: Sequence[int], each: int) -> None:
    for rank in ranks:
        base[rank] += each


def _wing_sets(hand: Sequence[int], exclude: range | tuple[int, ...], k: int, pairs: bool) -> Iterator[list[int]]:
    """Every wing multiset (as counts) of k singles or k pairs from `hand`, outside the ranks `exclude`."""
    if pairs:
        choices = [r for r in range(TWO + 1) if r not in exclude and hand[r] >= 2]
        for chosen in combinations(choices, k):
            wings = [0] * RANKS
            _add(wings, chosen, 2)
            yield wings
        return
    limits = [0 if r in exclude else min(2, hand[r]) for r in range(RANKS)]
    wings = [0] * RANKS

    def rec(rank: int, left: int) -> Iterator[list[int]]:
        if left == 0:
            if not (wings[BLACK_JOKER] and wings[RED_JOKER]):
                yield list(wings)
            return
        if rank == RANKS:
            return
        for take in range(min(limits[rank], left), -1, -1):
            wings[rank] = take
            yield from rec(rank + 1, left - take)
        wings[rank] = 0

    yield from rec(0, k)


def _chains(hand: Sequence[int], width: int, shortest: int, above: int = -1) -> Iterator[tuple[int, int]]:
    """(top rank, length) of every chain of `width` cards per rank the hand holds, its top above `above`."""
    for start in range(ACE + 1):
        length = 0
        while start + length <= ACE and hand[start + length] >= width:
            length += 1
            if length >= shortest and width * length <= 20 and start + length - 1 > above:
                yield start + length - 1, length


def _of(kind: str, rank: int, chain: int, counts: list[int]) -> Play:
    return Play(Combo(kind, rank, chain, sum(counts)), tuple(counts))


def plays_of_kind(hand: Sequence[int], kind: str, chain: int = 1, above: int = -1) -> Iterator[Play]:
    """Every play of `kind` the hand holds (chains: of length `chain`; 0 = every length) whose rank is above
    `above` (the plays of lower rank are not made at all: answers and the question whether there is one
    skip them cheaply), lowest first."""
    if kind in (SINGLE, PAIR, TRIO, BOMB):
        need = {SINGLE: 1, PAIR: 2, TRIO: 3, BOMB: 4}[kind]
        for rank in range(above + 1, RANKS):
            if hand[rank] >= need and (need == 1 or rank <= TWO):
                counts = [0] * RANKS
                counts[rank] = need
                yield _of(kind, rank, 1, counts)
    elif kind == ROCKET:
        if hand[BLACK_JOKER] and hand[RED_JOKER] and above < RED_JOKER:
            counts = [0] * RANKS
            counts[BLACK_JOKER] = counts[RED_JOKER] = 1
            yield _of(ROCKET, RED_JOKER, 1, counts)
    elif kind in (TRIO1, TRIO2):
        for rank in range(above + 1, TWO + 1):
            if hand[rank] >= 3:
                for wings in _wing_sets(hand, (rank,), 1, kind == TRIO2):
                    wings[rank] = 3
                    yield _of(kind, rank, 1, wings)
    elif kind in (FOUR2, FOUR22):
        for rank in range(above + 1, TWO + 1):
            if hand[rank] == 4:
                if kind == FOUR22:
                    sets: Iterator[list[int]] = _wing_sets(hand, (rank,), 2, True)
                else:
                    sets = _four_singles(hand, rank)
                for wings in sets:
                    wings[rank] = 4
                    yield _of(kind, rank, 1, wings)
    elif kind in CHAINS:
        width, shortest = CHAINS[kind]
        for top, length in _chains(hand, width, shortest, above):
            if chain in (0, length):
                counts = [0] * RANKS
                _add(counts, range(top - length + 1, top + 1), width)
                yield _of(kind, top, length, counts)
    elif kind in (PLANE1, PLANE2):
        per = 4 if kind == PLANE1 else 5
        for top, length in _chains(hand, 3, 2, above):
            if chain in (0, length) and per * length <= 20:
                trio_ranks = range(top - length + 1, top + 1)
                for wings in _wing_sets(hand, trio_ranks, length, kind == PLANE2):
                    _add(wings, trio_ranks, 3)
                    yield _of(kind, top, length, wings)


def _four_singles(hand: Sequence[int], four: int) -> Iterator[list[int]]:
    """Two cards other than the four (a pair of equal cards allowed, not both jokers)."""
    others = [r for r in range(RANKS) if r != four and hand[r]]
    for i, a in enumerate(others):
        for b in others[i:]:
            if (a == b and hand[a] < 2) or (a == BLACK_JOKER and b == RED_JOKER):
                continue
            wings = [0] * RANKS
            wings[a] += 1
            wings[b] += 1
            yield wings


def all_plays(hand: Sequence[int]) -> list[Play]:
    """Every play the hand can lead."""
    plays: list[Play] = []
    for kind in KINDS:
        plays.extend(plays_of_kind(hand, kind, 0))
    return plays


def answers(hand: Sequence[int], previous: Combo) -> list[Play]:
    """Every play from `hand` that beats `previous` (passing not included)."""
    plays: list[Play] = []
    if previous.kind not in (BOMB, ROCKET):
        plays = list(plays_of_kind(hand, previous.kind, previous.chain, previous.rank))
    if previous.kind != ROCKET:
        plays.extend(p for p in plays_of_kind(hand, BOMB) if beats(p.combo, previous))
        plays.extend(plays_of_kind(hand, ROCKET))
    return plays


def has_answer(hand: Sequence[int], previous: Combo) -> bool:
    """Whether `hand` can beat `previous` at all (cheaper than `answers`)."""
    if previous.kind == ROCKET:
        return False
    if hand[BLACK_JOKER] and hand[RED_JOKER]:
        return True
    if any(hand[r] == 4 and (previous.kind != BOMB or r > previous.rank) for r in range(TWO + 1)):
        return True
    return has_plain_answer(hand, previous)


def has_plain_answer(hand: Sequence[int], previous: Combo) -> bool:
    """Whether `hand` can beat `previous` with a play of its own kind (no bomb, no rocket)."""
    if previous.kind in (BOMB, ROCKET):
        return False
    return next(plays_of_kind(hand, previous.kind, previous.chain, previous.rank), None) is not None
