"""The Dou Dizhu AI: always legal, sensible bids, cooperation, exact endgames, hidden information kept."""

from __future__ import annotations

import hashlib
import math
import random

from engines.base import Limit
from engines.budget import Budget
from engines.doudizhu import DouDizhu, Move, State, ai
from engines.doudizhu.bidding import BID_THRESHOLDS, hand_strength
from engines.doudizhu.cards import BLACK_JOKER, RED_JOKER, TWO, counts_of_cards, parse_ranks, ranks_of_counts
from engines.doudizhu.endgame import Verdict, endgame
from engines.doudizhu.heuristics import ranked_moves
from engines.doudizhu.knowledge import PASS_WEIGHT, knowledge, sample_worlds, world_weight
from engines.doudizhu.levels import LEVELS
from engines.doudizhu.plan import HAND_COST, _search, group_value, plan
from engines.doudizhu.players import power_player, random_player, rule_player
from engines.doudizhu.policies import eager_follow, fast_follow
from engines.doudizhu.rules import Play, classify
from engines.doudizhu.solver import Solver
from engines.doudizhu.state import PASS
from tests.engines.test_doudizhu import cards, reshuffled

GAME = DouDizhu()


def think(state: State, seat: int, level: str, share: float, rng: random.Random) -> Move:
    """The AI's move at `level`, with `share` of the level's work (1: the level as it plays)."""
    return GAME.ai(state, seat, level, GAME.levels[level].scaled(share), rng).move


def play_out(state: State, chooser, rng: random.Random, limit: int = 500) -> tuple[State, int]:
    """Play `state` to the end, every move checked by the engine; returns the end and the number of moves."""
    steps = 0
    while (seat := GAME.to_move(state)) is not None and steps < limit:
        move = chooser(state, seat, rng)
        assert move in GAME.legal_moves(state, seat)
        again = GAME.parse_move(state, seat, GAME.move_text(state, move))
        assert again == move
        state = GAME.apply(state, seat, move)
        steps += 1
    return state, steps


def scrambled_start(seed: int, rng: random.Random) -> State:
    """A game a few random legal moves in, so the AI meets all kinds of positions."""
    state = GAME.new_state({"mode": "call" if seed % 4 == 0 else "points"}, 3, seed)
    for _ in range(rng.randint(0, 12)):
        seat = GAME.to_move(state)
        if seat is None:
            break
        moves = GAME.legal_moves(state, seat)
        if state.landlord is None:
            moves = [m for m in moves if m != PASS] or moves
        state = GAME.apply(state, seat, rng.choice(moves))
    return state


def test_easy_and_benchmark_players_are_always_legal() -> None:
    players = {
        "easy": lambda s, seat, rng: think(s, seat, "easy", 1.0, rng),
        "random": lambda s, seat, rng: random_player(GAME.view(s, seat), rng),
        "rule": lambda s, seat, rng: rule_player(GAME.view(s, seat), rng),
        "power": lambda s, seat, rng: power_player(GAME.view(s, seat), rng),
    }
    total = 0
    for seed in range(120):
        rng = random.Random(seed)
        name = ("easy", "random", "rule", "power")[seed % 4]
        end, steps = play_out(scrambled_start(seed, rng), players[name], rng)
        assert GAME.outcome(end) is not None
        total += steps
    assert total > 4000


def test_normal_is_always_legal() -> None:
    total = 0
    for seed in range(24):
        rng = random.Random(seed)
        end, steps = play_out(scrambled_start(seed, rng), lambda s, seat, r: think(s, seat, "normal", 1.0, r), rng)
        assert GAME.outcome(end) is not None
        total += steps
    assert total > 700


def test_hard_is_legal_and_keeps_to_a_small_budget() -> None:
    rng = random.Random(1)
    decisions = 0
    for seed in range(40):
        state = scrambled_start(1000 + seed, rng)
        # walk on with the fast level to a random point, then ask the hard level once
        for _ in range(rng.randint(0, 40)):
            seat = GAME.to_move(state)
            if seat is None:
                break
            state = GAME.apply(state, seat, think(state, seat, "easy", 0.1, rng))
        seat = GAME.to_move(state)
        if seat is None:
            continue
        limit = GAME.levels["hard"].scaled(0.1)
        result = GAME.ai(state, seat, "hard", limit, rng)
        assert result.info["work"] <= limit.work + 6 * 200  # the last playout world may run over
        assert result.move in GAME.legal_moves(state, seat)
        decisions += 1
    assert decisions >= 25


def test_endgames_are_legal() -> None:
    """Small hands reach the exact solver; its moves are legal too."""
    rng = random.Random(5)
    for i in range(40):
        deck = rng.sample(range(54), 14)
        hands = (tuple(sorted(deck[:6])), tuple(sorted(deck[6:10])), tuple(sorted(deck[10:14])))
        gone = tuple(c for c in range(54) if c not in deck)  # the rest was played earlier
        state = State("points", 1, 0, hands, hands[0][:3], 0, (1,), 0, 1, ((0, gone), (1, ()), (2, ())))
        level = ("normal", "hard")[i % 2]
        end, _ = play_out(state, lambda s, seat, r, lv=level: think(s, seat, lv, 0.1, r), rng)
        assert GAME.outcome(end) is not None


def test_the_ai_sees_only_its_own_view() -> None:
    rng = random.Random(2)
    for seed in range(20):
        state = scrambled_start(seed, rng)
        seat = GAME.to_move(state)
        if seat is None:
            continue
        other = reshuffled(state, seat, rng)
        for level in ("easy", "normal"):
            assert think(state, seat, level, 1.0, random.Random(seed)) == think(
                other, seat, level, 0.2, random.Random(seed))
            limit = Limit(1, 0.2)
            assert ai.choose(state, seat, level, limit, random.Random(seed)) == ai.decide(
                GAME.view(other, seat), level, limit, random.Random(seed))


# --- judgement ------------------------------------------------------------------------------------


def view_of(state: State, seat: int) -> dict:
    return GAME.view(state, seat)


def test_hopeless_hands_never_bid_and_strong_hands_bid_three() -> None:
    rng = random.Random(0)
    hopeless = cards("3 4 6 7 9 10 Q K 3 4 6 7 9 10 Q 5 8")  # no card above K, nothing that connects
    strong = cards("BJ RJ 2 2 2 2 A A K K Q Q J J 10 9 8")
    used = set(hopeless) | set(strong)
    rest = [c for c in range(54) if c not in used]
    state = State("points", 1, 0, (hopeless, strong, tuple(rest[:17])), tuple(rest[17:]), 0)
    assert hand_strength(counts_of_cards(hopeless)) < BID_THRESHOLDS[0] - 4  # below even easy's noise
    for level in ("easy", "normal", "hard"):
        assert think(state, 0, level, 1.0, rng) == PASS
    state = GAME.apply(state, 0, PASS)
    for level in ("normal", "hard"):
        assert think(state, 1, level, 1.0, rng).bid == 3
    # over many deals the AI bids on some hands and passes on others, never on a hand weaker than the weakest bid
    bids = 0
    for seed in range(200):
        hand = GAME.new_state({}, 3, seed).hands[0]
        s = State("points", 1, 0, (hand, (), ()), (), 0)
        move = think(s, 0, "normal", 1.0, rng)
        strength = hand_strength(counts_of_cards(hand))
        assert (move != PASS) == (strength >= BID_THRESHOLDS[0])
        bids += move != PASS
    assert 20 < bids < 180


def endgame_state(hands_text: tuple[str, str, str], moves: tuple[tuple[int, str], ...] = ()) -> State:
    """A late position: seat 0 is the landlord; every card in no hand has been played already
    (recorded as one early play of seat 0 followed by two passes), then `moves` are played."""
    used: set[int] = set()
    hands = tuple(cards(text, used) for text in hands_text)
    gone = tuple(c for c in range(54) if c not in used)
    state = State("points", 1, 0, hands, hands[0][:3], 0, (1,), 0, 1, ((0, gone), (1, ()), (2, ())))
    for seat, text in moves:
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, text))
    return state


def test_farmer_passes_on_partners_winning_play() -> None:
    # The landlord led a 3, farmer 1 beat it with a king: farmer 2 keeps its ace.
    state = endgame_state(("3 4 5 6 8 9 9", "K 7 7 Q", "A 10 10 J"), ((0, "3"), (1, "K")))
    assert GAME.to_move(state) == 2
    for level in ("easy", "normal", "hard"):
        assert think(state, 2, level, 1.0, random.Random(0)) == PASS


def test_lead_what_the_partner_can_beat() -> None:
    # Farmer 2 has one card left; farmer 1 leads a single for it rather than its trio (the landlord
    # would beat the trio with its kings and keep the lead).
    state = endgame_state(("5 6 7 8 9 J Q K K K 2", "3 3 3 4 10 A", "BJ"), ((0, "J"), (1, "A"), (2, "pass"),
                                                                          (0, "pass")))
    assert GAME.to_move(state) == 1
    for level in ("normal", "hard"):
        move = think(state, 1, level, 1.0, random.Random(0))
        assert len(move.ranks) == 1, GAME.move_text(state, move)


def test_farmer_before_the_landlord_overtakes_what_it_could_beat_to_go_out() -> None:
    # The landlord (seat 0, next after farmer 2) has one card, a K; farmer 1's 9 leads the trick. Farmer 2
    # puts its 2 on it (nobody can beat a 2 any more) rather than let its partner's 9 stand. 26 cards are
    # left: normal's heuristics decide.
    state = endgame_state(("5 K", "9 3 4 6 8 10 J Q 3 4 6 8 10", "3 3 4 4 5 5 6 6 7 7 7 2 2"),
                          ((0, "5"), (1, "9")))
    assert GAME.to_move(state) == 2 and sum(len(h) for h in state.hands) > 24
    assert think(state, 2, "normal", 1.0, random.Random(0)).ranks == (TWO,)


def test_normal_plays_out_its_candidates_in_the_middle_game() -> None:
    """The landlord (10 cards: 5, 8 to K, A A A, RJ) meets a farmer's 3 3 3 with 33 cards left in all. Its split
    scores A A A + 5 as one hand, so the trio alone leaves the 5 behind and the heuristics pass (-8 against
    -11). Nobody can beat A A A: it takes the lead, the straight follows, then the red joker and the 5. Normal
    plays its candidates out in worlds of the unseen cards (from 34 cards left) and takes the trick."""
    state = endgame_state(("4 5 8 9 10 J Q K A A A RJ", "3 3 3 4 4 5 6 7 7 8 10 10 J J Q",
                           "9 9 J Q K K A 2 2 BJ 6"),
                          ((0, "4"), (1, "6"), (2, "pass"), (0, "pass"), (1, "3 3 3"), (2, "pass")))
    assert GAME.to_move(state) == 0 and 24 < sum(len(h) for h in state.hands) <= 34
    me = knowledge(GAME.view(state, 0))
    assert ranked_moves(me)[0][1] is None  # the heuristics alone pass
    for seed in range(3):
        move = think(state, 0, "normal", 1.0, random.Random(seed))
        assert move.ranks == (11, 11, 11), GAME.move_text(state, move)


def test_plan_splits_into_legal_plays() -> None:
    rng = random.Random(3)
    for _ in range(300):
        hand = counts_of_cards(rng.sample(range(54), rng.randint(1, 20)))
        split = plan(hand)
        total = [0] * 15
        for group in split.groups:
            assert classify(group.counts) == group.combo
            total = [a + b for a, b in zip(total, group.counts, strict=True)]
        assert tuple(total) == hand and split.hands == len(split.groups)
    # a straight and a rocket: two hands, not seven
    assert plan(counts_of_cards(cards("3 4 5 6 7 BJ RJ"))).hands == 2


def test_the_splits_of_1000_random_hands_are_pinned() -> None:
    """The search of splits adds up the scores alone and makes the groups of the best split only (hard's
    playouts split thousands of sampled hands a move); the splits, to the order of the groups, are pinned
    by the digest of 1,000 random hands' splits (made with a search that built every split's groups)."""
    rng = random.Random(5)
    digest = hashlib.sha256()
    for _ in range(1000):
        split = _search(counts_of_cards(rng.sample(range(54), rng.randint(1, 20))))
        assert split.score == sum(group_value(g.combo) for g in split.groups) - HAND_COST * split.hands
        digest.update(repr(split).encode())
    assert digest.hexdigest()[:12] == "1e71e0687207"


def test_exact_endgame_finds_the_forced_win() -> None:
    """Wherever one move wins against every way the unseen cards can lie, normal and hard play such a move."""
    rng = random.Random(11)
    found = 0
    for _ in range(80):
        deck = rng.sample(range(54), 11)
        used = set(deck)
        hands = (tuple(sorted(deck[:5])), tuple(sorted(deck[5:8])), tuple(sorted(deck[8:11])))
        gone = tuple(c for c in range(54) if c not in used)
        state = State("points", 1, 0, hands, hands[0][:3], 0, (1,), 0, 1, ((0, gone), (1, ()), (2, ())))
        me = knowledge(GAME.view(state, 0))
        worlds = [world for world, _ in sample_worlds(me, 100, rng)]
        assert len(worlds) <= 20  # every way 6 unseen cards can split 3 + 3
        always = []
        moves = GAME.legal_moves(state, 0)
        for move in moves:
            counts = ranks_to_counts(move.ranks)
            play = Play(classify(counts), counts)
            if all(Solver(0, Budget(Limit(10**6, math.inf))).after(w, 0, None, play) for w in worlds):
                always.append(move)
        if not always or len(always) == len(moves):
            continue
        found += 1
        for level in ("normal", "hard"):
            assert think(state, 0, level, 1.0, rng) in always
    assert found >= 5


def test_endgames_of_24_cards_are_solved_within_normal_s_work() -> None:
    """With 24 cards left in all, the landlord on 4 of them (someone near going out: where the endgames that
    matter start), normal's exact endgame answers (a move, or "lost") within its 30,000 units in most positions,
    and spends no more than them."""
    rng = random.Random(7)
    answered = 0
    for _ in range(8):
        deck = rng.sample(range(54), 24)
        hands = (tuple(sorted(deck[:4])), tuple(sorted(deck[4:14])), tuple(sorted(deck[14:])))
        gone = tuple(c for c in range(54) if c not in deck)
        state = State("points", 1, 0, hands, hands[0][:3], 0, (1,), 0, 1, ((0, gone), (1, ()), (2, ())))
        me = knowledge(GAME.view(state, 0))
        budget = Budget(Limit(GAME.levels["normal"].work, math.inf))
        found = endgame(me, rng, LEVELS["normal"], budget)
        assert budget.used <= GAME.levels["normal"].work
        answered += found.verdict is not Verdict.UNKNOWN
    assert answered >= 5


def test_worlds_are_weighed_by_the_passes_seen() -> None:
    """The landlord led a 5 and farmer 1 passed: a deal of the unseen cards that gives farmer 1 a higher single
    (a plain answer it let go) counts PASS_WEIGHT, one without counts fully; farmer 1's pass on its partner's
    6 says nothing. Sampled worlds follow the weights."""
    state = endgame_state(("5 8 8 9", "4 4 K", "3 3 6"), ((0, "5"), (1, "pass"), (2, "6"), (0, "pass"), (1, "pass")))
    me = knowledge(GAME.view(state, 0))
    assert [(seat, combo.kind, combo.rank) for seat, combo, _ in me.passes] == [(1, "single", 2)]
    weights = {ranks_of_counts(world[1]): weight for world, weight in sample_worlds(me, 100, random.Random(0))}
    assert weights[ranks_of_counts(counts_of_cards(cards("3 3 4")))] == 1.0
    assert weights[ranks_of_counts(counts_of_cards(cards("4 4 K")))] == PASS_WEIGHT  # the true deal: a K kept
    assert len(weights) == 5  # every 3 of 3 3 4 4 K: 334, 33K, 344, 34K, 44K
    # sampled: farmer 1 let the landlord's K go; uniformly it would hold no A or 2 in 23% of the deals
    # (C(12,7)/C(14,7)), weighed in about 60% (0.23 against 0.77 x 0.2)
    state = endgame_state(("K 3 4 5 6 7 8 9", "J Q 10 10 9 9 8", "A 2 J Q 5 6 7"), ((0, "K"), (1, "pass")))
    me = knowledge(GAME.view(state, 0))
    sample = sample_worlds(me, 60, random.Random(1))
    assert len(sample) == 60
    plain = sum(world_weight(me, world) == 1.0 for world, _ in sample)
    assert 25 <= plain <= 50


def ranks_to_counts(ranks: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * 15
    for r in ranks:
        counts[r] += 1
    return tuple(counts)


def test_ranks_round_trip_helper() -> None:
    assert ranks_of_counts(ranks_to_counts((0, 0, 5))) == (0, 0, 5)


def test_hundreds_of_games_without_one_illegal_play() -> None:
    """300 whole games from varied starts (bidding included; about 10,000 moves), each seat easy,
    normal or the rule player at random: every AI move reads back from its text and the engine accepts
    it (apply refuses anything illegal). 300, because normal's exact endgames from 24 cards make its
    moves dear. The hard level's legality is the test above, and the
    engine checks every move of bench/doudizhu's matches (thousands of games at each level)."""
    levels = ("easy", "normal", "rule")
    games = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = GAME.new_state({"mode": "call" if seed % 5 == 0 else "points"}, 3, seed)
        seats = [rng.choice(levels) for _ in range(3)]
        while (seat := GAME.to_move(state)) is not None:
            view = GAME.view(state, seat)
            move = rule_player(view, rng) if seats[seat] == "rule" else think(state, seat, seats[seat], 1.0, rng)
            state = GAME.apply(state, seat, GAME.parse_move(state, seat, GAME.move_text(state, move)))
        games += GAME.outcome(state) is not None
    assert games == 300


# --- style: plays good players avoid (bench/doudizhu.py counts them in whole games) ------------------


def joker_alone(move: Move) -> bool:
    return len(move.ranks) == 1 and move.ranks[0] in (BLACK_JOKER, RED_JOKER)


def test_the_rocket_is_not_broken_to_beat_a_single() -> None:
    """Holding both jokers, a farmer answers the landlord's 2 with the rocket or passes, never with one joker."""
    places = [
        # many cards left: the heuristics (and hard's playouts) decide
        endgame_state(("2 3 4 5 6 8 9 10 10", "BJ RJ 3 5 7 9 J", "4 6 8 10 Q K A"), ((0, "2"),)),
        endgame_state(("2 3 4 5 6 8 9 10 10", "BJ RJ 3 5 7 9 J", "4 6 8 10 Q K A"), ((0, "2"), (1, "pass"))),
        # the landlord about to go out: the exact endgame decides
        endgame_state(("2 3 4", "BJ RJ 5 7 9", "6 8 10 Q"), ((0, "2"),)),
        endgame_state(("2 6 4 4 8 8 J J", "BJ RJ 5 7 9 9 Q Q", "3 6 8 10 A A K"), ((0, "2"),)),
    ]
    for state in places:
        seat = GAME.to_move(state)
        for level in ("normal", "hard"):
            for seed in range(3):
                move = think(state, seat, level, 1.0, random.Random(seed))
                assert not joker_alone(move), (level, GAME.move_text(state, move))


def test_the_rocket_is_not_led_when_a_single_must_follow_anyway() -> None:
    """Farmer with 5 7 9 J Q K BJ RJ, the landlord (next to play) on one card: leading the rocket only
    doubles the stake (the farmer leads again with the same singles)."""
    moves = ((0, "3 3"), (1, "pass"), (2, "4 4"), (0, "pass"), (1, "pass"))
    places = [
        endgame_state(("3 3 8", "Q K 2", "4 4 5 7 9 J Q K BJ RJ"), moves),  # 12 cards: solved exactly
        endgame_state(("3 3 10", "4 6 10 Q A", "4 4 5 7 9 J Q K BJ RJ"), moves),
        endgame_state(("3 3 8", "3 5 8 J Q K A 2", "4 4 5 7 9 J Q K BJ RJ"), moves),  # 17: normal's heuristics
        endgame_state(("3 3 A", "6 6 8 8 10 10 2 2 Q 9 7 5", "4 4 5 7 9 J Q K BJ RJ"), moves),  # heuristics
    ]
    for state in places:
        assert GAME.to_move(state) == 2 and len(state.hands[0]) == 1
        for level in ("normal", "hard"):
            for seed in range(3):
                move = think(state, 2, level, 1.0, random.Random(seed))
                assert set(move.ranks) != {BLACK_JOKER, RED_JOKER}, level


def test_no_bomb_is_spent_early() -> None:
    """Two plays or more remain and every enemy holds more than 4 cards: a bomb is neither spent on a
    single nor led."""
    follow = [endgame_state(("3 4 6 8 10 J Q K A 9", rest, "4 5 6 10 J Q K A"), ((0, "9"),))
              for rest in ("3 3 5 6 8 7 7 7 7", "3 3 5 7 7 7 7", "3 5 7 7 7 7")]
    lead = endgame_state(("3 4 6 8 10 J Q K A 9", "7 7 7 7 3 5 9 J", "4 5 6 10 Q K A"),
                         ((0, "3"), (1, "5"), (2, "pass"), (0, "pass")))
    for state in (*follow, lead):
        seat = GAME.to_move(state)
        assert seat == 1
        for level in ("normal", "hard"):
            for seed in range(3):
                move = think(state, seat, level, 1.0, random.Random(seed))
                assert move.ranks != (4, 4, 4, 4), level


def test_hard_s_playouts_answer_an_enemy_whenever_they_can_without_a_bomb() -> None:
    """In hard's playouts a seat answers an enemy's single with its lowest single even from a straight (the
    fast policy plays only its split's groups, so it passes); never with a bomb or one joker of the rocket,
    never over its partner. Normal's playouts keep the fast policy."""
    straight = counts_of_cards(cards("3 4 5 6 7 K K", set()))
    split = plan(straight)
    ten = classify(counts_of_cards(cards("10", set())))
    assert ten is not None
    assert fast_follow(straight, split, ten, False, False, 7) is None
    move = eager_follow(straight, split, ten, False, False, 7)
    assert move is not None and ranks_of_counts(move.counts) == (10,)  # the lowest answer: a K of the pair
    assert eager_follow(straight, split, ten, True, False, 7) is None  # the partner's play
    bomb_and_rocket = counts_of_cards(cards("3 4 5 6 7 9 9 9 9 BJ RJ", set()))
    assert eager_follow(bomb_and_rocket, plan(bomb_and_rocket), ten, False, False, 11) is None
    assert LEVELS["hard"].eager and not LEVELS["normal"].eager


def test_power_player_leads_its_longest_combination_and_answers_every_enemy_play() -> None:
    """The bench's opponent of another style: the longest lead (bombs kept), the lowest answer of the kind,
    the strongest against an enemy about to go out, a bomb when it has no answer of the kind."""
    used: set[int] = set()
    hands = (cards("3 4 5 6 7 9 9 9 J Q Q Q Q", used), cards("3 4 4 8 K K A 2", used), cards("5 5 6 6", used))
    rng = random.Random(1)

    def move(seat: int, last: str = "", hand: tuple[int, ...] | None = None) -> list[int]:
        """`seat`'s move after the landlord (seat 0, holding `hand`) played `last` (or leads)."""
        mine = list(hands)
        mine[0] = hands[0] if hand is None else hand
        played = cards(last, set(used)) if last else ()
        gone = tuple(c for c in range(54) if c not in used and c not in played)
        plays = ((0, gone), (1, ()), (2, ())) + (((0, played),) if played else ())
        state = State("points", 1, 0, tuple(mine), mine[0][:3], 0, (1,), 0, 1, plays)
        return sorted(power_player(GAME.view(state, seat), rng).ranks)

    assert move(0) == sorted(parse_ranks("3 4 5 6 7") or ())  # the straight (five cards, the lowest rank of them)
    assert move(1, "6") == [parse_ranks("8")[0]]  # the lowest single above it
    assert move(1, "10 10") == sorted(parse_ranks("K K") or ())
    assert move(1, "3 4 5 6 7") == []  # no answer of the kind and no bomb: a pass
    near = cards("3 9", set(used))  # the landlord down to two cards: the strongest single
    assert move(1, "6", near) == [parse_ranks("2")[0]]
