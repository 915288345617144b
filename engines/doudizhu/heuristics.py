"""Normal's judgement of a Dou Dizhu move, from what its seat knows: every candidate scored by the split
of what would be left, the cards seen (which plays nobody can beat), bombs kept for when they matter,
the partner helped as a farmer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engines.doudizhu.cards import BLACK_JOKER, RANKS, RED_JOKER, Counts
from engines.doudizhu.knowledge import Knowledge
from engines.doudizhu.plan import HAND_COST, Plan, minus, plan
from engines.doudizhu.rules import BOMB, PAIR, ROCKET, SINGLE, Combo, Play, answers, classify, has_answer


def can_be_beaten(me: Knowledge, combo: Combo) -> bool:
    """Whether the cards we have not seen hold an answer (our partner's cards count too: we don't know them)."""
    return has_answer(me.unseen, combo)


def enemy_min_cards(me: Knowledge) -> int:
    return min((me.counts[s] for s in me.enemies()), default=20)


def safe_groups(me: Knowledge, groups: Sequence[Play]) -> list[Play]:
    return [g for g in groups if not can_be_beaten(me, g.combo)]


def wasteful(me: Knowledge, play: Play | None) -> bool:
    """A play good players avoid (a style error; bench/doudizhu.py counts them the same way):
    - the rocket broken: one joker beats a single while we hold both;
    - the rocket or a bomb led while two or more plays of the rest can still be beaten: the lead comes
      back to us with the same problem, the stake doubled;
    - a bomb or the rocket spent while two or more plays remain and every enemy holds more than 4 cards.
    Going out with it is never wasteful."""
    if play is None:
        return False
    combo = play.combo
    hand = me.hand
    if (me.trick is not None and me.trick[1].kind == SINGLE and combo.kind == SINGLE
            and combo.rank >= BLACK_JOKER and hand[BLACK_JOKER] and hand[RED_JOKER]):
        return True
    if combo.kind not in (BOMB, ROCKET):
        return False
    rest = split_after(hand, play)
    if rest is None or rest.hands < 2:
        return False
    if me.trick is None and sum(1 for g in rest.groups if can_be_beaten(me, g.combo)) >= 2:
        return True
    return enemy_min_cards(me) > 4


Candidate = TypeVar("Candidate", bound=Play | None)


def calm(me: Knowledge, plays: Sequence[Candidate]) -> list[Candidate]:
    """`plays` without the wasteful ones (all of them if every one is)."""
    kept = [p for p in plays if not wasteful(me, p)]
    return kept or list(plays)


def finishing_order(me: Knowledge, split: Plan) -> Play | None:
    """The last group; or, if every group but one is unbeatable, an unbeatable one now (the last goes at the end)."""
    if split.hands == 1:
        return split.groups[0]
    safe = safe_groups(me, split.groups)
    if split.hands - len(safe) <= 1 and safe:
        # Non-bombs first (bombs double the stake only when they are needed later anyway: play them last but one).
        safe.sort(key=lambda g: (g.combo.kind in (BOMB, ROCKET), -g.combo.size))
        return safe[0]
    return None


def split_after(hand: Counts, play: Play) -> Plan | None:
    rest = minus(hand, play.counts)
    return plan(rest) if any(rest) else None


def _lead_candidates(me: Knowledge, split: Plan) -> list[Play]:
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
    partner = me.partner()
    if partner is not None and me.counts[partner] <= 2:
        # Our partner is about to go out: our lowest single or pair, even from a bigger group, is a candidate.
        width = me.counts[partner]
        for rank in range(RANKS):
            if me.hand[rank] >= width:
                counts = tuple(width if i == rank else 0 for i in range(RANKS))
                if counts not in seen:
                    seen.add(counts)
                    out.append(Play(Combo(SINGLE if width == 1 else PAIR, rank, 1, width), counts))
                break
    return out


def score_lead(me: Knowledge, play: Play, base: float) -> float:
    rest = split_after(me.hand, play)
    if rest is None:
        return 1000.0
    score = rest.score + HAND_COST  # leading uses our turn: we get one hand back
    combo = play.combo
    enemy_min = enemy_min_cards(me)
    partner = me.partner()
    beatable = can_be_beaten(me, combo)
    if not beatable:
        score += 3.0  # we keep the lead
    if combo.kind in (BOMB, ROCKET):
        score -= 12.0
    score += 0.3 * combo.size
    if enemy_min <= 2 and combo.kind in (SINGLE, PAIR) and combo.size == enemy_min and beatable:
        score -= 25.0 - combo.rank
    if partner is not None:
        pc = me.counts[partner]
        if pc <= 2 and combo.kind in (SINGLE, PAIR) and combo.size == pc:
            score += 14.0 - 0.5 * combo.rank  # a small one our partner can beat to go out
    return score


def normal_lead(me: Knowledge) -> Play:
    split = plan(me.hand)
    finish = finishing_order(me, split)
    if finish is not None:
        return finish
    candidates = calm(me, _lead_candidates(me, split))
    return max(candidates, key=lambda p: score_lead(me, p, split.score))


def follow_scores(me: Knowledge) -> list[tuple[float, Play | None]]:
    """Every answer (and passing) with normal's score, best first."""
    assert me.trick is not None
    owner, previous = me.trick
    split = plan(me.hand)
    partner = me.partner()
    options = answers(me.hand, previous)
    enemy_min = enemy_min_cards(me)
    owner_is_enemy = owner != partner
    scored: list[tuple[float, Play | None]] = []
    # An enemy with a card or two may go out on a single or a pair: answer it with what it cannot beat
    # (or the highest we have), and as the farmer before the landlord, overtake a partner's play it can beat.
    danger = previous.kind in (SINGLE, PAIR) and any(previous.size <= me.counts[e] <= 2 for e in me.enemies())
    guard = (danger and not owner_is_enemy and me.next_seat() == me.landlord
             and me.counts[me.landlord] >= previous.size and can_be_beaten(me, previous))
    # Passing keeps the hand as it is; it costs more the nearer the player of the trick is to going out.
    pass_score = split.score
    if owner_is_enemy:
        pass_score -= max(0, 6 - me.counts[owner]) * 6.0
        if me.landlord == me.seat:
            pass_score -= 2.0
    elif guard:
        pass_score -= 20.0
    else:
        pass_score += 6.0
    scored.append((pass_score, None))
    for play in options:
        if wasteful(me, play):
            continue
        rest = split_after(me.hand, play)
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
        unbeatable = not can_be_beaten(me, combo)
        if unbeatable:
            score += 4.0
        if danger and combo.kind not in (BOMB, ROCKET):
            score += 20.0 if unbeatable else 1.0 * combo.rank
        if not owner_is_enemy and not guard:
            score -= 12.0 + 2.0 * previous.rank  # don't overtake a partner's play
        scored.append((score, play))
    scored.sort(key=lambda item: -item[0])
    return scored


def normal_follow(me: Knowledge) -> Play | None:
    return follow_scores(me)[0][1]


def ranked_moves(me: Knowledge) -> list[tuple[float, Play | None]]:
    """The candidates with normal's scores, best first (a finishing order alone if there is one)."""
    if me.trick is None:
        split = plan(me.hand)
        finish = finishing_order(me, split)
        if finish is not None:
            return [(1000.0, finish)]
        return sorted(((score_lead(me, p, split.score), p) for p in calm(me, _lead_candidates(me, split))),
                      key=lambda item: -item[0])
    return follow_scores(me)
