"""Every legal Dou Dizhu play one deck allows, enumerated straight from the definitions of games.md.

Independent of engines/doudizhu/rules.py on purpose (no shared code but the rank numbering
3..A = 0..11, 2 = 12, black joker 13, red joker 14). Chains are named by their top rank.
Readings this file takes of games.md (the same as the rules text says):
- single wings: cards of ranks outside the trios, at most two of a rank, not both jokers;
- pair wings: pairs of different ranks;
- four with two singles: two other cards (a pair allowed), not both jokers; two pairs: different ranks.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement

ALL = range(15)
NORMAL = range(13)  # 3 .. 2: ranks with four cards
CHAIN = range(12)  # 3 .. A: ranks allowed in chains
BJ, RJ = 13, 14

Key = tuple[int, ...]  # 15 counts
Label = tuple[str, int, int]  # kind, main rank, chain length


def key(ranks: list[int] | tuple[int, ...]) -> Key:
    c = Counter(ranks)
    return tuple(c[r] for r in ALL)


def in_deck(ranks: list[int] | tuple[int, ...]) -> bool:
    c = Counter(ranks)
    return all(n <= (1 if r >= BJ else 4) for r, n in c.items())


@cache
def legal_plays() -> dict[Key, Label]:
    found: dict[Key, set[Label]] = {}

    def add(ranks: list[int] | tuple[int, ...], kind: str, rank: int, chain: int = 1) -> None:
        if len(ranks) <= 20 and in_deck(ranks):
            found.setdefault(key(ranks), set()).add((kind, rank, chain))

    for r in ALL:
        add([r], "single", r)
    for r in NORMAL:
        add([r] * 2, "pair", r)
        add([r] * 3, "trio", r)
        add([r] * 4, "bomb", r)
        for s in ALL:
            if s != r:
                add([r] * 3 + [s], "trio_single", r)
        for p in NORMAL:
            if p != r:
                add([r] * 3 + [p] * 2, "trio_pair", r)
        for a, b in combinations_with_replacement([x for x in ALL if x != r], 2):
            if (a, b) != (BJ, RJ):
                add([r] * 4 + [a, b], "four_two_singles", r)
        for a, b in combinations([x for x in NORMAL if x != r], 2):
            add([r] * 4 + [a] * 2 + [b] * 2, "four_two_pairs", r)
    add([BJ, RJ], "rocket", RJ)
    for start in CHAIN:
        for length in range(1, 13):
            top = start + length - 1
            if top not in CHAIN:
                break
            run = list(range(start, top + 1))
            if length >= 5:
                add(run, "straight", top, length)
            if length >= 3:
                add(run * 2, "pair_chain", top, length)
            if length >= 2:
                add(run * 3, "trio_chain", top, length)
                others = [x for x in ALL if x not in run]
                if 4 * length <= 20:
                    for wings in combinations_with_replacement(others, length):
                        counts = Counter(wings)
                        if max(counts.values()) <= 2 and not (counts[BJ] and counts[RJ]):
                            add(run * 3 + list(wings), "airplane_singles", top, length)
                if 5 * length <= 20:
                    for pairs in combinations([x for x in NORMAL if x not in run], length):
                        add(run * 3 + [p for p in pairs for _ in range(2)], "airplane_pairs", top, length)
    plays: dict[Key, Label] = {}
    for k, labels in found.items():
        if len(labels) > 1:
            # games.md: a trio chain that could also be read as a shorter airplane with wings is the trio chain.
            chains = {label for label in labels if label[0] == "trio_chain"}
            others = {label for label in labels if label[0] not in ("trio_chain", "airplane_singles",
                                                                     "airplane_pairs")}
            if len(chains) == 1 and not others:
                labels = chains
        if len(labels) != 1:
            raise AssertionError(f"two readings of one multiset: {k} -> {sorted(labels)}")
        plays[k] = next(iter(labels))
    return plays


def all_multisets(most: int):
    """Every multiset of at most `most` cards one deck holds, as 15 counts."""
    counts = [0] * 15

    def rec(rank: int, left: int):
        if rank == 15:
            yield tuple(counts)
            return
        for n in range(min(left, 1 if rank >= BJ else 4) + 1):
            counts[rank] = n
            yield from rec(rank + 1, left - n)
        counts[rank] = 0

    yield from rec(0, most)
