"""Splitting a hand into plays (拆牌): the split that needs the fewest turns and keeps the strongest cards.

The score of a split: every play type has a value (its rank, more for bombs
and the rocket) and every hand (手数, a turn needed to play the cards out)
costs `HAND_COST`. The search is exact over every way of
taking chains (straights, pair chains, trio chains) out of the hand — a
20-card hand has about 20 such choices on average and a few hundred at most —
and the rest is grouped by rank, trios and airplanes taking the lowest singles
or pairs as kickers.
"""

from __future__ import annotations

from operator import sub
from typing import Any, NamedTuple

from engines.doudizhu.cards import ACE, BLACK_JOKER, QUEEN, RANKS, RED_JOKER, TWO, Counts
from engines.doudizhu.rules import (
    BOMB,
    KINDS,
    PAIR,
    PAIRS,
    PLANE,
    PLANE1,
    PLANE2,
    ROCKET,
    SINGLE,
    STRAIGHT,
    TRIO,
    TRIO1,
    TRIO2,
    Combo,
    Play,
)

HAND_COST = 7.0
VALUE: tuple[int, ...] = (*range(3, 16), 16, 17)  # 3..A, 2 = 15, black joker 16, red joker 17
KICKER_MAX = QUEEN  # kickers are taken from singles and pairs up to Q; higher cards keep their own turn


class Plan(NamedTuple):
    score: float
    hands: int
    groups: tuple[Play, ...]


def group_value(combo: Combo) -> float:
    return VALUES[combo.kind][combo.rank]


def _value(kind: str, rank: int) -> float:
    if kind == ROCKET:
        return 20.0
    if kind == BOMB:
        return VALUE[rank] + 4.0
    if kind in (STRAIGHT, PAIRS):
        return VALUE[rank] - 9.0
    if kind in (PLANE, PLANE1, PLANE2):
        return (VALUE[rank] - 2.0) / 2
    return VALUE[rank] - 10.0


# kind -> the value of its groups by rank (looked up, not computed: the search of splits adds up hundreds of them)
VALUES = {kind: tuple(_value(kind, rank) for rank in range(RANKS)) for kind in KINDS}


def _chain_options(c: list[int]) -> list[tuple[int, int, int]]:
    """Every chain (start, width, length) the hand holds, width by width."""
    out = []
    for width, shortest in ((1, 5), (2, 3), (3, 2)):
        for start in range(ACE + 1):
            length = 0
            while start + length <= ACE and c[start + length] >= width:
                length += 1
                if length >= shortest and width * length <= 20:
                    out.append((start, width, length))
    return out


_PLAYS: dict[Counts, Play] = {}  # one shared object per distinct group keeps the cache of splits small


def _play(parts: dict[int, int], kind: str, rank: int, chain: int) -> Play:
    """The group of `parts` (rank: cards) as a play."""
    counts = [0] * RANKS
    for r, n in parts.items():
        counts[r] = n
    key = tuple(counts)
    play = _PLAYS.get(key)
    if play is None:
        play = _PLAYS[key] = Play(Combo(kind, rank, chain, sum(counts)), key)
    return play


def _rest(c: list[int], chains: list[tuple[int, int, int]], build: bool = True) -> Plan:
    """Group what is left after taking `chains` out, with kickers (`build` False: the score and the
    number of hands alone, no groups: the search asks for the groups of the best split only)."""
    groups: list[Play] = []
    bomb_v, single_v, pair_v, trio_v = VALUES[BOMB], VALUES[SINGLE], VALUES[PAIR], VALUES[TRIO]
    total = 0.0
    hands = 0
    singles: list[int] = []
    pairs: list[int] = []
    trios: list[int] = []
    for rank in range(TWO + 1):
        n = c[rank]
        if n == 1:
            singles.append(rank)
        elif n == 2:
            pairs.append(rank)
        elif n == 3:
            trios.append(rank)
        elif n == 4:
            total += bomb_v[rank]
            hands += 1
            if build:
                groups.append(_play({rank: 4}, BOMB, rank, 1))
    if c[BLACK_JOKER] and c[RED_JOKER]:
        total += VALUES[ROCKET][RED_JOKER]
        hands += 1
        if build:
            groups.append(_play({BLACK_JOKER: 1, RED_JOKER: 1}, ROCKET, RED_JOKER, 1))
    else:
        singles.extend(r for r in (BLACK_JOKER, RED_JOKER) if c[r])
    low_singles = [r for r in singles if r <= KICKER_MAX]
    low_pairs = [r for r in pairs if r <= KICKER_MAX]
    used_singles: set[int] = set()
    used_pairs: set[int] = set()
    planes = sorted((ch for ch in chains if ch[1] == 3), key=lambda ch: -ch[2]) if chains else ()
    for start, width, length in chains:
        if width == 3:
            continue
        kind = STRAIGHT if width == 1 else PAIRS
        total += VALUES[kind][start + length - 1]
        hands += 1
        if build:
            groups.append(_play(dict.fromkeys(range(start, start + length), width), kind, start + length - 1, length))
    for start, _, length in planes:
        inside = range(start, start + length)  # wings may not share a rank with the trios
        parts = dict.fromkeys(inside, 3)
        free_singles = [r for r in low_singles if r not in used_singles and r not in inside]
        free_pairs = [r for r in low_pairs if r not in used_pairs and r not in inside]
        kind = PLANE
        if len(free_singles) >= length:
            parts.update(dict.fromkeys(free_singles[:length], 1))
            used_singles.update(free_singles[:length])
            kind = PLANE1
        elif len(free_pairs) >= length:
            parts.update(dict.fromkeys(free_pairs[:length], 2))
            used_pairs.update(free_pairs[:length])
            kind = PLANE2
        top = start + length - 1
        total += VALUES[PLANE][top]
        hands += 1
        if build:
            groups.append(_play(parts, kind, top, length))
    # each trio takes the lowest single left as its kicker, or else the lowest pair left
    kick_singles = [r for r in low_singles if r not in used_singles][: len(trios)]
    kick_pairs = [r for r in low_pairs if r not in used_pairs][: len(trios) - len(kick_singles)]
    used_singles.update(kick_singles)
    used_pairs.update(kick_pairs)
    for i, rank in enumerate(trios):
        total += trio_v[rank]
        hands += 1
        if build:
            parts = {rank: 3}
            kind = TRIO
            if i < len(kick_singles):
                parts[kick_singles[i]] = 1
                kind = TRIO1
            elif i - len(kick_singles) < len(kick_pairs):
                parts[kick_pairs[i - len(kick_singles)]] = 2
                kind = TRIO2
            groups.append(_play(parts, kind, rank, 1))
    for n, kind, ranks, used, values in ((1, SINGLE, singles, used_singles, single_v),
                                         (2, PAIR, pairs, used_pairs, pair_v)):
        for rank in ranks:
            if rank not in used:
                total += values[rank]
                hands += 1
                if build:
                    groups.append(_play({rank: n}, kind, rank, 1))
    return Plan(total - HAND_COST * hands, hands, tuple(groups))


_PLANS: dict[Counts, Plan] = {}
CACHE_SIZE = 100_000  # about 50 MB; a plain dict (not lru_cache) keeps garbage collection pauses short


def plan(hand: Counts) -> Plan:
    """The best split of `hand` (highest score; fewer hands on equal score)."""
    found = _PLANS.get(hand)
    if found is None:
        if len(_PLANS) >= CACHE_SIZE:
            _PLANS.clear()
        found = _PLANS[hand] = _search(hand)
    return found


def _search(hand: Counts) -> Plan:
    c = list(hand)
    chains: list[tuple[int, int, int]] = []
    best: list[Any] = [None, None]  # the best (score, -hands) and the chains of that split

    def dfs(key: tuple[int, int, int], options: list[tuple[int, int, int]]) -> None:
        """`options`: the chains the hand held before the last one was taken (a superset of what it holds)."""
        found = _rest(c, chains, build=False)
        if best[0] is None or (found.score, -found.hands) > best[0]:
            best[:] = [(found.score, -found.hands), list(chains)]
        options = [o for o in options if o >= key and min(c[o[0] : o[0] + o[2]]) >= o[1]]
        for option in options:
            start, width, length = option
            for r in range(start, start + length):
                c[r] -= width
            chains.append(option)
            dfs(option, options)
            chains.pop()
            for r in range(start, start + length):
                c[r] += width

    dfs((0, 0, 0), _chain_options(c))
    for start, width, length in best[1]:
        for r in range(start, start + length):
            c[r] -= width
    return _rest(c, best[1])


def minus(hand: Counts, counts: Counts) -> Counts:
    return tuple(map(sub, hand, counts))
