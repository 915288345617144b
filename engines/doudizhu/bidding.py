"""Dou Dizhu bidding: the hand's value (the best split's play values minus a cost per hand, 手数, plus
its 2s and jokers) against thresholds; a hopeless hand never bids."""

from __future__ import annotations

import random

from engines.doudizhu.cards import BLACK_JOKER, RED_JOKER, TWO, Counts
from engines.doudizhu.knowledge import Knowledge
from engines.doudizhu.levels import Level
from engines.doudizhu.plan import plan
from engines.doudizhu.state import CALL, PASS, Move

# Thresholds on `hand_strength` of the 17 dealt cards, from the landlord's win rate by the strength of
# its dealt cards (`bench/doudizhu.py --calibrate`; the figures are in docs/benchmarks.md). Bids are kept
# on the careful side of those figures because people defend better than the AI's farmers do.
BID_THRESHOLDS = (-44.0, -36.0, -26.0)  # bid 1, 2, 3 from these strengths
CALL_THRESHOLD = -40.0


def hand_strength(hand: Counts) -> float:
    """The hand's value: play-type values minus a cost per hand of the best split, plus controls."""
    split = plan(hand)
    controls = hand[TWO] + 1.5 * hand[BLACK_JOKER] + 2 * hand[RED_JOKER]
    return split.score + 2.0 * controls


def choose_bid(me: Knowledge, level: Level, rng: random.Random) -> Move:
    strength = hand_strength(me.hand)
    if level.careless:
        strength += rng.uniform(-4, 4)
    if me.mode == CALL:
        return Move("call") if strength >= CALL_THRESHOLD else PASS
    want = sum(1 for t in BID_THRESHOLDS if strength >= t)
    return Move("bid", bid=want) if want > me.bid else PASS
