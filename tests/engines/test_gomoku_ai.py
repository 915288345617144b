"""The gomoku AI in positions built for it: it never misses a five, blocks fours (and, from hard up,
open threes), finds long VCF wins within its budget, breaks the opponent's VCF, and only ever plays
legal moves."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

import pytest

from bench.gomoku import by_opening, opening
from engines import budget
from engines.base import Limit
from engines.budget import Budget, OutOfWork
from engines.gomoku import Gomoku, Point, State
from engines.gomoku.ai import _hold_out, _refutations, choose
from engines.gomoku.board import geometry
from engines.gomoku.levels import LEVELS as SETTINGS
from engines.gomoku.players import move as player_move
from engines.gomoku.position import BIT_B4, BIT_F3, VALUE, Position
from engines.gomoku.search import Searcher
from tests.engines.gomoku_positions import position

GAME = Gomoku()
LEVELS = ("easy", "medium", "hard", "master")


def replay(record: str, rule: str = "freestyle") -> State:
    state = GAME.new_state({"size": 15, "rule": rule}, 2, 0)
    for text in record.split():
        state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, text))
    return state


def ai(state: State, level: str, work: int | None = None, seed: int = 1) -> str:
    """The move of `level` (its own node budget unless `work` is given); the clock stands still, so the
    wall-clock safety net never cuts a search short however busy the machine is."""
    limit = GAME.levels[level] if level in GAME.levels else Limit(1, 1.0)
    if work is not None:
        limit = Limit(work, limit.seconds)
    return player_move(state, state.turn, level, limit, random.Random(seed), clock=lambda: 0.0).move.name


def searcher(pos: Position, work: int = 1 << 62) -> Searcher:
    """The searches of the hard level on `pos`, within `work` nodes."""
    return Searcher(pos, SETTINGS["hard"], Budget(Limit(work, math.inf)))


def ai_position(state: State) -> tuple[Position, int]:
    geo = geometry(state.size)
    stones = [(geo.index(p.col, p.row), 1 + i % 2) for i, p in enumerate(state.moves)]
    return Position(state.size, state.rule, stones), 1 + state.turn


# --- win in one, block a four ---------------------------------------------------------------------

WIN_IN_ONE = [
    # (black, white, to move, the only winning points)
    (["d8", "e8", "f8", "g8"], ["c8", "h12", "i12", "j3"], 0, {"h8"}),  # a closed four: one point
    (["e8", "f8", "h8", "i8"], ["d8", "j8", "l3", "c12"], 0, {"g8"}),  # a broken four: the gap
    (["m3", "l4", "k5", "j6"], ["n2", "h12", "c3", "d12"], 0, {"i7"}),  # diagonal, the other end blocked
    (["h3", "h4", "h5", "h6", "c3"], ["h7", "g9", "g10", "g11", "g12"], 1, {"g8", "g13"}),  # white's open four
    (["d4", "e4", "f4", "g4", "d10"], ["c4", "e10", "f10", "g10", "h10"], 0, {"h4"}),  # five first, not the block
]


@pytest.mark.parametrize("level", [*LEVELS, "oneply"])
@pytest.mark.parametrize(("black", "white", "to_move", "wins"), WIN_IN_ONE)
def test_never_misses_a_win_in_one(level: str, black: list[str], white: list[str], to_move: int, wins: set) -> None:
    state = position(black, white, to_move=to_move)
    move = ai(state, level, 8_000 if level in ("hard", "master") else None)
    after = GAME.apply(state, to_move, GAME.parse_move(state, to_move, move))
    assert GAME.outcome(after) is not None and GAME.outcome(after).winners == (to_move,), (level, move)


BLOCK_FOUR = [
    (["d8", "e8", "f8", "g8", "b2"], ["c8", "h10", "j10", "l12"], 1, "h8"),  # white must block h8
    (["e5", "f6", "h8", "i9"], ["d4", "h12", "j12", "l12", "b3"], 1, "g7"),  # a broken diagonal four
    (["h12", "j12", "l12", "c3"], ["h5", "h6", "h7", "h8"], 0, None),  # white's open four: block one end
]


@pytest.mark.parametrize("level", [*LEVELS, "oneply"])
@pytest.mark.parametrize(("black", "white", "to_move", "block"), BLOCK_FOUR)
def test_always_blocks_a_four(level: str, black: list[str], white: list[str], to_move: int, block: str | None) -> None:
    state = position(black, white, to_move=to_move)
    pos, c = ai_position(state)
    threats = {Point(*pos.geo.colrow(q)).name for q in pos.fives(3 - c)}
    assert threats and (block is None or threats == {block})
    move = ai(state, level, 8_000 if level in ("hard", "master") else None)
    if len(threats) == 1:
        assert move in threats
    after = GAME.apply(state, to_move, GAME.parse_move(state, to_move, move))
    pos, _ = ai_position(after)
    assert len(pos.fives(3 - c)) < len(threats)


# --- open threes ------------------------------------------------------------------------------------------

OPEN_THREES = [
    # the AI (white) has scattered stones without threats; black has an open three
    (["g8", "h8", "i8", "d12"], ["c3", "m3", "m12", "e10"]),  # straight three across
    (["f8", "h8", "i8", "d12"], ["c3", "m3", "m12", "k11"]),  # split three
    (["f6", "g7", "h8", "m12"], ["c3", "m3", "c12", "d10"]),  # diagonal
    (["h6", "h7", "h9", "c12"], ["c3", "m3", "m12", "k4"]),  # split, down
]


@pytest.mark.parametrize("level", ["hard", "master"])
@pytest.mark.parametrize(("black", "white"), OPEN_THREES)
def test_blocks_an_open_three_when_it_must(level: str, black: list[str], white: list[str]) -> None:
    state = position(black, white, to_move=1)
    pos, _ = ai_position(state)
    assert pos.flex_points(1) and not pos.fours[2]  # black threatens an open four; white has no four
    move = ai(state, level, 11_000)
    after, _ = ai_position(GAME.apply(state, 1, GAME.parse_move(state, 1, move)))
    assert not after.flex_points(1), move


# --- VCF -----------------------------------------------------------------------------------------------
# Positions from seeded self-play in which the side to move has a VCF, but none of four attacking moves
# or fewer: the shortest takes at least five fours before the five.
LONG_VCF = [
    "h8 f6 f8 g8 h6 h9 e9 g7 g9 e6 f7 d6 c6 f10 h10 i11 e8 d7 d9 g6",
    "h8 f10 h10 h7 j10 g7 e7 i7 j7 f8 j8 j9 i8 k8 i9 k7 i10 k10",
    "h8 f10 h10 h7 j10 g7 k10 i10 i7 k5 j8 g8 j11 j9 k9 h6 k7 k8 l7 m7 j4 i9 i11 h12 e9 g9",
]


@pytest.mark.parametrize("record", LONG_VCF)
def test_the_positions_need_a_long_vcf(record: str) -> None:
    pos, c = ai_position(replay(record))
    assert searcher(pos).vcf(c, 4) is None
    line = searcher(pos).vcf_line(c, 30)
    assert len(line) >= 9  # at least five attacking moves and the blocks between them


@pytest.mark.parametrize("level", ["hard", "master"])
@pytest.mark.parametrize("record", LONG_VCF)
def test_finds_long_vcf_wins_within_its_budget(level: str, record: str) -> None:
    state = replay(record)
    assert stage_of_move(state, level) == "vcf"  # found by the VCF search, not stumbled upon
    assert winner_of_play_out(state, level, lambda s: ai(s, "medium", 1_500), plies=30) == state.turn


def stage_of_move(state: State, level: str) -> str:
    """Which stage of the AI found its move here."""
    return choose(state, state.turn, level, GAME.levels[level], random.Random(0), clock=lambda: 0.0).info["reason"]


def winner_of_play_out(state: State, level: str, defender, plies: int = 40) -> int | None:
    """The side to move plays `level`, the other side `defender(state)`, for at most `plies` moves."""
    attacker = state.turn
    for _ in range(plies):
        if GAME.outcome(state):
            break
        seat = state.turn
        move = ai(state, level) if seat == attacker else defender(state)
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, move))
    outcome = GAME.outcome(state)
    return outcome.winners[0] if outcome and outcome.winners else None


# The side to move has no four, the opponent would win by VCF if it moved now, and only a few
# points break that VCF (found by trying every candidate point).
VCF_THREATS = [
    ("h8 f10 f8 i8 h10 i11 h11 h9 i9 f11 g10 f12 f13 i10 i12 j13 g7 j10 j11", "d8 e8 g8 f9 g9"),
    ("h8 f8 f6 e5 h6 h5 i6 g6 g5 e8 f7 e7 e6 d6 g9 i7 g8 d5 c5", "h7 f9 h9 h10 i10"),
]


@pytest.mark.parametrize("level", ["hard", "master"])
@pytest.mark.parametrize(("record", "refutations"), VCF_THREATS)
def test_breaks_the_opponents_vcf(level: str, record: str, refutations: str) -> None:
    state = replay(record)
    pos, c = ai_position(state)
    assert searcher(pos).vcf(3 - c, 20) is not None
    assert ai(state, level) in refutations.split()


# The opponent has no VCF but would win by VCT (at most four attacking moves) if it moved now; the
# only points after which it has none, found by trying every point near the stones. Hard misses both.
VCT_THREATS = [
    ("h8 f8 g8 e6 g9 g7 e9 e11 f9 h9 g10", "g11 g12"),
    ("j7 h6 j5 h7 h5 i5 i6 g4 j4 j6 k7 l7 k5 k8 k4 j9 i10", "i8"),
]


@pytest.mark.parametrize(("record", "refutations"), VCT_THREATS)
def test_master_breaks_the_opponents_vct(record: str, refutations: str) -> None:
    state = replay(record)
    pos, c = ai_position(state)
    assert searcher(pos).vcf(3 - c, 20) is None
    assert searcher(pos).vct_deepening(3 - c, 4) is not None
    assert ai(state, "master") in refutations.split()


def test_the_vcf_defence_keeps_the_moves_proven_safe_within_their_nodes() -> None:
    """_refutations with a made-up threat: each root move's check either finds the opponent's win, or
    needs some nodes to prove there is none (a check given fewer runs out of nodes)."""
    pos, c = ai_position(replay("h8 i9"))
    root = [pos.geo.index(col, row) for col, row in ((6, 6), (9, 9), (6, 9), (9, 6))]
    a, b, d, e = root

    def defend(verdicts: dict[int, int | None], stop: int = 1000) -> list[int]:
        s = searcher(pos)
        budget = s.budget

        def threat() -> int | None:
            need = verdicts[pos.moves[-1]] if len(pos.moves) > 2 else None  # None: the win is found at once
            budget.used += 50 if need is None else min(need, budget.end + 1 - budget.used)
            if need is None:
                return root[0]
            if budget.used > budget.end:
                raise OutOfWork
            return None

        moves = _refutations(pos, c, s, root, threat, 1000, 200, stop)
        assert len(pos.moves) == 2
        return moves

    loses = None
    # b needs 300 nodes, more than a check's 200: no move proven safe, the root stays as it was
    assert defend({a: loses, b: 300, d: loses, e: loses}) == root
    assert defend({a: loses, b: 100, d: 150, e: loses}) == [b, d]
    assert defend({a: loses, b: 150, d: 150, e: 50}, stop=300) == [b]  # all 300 nodes spent before d is proven
    assert defend(dict.fromkeys(root)) == root  # every move loses


def test_master_checks_its_leading_moves_side_by_side_and_keeps_the_one_that_holds_out_longest() -> None:
    """_hold_out with a made-up opponent VCT: the first three moves of the PVS's order are checked side by
    side, one depth after the other; a move found lost makes room for the next; the first move in order
    still standing is played; a check that runs out of nodes ends the checks (the moves standing count as
    safe); when every move loses, the one that loses deepest (the first such in order) is played."""
    pos, c = ai_position(replay("h8 i9"))
    order = [pos.geo.index(col, row) for col, row in ((6, 6), (9, 9), (6, 9), (9, 6))]
    a, b, d, e = order

    def hold(verdicts: dict[int, int | str | None], limit: int = 100_000) -> tuple[int, list[tuple[int, int]]]:
        """verdicts: after each move the depth of the opponent's shortest VCT, None for none, "long" for a
        check that needs more nodes than it is given. Returns the move and the checks made (move, depth)."""
        s = searcher(pos, limit)
        checked: list[tuple[int, int]] = []

        def vct(o: int, depth: int) -> int | None:
            assert o == 3 - c and len(pos.moves) == 3
            q = pos.moves[-1]
            checked.append((q, depth))
            need = verdicts[q]
            s.budget.used += 10
            if need == "long":
                s.budget.used = s.budget.end + 1
                raise OutOfWork
            return 1 if need is not None and depth >= need else None

        s.vct = vct
        move = _hold_out(pos, c, s, order, 4)
        assert len(pos.moves) == 2
        return move, checked

    move, checked = hold({a: None, b: 1, d: None, e: 1})
    assert move == a
    assert checked[:4] == [(a, 1), (b, 1), (d, 1), (e, 1)]  # b lost at once: e takes its place
    assert checked[-2:] == [(a, 4), (d, 4)]
    move, checked = hold({a: 4, b: None, d: None, e: None})
    assert move == b
    assert (d, 3) in checked and (e, 4) in checked  # a was lost at the last depth: e came in, checked at it
    assert hold({a: 2, b: 3, d: None, e: 1})[0] == d
    assert hold({a: 2, b: "long", d: None, e: 1}) == (a, [(a, 1), (b, 1)])  # out of nodes: a stands, unrefuted
    assert hold({a: 2, b: None, d: None, e: "long"})[0] == b  # a lost at depth 2, then e's check ran out
    assert hold({a: 2, b: 4, d: 1, e: 4})[0] == b  # all lose: b holds out longest, first in order


# Positions from lost games, black to move: the opponent wins by VCT after every move, but
# after one of them its win is much deeper than after the others, and an outside engine found no win
# there: the one move a good player makes. Hard's check of its move and master's hold-out check find it.
LOST_GAMES = [
    ("hard", "i9 h7 g11 j8 h10 i7 g7 h6 k9 h8", "h9"),  # hard played h5: white's VCT of 3 moves followed
    ("master", "i9 h7 g11 j8 h10 i7 g7 h6 k9 h8", "h9"),
    ("master", "i8 f6 j7 e7 k6 h9 g5 f7", "g8"),  # it played f8
    ("master", "k7 j5 l6 i6 j8 m5 k5 j6 k9 k6 m7 j4", "j7"),  # it played j3
]


@pytest.mark.parametrize(("level", "record", "only"), LOST_GAMES)
def test_finds_the_one_move_that_holds_out_in_a_lost_game_position(level: str, record: str, only: str) -> None:
    assert ai(replay(record), level) == only


# White to move in master-vs-hard games (bench seeds 5008 and 5003, master white), each lost: master
# played i7 and j8, after which black wins by a VCT of 5 and of 8 attacking moves. With the opponent's
# potential weighed at 85 % of its own (w_opp) it plays g7 and g8: no VCT of 5 for black.
DEFENCES = ["g10 f10 g6 f8 f5 f9 f7 e8 h7 i8 h9", "h8 j9 i7 g6 i8"]


@pytest.mark.parametrize("record", DEFENCES)
def test_master_leaves_no_short_vct_where_it_lost_as_white(record: str) -> None:
    move = ai(replay(record), "master")
    assert move not in ("i7", "j8")
    pos, black = ai_position(replay(f"{record} {move}"))
    assert searcher(pos).vct_deepening(black, 5) is None


# Positions where master played a move after which a stronger outside engine won by force, while another
# move held (white to move but in the last, where black is): the opponent's win is a VCT of 7, 6 and 5
# attacking moves, deeper than the checks used to look, begun several moves before it is a VCF.
DEEP_THREATS = [
    ("h6 j7 h5 h7 g6 g5 f6", "i6", 7, ("master",)),  # e6 holds; hard plays i6 at 30,000-70,000 nodes
    ("k8 j9 j10 k11 i8 j8 j7 i6 k9 k6 i11", "l8", 6, ("hard", "master")),  # h12 holds
    ("h6 j7 h5 i8 g7 f8 g5 h9", "k6", 5, ("hard", "master")),  # g10 keeps black ahead
]


@pytest.mark.parametrize(("record", "loser", "depth", "levels"), DEEP_THREATS)
def test_the_bot_s_levels_leave_no_deep_vct_where_master_lost(record: str, loser: str, depth: int,
                                                              levels: tuple[str, ...]) -> None:
    """Through `Game.ai`, as the bot asks: the move leaves the opponent no VCT that the same check (150,000
    nodes, VCTs of up to `depth` attacking moves) finds after the move master used to play."""
    state = replay(record)

    def refuted(move: str) -> bool:
        pos, opponent = ai_position(replay(f"{record} {move}"))
        s = searcher(pos, 150_000)
        try:
            return s.vct_deepening(opponent, depth) is not None
        except OutOfWork:
            return False

    assert refuted(loser)
    for level in levels:
        move = GAME.move_text(state, GAME.ai(state, state.turn, level, GAME.levels[level], random.Random(1)).move)
        assert move != loser and not refuted(move), level


# White to move in a master-vs-hard game (bench seed 5001): black would win by VCT if it moved twice,
# as the side with the initiative nearly always would. A guard against that before the PVS would spend
# most of master's nodes and leave the PVS a few plies; master checks after the PVS and searches as deep
# as hard.
def test_master_defending_searches_as_deep_as_hard() -> None:
    state = replay("h8 g10 h10 h11 f9 g11 h9")
    info = {level: choose(state, 1, level, GAME.levels[level], random.Random(1), clock=lambda: 0.0).info
            for level in ("hard", "master")}
    assert info["master"]["depth"] >= info["hard"]["depth"] >= 5


# A position from a master-vs-hard game in which black (to move) has no VCF but wins by VCT, the
# shortest in four attacking moves; searched at depth 6 straight away it takes several times longer.
VCT_WIN = "h8 i7 h6 i6 i8 i5 g8 f8 h7 h5 k8 j8"


def test_vct_deepening_finds_the_short_win_for_a_fraction_of_the_nodes() -> None:
    pos, c = ai_position(replay(VCT_WIN))
    assert searcher(pos).vcf(c, 20) is None
    assert searcher(pos).vct(c, 3) is None
    deep, deepening = searcher(pos), searcher(pos)
    assert deep.vct(c, 6) is not None
    assert deepening.vct_deepening(c, 6) is not None
    assert deepening.budget.used * 3 < deep.budget.used


def test_a_vct_win_once_found_is_remembered_for_every_deeper_search() -> None:
    """The threat search keeps the wins it proves (and the defences proven lost) by position, so a
    position reached again by another order of moves, or searched again deeper, costs one node."""
    pos, c = ai_position(replay(VCT_WIN))
    s = searcher(pos)
    win = s.vct(c, 4)
    assert win is not None
    before = s.budget.used
    assert s.vct(c, 5) == win and s.vct(c, 4) == win
    assert s.budget.used - before == 2


def test_master_plays_a_vct_win_to_the_end() -> None:
    state = replay(VCT_WIN)
    assert stage_of_move(state, "master") == "vct"
    assert winner_of_play_out(state, "master", lambda s: ai(s, "hard")) == state.turn


# --- work, not time -----------------------------------------------------------------------------------------
# A level is a number of nodes; the clocks are only a safety net (the ceiling on the thinking thread's CPU time,
# the wall clock a far backstop). The same position gives the same move after the same number of nodes on an idle
# machine (clocks that stand still), on a slower one (a CPU clock that runs fast but stays within the ceiling) and
# on a loaded host (a wall clock far past the ceiling).
BUSY_POSITIONS = [("hard", "i9 h7 g11 j8 h10 i7 g7 h6 k9 h8"), ("master", VCT_THREATS[0][0])]


def slow_clock(limit: Limit, share: float) -> Callable[[], float]:
    """A clock that advances on each reading so that `limit.work` nodes (one reading per 1,024 nodes) take
    `share` of the level's ceiling."""
    now = [0.0]
    step = limit.seconds * share * 1024 / limit.work

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


@pytest.mark.parametrize(("level", "record"), BUSY_POSITIONS)
def test_a_busy_machine_plays_the_same_move_after_the_same_nodes(level: str, record: str) -> None:
    state = replay(record)
    limit = GAME.levels[level]
    idle = choose(state, state.turn, level, limit, random.Random(3), clock=lambda: 0.0)
    busy = choose(state, state.turn, level, limit, random.Random(3), clock=slow_clock(limit, 0.9))
    assert idle.info["reason"] != "seconds" and idle.info["work"] > limit.work // 2
    assert (busy.move, busy.info) == (idle.move, idle.info)


def test_a_loaded_host_plays_the_same_move_after_the_same_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker gets a fraction of a core: its wall clock passes the ceiling five times over during the move,
    its CPU clock does not reach it."""
    state = replay(BUSY_POSITIONS[0][1])
    limit = GAME.levels["hard"]
    idle = choose(state, state.turn, "hard", limit, random.Random(3), clock=lambda: 0.0)
    monkeypatch.setattr(budget, "wall_clock", slow_clock(limit, 5.0))
    loaded = choose(state, state.turn, "hard", limit, random.Random(3), clock=lambda: 0.0)
    assert (loaded.move, loaded.info) == (idle.move, idle.info)


def test_the_cpu_time_ceiling_stops_a_stalled_search_with_a_legal_move() -> None:
    state = replay(BUSY_POSITIONS[0][1])
    limit = GAME.levels["master"]
    idle = choose(state, state.turn, "master", limit, random.Random(3), clock=lambda: 0.0)
    stalled = choose(state, state.turn, "master", limit, random.Random(3), clock=slow_clock(limit, 20.0))
    assert stalled.info["reason"] == "seconds"
    assert stalled.info["work"] < idle.info["work"] // 4
    assert stalled.move in GAME.legal_moves(state, state.turn)


# --- legality ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "rule", "levels"),
    [
        (15, "freestyle", ("easy", "medium")),
        (15, "renju", ("hard", "easy")),
        (19, "standard", ("master", "medium")),
        (15, "renju", ("medium", "master")),
    ],
)
def test_ai_plays_only_legal_moves_in_whole_games(size: int, rule: str, levels: tuple[str, str]) -> None:
    rng = random.Random(size * 7 + len(rule))
    state = GAME.new_state({"size": size, "rule": rule}, 2, 0)
    for _ in range(2):  # a random opening
        state = GAME.apply(state, state.turn, rng.choice(GAME.legal_moves(state, state.turn)))
    while GAME.to_move(state) is not None and len(state.moves) < 120:
        seat = state.turn
        move = GAME.ai(state, seat, levels[seat], Limit(1_500, 60.0), rng).move
        assert move in GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, move)


def test_easy_is_not_random_but_not_perfect_either() -> None:
    """easy picks among good points: on an empty-ish board it stays near the stones, and over a few
    seeds it does not always choose the same point."""
    state = replay("h8 i9 g9")
    moves = {ai(state, "easy", seed=s) for s in range(12)}
    assert len(moves) > 1
    for name in moves:
        point = GAME.parse_move(GAME.new_state({}, 2, 0), 0, name)
        assert min(max(abs(point.col - s.col), abs(point.row - s.row)) for s in state.moves) <= 2


def test_choose_answers_the_first_move_in_the_centre() -> None:
    assert choose(GAME.new_state({}, 2, 0), 0, "master", GAME.levels["master"], random.Random(0)).move == Point(7, 7)
    big = GAME.new_state({"size": 19}, 2, 0)
    assert GAME.ai(big, 0, "hard", GAME.levels["hard"], random.Random(0)).move == Point(9, 9)


def _snapshot(pos: Position) -> tuple:
    return (list(pos.cells), list(pos.keys), [list(x) for x in pos.code[1:]],
            list(pos.total), [set(x) for x in pos.fours], [set(x) for x in pos.threes], set(pos.cand), pos.hash)


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_incremental_patterns_match_a_recount_and_unmake_restores_everything(rule: str) -> None:
    """The search trusts make/unmake: after every stone each empty point's code is the sum of its four
    line patterns looked up afresh, its threat sets agree, and unmaking every stone gives the empty board back."""
    rng = random.Random(rule)
    for _ in range(4):
        pos = Position(15, rule)
        empty = _snapshot(pos)
        before = []
        for ply in range(rng.randrange(20, 70)):
            before.append(_snapshot(pos))
            p = rng.choice([q for q in pos.geo.points if not pos.cells[q]])
            pos.make(p, 1 + ply % 2)
            for c in (1, 2):
                codes = {q: sum(pos.table[c][pos.keys[q * 4 + d]] for d in range(4))
                         for q in pos.geo.points if not pos.cells[q]}
                assert all(pos.code[c][q] == code for q, code in codes.items())
                assert pos.fours[c] == {q for q, code in codes.items() if code >= BIT_B4}
                assert pos.threes[c] == {q for q, code in codes.items() if code >= BIT_F3}
                assert pos.total[c] == sum(VALUE[code] for code in codes.values())
            stones = [pos.geo.colrow(s) for s in pos.moves]
            assert pos.cand == {q for q in codes
                                if any(max(abs(col - s[0]), abs(row - s[1])) <= 2 for s in stones
                                       for col, row in [pos.geo.colrow(q)])}
        while pos.moves:
            pos.unmake()
            assert _snapshot(pos) == before.pop()
        assert _snapshot(pos) == empty


def test_the_benchmark_openings_are_varied_and_as_often_2_3_as_4_stones() -> None:
    """bench/ measures strength from these: a run of 40 openings must not lean on one length (an
    earlier generator drew the length anew per stone and made 4 stones in 3 of 40)."""
    openings = [opening(5000 + i) for i in range(40)]
    lengths = Counter(len(stones) for stones in openings)
    assert set(lengths) == {2, 3, 4} and min(lengths.values()) >= 13
    assert len({tuple(stones) for stones in openings}) == 40
    for stones in openings:
        assert len(set(stones)) == len(stones)
        assert all(abs(p.col - 7) <= 2 and abs(p.row - 7) <= 2 for p in stones)


def test_the_benchmark_tells_openings_won_by_colour_from_openings_won_by_the_player() -> None:
    def game(seed: int, black: str, white: str, winner: str | None) -> dict:
        return {"seed": seed, "black": black, "white": white, "winner": winner}

    results = [
        game(1, "master", "hard", "master"), game(1, "hard", "master", "master"),  # the player both times
        game(2, "master", "hard", "master"), game(2, "hard", "master", "hard"),  # black both times
        game(3, "master", "hard", "hard"), game(3, "hard", "master", "master"),  # white both times
        game(4, "master", "hard", "hard"), game(4, "hard", "master", "hard"),
        game(5, "master", "hard", None), game(5, "hard", "master", "hard"),
        game(6, "hard", "master", "hard"), game(6, "master", "hard", "master"),  # black, listed the other way
    ]
    assert by_opening(results, "master") == {"stronger": 1, "weaker": 1, "black": 2, "white": 1, "other": 1}
