"""Cards, ranks and the text people type for them.

A card is an id 0..53: ids 0..51 are rank * 4 + suit (ranks 3 4 5 6 7 8 9 10 J Q
K A 2 are 0..12; suits ♠ ♥ ♣ ♦ are 0..3), 52 is the black joker, 53 the red one.
Rules never look at suits; the pictures do. A multiset of ranks is a tuple of 15
counts (`Counts`), the form every rule and the AI work with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

RANKS = 15
THREE, TEN, JACK, QUEEN, KING, ACE, TWO, BLACK_JOKER, RED_JOKER = 0, 7, 8, 9, 10, 11, 12, 13, 14
LABELS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")
SUITS = "♠♥♣♦"
DECK = tuple(range(54))
# How many cards of each rank one deck holds.
DECK_COUNTS = (4,) * 13 + (1, 1)

Counts = tuple[int, ...]

# What people type for one rank (upper-cased first): "10" and "T" are both ten; the Chinese rank words
# 三 … 十 and 二 (2), 小王 and 大王 (also 小鬼, 大鬼) for the jokers, and 王炸 for both jokers at once.
_TOKEN = re.compile(r"10|BJ|RJ|小王|大王|小鬼|大鬼|王炸|[2-9TJQKA]|[二三四五六七八九十]")
_ALIASES: dict[str, tuple[int, ...]] = {
    "T": (TEN,), "10": (TEN,), "BJ": (BLACK_JOKER,), "RJ": (RED_JOKER,), "小王": (BLACK_JOKER,),
    "大王": (RED_JOKER,), "小鬼": (BLACK_JOKER,), "大鬼": (RED_JOKER,), "王炸": (BLACK_JOKER, RED_JOKER),
    **{word: (rank,) for rank, word in enumerate("三四五六七八九十")}, "二": (TWO,),
}
_SEPARATORS = re.compile(r"[\s,，、+/]+")


def rank_of(card: int) -> int:
    return card // 4 if card < 52 else card - 52 + BLACK_JOKER


def suit_of(card: int) -> int | None:
    """0..3 for ♠ ♥ ♣ ♦, None for a joker."""
    return card % 4 if card < 52 else None


def counts_of_cards(cards: Iterable[int]) -> Counts:
    counts = [0] * RANKS
    for card in cards:
        counts[rank_of(card)] += 1
    return tuple(counts)


def counts_of_ranks(ranks: Iterable[int]) -> Counts:
    counts = [0] * RANKS
    for rank in ranks:
        counts[rank] += 1
    return tuple(counts)


def ranks_of_counts(counts: Sequence[int]) -> tuple[int, ...]:
    """The ranks of a multiset, low to high."""
    return tuple(rank for rank in range(RANKS) for _ in range(counts[rank]))


def parse_ranks(text: str) -> tuple[int, ...] | None:
    """`33344`, `3 3 3 4 4`, `10 J Q K A`, `tjqka`, `BJ RJ`, `小王大王`, `三三三四四` -> sorted ranks;
    None if unreadable."""
    compact = _SEPARATORS.sub("", text.upper())
    if not compact:
        return None
    ranks: list[int] = []
    pos = 0
    while pos < len(compact):
        match = _TOKEN.match(compact, pos)
        if match is None:
            return None
        token = match.group()
        ranks.extend(_ALIASES.get(token) or (LABELS.index(token),))
        pos = match.end()
    return tuple(sorted(ranks))


def ranks_text(ranks: Iterable[int]) -> str:
    """Ranks in the notation `parse_ranks` reads back: `3 3 3 4 4`, `10 J Q K A`, `BJ RJ`."""
    return " ".join(LABELS[rank] for rank in sorted(ranks))


def card_label(card: int) -> str:
    """`10♥`, `A♠`, `BJ` — for plain-text boards."""
    suit = suit_of(card)
    return LABELS[rank_of(card)] + ("" if suit is None else SUITS[suit])


def take_cards(hand: Sequence[int], ranks: Iterable[int]) -> tuple[int, ...] | None:
    """The card ids a play of `ranks` takes from `hand` (lowest suit first); None if the hand lacks one."""
    left = list(hand)
    taken: list[int] = []
    for rank in sorted(ranks):
        for i, card in enumerate(left):
            if rank_of(card) == rank:
                taken.append(left.pop(i))
                break
        else:
            return None
    return tuple(sorted(taken))
