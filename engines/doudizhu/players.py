"""Two simple Dou Dizhu players the benchmarks and tests measure the AI against.

Like the AI, each is handed only its seat's private view.

- `random_player`: a uniformly random legal move (bids too).
- `rule_player`: leads all the cards of its lowest rank (both jokers together as the rocket);
  answers with the smallest play that beats (a bomb or the rocket only when nothing else beats);
  never beats its partner; bids 1 (or calls) with two or more 2s and jokers.
- `power_player`, another style: leads its longest combination (the most cards: chains, airplanes and
  trios with their lowest kickers before pairs and singles), keeps bombs, the rocket and four with two
  back while anything else is left; answers every enemy play it can, with the lowest play of its kind,
  the strongest against an enemy about to go out (two cards or fewer), a bomb or the rocket when it has
  no play of the kind; never beats its partner; bids like `rule_player`.
"""

from __future__ import annotations

import random

from engines.doudizhu.ai import to_move
from engines.doudizhu.cards import BLACK_JOKER, RANKS, RED_JOKER, TWO, ranks_of_counts
from engines.doudizhu.knowledge import knowledge
from engines.doudizhu.rules import BOMB, FOUR2, FOUR22, ROCKET, Play, all_plays, answers
from engines.doudizhu.state import CALL, CALL_MOVE, PASS, DdzPrivateView, Move


def random_player(seen: DdzPrivateView, rng: random.Random) -> Move:
    """A uniformly random legal move (bids too)."""
    me = knowledge(seen)
    if me.bidding:
        if me.mode == CALL:
            return rng.choice([CALL_MOVE, PASS])
        return rng.choice([PASS] + [Move("bid", bid=b) for b in range(me.bid + 1, 4)])
    if me.trick is None:
        return to_move(rng.choice(all_plays(me.hand)))
    return to_move(rng.choice([None, *answers(me.hand, me.trick[1])]))


def rule_player(seen: DdzPrivateView, rng: random.Random) -> Move:
    """Lead all cards of the lowest rank held; answer with the smallest play that beats (a bomb or the
    rocket only when nothing else beats); never beat its partner; bid 1 with two or more of 2s and jokers."""
    me = knowledge(seen)
    if me.bidding:
        strong = me.hand[TWO] + me.hand[BLACK_JOKER] + me.hand[RED_JOKER] >= 2
        if me.mode == CALL:
            return CALL_MOVE if strong else PASS
        return Move("bid", bid=1) if strong and me.bid == 0 else PASS
    if me.trick is None:
        low = min(r for r in range(RANKS) if me.hand[r])
        counts = [0] * RANKS
        counts[low] = me.hand[low]
        if low >= BLACK_JOKER and me.hand[BLACK_JOKER] and me.hand[RED_JOKER]:
            counts[BLACK_JOKER] = counts[RED_JOKER] = 1
        return Move("play", ranks=ranks_of_counts(counts))
    owner, previous = me.trick
    if owner == me.partner():
        return PASS
    options = answers(me.hand, previous)
    if not options:
        return PASS
    best = min(options, key=lambda p: (p.combo.kind == ROCKET, p.combo.kind == BOMB, p.combo.rank,
                                       ranks_of_counts(p.counts)))
    return to_move(best)


def power_player(seen: DdzPrivateView, rng: random.Random) -> Move:
    """Lead the longest combination (bombs, the rocket and four with two kept back while anything else
    is left), lowest rank and lowest kickers among equals; answer an enemy's play with the lowest play of
    its kind (the strongest if that enemy holds two cards or fewer), a bomb or the rocket (the lowest)
    when there is none; never beat its partner."""
    me = knowledge(seen)
    if me.bidding:
        return rule_player(seen, rng)
    if me.trick is None:
        plays = all_plays(me.hand)
        kept = (BOMB, ROCKET, FOUR2, FOUR22)
        plain = [p for p in plays if p.combo.kind not in kept or p.combo.size == sum(me.hand)]
        best = min(plain or plays, key=lambda p: (-p.combo.size, p.combo.kind in kept, p.combo.rank,
                                                  sum(p.counts[r] * r for r in range(RANKS))))
        return to_move(best)
    owner, previous = me.trick
    if owner == me.partner():
        return PASS
    options = answers(me.hand, previous)
    if not options:
        return PASS
    same = [p for p in options if p.combo.kind == previous.kind]
    if same:  # the lowest of its kind, the strongest against an enemy about to go out
        def key(p: Play) -> tuple[int, int]:
            return p.combo.rank, sum(p.counts[r] * r for r in range(RANKS))

        return to_move(max(same, key=key) if me.counts[owner] <= 2 else min(same, key=key))
    return to_move(min(options, key=lambda p: (p.combo.kind == ROCKET, p.combo.rank)))


__all__ = ["power_player", "random_player", "rule_player"]
