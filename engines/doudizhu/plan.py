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
from typing import NamedTuple

from engines.doudizhu.cards import ACE, BLACK_JOKER, QUEEN, RANKS, RED_JOKER, TWO, Counts
from engines.doudizhu.rules import (
    BOMB,
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
VALUE = (*range(3, 16), 16, 17)  # 3..A, 2 = 15, black joker 16, red joker 17
KICKER_MAX = QUEEN  # kickers are taken from singles and pairs up to Q; higher cards keep their own turn


class Plan(NamedTuple):
    score: float
    hands: int
    groups: tuple[Play, ...]


def group_value(combo: Combo) -> float:
    kind, rank = combo.kind, combo.rank
    if kind == ROCKET:
        return 20.0
    if kind == BOMB:
        return VALUE[rank] + 4.0
    if kind in (STRAIGHT, PAIRS):
        return VALUE[rank] - 9.0
    if kind in (PLANE, PLANE1, PLANE2):
        return (VALUE[rank] - 2.0) / 2
    return VALUE[rank] - 10.0


def _chain_options(c: list[int]) -> list[tuple[int, int, int]]:
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


def _play(counts: list[int], kind: str, rank: int, chain: int) -> Play:
    key = tuple(counts)
    play = _PLAYS.get(key)
    if play is None:
        play = _PLAYS[key] = Play(Combo(kind, rank, chain, sum(counts)), key)
    return play


def _rest(c: list[int], chains: list[tuple[int, int, int]]) -> Plan:
    """Group what is left after taking `chains` out, with kickers."""
    groups: list[tuple[Play, float]] = []
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
            counts = [0] * RANKS
            counts[rank] = 4
            play = _play(counts, BOMB, rank, 1)
            groups.append((play, group_value(play.combo)))
    if c[BLACK_JOKER] and c[RED_JOKER]:
        counts = [0] * RANKS
        counts[BLACK_JOKER] = counts[RED_JOKER] = 1
        play = _play(counts, ROCKET, RED_JOKER, 1)
        groups.append((play, group_value(play.combo)))
    else:
        singles.extend(r for r in (BLACK_JOKER, RED_JOKER) if c[r])
    low_singles = [r for r in singles if r <= KICKER_MAX]
    low_pairs = [r for r in pairs if r <= KICKER_MAX]
    used_singles: set[int] = set()
    used_pairs: set[int] = set()
    planes = sorted((ch for ch in chains if ch[1] == 3), key=lambda ch: -ch[2])
    for start, width, length in chains:
        if width == 3:
            continue
        counts = [0] * RANKS
        for r in range(start, start + length):
            counts[r] = width
        play = _play(counts, STRAIGHT if width == 1 else PAIRS, start + length - 1, length)
        groups.append((play, group_value(play.combo)))
    for start, _, length in planes:
        counts = [0] * RANKS
        for r in range(start, start + length):
            counts[r] = 3
        inside = range(start, start + length)  # wings may not share a rank with the trios
        free_singles = [r for r in low_singles if r not in used_singles and r not in inside]
        free_pairs = [r for r in low_pairs if r not in used_pairs and r not in inside]
        kind = PLANE
        if len(free_singles) >= length:
            for r in free_singles[:length]:
                counts[r] = 1
                used_singles.add(r)
            kind = PLANE1
        elif len(free_pairs) >= length:
            for r in free_pairs[:length]:
                counts[r] = 2
                used_pairs.add(r)
            kind = PLANE2
        top = start + length - 1
        play = _play(counts, kind, top, length)
        groups.append((play, group_value(Combo(PLANE, top, length, 0))))
    for rank in trios:
        counts = [0] * RANKS
        counts[rank] = 3
        kind = TRIO
        free_singles = [r for r in low_singles if r not in used_singles]
        free_pairs = [r for r in low_pairs if r not in used_pairs]
        if free_singles:
            counts[free_singles[0]] = 1
            used_singles.add(free_singles[0])
            kind = TRIO1
        elif free_pairs:
            counts[free_pairs[0]] = 2
            used_pairs.add(free_pairs[0])
            kind = TRIO2
        play = _play(counts, kind, rank, 1)
        groups.append((play, group_value(Combo(TRIO, rank, 1, 3))))
    for n, kind, ranks, used in ((1, SINGLE, singles, used_singles), (2, PAIR, pairs, used_pairs)):
        for rank in ranks:
            if rank not in used:
                counts = [0] * RANKS
                counts[rank] = n
                play = _play(counts, kind, rank, 1)
                groups.append((play, group_value(play.combo)))
    score = sum(v for _, v in groups) - HAND_COST * len(groups)
    return Plan(score, len(groups), tuple(p for p, _ in groups))


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
    best: list[Plan] = []
    chains: list[tuple[int, int, int]] = []

    def dfs(key: tuple[int, int, int]) -> None:
        found = _rest(c, chains)
        if not best or (found.score, -found.hands) > (best[0].score, -best[0].hands):
            best[:] = [found]
        for option in _chain_options(c):
            if option < key:
                continue
            start, width, length = option
            for r in range(start, start + length):
                c[r] -= width
            chains.append(option)
            dfs(option)
            chains.pop()
            for r in range(start, start + length):
                c[r] += width

    dfs((0, 0, 0))
    return best[0]


def minus(hand: Counts, counts: Counts) -> Counts:
    return tuple(map(sub, hand, counts))
