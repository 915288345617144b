"""Chinese Checkers rules: the board, moves and refusals, goals, the end of the game, storing."""

from __future__ import annotations

import json
import random
import re
import string
import tomllib
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import Translator
from engines.base import Refusal
from engines.checkers import Checkers
from engines.checkers import board as B
from engines.checkers.rules import check_path, reach
from engines.checkers.state import GOAL, ROUNDS, STALL_ROUNDS, distance

G = Checkers()
TR = Translator("en")
ROOT = Path(__file__).resolve().parents[2]
CATALOG = tomllib.loads((ROOT / "bot/locales/en/checkers.toml").read_text())
CATALOG_ZH = tomllib.loads((ROOT / "bot/locales/zh/checkers.toml").read_text())
TOP = [B.LABELS[h] for h in B.POINTS[3]]  # seat 0's goal with two players
BOTTOM = [B.LABELS[h] for h in B.POINTS[0]]  # seat 1's goal with two players


def H(label: str) -> int:
    hole = B.parse_label(label)
    assert hole is not None, label
    return hole


def position(pieces: dict[str, int], seats: int = 2, turn: int = 0):
    return G.with_board(G.new_state({}, seats, 0), pieces, turn)


def refusal(fn, *args) -> str:
    with pytest.raises(Refusal) as info:
        fn(*args)
    return info.value.msg.key


def targets(state, label: str) -> set[str]:
    hole = H(label)
    owner = state.board[hole] - 1
    return {B.LABELS[h] for h in reach(state.board, hole, GOAL[state.seats][owner])}


def random_state(seats: int, plies: int, seed: int):
    rng = random.Random(seed)
    state = G.new_state({}, seats, seed)
    for _ in range(plies):
        seat = G.to_move(state)
        if seat is None:
            break
        state = G.apply(state, seat, rng.choice(G.legal_moves(state, seat)))
    return state


# --- the board -----------------------------------------------------------------------------------
def test_the_star_has_121_holes_in_17_rows_with_six_points_of_ten():
    assert B.SIZE == 121 == len(set(B.LABELS))
    rows = [sum(1 for h in range(B.SIZE) if B.ROW[h] == r) for r in range(1, 18)]
    assert rows == [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    assert all(len(p) == 10 for p in B.POINTS)
    assert sum(len(p) for p in B.POINTS) == 60  # and 61 holes in the middle hexagon
    assert [B.LABELS[t] for t in B.TIPS] == ["m1", "a5", "a13", "m17", "y13", "y5"]


def test_labels_round_trip_and_ignore_case():
    for h, label in enumerate(B.LABELS):
        assert B.parse_label(label) == h
        assert B.parse_label(label.upper()) == h
        assert B.parse_label(f" {label} ") == h
    assert B.LABELS[H("m9")] == "m9" and B.ROW[H("m9")] == 9
    for bad in ("z9", "c4", "m18", "m0", "a6", "9m", ""):
        assert B.parse_label(bad) is None


def test_a_hole_in_the_middle_has_six_neighbours_and_six_jumps():
    assert sorted(B.LABELS[n] for n in B.STEPS[H("m9")]) == ["k9", "l10", "l8", "n10", "n8", "o9"]
    assert sorted(B.LABELS[land] for _, land in B.JUMPS[H("m9")]) == ["i9", "k11", "k7", "o11", "o7", "q9"]
    assert sorted(B.LABELS[n] for n in B.STEPS[H("m17")]) == ["l16", "n16"]


@pytest.mark.parametrize(
    ("seats", "points"), [(2, (0, 3)), (3, (0, 2, 4)), (4, (0, 1, 3, 4)), (6, (0, 1, 2, 3, 4, 5))]
)
def test_seats_start_on_their_points_and_head_for_the_opposite_one(seats, points):
    state = G.new_state({}, seats, 1)
    for seat, point in enumerate(points):
        assert {h for h in range(B.SIZE) if state.board[h] == seat + 1} == set(B.POINTS[point])
        assert {h for h in range(B.SIZE) if GOAL[seats][seat][h]} == set(B.POINTS[(point + 3) % 6])
        # 16 + 2 * 15 + 3 * 14 + 4 * 13 steps to the far tip, less the 20 of a full goal
        assert distance(state.board, seats, seat) == 120
    assert sum(1 for v in state.board if v) == 10 * seats
    if seats in (2, 4, 6):  # opposite pairs: each goal is someone's start
        assert all(B.opposite(p) in points for p in points)
    else:  # alternate points: every goal starts empty
        assert not any(B.opposite(p) in points for p in points)


def test_options_give_the_number_of_seats():
    assert G.parse_options([]).seats == 2
    assert G.parse_options(["4"]).seats == 4
    assert G.parse_options(["6"]).seats == 6
    assert refusal(G.parse_options, ["5"]) == "checkers.bad_players"
    assert refusal(G.parse_options, ["fast"]) == "checkers.bad_option"


# --- steps and jumps -----------------------------------------------------------------------------
def test_a_lone_piece_steps_to_its_six_neighbours():
    state = position({"m9": 0})
    assert targets(state, "m9") == {"k9", "o9", "l10", "n10", "l8", "n8"}


def test_a_jump_goes_over_one_adjacent_piece_of_any_colour():
    state = position({"m9": 0, "n10": 1, "k9": 0, "m7": 1})
    assert targets(state, "m9") >= {"o11", "i9"}  # over n10 (theirs) and k9 (mine)
    assert "m5" not in targets(state, "m9")  # m7 is not adjacent: nothing to jump
    move = G.parse_move(state, 0, "m9 o11")
    assert move.path == (H("m9"), H("o11")) and move.jumps == 1


def test_no_jump_over_two_pieces_or_onto_a_piece():
    state = position({"m9": 0, "n10": 1, "o11": 1})
    assert "o11" not in targets(state, "m9") and "p12" not in targets(state, "m9")


def test_a_chain_may_turn_and_stop_anywhere():
    state = position({"m5": 0, "n6": 1, "p8": 1, "p10": 1, "n12": 1})
    assert {"o7", "q9", "o11", "m13"} <= targets(state, "m5")
    move = G.parse_move(state, 0, "m5 m13")
    assert [B.LABELS[h] for h in move.path] == ["m5", "o7", "q9", "o11", "m13"]
    assert G.move_text(state, move) == "m5-o7-q9-o11-m13"
    after = G.apply(state, 0, move)
    assert after.board[H("m13")] == 1 and after.board[H("m5")] == 0
    stop = G.apply(state, 0, G.parse_move(state, 0, "m5-o7-q9"))  # stopping half way
    assert stop.board[H("q9")] == 1


def test_a_chain_may_not_land_twice_on_a_hole_nor_come_back_to_its_start():
    state = position({"m9": 0, "n10": 1, "p10": 1, "o9": 1})
    # m9 -> o11 -> q9 -> m9 would be a circle
    assert "m9" not in targets(state, "m9")
    assert refusal(G.parse_move, state, 0, "m9-o11-q9-m9") == "checkers.revisit"
    assert refusal(G.parse_move, state, 0, "m9-o11-q9-o11") == "checkers.revisit"
    assert refusal(G.parse_move, state, 0, "m9 m9") == "checkers.same_hole"


def test_no_step_after_a_jump_and_no_jump_after_a_step():
    state = position({"m9": 0, "n10": 1})
    assert refusal(G.parse_move, state, 0, "m9-o11-p12") == "checkers.step_in_chain"
    assert refusal(G.parse_move, state, 0, "m9-l10-k11") == "checkers.step_in_chain"
    assert "p12" not in targets(state, "m9")  # one step beyond the jump is not a destination


def test_explicit_paths_are_checked_hop_by_hop():
    state = position({"m9": 0, "n10": 1, "k9": 1})
    assert refusal(G.parse_move, state, 0, "m9-o11-q13") == "checkers.nothing_to_jump"
    assert refusal(G.parse_move, state, 0, "m9-o11-o15") == "checkers.not_a_hop"
    assert refusal(G.parse_move, state, 0, "m9-m13") == "checkers.unreachable"  # two holes: any way there
    assert refusal(G.parse_move, state, 0, "m9-n10") == "checkers.taken"
    assert refusal(G.parse_move, state, 0, "m9 n10") == "checkers.taken"
    move = G.parse_move(state, 0, "M9 - O11")
    assert move.path == (H("m9"), H("o11"))


def test_refusals_say_why():
    state = position({"m9": 0, "k9": 1, "a5": 0})
    assert refusal(G.parse_move, state, 0, "k9 i9") == "checkers.not_yours"
    assert refusal(G.parse_move, state, 0, "l10 m11") == "checkers.empty"
    assert refusal(G.parse_move, state, 0, "z9 m9") == "checkers.no_hole"
    assert refusal(G.parse_move, state, 0, "m9 c4") == "checkers.no_hole"
    assert refusal(G.parse_move, state, 0, "m9 q13") == "checkers.unreachable"
    assert refusal(G.parse_move, state, 0, "m9") == "checkers.how_to_move"
    assert refusal(G.parse_move, state, 0, "go north") == "checkers.how_to_move"
    with pytest.raises(Refusal) as info:
        G.parse_move(state, 0, "m9 q13")
    assert info.value.msg.params == {"start": "m9", "to": "q13"}


def test_moves_typed_in_chinese_or_full_width_are_read():
    """The host turns full-width letters, digits and punctuation into ASCII (NFKC) before the engine
    reads a move; 到, 至, 从, 经 and 跳到 may stand between the holes, as may 、 and →."""
    state = position({"m5": 0, "n6": 1, "p8": 1, "p10": 1, "n12": 1})
    plain = G.parse_move(state, 0, "m5 q9")
    for typed in ("Ｍ５　Ｑ９", "ｍ５到ｑ９", "从 m5 到 q9", "m5 跳到 q9", "m5至q9", "m5→q9", "m5 to q9"):
        assert G.parse_move(state, 0, unicodedata.normalize("NFKC", typed)) == plain, typed
    path = G.parse_move(state, 0, "m5-o7-q9")
    for typed in ("Ｍ５－Ｏ７－Ｑ９", "m5、o7、q9", "m5，o7，q9", "m5 经 o7 到 q9"):
        assert G.parse_move(state, 0, unicodedata.normalize("NFKC", typed)) == path, typed
    assert refusal(G.parse_move, state, 0, "m5 到") == "checkers.how_to_move"
    assert refusal(G.parse_move, state, 0, "往上走") == "checkers.how_to_move"
    answer = G.query(state, 0, "path", ["m5", "到", "m13"])
    assert answer.overlay == {"path": ["m5", "o7", "q9", "o11", "m13"]}
    assert G.query(state, 0, "path", [unicodedata.normalize("NFKC", "Ｍ５－Ｍ１３")]).overlay == answer.overlay
    assert G.query(state, 0, "moves", [unicodedata.normalize("NFKC", "Ｍ５")]).overlay["piece"] == "m5"


# --- goals ---------------------------------------------------------------------------------------
def test_a_piece_in_its_goal_moves_inside_it_but_never_leaves():
    state = position({"l14": 0, "b6": 1})
    assert targets(state, "l14") == {"j14", "n14", "k15", "m15"}  # not k13 or m13
    assert refusal(G.parse_move, state, 0, "l14 k13") == "checkers.leaves_goal"
    state = position({"m15": 0, "l14": 1, "b6": 1})
    assert "k13" not in targets(state, "m15")  # a jump out over l14 is leaving too
    assert refusal(G.parse_move, state, 0, "m15-k13") == "checkers.leaves_goal"
    # Someone else's piece in my goal may leave it (it is their home).
    state = position({"l14": 1, "b6": 0}, turn=1)
    assert "k13" in targets(state, "l14")


def test_a_chain_that_enters_the_goal_may_not_leave_it_again():
    state = position({"j12": 0, "k13": 1, "m13": 1, "b6": 1})
    assert "l14" in targets(state, "j12")
    assert "n12" not in targets(state, "j12")
    assert refusal(G.parse_move, state, 0, "j12-l14-n12") == "checkers.leaves_goal"


def test_filling_the_goal_wins():
    pieces = {label: 0 for label in TOP if label != "l14"} | {"k13": 0, "m1": 1, "a5": 1}
    state = position(pieces)
    assert G.outcome(state) is None and distance(state.board, 2, 0) == 1  # k13 is one step short
    end = G.apply(state, 0, G.parse_move(state, 0, "k13 l14"))
    outcome = G.outcome(end)
    assert outcome.ranks == (1, 2) and outcome.reason.key == "checkers.end_goal"
    assert distance(end.board, 2, 0) == 0 and G.to_move(end) is None
    assert G.legal_moves(end, 1) == []


def test_the_last_piece_in_wins_even_when_others_block_the_goal():
    # Seat 1 parks nine pieces in seat 0's goal: one piece of seat 0 filling the tenth hole wins.
    pieces = {label: 1 for label in TOP if label != "j14"} | {"i13": 0, "m1": 0}
    state = position(pieces)
    end = G.apply(state, 0, G.parse_move(state, 0, "i13 j14"))
    outcome = G.outcome(end)
    assert outcome is not None and outcome.ranks == (1, 2) and outcome.winners == (0,)
    assert outcome.reason.key == "checkers.end_goal"
    assert G.to_move(end) is None
    # A goal full of somebody else's pieces is not a win.
    state = position({label: 1 for label in TOP} | {"i13": 0})
    assert G.outcome(state) is None


def test_a_move_can_finish_somebody_else():
    # Seat 0 steps into seat 1's goal (seat 0's home) which holds one of seat 1's pieces: seat 1 wins.
    pieces = {label: 0 for label in BOTTOM if label not in ("j4", "m1")} | {"m1": 1, "i5": 0, "m17": 1}
    state = position(pieces)
    end = G.apply(state, 0, G.parse_move(state, 0, "i5 j4"))
    assert G.outcome(end).ranks == (2, 1)


def test_with_three_players_the_game_goes_on_until_the_places_are_settled():
    state = G.new_state({}, 3, 0)
    goals = [[B.LABELS[h] for h in range(B.SIZE) if GOAL[3][s][h]] for s in range(3)]
    tips = [B.LABELS[B.TIPS[B.opposite(p)]] for p in B.SEAT_POINTS[3]]
    pieces = {}
    outside = {0: "m13", 1: "s7", 2: "g7"}  # next to a base hole of each goal
    entry = {0: "l14", 1: "t6", 2: "f6"}
    for seat in range(3):
        for label in goals[seat]:
            if label != entry[seat]:
                pieces[label] = seat
        pieces[outside[seat]] = seat
    assert all(tips[s] in goals[s] for s in range(3))
    state = G.with_board(state, pieces, 0)
    assert G.outcome(state) is None
    state = G.apply(state, 0, G.parse_move(state, 0, f"{outside[0]} {entry[0]}"))
    assert state.finished == (0,) and G.outcome(state) is None and G.to_move(state) == 1
    state = G.apply(state, 1, G.parse_move(state, 1, "s7 r8"))  # seat 1 dawdles
    assert G.to_move(state) == 2  # seat 0 has finished: its turns are skipped
    state = G.apply(state, 2, G.parse_move(state, 2, f"{outside[2]} {entry[2]}"))
    outcome = G.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 3, 2)
    assert G.to_move(state) is None


# --- the end without a winner --------------------------------------------------------------------
def test_after_200_rounds_the_game_ends_and_the_nearest_player_is_first():
    state = G.new_state({}, 2, 0)
    state = replace(state, turns=(ROUNDS - 1, ROUNDS - 1))
    state = G.apply(state, 0, G.parse_move(state, 0, "j4 i5"))
    assert G.outcome(state) is None
    state = G.apply(state, 1, G.parse_move(state, 1, "j14 i13"))
    outcome = G.outcome(state)
    assert outcome is not None and outcome.reason.key == "checkers.end_rounds"
    assert outcome.draw  # both moved one piece one step: equal distance, shared place
    assert outcome.ranks == (1, 1)


def test_the_ranking_by_distance_when_the_rounds_run_out():
    state = G.new_state({}, 2, 0)
    state = replace(state, turns=(ROUNDS - 1, ROUNDS - 1))
    state = G.apply(state, 0, G.parse_move(state, 0, "k3 m5"))  # a jump: 2 rows nearer
    state = G.apply(state, 1, G.parse_move(state, 1, "j14 i13"))  # a step: 1 row nearer
    outcome = G.outcome(state)
    assert outcome.ranks == (1, 2) and outcome.winners == (0,)
    assert distance(state.board, 2, 0) < distance(state.board, 2, 1)


def test_thirty_rounds_without_progress_end_the_game():
    state = position({"m9": 0, "b6": 0, "m1": 1, "y5": 1})
    state = replace(state, idle=2 * STALL_ROUNDS - 2)
    # Sideways steps bring nobody nearer than before.
    state = G.apply(state, 0, G.parse_move(state, 0, "m9 k9"))
    assert G.outcome(state) is None and state.idle == 2 * STALL_ROUNDS - 1
    state = G.apply(state, 1, G.parse_move(state, 1, "y5 x6"))
    outcome = G.outcome(state)
    assert outcome is not None and outcome.reason.key == "checkers.end_stalled"
    # seat 1 is nearer to its goal (the bottom tip) than seat 0 is to the top
    assert outcome.ranks == (2, 1)


def test_progress_resets_the_count():
    state = replace(position({"m9": 0, "b6": 0, "m1": 1, "y5": 1}), idle=2 * STALL_ROUNDS - 2)
    state = G.apply(state, 0, G.parse_move(state, 0, "m9 l10"))  # a new best for seat 0
    assert state.idle == 0 and G.outcome(state) is None


def test_a_finished_players_pieces_outside_the_goal_stay_where_they_are():
    """The anti-blocking rule: seat 0 finishes with nine of its goal's holes held by seat 1, so nine
    of its own pieces are still outside; they never move again, keep the holes they stand on and
    may be jumped over."""
    goal = [B.LABELS[h] for h in range(B.SIZE) if GOAL[3][0][h]]
    pieces = {label: 1 for label in goal if label != "l14"} | {"m13": 0}
    mine = ["i9", "m9", "q9", "j8", "l8", "n8", "p8", "c5", "w5"]
    pieces |= {label: 0 for label in mine} | {"m7": 1, "a13": 2, "y13": 2}
    state = G.with_board(G.new_state({}, 3, 0), pieces, 0)
    state = G.apply(state, 0, G.parse_move(state, 0, "m13 l14"))
    assert state.finished == (0,) and G.outcome(state) is None and G.to_move(state) == 1
    assert all(state.board[H(x)] == 1 for x in mine)
    assert {"k9", "o9"} <= targets(state, "m7")  # over seat 0's l8 and n8
    assert not {"l8", "n8"} & targets(state, "m7")  # which keep their holes
    for _ in range(6):  # seats 1 and 2 play on; seat 0 never moves again
        seat = G.to_move(state)
        assert seat in (1, 2) and G.legal_moves(state, 0) == []
        state = G.apply(state, seat, G.legal_moves(state, seat)[0])
    assert all(state.board[H(x)] == 1 for x in mine)
    assert G.outcome(state) is None


def test_a_player_who_cannot_move_passes():
    # Seat 1's only piece sits on the bottom tip, walled in by seat 0.
    state = position({"m1": 1, "l2": 0, "n2": 0, "k3": 0, "o3": 0, "m9": 0})
    assert not G.legal_moves(replace(state, turn=1), 1)
    after = G.apply(state, 0, G.parse_move(state, 0, "m9 l10"))
    assert G.to_move(after) == 0 and after.turns == (1, 1)


# --- queries -------------------------------------------------------------------------------------
def test_moves_query_lists_and_marks_the_destinations():
    state = position({"m5": 0, "n6": 1, "p8": 1})
    answer = G.query(state, 0, "moves", ["M5"])
    assert answer.text.key == "checkers.moves_list"
    assert set(answer.overlay["marks"]) == targets(state, "m5") and answer.overlay["piece"] == "m5"
    assert answer.text.params["count"] == len(answer.overlay["marks"])
    assert "q9" in answer.overlay["marks"]
    walled = position({"m1": 1, "l2": 0, "n2": 0, "k3": 0, "o3": 0})
    assert G.query(walled, None, "moves", ["m1"]).text.key == "checkers.moves_none"
    assert refusal(G.query, state, 0, "moves", ["m9"]) == "checkers.empty"
    assert refusal(G.query, state, 0, "moves", ["z1"]) == "checkers.no_hole"
    assert refusal(G.query, state, 0, "moves", []) == "checkers.moves_usage"


def test_path_query_draws_the_fewest_hops():
    state = position({"m5": 0, "n6": 1, "p8": 1, "p10": 1, "n12": 1, "l6": 1, "k7": 1})
    answer = G.query(state, 0, "path", ["m5", "m13"])
    assert answer.overlay == {"path": ["m5", "o7", "q9", "o11", "m13"]}
    assert answer.text.key == "checkers.path_jumps" and answer.text.params["count"] == 4
    assert G.query(state, 0, "path", ["m5-m13"]).overlay == answer.overlay
    assert G.query(state, 0, "path", ["m5", "n4"]).text.key == "checkers.path_step"
    assert refusal(G.query, state, 0, "path", ["m5", "a13"]) == "checkers.unreachable"
    assert refusal(G.query, state, 0, "path", ["m5"]) == "checkers.path_usage"


def _all_chains(board, start, goal):
    """Every legal jump chain from start, by brute force: {destination: fewest jumps}."""
    best: dict[int, int] = {}

    def walk(hole, visited, depth):
        for over, land in B.JUMPS[hole]:
            if board[over] and over != start and not board[land] and land not in visited:
                if goal[hole] and not goal[land]:
                    continue
                best[land] = min(best.get(land, 99), depth + 1)
                walk(land, visited | {land}, depth + 1)

    walk(start, {start}, 0)
    return best


@settings(max_examples=25, deadline=None)
@given(seats=st.sampled_from([2, 3, 4, 6]), plies=st.integers(0, 60), seed=st.integers(0, 10**6))
def test_shortest_paths_are_legal_and_shortest(seats, plies, seed):
    state = random_state(seats, plies, seed)
    seat = state.turn
    goal = GOAL[seats][seat]
    for h in range(B.SIZE):
        if state.board[h] != seat + 1:
            continue
        chains = _all_chains(state.board, h, goal)
        steps = {n for n in B.STEPS[h] if not state.board[n] and (goal[n] or not goal[h])}
        parent = reach(state.board, h, goal)
        assert set(parent) == set(chains) | steps
        for to in parent:
            move = G.parse_move(state, seat, f"{B.LABELS[h]} {B.LABELS[to]}")
            check_path(state.board, move.path, goal)
            assert len(move.path) - 1 == (1 if to in steps else chains[to])
            assert G.parse_move(state, seat, G.move_text(state, move)) == move


# --- storing and showing -------------------------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(seats=st.sampled_from([2, 3, 4, 6]), plies=st.integers(0, 80), seed=st.integers(0, 10**6))
def test_json_round_trip_and_move_text_round_trip(seats, plies, seed):
    state = random_state(seats, plies, seed)
    assert G.from_json(json.loads(json.dumps(G.to_json(state)))) == state
    json.dumps(G.view(state, None))
    if G.to_move(state) is not None:
        seat = G.to_move(state)
        for move in G.legal_moves(state, seat):
            assert G.parse_move(state, seat, G.move_text(state, move)) == move


def test_replaying_the_record_gives_the_same_game():
    rng = random.Random(3)
    state = G.new_state({}, 4, 3)
    record = []
    for _ in range(40):
        seat = G.to_move(state)
        move = rng.choice(G.legal_moves(state, seat))
        record.append(G.move_text(state, move))
        state = G.apply(state, seat, move)
    replay = G.new_state({}, 4, 3)
    for text in record:
        seat = G.to_move(replay)
        replay = G.apply(replay, seat, G.parse_move(replay, seat, text))
    assert replay == state


def test_the_text_board_lines_up_with_the_labels():
    state = position({"m9": 0, "a5": 1, "y13": 1})
    lines = G.text(G.view(state, None), TR).splitlines()
    header = lines[0]
    row9 = next(line for line in lines if line.startswith(" 9"))
    assert row9[header.index("m")] == "1"
    row5 = next(line for line in lines if line.startswith(" 5"))
    assert row5[header.index("a")] == "2"


def test_describe_and_view():
    state = position({"m5": 0, "n6": 1, "p8": 1})
    move = G.parse_move(state, 0, "m5 q9")
    assert G.describe(state, 0, move).key == "checkers.moved_jump"
    assert G.describe(state, 0, G.parse_move(state, 0, "m5 l6")).key == "checkers.moved_step"
    view = G.view(G.apply(state, 0, move), None)
    assert view["last"] == {"seat": 0, "path": ["m5", "o7", "q9"]}
    assert view["board"][H("q9")] == "1"


def test_every_message_key_exists_in_the_catalog():
    sources = [*(ROOT / "engines/checkers").glob("*.py"), ROOT / "render/checkers.py"]
    keys = set()
    for path in sources:
        keys |= set(re.findall(r'"checkers\.(\w+)"', path.read_text()))
    assert keys >= {"not_yours", "unreachable", "leaves_goal", "moves_list", "path_step", "end_goal", "round"}
    missing = keys - set(CATALOG)
    assert not missing
    assert {"title", "rules"} <= set(CATALOG)
    for key, value in CATALOG.items():
        if isinstance(value, dict):
            assert set(value) == {"one", "other"}, key


def _fields(template) -> set[str]:
    templates = template.values() if isinstance(template, dict) else [template]
    return {name for text in templates for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_chinese_catalog_has_every_key_with_the_same_placeholders():
    assert set(CATALOG_ZH) == set(CATALOG)
    for key, value in CATALOG.items():
        zh = CATALOG_ZH[key]
        assert type(zh) is type(value), key
        if isinstance(value, dict):
            assert set(zh) == set(value), key
            for form in value:
                assert _fields(zh[form]) == _fields(value[form]), (key, form)
        assert _fields(zh) == _fields(value), key


def test_the_rules_say_what_the_engine_does_with_passes_and_early_finishers():
    en, zh = CATALOG["rules"], " ".join(CATALOG_ZH["rules"].split())
    assert "has no legal move passes" in en and "没有合法走法的玩家这一轮自动跳过" in zh
    assert "with some of your own pieces still outside" in " ".join(en.split())
    assert "stay where they are until the end of the game" in " ".join(en.split())
    assert "都留在原处直到对局结束" in zh
    for text in (en, zh):
        assert "200" in text and "30" in text and "121" in text and "games.md" not in text


def test_whoever_resigns_comes_last_and_the_rest_are_placed_by_distance() -> None:
    from engines.base import msg
    from engines.checkers.game import Checkers
    from engines.checkers.state import distance

    game = Checkers()
    state = game.new_state({}, 4, 1)
    rng = random.Random(3)
    for _ in range(24):
        seat = game.to_move(state)
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    outcome = game.forfeit(state, 4, 2, msg("host.resigned", name="x"))
    assert outcome.ranks[2] == 4 and sorted(outcome.ranks)[0] == 1 and not outcome.draw
    others = [s for s in range(4) if s != 2]
    by_distance = sorted(others, key=lambda s: distance(state.board, 4, s))
    assert [outcome.ranks[s] for s in by_distance] == sorted(outcome.ranks[s] for s in others)
