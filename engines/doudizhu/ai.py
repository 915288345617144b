"""The Dou Dizhu AI: bidding and play at three levels.

Everything here works from what one seat may see — its private view
(`state.view(state, seat)`): its own hand, the card counts, the bottom cards and
every card played. `choose(state, seat, level, limit, rng)` builds that view and
hands the AI nothing else.

- Bidding: the hand's value — the best split's play values minus a cost per
  hand (手数), plus its 2s and jokers — against thresholds; a hopeless hand never bids.
- easy: plays the groups of its best split, the lowest first; answers from them;
  a bomb only against a player about to go out; now and then a careless move.
- normal: scores every candidate by the split of what would be left, counts the
  cards seen (which of its plays nobody can beat), keeps bombs for when they
  matter, cooperates as a farmer, and solves endgames exactly from 24 cards left
  in all (up to 20 consistent deals of the unseen cards, perfect play in each);
  from 34 cards left down to those endgames it plays its best candidates out
  as hard does, with at most 2,500 units.
- hard: the same exact endgames (up to 40 deals, 4 solved at least), elsewhere
  normal's best candidates weighed by simulation: deals of the unseen cards
  consistent with what was seen are played out by a fast policy for every seat
  (one that answers an enemy's play whenever it can without a bomb), within the budget.

The deals of the unseen cards (worlds) agree with what the seat saw: the card
counts, the bottom cards the landlord still holds, and the passes. A seat that let
its enemy's play go while it held a plain answer (no bomb) is less likely to hold
one: such a world counts `PASS_WEIGHT` per pass (weighed, not ruled out, because
people do keep cards back).

A level is an amount of work (`Limit.work`), never of time: one unit is one position
the exact endgame solver searches or one move of a simulated playout. The same
view, level and random generator give the same move on an idle machine and on a
busy one. `Limit.seconds` is only a safety net (a stalled host): the AI reads the
wall clock (`clock`) for nothing else, and an idle core never reaches it.

The budgets (engines/doudizhu/game.py): normal 30,000 units, hard 70,000. At
about 190,000 (normal) and 150,000 (hard) units per CPU second (bench/doudizhu.py
prints the rate; hard's dearest moves, early playouts that split many newly sampled
hands, about 100,000) that is at most about 0.2 s and 0.7 s of an idle core per move;
most of normal's moves need no search at all (a millisecond; its playouts about
0.03-0.1 s), hard's take up to about 0.7 s (p95 0.22 s).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from math import comb
from operator import add

from engines.base import AIInfo, AIResult, Limit
from engines.budget import Budget, OutOfWork
from engines.doudizhu.cards import (
    BLACK_JOKER,
    RANKS,
    RED_JOKER,
    TWO,
    Counts,
    counts_of_cards,
    rank_of,
    ranks_of_counts,
)
from engines.doudizhu.levels import LEVELS, Level
from engines.doudizhu.plan import HAND_COST, Plan, group_value, minus, plan
from engines.doudizhu.rules import (
    BOMB,
    PAIR,
    ROCKET,
    SINGLE,
    Combo,
    Play,
    all_plays,
    answers,
    beats,
    classify,
    has_answer,
    has_plain_answer,
    plays_of_kind,
)
from engines.doudizhu.solver import Solver
from engines.doudizhu.state import CALL, PASS, DdzPrivateView, Move, State, view

# --- what a seat knows ----------------------------------------------------------------------


@dataclass(frozen=True)
class Knowledge:
    seat: int
    landlord: int | None
    hand: Counts
    counts: tuple[int, int, int]  # cards held per seat
    unseen: Counts  # the cards the two other seats hold together
    trick: tuple[int, Combo] | None  # who made the play to beat, and the play; None: we lead
    landlord_known: Counts  # bottom cards the landlord has not played (known to be in its hand)
    mode: str
    bid: int
    bids: tuple[tuple[int, int], ...]
    played: tuple[int, int, int]  # plays (not passes) made per seat
    # Every pass of another seat on its enemy's play: (seat, the play it let go, the cards that seat played since).
    passes: tuple[tuple[int, Combo, Counts], ...] = ()

    @property
    def bidding(self) -> bool:
        return self.landlord is None

    def team(self, seat: int) -> bool:
        """True for the landlord's side."""
        return seat == self.landlord

    def partner(self) -> int | None:
        if self.landlord is None or self.seat == self.landlord:
            return None
        return 3 - self.seat - self.landlord

    def enemies(self) -> list[int]:
        if self.seat == self.landlord:
            return [s for s in range(3) if s != self.seat]
        return [self.landlord] if self.landlord is not None else []


def knowledge(view: DdzPrivateView) -> Knowledge:
    """What the seat whose private view this is knows."""
    seat = view["seat"]
    hand = counts_of_cards(view["hand"])
    unseen = tuple(view["unseen"])
    landlord = view["landlord"]
    known = [0] * RANKS
    played = [0, 0, 0]
    if landlord is not None and view["bottom"]:
        left = set(view["bottom"])
        for s, cards in view["history"]:
            if cards:
                played[s] += 1
            if s == landlord:
                left -= set(cards)
        if seat != landlord:
            for card in left:
                known[rank_of(card)] += 1
    passes = _passes(view["history"], seat, landlord) if landlord is not None else ()
    trick = None
    if view["trick"] is not None:
        t = view["trick"]
        trick = (t["seat"], Combo(t["kind"], t["rank"], t["chain"], len(t["cards"])))
    return Knowledge(
        seat, landlord, hand, tuple(view["counts"]), unseen, trick, tuple(known), view["mode"], view["bid"],
        tuple((s, b) for s, b in view["bids"]), tuple(played), passes,
    )


def _passes(history: Sequence[Sequence], seat: int, landlord: int) -> tuple[tuple[int, Combo, Counts], ...]:
    """The passes of the other seats on a play of their enemy, each with the cards its seat played later."""
    found: list[tuple[int, Combo, list[int]]] = []
    owner, combo, passed = -1, None, 0
    for s, cards in history:
        if cards:
            counts = counts_of_cards(cards)
            owner, combo, passed = s, classify(counts), 0
            for p, _, later in found:
                if p == s:
                    for r in range(RANKS):
                        later[r] += counts[r]
            continue
        if combo is not None and s != seat and (s == landlord) != (owner == landlord):
            found.append((s, combo, [0] * RANKS))
        passed += 1
        if passed >= 2:
            combo = None
    return tuple((s, c, tuple(later)) for s, c, later in found)


def to_move(play: Play | None) -> Move:
    return PASS if play is None else Move("play", ranks=ranks_of_counts(play.counts))


# --- bidding --------------------------------------------------------------------------------

# Thresholds on `hand_strength` of the 17 dealt cards, from `bench/doudizhu.py --calibrate 400` (the
# landlord's win rate, normal against normal, by strength of its dealt cards: about 0.41 below -57,
# 0.5 from -57 to -41, 0.55-0.7 from -41 to -26, 0.7-0.75 above). Bids are kept on the careful side
# of those figures because people defend better than the AI's farmers do.
BID_THRESHOLDS = (-44.0, -36.0, -26.0)  # bid 1, 2, 3 from these strengths
CALL_THRESHOLD = -40.0


def hand_strength(hand: Counts) -> float:
    """The hand's value: play-type values minus a cost per hand of the best split, plus controls."""
    split = plan(hand)
    controls = hand[TWO] + 1.5 * hand[BLACK_JOKER] + 2 * hand[RED_JOKER]
    return split.score + 2.0 * controls


def choose_bid(k: Knowledge, level: Level, rng: random.Random) -> Move:
    strength = hand_strength(k.hand)
    if level.careless:
        strength += rng.uniform(-4, 4)
    if k.mode == CALL:
        return Move("call") if strength >= CALL_THRESHOLD else PASS
    want = sum(1 for t in BID_THRESHOLDS if strength >= t)
    return Move("bid", bid=want) if want > k.bid else PASS


# --- shared judgement ------------------------------------------------------------------------


def can_be_beaten(k: Knowledge, combo: Combo) -> bool:
    """Whether the cards we have not seen hold an answer (our partner's cards count too: we don't know them)."""
    return has_answer(k.unseen, combo)


def enemy_min_cards(k: Knowledge) -> int:
    return min((k.counts[s] for s in k.enemies()), default=20)


def safe_groups(k: Knowledge, groups: Sequence[Play]) -> list[Play]:
    return [g for g in groups if not can_be_beaten(k, g.combo)]


def wasteful(k: Knowledge, play: Play | None) -> bool:
    """A play good players avoid (a style error; bench/doudizhu.py counts them the same way):
    - the rocket broken: one joker beats a single while we hold both;
    - the rocket or a bomb led while two or more plays of the rest can still be beaten: the lead comes
      back to us with the same problem, the stake doubled;
    - a bomb or the rocket spent while two or more plays remain and every enemy holds more than 4 cards.
    Going out with it is never wasteful."""
    if play is None:
        return False
    combo = play.combo
    hand = k.hand
    if (k.trick is not None and k.trick[1].kind == SINGLE and combo.kind == SINGLE
            and combo.rank >= BLACK_JOKER and hand[BLACK_JOKER] and hand[RED_JOKER]):
        return True
    if combo.kind not in (BOMB, ROCKET):
        return False
    rest = _after(hand, play)
    if rest is None or rest.hands < 2:
        return False
    if k.trick is None and sum(1 for g in rest.groups if can_be_beaten(k, g.combo)) >= 2:
        return True
    return enemy_min_cards(k) > 4


def calm(k: Knowledge, plays: Sequence[Play | None]) -> list[Play | None]:
    """`plays` without the wasteful ones (all of them if every one is)."""
    kept = [p for p in plays if not wasteful(k, p)]
    return kept or list(plays)


def finishing_order(k: Knowledge, split: Plan) -> Play | None:
    """The last group; or, if every group but one is unbeatable, an unbeatable one now (the last goes at the end)."""
    if split.hands == 1:
        return split.groups[0]
    safe = safe_groups(k, split.groups)
    if split.hands - len(safe) <= 1 and safe:
        # Non-bombs first (bombs double the stake only when they are needed later anyway: play them last but one).
        safe.sort(key=lambda g: (g.combo.kind in (BOMB, ROCKET), -g.combo.size))
        return safe[0]
    return None


# --- easy / fast policy ----------------------------------------------------------------------


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


def easy_play(k: Knowledge, rng: random.Random) -> Play | None:
    split = plan(k.hand)
    partner = k.partner()
    if k.trick is None:
        if rng.random() < 0.15:
            return rng.choice(split.groups)
        return fast_lead(k.hand, split, enemy_min_cards(k), None if partner is None else k.counts[partner])
    owner, combo = k.trick
    danger = k.counts[owner] <= 3 and owner != partner
    move = fast_follow(k.hand, split, combo, owner == partner, danger)
    if move is not None and rng.random() < 0.1:
        return None
    return move


# --- normal ----------------------------------------------------------------------------------


def _after(hand: Counts, play: Play) -> Plan | None:
    rest = minus(hand, play.counts)
    return plan(rest) if any(rest) else None


def _lead_candidates(k: Knowledge, split: Plan) -> list[Play]:
    seen: set[Counts] = set()
    out: list[Play] = []
    for g in split.groups:
        if g.counts not in seen:
            seen.add(g.counts)
            out.append(g)
        # A trio is a candidate also without the kicker the split gave it.
        if classify(g.counts) is not None and g.combo.kind in ("trio_single", "trio_pair"):
            trio = tuple(3 if i == g.combo.rank else 0 for i in range(RANKS))
            if trio not in seen:
                seen.add(trio)
                out.append(Play(Combo("trio", g.combo.rank, 1, 3), trio))
    partner = k.partner()
    if partner is not None and k.counts[partner] <= 2:
        # Our partner is about to go out: our lowest single or pair, even from a bigger group, is a candidate.
        width = k.counts[partner]
        for rank in range(RANKS):
            if k.hand[rank] >= width:
                counts = tuple(width if i == rank else 0 for i in range(RANKS))
                if counts not in seen:
                    seen.add(counts)
                    out.append(Play(Combo(SINGLE if width == 1 else PAIR, rank, 1, width), counts))
                break
    return out


def score_lead(k: Knowledge, play: Play, base: float) -> float:
    rest = _after(k.hand, play)
    if rest is None:
        return 1000.0
    score = rest.score + HAND_COST  # leading uses our turn: we get one hand back
    combo = play.combo
    enemy_min = enemy_min_cards(k)
    partner = k.partner()
    beatable = can_be_beaten(k, combo)
    if not beatable:
        score += 3.0  # we keep the lead
    if combo.kind in (BOMB, ROCKET):
        score -= 12.0
    score += 0.3 * combo.size
    if enemy_min <= 2 and combo.kind in (SINGLE, PAIR) and combo.size == enemy_min and beatable:
        score -= 25.0 - combo.rank
    if partner is not None:
        pc = k.counts[partner]
        if pc <= 2 and combo.kind in (SINGLE, PAIR) and combo.size == pc:
            score += 14.0 - 0.5 * combo.rank  # a small one our partner can beat to go out
    return score


def normal_lead(k: Knowledge) -> Play:
    split = plan(k.hand)
    finish = finishing_order(k, split)
    if finish is not None:
        return finish
    candidates = calm(k, _lead_candidates(k, split))
    return max(candidates, key=lambda p: score_lead(k, p, split.score))  # type: ignore[arg-type]


def follow_scores(k: Knowledge) -> list[tuple[float, Play | None]]:
    """Every answer (and passing) with normal's score, best first."""
    assert k.trick is not None
    owner, previous = k.trick
    split = plan(k.hand)
    partner = k.partner()
    options = answers(k.hand, previous)
    enemy_min = enemy_min_cards(k)
    owner_is_enemy = owner != partner
    scored: list[tuple[float, Play | None]] = []
    # An enemy with a card or two may go out on a single or a pair: answer it with what it cannot beat
    # (or the highest we have), and as the farmer before the landlord, overtake a partner's play it can beat.
    danger = previous.kind in (SINGLE, PAIR) and any(previous.size <= k.counts[e] <= 2 for e in k.enemies())
    guard = (danger and not owner_is_enemy and _turn_after(k) == k.landlord
             and k.counts[k.landlord] >= previous.size and can_be_beaten(k, previous))
    # Passing keeps the hand as it is; it costs more the nearer the player of the trick is to going out.
    pass_score = split.score
    if owner_is_enemy:
        pass_score -= max(0, 6 - k.counts[owner]) * 6.0
        if k.landlord == k.seat:
            pass_score -= 2.0
    elif guard:
        pass_score -= 20.0
    else:
        pass_score += 6.0
    scored.append((pass_score, None))
    for play in options:
        if wasteful(k, play):
            continue
        rest = _after(k.hand, play)
        if rest is None:
            scored.append((1000.0, play))
            continue
        score = rest.score
        combo = play.combo
        if combo.kind in (BOMB, ROCKET):
            score -= 10.0  # the bomb leaves the split at its own value...
            threat = enemy_min <= 4 or rest.hands <= 2
            if not threat:
                score -= 25.0  # ...and is kept for when it matters
        unbeatable = not can_be_beaten(k, combo)
        if unbeatable:
            score += 4.0
        if danger and combo.kind not in (BOMB, ROCKET):
            score += 20.0 if unbeatable else 1.0 * combo.rank
        if not owner_is_enemy and not guard:
            score -= 12.0 + 2.0 * previous.rank  # don't overtake a partner's play
        scored.append((score, play))
    scored.sort(key=lambda item: -item[0])
    return scored


def normal_follow(k: Knowledge) -> Play | None:
    return follow_scores(k)[0][1]


def normal_play(k: Knowledge) -> Play | None:
    return normal_lead(k) if k.trick is None else normal_follow(k)


# --- exact endgames --------------------------------------------------------------------------


# A world in which a seat let its enemy's play go while it held a plain answer (no bomb) is less likely
# than one in which it could not answer: it counts this much per such pass (people do keep cards back now
# and then, so the worlds are weighed, not ruled out).
PASS_WEIGHT = 0.2
SAMPLE_TRIES = 20  # draws per world wanted, at most, when worlds are sampled by their weight


def world_weight(k: Knowledge, hands: Sequence[Counts]) -> float:
    """How likely a deal of the unseen cards is, by the passes seen (1: nothing speaks against it)."""
    weight = 1.0
    for seat, combo, later in k.passes:
        then = tuple(map(add, hands[seat], later))
        if has_plain_answer(then, combo):
            weight *= PASS_WEIGHT
    return weight


def _worlds(k: Knowledge, limit: int, rng: random.Random) -> list[tuple[tuple[Counts, Counts, Counts], float]]:
    """Deals of the unseen cards to the two other seats that agree with what we know, with their weights:
    every deal with its weight if there are at most `limit`, else `limit` deals drawn by weight (weight 1)."""
    others = [s for s in range(3) if s != k.seat]
    fixed = {s: [0] * RANKS for s in others}
    free = list(k.unseen)
    if k.landlord is not None and k.landlord != k.seat:
        for r in range(RANKS):
            fixed[k.landlord][r] = k.landlord_known[r]
            free[r] -= k.landlord_known[r]
    need = [k.counts[s] - sum(fixed[s]) for s in others]
    pool = list(ranks_of_counts(free))

    def make(first: Sequence[int]) -> tuple[Counts, Counts, Counts]:
        a = list(fixed[others[0]])
        for r in first:
            a[r] += 1
        b = [u - x for u, x in zip(k.unseen, a, strict=True)]
        hands: list[Counts] = [(), (), ()]
        hands[k.seat] = k.hand
        hands[others[0]] = tuple(a)
        hands[others[1]] = tuple(b)
        return hands[0], hands[1], hands[2]

    if comb(len(pool), need[0]) <= limit:
        seen: set[tuple[int, ...]] = set()
        every = []
        for pick in combinations(pool, need[0]):
            if pick not in seen:
                seen.add(pick)
                world = make(pick)
                every.append((world, world_weight(k, world)))
        return every
    worlds: list[tuple[tuple[Counts, Counts, Counts], float]] = []
    spare: list[tuple[float, int, tuple[Counts, Counts, Counts]]] = []
    for attempt in range(SAMPLE_TRIES * limit):
        rng.shuffle(pool)
        world = make(sorted(pool[: need[0]]))
        weight = world_weight(k, world) if k.passes else 1.0
        if weight >= 1.0 or rng.random() < weight:
            worlds.append((world, 1.0))
            if len(worlds) == limit:
                return worlds
        else:
            spare.append((-weight, attempt, world))
    spare.sort()  # too few drawn by weight: the likeliest of the others make up the number
    worlds.extend((world, 1.0) for _, _, world in spare[: limit - len(worlds)])
    return worlds


def _turn_after(k: Knowledge) -> int:
    return (k.seat + 1) % 3


class Verdict(Enum):
    SOLVED = "solved"  # the move wins in the most worlds
    UNKNOWN = "unknown"  # too big, beyond the budget, or too few worlds solved: the heuristics decide
    LOST = "lost"  # every world was solved, and lost


@dataclass(frozen=True)
class Endgame:
    """What the exact endgames say, and the move when they solved it."""

    verdict: Verdict
    move: Play | None = None


UNKNOWN, LOST = Endgame(Verdict.UNKNOWN), Endgame(Verdict.LOST)


def endgame(k: Knowledge, rng: random.Random, level: Level, budget: Budget) -> Endgame:
    """The move that wins in the most consistent worlds with perfect play (from `level.cards` cards left in
    all, in at most `level.worlds` worlds). At most `level.world_nodes` positions per world (a world too big
    is left out), and the worlds are solved in turn while the budget lasts."""
    if k.landlord is None or sum(k.counts) > level.cards:
        return UNKNOWN
    if k.trick is None:
        moves: list[Play | None] = list(all_plays(k.hand))
    else:
        moves = [*answers(k.hand, k.trick[1]), None]
    if len(moves) == 1:
        return Endgame(Verdict.SOLVED, moves[0])
    worlds = _worlds(k, level.worlds, rng)
    trick = None if k.trick is None else (k.trick[1], k.trick[0])
    on_my_side = k.seat == k.landlord
    wins = [0.0] * len(moves)
    solver = Solver(k.landlord, budget)
    done = 0
    for world, weight in worlds:
        units = min(level.world_nodes, budget.left)  # the limit is per world: a world too big to solve is left out
        if units <= 0:
            break
        solver.budget = per_world = budget.sub(units)
        try:
            won = []
            for move in moves:
                if move is None:
                    nxt = _turn_after(k)
                    assert trick is not None
                    landlord_wins = solver.landlord_wins(world, nxt, None if nxt == trick[1] else trick)
                else:
                    landlord_wins = solver.after(world, k.seat, trick, move)
                won.append(landlord_wins == on_my_side)
        except OutOfWork:
            won = []
        budget.absorb(per_world, most=per_world.work)  # the position past the world's work was not searched
        if won:
            done += 1
            wins = [w + weight * x for w, x in zip(wins, won, strict=True)]
        if budget.over():
            break
        if len(solver.memo) > 400_000:
            solver.memo.clear()
    if done < min(level.min_worlds, len(worlds)) or done == 0:
        return UNKNOWN  # too few worlds solved to go by
    best = max(wins)
    if best == 0:
        return LOST if done == len(worlds) else UNKNOWN  # lost in every world: the heuristics play on
    good = [m for m, w in zip(moves, wins, strict=True) if w == best]
    if len(good) == 1:
        return Endgame(Verdict.SOLVED, good[0])
    # Among equally good moves prefer what the heuristics prefer.
    good = calm(k, good)
    preferred = normal_lead(k) if k.trick is None else normal_follow(k)
    if preferred in good:
        return Endgame(Verdict.SOLVED, preferred)
    plays = [m for m in good if m is not None]
    if not plays:
        return Endgame(Verdict.SOLVED, None)
    return Endgame(Verdict.SOLVED, max(plays, key=lambda p: (p.combo.kind not in (BOMB, ROCKET), p.combo.size,
                                                              -p.combo.rank)))


# --- hard: sampling -------------------------------------------------------------------------


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


def simulate(k: Knowledge, world: tuple[Counts, Counts, Counts], move: Play | None,
             eager: bool = False) -> tuple[bool, int]:
    """Whether our side wins `world` after we make `move` and every seat then plays the fast policy,
    and the moves that took (at least 1)."""
    assert k.landlord is not None
    hands = list(world)
    trick = None if k.trick is None else (k.trick[1], k.trick[0])
    nxt = (k.seat + 1) % 3
    if move is None:
        assert trick is not None
        trick = None if nxt == trick[1] else trick
    else:
        hands[k.seat] = minus(hands[k.seat], move.counts)
        if not any(hands[k.seat]):
            return True, 1
        trick = (move.combo, k.seat)
    out, steps = rollout(hands, k.landlord, nxt, trick, [None, None, None], eager)
    return (out == k.landlord) == (k.seat == k.landlord), steps




def ranked_moves(k: Knowledge) -> list[tuple[float, Play | None]]:
    """The candidates with normal's scores, best first (a finishing order alone if there is one)."""
    if k.trick is None:
        split = plan(k.hand)
        finish = finishing_order(k, split)
        if finish is not None:
            return [(1000.0, finish)]
        return sorted(((score_lead(k, p, split.score), p) for p in calm(k, _lead_candidates(k, split))),
                      key=lambda item: -item[0])  # type: ignore[arg-type]
    return follow_scores(k)


def searched_play(k: Knowledge, rng: random.Random, budget: Budget, level: Level) -> Play | None:
    """Normal's and hard's play: the exact endgames where they answer, else the heuristics' best
    candidates played out against each other."""
    exact = budget.part(level.share)
    solved = endgame(k, rng, level, exact)
    budget.absorb(exact)
    if solved.verdict is Verdict.SOLVED:
        return solved.move
    ranked = ranked_moves(k)
    if solved.verdict is Verdict.LOST and not level.race_lost:
        return ranked[0][1]
    if len(ranked) == 1 or ranked[0][0] >= 900 or level.race_work <= 0 or sum(k.counts) > level.race_cards:
        return ranked[0][1]
    top = [ranked[0]] + [item for item in ranked[1:level.candidates] if item[0] >= ranked[0][0] - level.margin]
    if len(top) == 1:
        return top[0][1]
    racing = budget.part(min(1.0, level.race_work / max(1, budget.left)))
    move = race(k, [move for _, move in top], rng, racing, eager=level.eager)
    budget.absorb(racing)
    return move


def race(k: Knowledge, moves: list[Play | None], rng: random.Random, budget: Budget,
         batch: int = 12, most: int = 240, eager: bool = False) -> Play | None:
    """Play every candidate out in the same sampled worlds; drop the ones clearly behind (paired
    comparison with the leader); stop when one is left, after `most` worlds or when the budget is
    spent (checked after each world, so every candidate has played the same worlds).
    Ties go to the earlier candidate (the heuristics' order)."""
    alive = list(range(len(moves)))
    results: list[list[float]] = [[] for _ in moves]  # per world: its weight if the candidate won, else 0
    worlds = 0
    few = _world_count(k) <= batch  # then one pass over every world says all there is to say
    while len(alive) > 1 and worlds < most and not budget.over():
        for world, weight in _worlds(k, batch, rng):
            for i in alive:
                won, steps = simulate(k, world, moves[i], eager)
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


def _world_count(k: Knowledge) -> int:
    return comb(sum(k.unseen), k.counts[(k.seat + 1) % 3])


# --- the entry point --------------------------------------------------------------------------


def choose(state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
    """The move of `seat` (the seat to move) at `level` ("easy", "normal", "hard"). The AI is handed
    only `seat`'s own view of the state, never the other hands."""
    return decide(view(state, seat), level, limit, rng)


def decide(seen: DdzPrivateView, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
    """The move of the seat whose private view `seen` is."""
    budget = Budget(limit)
    settings = LEVELS[level]
    k = knowledge(seen)
    if k.bidding:
        return AIResult(choose_bid(k, settings, rng), AIInfo(reason="bid", work=0))
    move = easy_play(k, rng) if settings.careless else searched_play(k, rng, budget, settings)
    info = AIInfo(work=budget.used)
    if budget.stalled:
        info["reason"] = "seconds"
    return AIResult(to_move(move), info)


__all__ = ["Knowledge", "choose", "decide", "hand_strength", "knowledge"]
