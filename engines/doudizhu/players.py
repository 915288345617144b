"""Two simple Dou Dizhu players the benchmarks and tests measure the AI against.

Like the AI, each is handed only its seat's private view.

- `random_player`: a uniformly random legal move (bids too).
- `rule_player`: leads all the cards of its lowest rank (both jokers together as the rocket);
  answers with the smallest play that beats (a bomb or the rocket only when nothing else beats);
  never beats its partner; bids 1 (or calls) with two or more 2s and jokers.
"""

from __future__ import annotations

import random

from engines.doudizhu.ai import to_move
from engines.doudizhu.cards import BLACK_JOKER, RANKS, RED_JOKER, TWO, ranks_of_counts
from engines.doudizhu.knowledge import knowledge
from engines.doudizhu.rules import BOMB, ROCKET, all_plays, answers
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


__all__ = ["random_player", "rule_player"]
