"""Chinese Checkers AI: legal moves at every level and table size, and endgames without dawdling."""

from __future__ import annotations

import functools
import random

import pytest

from bot.i18n import Translator
from engines.checkers import Checkers
from engines.checkers import board as B
from engines.checkers.ai import greedy
from engines.checkers.position import Position

G = Checkers()
TR = Translator("en")
TOP = [B.LABELS[h] for h in B.POINTS[3]]  # seat 0's goal with two players
# Seat 1's pieces, far away from the top and out of its own goal: they never get in the way.
FAR = {label: 1 for label in ("a5", "c5", "e5", "g5", "b6", "d6", "f6", "h6", "c7", "e7")}


def check_ai_move(state, seat: int, level: str, rng: random.Random, share: float):
    """The AI's move at `level` with `share` of the level's work (1: the level as it plays), checked legal."""
    move = G.ai(state, seat, level, G.levels[level].scaled(share), rng).move
    legal = {(m.start, m.to) for m in G.legal_moves(state, seat)}
    assert (move.start, move.to) in legal
    text = G.move_text(state, move)
    assert G.parse_move(state, seat, text) == move
    return G.apply(state, seat, move)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_every_level_plays_only_legal_moves(seats, seed):
    """Whole games with the three levels mixed, plus random detours, to the end."""
    rng = random.Random(seats * 10 + seed)
    levels = (["hard", "normal", "easy"] * 3)[seed : seed + seats]
    state = G.new_state({}, seats, seed)
    plies = 0
    while (seat := G.to_move(state)) is not None and plies < 70 * seats:
        if rng.random() < 0.1:  # a random move now and then puts the AI in odd positions
            state = G.apply(state, seat, rng.choice(G.legal_moves(state, seat)))
        else:
            state = check_ai_move(state, seat, levels[seat], rng, 0.03)
        plies += 1
    assert G.outcome(state) is not None  # AIs finish their games


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_ai_moves_are_legal_in_scattered_positions(seats):
    for seed in range(4):
        rng = random.Random(seed)
        state = G.new_state({}, seats, seed)
        for _ in range(rng.randint(10, 40) * seats):
            seat = G.to_move(state)
            state = G.apply(state, seat, rng.choice(G.legal_moves(state, seat)))
        seat = G.to_move(state)
        for level in G.levels:
            check_ai_move(state, seat, level, rng, 0.03)


def test_easy_moves_the_piece_that_goes_farthest():
    state = G.with_board(G.new_state({}, 2, 0), {"m5": 0, "n6": 1, "p8": 1, "p10": 1, "n12": 1, "b6": 0, "a13": 1})
    start, to = greedy(Position(state), 0, random.Random(0))
    assert (B.LABELS[start], B.LABELS[to]) == ("m5", "m13")  # the four-jump chain


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_ai_takes_a_win_at_once(level):
    pieces = {label: 0 for label in TOP if label != "j14"} | {"i13": 0, "m1": 1, "a5": 1, "h12": 1}
    state = G.with_board(G.new_state({}, 2, 0), pieces)
    move = G.ai(state, 0, level, G.levels[level], random.Random(0)).move
    assert B.LABELS[move.to] == "j14"
    assert G.outcome(G.apply(state, 0, move)).winners == (0,)


def test_hard_does_not_hand_the_opponent_a_win():
    # Seat 1 needs one more hole of its goal (seat 0's home) filled by anyone: seat 0 must not step in.
    bottom = [B.LABELS[h] for h in B.POINTS[0]]
    pieces = {label: 1 for label in bottom if label not in ("j4", "l4")} | {"l4": 0, "i5": 0, "m9": 0}
    pieces |= {"m17": 0, "a13": 1}
    state = G.with_board(G.new_state({}, 2, 0), pieces)
    for _ in range(3):
        move = G.ai(state, 0, "hard", G.levels["hard"], random.Random(1)).move
        assert B.LABELS[move.to] != "j4"


# --- endgames ------------------------------------------------------------------------------------
def fewest_moves(state, seat: int, most: int) -> int | None:
    """The fewest moves of `seat` alone that fill its goal (iterative deepening, bounded by `most`;
    every piece outside the goal needs a move of its own)."""
    pos = Position(state)
    goal = pos.goal[seat]

    def search(depth: int, seen: dict) -> bool:
        if pos.filled(seat):
            return True
        if depth == 0 or sum(1 for h in pos.pieces[seat] if not goal[h]) > depth:
            return False
        if seen.get(pos.hash, -1) >= depth:
            return False
        seen[pos.hash] = depth
        for f, t in pos.moves(seat):
            pos.do(seat, f, t)
            found = search(depth - 1, seen)
            pos.undo(seat, f, t)
            if found:
                return True
        return False

    for bound in range(1, most + 1):
        if search(bound, {}):
            return bound
    return None


def moves_to_finish(state, level: str, share: float, limit: int = 20) -> int:
    """Seat 0 (the AI) against a seat 1 that only shuffles far away: how many moves seat 0 needs."""
    rng = random.Random(0)
    count = 0
    while G.outcome(state) is None and count < limit:
        if G.to_move(state) == 0:
            state = check_ai_move(state, 0, level, rng, share)
            count += 1
        else:
            far = [m for m in G.legal_moves(state, 1) if B.ROW[m.to] <= 7 and B.POINT_OF[m.to] != 0]
            state = G.apply(state, 1, far[count % len(far)])
    assert G.outcome(state) is not None and G.outcome(state).winners == (0,)
    return count


@functools.cache
def homebound_positions(count: int, seed: int) -> tuple:
    """Seat 0 with most pieces home and a few a short way off, nothing in their way; with the
    fewest moves that finish (positions needing more than 6 are skipped)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pieces = {label: 0 for label in TOP}
        for label in rng.sample(TOP, rng.randint(2, 3)):
            del pieces[label]
        free = [B.LABELS[h] for h in range(B.SIZE) if 9 <= B.ROW[h] <= 13 and abs(B.COLUMN[h] - 12) <= 6]
        for label in rng.sample(free, 10 - len(pieces)):
            pieces[label] = 0
        state = G.with_board(G.new_state({}, 2, seed), pieces | FAR)
        best = fewest_moves(state, 0, 6)
        if best is not None:
            out.append((state, best))
    return tuple(out)


@pytest.mark.parametrize(("level", "slack"), [("normal", 2), ("hard", 1)])
def test_the_endgame_does_not_dawdle(level, slack):
    """Once its pieces are home-bound the AI finishes in at most one move more than the fewest
    possible, and over six such endgames in at most `slack` moves more in all."""
    extra = []
    for state, best in homebound_positions(6, seed=7):
        used = moves_to_finish(state, level, 0.5)
        assert used <= best + 1, (G.text(G.view(state, None), TR), used, best)
        extra.append(used - best)
    assert sum(extra) <= slack, extra


def test_hard_with_two_players_plans_its_race_home():
    """From its start, the other's pieces out of the way: hard's plan (a beam search over its own
    moves) takes all ten pieces home in at most 32 moves (an alpha-beta over both sides' moves,
    which cannot see that far, takes more)."""
    start = {B.LABELS[h]: 0 for h in B.POINTS[0]}
    state = G.with_board(G.new_state({}, 2, 0), start | FAR)
    assert moves_to_finish(state, "hard", 1.0, limit=60) <= 32


def test_the_easy_level_dawdles_where_the_others_do_not():
    """The yardstick above is not loose: the greedy easy level needs many more moves."""
    positions = homebound_positions(6, seed=7)
    assert sum(moves_to_finish(state, "easy", 1.0) - best for state, best in positions) >= 6


def test_a_standoff_in_the_middle_is_broken():
    """Two pieces of each side stuck in front of each other: the AIs used to sidestep for 30 rounds."""
    pieces = {label: 0 for label in ("m17", "l16", "n16", "k15", "m15", "o15", "n14", "p14", "o7", "p6")}
    pieces |= {label: 1 for label in ("m9", "n8", "n4", "p4", "k3", "m3", "o3", "l2", "n2", "m1")}
    for level in ("normal", "hard"):
        state = G.with_board(G.new_state({}, 2, 0), pieces)
        rng = random.Random(0)
        plies = 0
        while (seat := G.to_move(state)) is not None and plies < 60:
            state = check_ai_move(state, seat, level, rng, 0.5)
            plies += 1
        assert state.end == "goal", G.text(G.view(state, None), TR)


def hard_among_easy(state, hard: int, most: int) -> tuple:
    """Seat `hard` plays hard, the others easy, until it has finished or made `most` moves: the
    state then and its moves."""
    rng = random.Random(0)
    moves = 0
    while hard not in state.finished and moves < most:
        seat = G.to_move(state)
        state = check_ai_move(state, seat, "hard" if seat == hard else "easy", rng, 1.0)
        moves += seat == hard
    return state, moves


def test_hard_at_six_seats_counts_on_the_others_longest_moves():
    """One piece short of home (o11 for k15), no way in within two moves of its own: but seat 1's
    longest move puts down the stone it needs. Hard at six seats expects the others to play their
    longest moves, moves where that stone will serve, and finishes at its second move (a best-reply
    search, fearing the worst of twenty replies, would not)."""
    home = ("p14", "m15", "n14", "l16", "m17", "l14", "o15", "n16", "j14")
    pieces = {label: 0 for label in (*home, "o11")}
    others = ("q13 f10 n8 k13", "p12 g11 u9 o9", "h12 i13 o7 q5", "m11 m5 h6 n6", "r6 r12 j12 k7")
    for seat, labels in enumerate(others, start=1):
        pieces |= {label: seat for label in labels.split()}
    state = G.with_board(G.new_state({}, 6, 0), pieces)
    assert fewest_moves(state, 0, 2) is None  # the others standing still, two moves are not enough
    state, _ = hard_among_easy(state, 0, 2)
    assert 0 in state.finished, G.text(G.view(state, None), TR)


def test_hard_at_six_seats_plans_further_with_the_others_longest_moves():
    """A middle game at six seats (from the bench's games): hard (seat 1) among five easy players
    finishes in 13 moves: it keeps the 80 best boards a round over 8 of its own moves, the others
    playing their longest moves after each (a beam), and so sees ladders further than a depth-first
    search of a few own moves could."""
    seats = (
        "k3 o3 h6 j8 q9 l10 j12 p12 n14 m15",
        "k5 g7 k7 f8 p10 v10 h12 t12 w13 u11",
        "i5 p6 v6 u7 i9 s9 g11 n12 c13 i13",
        "n2 p4 s5 d10 h10 k11 o11 r12 m13 l16",
        "c5 g5 m5 q5 u5 b6 d8 t10 w11 q13",
        "r6 o7 r8 v8 m9 e11 s11 d12 g13 u13",
    )
    pieces = {label: seat for seat, labels in enumerate(seats) for label in labels.split()}
    state = G.with_board(G.new_state({}, 6, 0), pieces, turn=1)
    state, moves = hard_among_easy(state, 1, 20)
    assert 1 in state.finished and moves <= 14, (moves, G.text(G.view(state, None), TR))


def test_hard_at_six_seats_does_not_hold_the_door_for_another():
    """A middle game at six seats (from the bench's games): seat 3's goal, hard's start point,
    is full but for two holes, and hard's m3 is one of its stones (a goal full of anyone's pieces,
    one of them its owner's, counts). Racing on, hard let seat 3 finish two rounds later and came
    second; it now puts the ways on which another finishes first after all others, keeps a hole
    of that goal open and finishes first."""
    seats = (
        "m3 k7 m9 u9 l12 l14 n14 p14 l16 n16",
        "g5 m5 b6 i7 d8 m11 w11 v12 x12 u13",
        "n4 q5 v6 m7 v8 o9 d10 g11 i11 e13",
        "m1 l2 n2 j4 l4 p4 g9 e11 k11 q13",
        "d6 f6 h8 f10 q11 s11 g13 i13 s13 k15",
        "o5 j6 o7 q7 q9 s9 b12 d12 f12 m13",
    )
    pieces = {label: seat for seat, labels in enumerate(seats) for label in labels.split()}
    state = G.with_board(G.new_state({}, 6, 0), pieces)
    state, _ = hard_among_easy(state, 0, 20)
    assert state.finished[:1] == (0,), G.text(G.view(state, None), TR)
