"""The classifier against a brute-force enumeration of every legal play (tests/engines/ddz_bruteforce.py).

Exhaustive here: (1) every one of the 24,639 legal plays of up to 20 cards one deck allows is
classified with the brute force's type, main rank and length; (2) every multiset of at most 9
cards the deck holds (935,055 of them) is a legal play exactly when the brute force generated it;
(3) every multiset one card away (one card added or removed) from a legal play is checked the
same way. Random: hypothesis draws larger hands and mutated plays. The move generator is
checked against the classifier on every sub-multiset of random hands.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.doudizhu.cards import counts_of_cards, ranks_of_counts
from engines.doudizhu.rules import KINDS, Combo, all_plays, answers, beats, classify, has_answer, plays_of_kind
from tests.engines.ddz_bruteforce import all_multisets, legal_plays

DECK_LIMIT = (4,) * 13 + (1, 1)


def label(counts: tuple[int, ...]) -> tuple[str, int, int] | None:
    combo = classify(counts)
    return None if combo is None else (combo.kind, combo.rank, combo.chain)


def test_every_legal_play_is_classified_as_generated() -> None:
    plays = legal_plays()
    assert len(plays) == 24_639
    kinds = Counter(kind for kind, _, _ in plays.values())
    assert kinds["straight"] == 36 and kinds["pair_chain"] == 52 and kinds["trio_chain"] == 45
    wrong = {k: (v, label(k)) for k, v in plays.items() if label(k) != v}
    assert not wrong


def test_every_small_multiset_is_legal_exactly_when_generated() -> None:
    plays = legal_plays()
    checked = 0
    for counts in all_multisets(9):
        checked += 1
        assert label(counts) == plays.get(counts), ranks_of_counts(counts)
    assert checked == 935_055


def test_every_multiset_one_card_from_a_legal_play() -> None:
    plays = legal_plays()
    checked = 0
    for counts in plays:
        for rank in range(15):
            for delta in (1, -1):
                n = counts[rank] + delta
                if 0 <= n <= DECK_LIMIT[rank]:
                    near = counts[:rank] + (n,) + counts[rank + 1 :]
                    if 0 < sum(near) <= 20:
                        checked += 1
                        assert label(near) == plays.get(near), ranks_of_counts(near)
    assert checked == 392_335


deck = st.permutations(list(range(54)))


@settings(max_examples=400, deadline=None)
@given(deck, st.integers(10, 20))
def test_large_random_multisets(cards: list[int], size: int) -> None:
    counts = counts_of_cards(cards[:size])
    assert label(counts) == legal_plays().get(counts)


@cache
def _big_plays() -> list[tuple[int, ...]]:
    return sorted(k for k in legal_plays() if sum(k) >= 8)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_mutated_legal_plays(data: st.DataObject) -> None:
    """Replace one card of a big legal play by another rank: legal exactly when generated."""
    big = _big_plays()
    counts = list(big[data.draw(st.integers(0, len(big) - 1))])
    out = data.draw(st.sampled_from([r for r in range(15) if counts[r]]))
    into = data.draw(st.sampled_from([r for r in range(15) if counts[r] < DECK_LIMIT[r] and r != out]))
    counts[out] -= 1
    counts[into] += 1
    near = tuple(counts)
    assert label(near) == legal_plays().get(near)


def test_named_examples() -> None:
    def of(text: str) -> tuple[str, int, int] | None:
        from engines.doudizhu.cards import counts_of_ranks, parse_ranks

        ranks = parse_ranks(text)
        assert ranks is not None
        return label(counts_of_ranks(ranks))

    assert of("333444555666") == ("trio_chain", 3, 4)  # never 333444555 with wings 666
    assert of("3334445556667779") is None  # would need three 7s as single wings
    assert of("33344455") == ("airplane_singles", 1, 2)  # a pair among single wings
    assert of("3334445555") is None  # pair wings must be different pairs
    assert of("333444 BJ RJ") is None  # both jokers as wings
    assert of("3333 BJ RJ") is None
    assert of("3333 55") == ("four_two_singles", 0, 1)
    assert of("33334444") is None
    assert of("JQKA2") is None and of("10JQKA") == ("straight", 11, 5)
    assert of("222BJ") == ("trio_single", 12, 1)
    assert of("333 444 555 77 99 JJ") == ("airplane_pairs", 2, 3)


def test_generator_matches_classifier_on_random_hands() -> None:
    """all_plays(hand) is exactly the set of sub-multisets of the hand that classify as plays."""
    rng = random.Random(4)
    for _ in range(12):
        cards = rng.sample(range(54), rng.choice([9, 11, 13]))
        hand = counts_of_cards(cards)
        subs = [()]
        for rank in range(15):
            subs = [s + (n,) for s in subs for n in range(hand[rank] + 1)]
        expected = {s for s in subs if classify(s) is not None}
        generated = [p.counts for p in all_plays(hand)]
        assert len(generated) == len(set(generated))
        assert set(generated) == expected
        for play in all_plays(hand):
            assert classify(play.counts) == play.combo
        # answers() = the plays that beat, for a few plays on the table
        for previous in rng.sample([classify(s) for s in expected], min(8, len(expected))):
            assert previous is not None
            want = {s for s in expected if beats(classify(s), previous)}  # type: ignore[arg-type]
            assert {p.counts for p in answers(hand, previous)} == want


def test_plays_above_a_rank_are_the_plays_of_higher_rank() -> None:
    """plays_of_kind(..., above) skips the lower plays without making them: the same plays, in the same order, as
    filtering all of them; answers() and has_answer() (which use it) agree with each other."""
    rng = random.Random(6)
    for _ in range(300):
        hand = counts_of_cards(rng.sample(range(54), rng.randint(1, 20)))
        for kind in KINDS:
            for chain in (0, 1, 2, 3, 5, 7):
                every = list(plays_of_kind(hand, kind, chain))
                for above in range(-1, 15):
                    assert list(plays_of_kind(hand, kind, chain, above)) == [p for p in every if p.combo.rank > above]
                    previous = Combo(kind, above, chain, 0)
                    assert has_answer(hand, previous) == bool(answers(hand, previous))


def test_comparisons() -> None:
    def c(kind: str, rank: int, chain: int = 1, size: int = 1) -> Combo:
        return Combo(kind, rank, chain, size)

    assert beats(c("pair", 6, 1, 2), c("pair", 5, 1, 2))
    assert not beats(c("pair", 5, 1, 2), c("pair", 5, 1, 2))
    assert not beats(c("straight", 9, 6, 6), c("straight", 8, 5, 5))  # same type, other length
    assert beats(c("straight", 9, 5, 5), c("straight", 8, 5, 5))
    assert beats(c("bomb", 0, 1, 4), c("straight", 11, 12, 12))
    assert beats(c("bomb", 1, 1, 4), c("bomb", 0, 1, 4))
    assert not beats(c("bomb", 0, 1, 4), c("bomb", 1, 1, 4))
    assert beats(c("rocket", 14, 1, 2), c("bomb", 12, 1, 4))
    assert not beats(c("bomb", 12, 1, 4), c("rocket", 14, 1, 2))
    assert not beats(c("four_two_singles", 12, 1, 6), c("four_two_singles", 12, 1, 6))
    assert not beats(c("four_two_singles", 12, 1, 6), c("single", 0))  # four with two is not a bomb
    assert beats(c("trio_single", 5, 1, 4), c("trio_single", 4, 1, 4))
    assert not beats(c("trio_pair", 5, 1, 5), c("trio_single", 4, 1, 4))
    assert beats(c("single", 14), c("single", 13))
