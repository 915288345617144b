"""Dou Dizhu playouts: worlds of the unseen cards played out to the end by the fast policies, and the
race of a level's best candidates over the same worlds."""

from __future__ import annotations

import random

from engines.budget import Budget
from engines.doudizhu.cards import Counts
from engines.doudizhu.knowledge import Knowledge, sample_worlds, world_count
from engines.doudizhu.plan import Plan, minus, plan
from engines.doudizhu.policies import eager_follow, fast_follow, fast_lead
from engines.doudizhu.rules import Combo, Play


def rollout(hands: list[Counts], landlord: int, turn: int, trick: tuple[Combo, int] | None,
            splits: list[Plan | None], eager: bool = False) -> tuple[int, int]:
    """Play a world out with the fast policy for every seat; returns the seat that goes out first and
    the number of moves played (the work). `eager`: every seat follows with `eager_follow`."""
    follow = eager_follow if eager else fast_follow
    hands = list(hands)
    sizes = [sum(h) for h in hands]
    farmers = [s for s in range(3) if s != landlord]
    partner_of = [None if s == landlord else 3 - s - landlord for s in range(3)]
    for step in range(1, 201):
        hand = hands[turn]
        split = splits[turn]
        if split is None:
            split = splits[turn] = plan(hand)
        partner = partner_of[turn]
        enemy_min = min(sizes[farmers[0]], sizes[farmers[1]]) if partner is None else sizes[landlord]
        if trick is None:
            move: Play | None = fast_lead(hand, split, enemy_min, None if partner is None else sizes[partner])
        else:
            partner_owns = partner is not None and trick[1] == partner
            danger = not partner_owns and sizes[trick[1]] <= 4
            move = follow(hand, split, trick[0], partner_owns, danger, sizes[turn])
        nxt = (turn + 1) % 3
        if move is None:
            assert trick is not None
            if nxt == trick[1]:
                trick = None
        else:
            sizes[turn] -= move.combo.size
            if not sizes[turn]:
                return turn, step
            hands[turn] = minus(hand, move.counts)
            groups = list(split.groups)
            if move in groups:
                groups.remove(move)
                splits[turn] = Plan(split.score, len(groups), tuple(groups))
            else:
                splits[turn] = None
            trick = (move.combo, turn)
        turn = nxt
    return landlord, 200  # not reached in practice


def simulate(me: Knowledge, world: tuple[Counts, Counts, Counts], move: Play | None,
             eager: bool = False) -> tuple[bool, int]:
    """Whether our side wins `world` after we make `move` and every seat then plays the fast policy,
    and the moves that took (at least 1)."""
    assert me.landlord is not None
    hands = list(world)
    trick = None if me.trick is None else (me.trick[1], me.trick[0])
    nxt = (me.seat + 1) % 3
    if move is None:
        assert trick is not None
        trick = None if nxt == trick[1] else trick
    else:
        hands[me.seat] = minus(hands[me.seat], move.counts)
        if not any(hands[me.seat]):
            return True, 1
        trick = (move.combo, me.seat)
    out, steps = rollout(hands, me.landlord, nxt, trick, [None, None, None], eager)
    return (out == me.landlord) == (me.seat == me.landlord), steps


def race(me: Knowledge, moves: list[Play | None], rng: random.Random, budget: Budget,
         batch: int = 12, most: int = 240, eager: bool = False) -> Play | None:
    """Play every candidate out in the same sampled worlds; drop the ones clearly behind (paired
    comparison with the leader); stop when one is left, after `most` worlds or when the budget is
    spent (checked after each world, so every candidate has played the same worlds).
    Ties go to the earlier candidate (the heuristics' order)."""
    alive = list(range(len(moves)))
    results: list[list[float]] = [[] for _ in moves]  # per world: its weight if the candidate won, else 0
    worlds = 0
    few = world_count(me) <= batch  # then one pass over every world says all there is to say
    while len(alive) > 1 and worlds < most and not budget.over():
        for world, weight in sample_worlds(me, batch, rng):
            for i in alive:
                won, steps = simulate(me, world, moves[i], eager)
                results[i].append(weight if won else 0.0)
                budget.spend(steps)
            worlds += 1
            if budget.over():
                break
        n = min(len(results[i]) for i in alive)
        if few:
            break
        if n < 2 * batch:
            continue
        means = {i: sum(results[i][:n]) / n for i in alive}
        leader = max(alive, key=lambda i: (means[i], -i))
        keep = []
        for i in alive:
            diffs = [a - b for a, b in zip(results[i][:n], results[leader][:n], strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
            if i == leader or mean + 2.0 * (var / n) ** 0.5 + 1e-9 >= 0:
                keep.append(i)
        alive = keep
    n = min(len(results[i]) for i in alive) if alive else 0
    if n == 0:
        return moves[0]
    return moves[max(alive, key=lambda i: (sum(results[i][:n]), -i))]
