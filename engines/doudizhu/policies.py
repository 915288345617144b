"""The fast Dou Dizhu policies: easy's play, and every seat's play in the playouts of the levels above.

They play the groups of the hand's best split, the lowest first, and answer from them; a bomb only
against a player about to go out. `eager_follow` answers an enemy's play whenever the hand can
without a bomb.
"""

from __future__ import annotations

import random

from engines.doudizhu.cards import BLACK_JOKER, RED_JOKER, Counts
from engines.doudizhu.heuristics import enemy_min_cards
from engines.doudizhu.knowledge import Knowledge
from engines.doudizhu.plan import Plan, group_value, plan
from engines.doudizhu.rules import (
    BOMB,
    PAIR,
    ROCKET,
    SINGLE,
    Combo,
    Play,
    answers,
    beats,
    classify,
    has_answer,
    plays_of_kind,
)


def fast_lead(hand: Counts, split: Plan, enemy_min: int, partner_min: int | None) -> Play:
    groups = list(split.groups)
    if len(groups) == 1:
        return groups[0]

    def key(g: Play) -> tuple[float, int]:
        value = group_value(g.combo)
        if g.combo.kind in (BOMB, ROCKET):
            value += 30
        if enemy_min <= 2 and g.combo.size == enemy_min and g.combo.kind in (SINGLE, PAIR):
            value += 25 - g.combo.rank  # don't feed an enemy about to go out; if we must, play high
        if partner_min == 1 and g.combo.kind == SINGLE:
            value -= 10
        return value, -g.combo.size

    return min(groups, key=key)


def fast_follow(hand: Counts, split: Plan, trick: Combo, partner_owns: bool, danger: bool,
                total: int | None = None) -> Play | None:
    """An answer from the groups of our split (smallest first); a split-breaking answer or a bomb only in danger.
    `total`: the number of cards in `hand`, if known."""
    if total is None:
        total = sum(hand)
    if trick.size == total and classify(hand) is not None and has_answer(hand, trick):
        whole = classify(hand)
        if whole is not None and beats(whole, trick):
            return Play(whole, hand)
    if partner_owns:
        return None
    # the groups that beat it, bombs aside (a group of the same kind and size, higher)
    kind, size, rank = trick.kind, trick.size, trick.rank
    best: Play | None = None
    for g in split.groups:
        c = g.combo
        if (c.kind == kind and c.size == size and c.rank > rank and c.kind not in (BOMB, ROCKET)
                and (best is None or c.rank < best.combo.rank)):
            best = g
    if best is not None:
        return best
    if not danger:
        return None
    options = answers(hand, trick)
    if hand[BLACK_JOKER] and hand[RED_JOKER]:  # the rocket is not broken into singles
        options = [p for p in options if not (p.combo.kind == SINGLE and p.combo.rank >= BLACK_JOKER)]
    if not options:
        return None
    return min(options, key=lambda p: (p.combo.kind in (BOMB, ROCKET), p.combo.kind == ROCKET, p.combo.rank))


def eager_follow(hand: Counts, split: Plan, trick: Combo, partner_owns: bool, danger: bool, total: int) -> Play | None:
    """`fast_follow`, but an enemy's play is answered whenever the hand can without a bomb (the lowest answer,
    the rocket not broken), as people (and the rule player) mostly do, not only from the split's groups."""
    move = fast_follow(hand, split, trick, partner_owns, danger, total)
    if move is not None or partner_owns or danger or trick.kind in (BOMB, ROCKET):
        return move
    rocket = hand[BLACK_JOKER] and hand[RED_JOKER]
    for play in plays_of_kind(hand, trick.kind, trick.chain, trick.rank):  # the lowest first
        if not (rocket and play.combo.kind == SINGLE and play.combo.rank >= BLACK_JOKER):
            return play
    return None


def easy_play(me: Knowledge, rng: random.Random) -> Play | None:
    split = plan(me.hand)
    partner = me.partner()
    if me.trick is None:
        if rng.random() < 0.15:
            return rng.choice(split.groups)
        return fast_lead(me.hand, split, enemy_min_cards(me), None if partner is None else me.counts[partner])
    owner, combo = me.trick
    danger = me.counts[owner] <= 3 and owner != partner
    move = fast_follow(me.hand, split, combo, owner == partner, danger)
    if move is not None and rng.random() < 0.1:
        return None
    return move
