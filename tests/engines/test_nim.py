"""Nim: rules, refusals, storage, and the AI against a brute-force game-tree solver."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import catalog
from engines.base import Refusal
from engines.nim import Move, Nim, State, mover_loses

NIM = Nim()


def start(*args: str, seed: int = 1) -> State:
    setup = NIM.parse_options(list(args))
    return NIM.new_state(setup.options, setup.seats, seed)


def refusal(state: State, seat: int, text: str) -> str:
    with pytest.raises(Refusal) as caught:
        NIM.parse_move(state, seat, text)
    return caught.value.msg.key


# --- setting up -----------------------------------------------------------------------
def test_given_heaps_and_options() -> None:
    state = start("3", "4", "5", "max=3", "misere")
    assert state.heaps == (3, 4, 5) and state.max_take == 3 and state.misere and state.turn == 0


def test_random_heaps_come_from_the_seed() -> None:
    heaps = {start(seed=s).heaps for s in range(200)}
    assert all(3 <= len(h) <= 5 and all(1 <= n <= 20 for n in h) for h in heaps)
    assert len(heaps) > 150
    assert start(seed=7).heaps == start(seed=7).heaps


@pytest.mark.parametrize(
    ("args", "key"),
    [(["0"], "nim.bad_heap_size"), (["101"], "nim.bad_heap_size"), (["1"] * 11, "nim.too_many_heaps"),
     (["max=0"], "nim.bad_max"), (["lots"], "nim.bad_option")],
)
def test_bad_options_are_refused(args: list[str], key: str) -> None:
    with pytest.raises(Refusal) as caught:
        NIM.parse_options(args)
    assert caught.value.msg.key == key


# --- moving -------------------------------------------------------------------------
def test_a_move_takes_stones_from_one_heap() -> None:
    state = NIM.apply(start("3", "4", "5"), 0, NIM.parse_move(start("3", "4", "5"), 0, "2 3"))
    assert state.heaps == (3, 1, 5) and state.turn == 1 and state.last == Move(1, 3)


@pytest.mark.parametrize("text", ["2 3", "2, 3", "heap 2 3", "2:3", " 2   3 "])
def test_move_forms(text: str) -> None:
    assert NIM.parse_move(start("3", "4", "5"), 0, text) == Move(1, 3)


@pytest.mark.parametrize("text", ["take 3 from heap 2", "3 from 2", "第2堆取3颗", "从第二堆取三颗", "取3颗 第2堆",
                                  "从2堆拿3个", "2堆 3"])
def test_a_marked_heap_is_the_heap_whatever_the_order_and_chinese_numbers_read(text: str) -> None:
    assert NIM.parse_move(start("3", "4", "15"), 0, text) == Move(1, 3)


def test_chinese_numbers_up_to_99() -> None:
    assert NIM.parse_move(start("3", "4", "15"), 0, "第三堆取十二颗") == Move(2, 12)
    assert NIM.parse_move(start(*["30"] * 3), 0, "三 二十三") == Move(2, 23)
    assert refusal(start("3", "4", "15"), 0, "第三堆取十二三颗") == "nim.how_to_move"


def test_refusals_say_why() -> None:
    state = start("3", "4", "5", "max=2")
    assert refusal(state, 0, "7 1") == "nim.no_such_heap"
    assert refusal(state, 0, "1 3") == "nim.over_max"
    assert refusal(state, 0, "1 0") == "nim.take_at_least_one"
    assert refusal(state, 0, "take some") == "nim.how_to_move"
    assert refusal(start("3", "4"), 0, "1 4") == "nim.not_enough"
    emptied = NIM.apply(start("1", "4"), 0, Move(0, 1))
    assert refusal(emptied, 1, "1 1") == "nim.heap_empty"


def test_parse_move_owns_legality_and_apply_leaves_the_state_alone() -> None:
    state = start("3", "4")
    with pytest.raises(Refusal):
        NIM.parse_move(state, 0, "1 4")
    NIM.apply(state, 0, NIM.parse_move(state, 0, "1 3"))
    assert state.heaps == (3, 4)


@pytest.mark.parametrize(("misere", "winner"), [(False, 0), (True, 1)])
def test_who_wins(misere: bool, winner: int) -> None:
    state = start("2", *(["misere"] if misere else []))
    state = NIM.apply(state, 0, Move(0, 2))
    outcome = NIM.outcome(state)
    assert outcome is not None and outcome.winners == (winner,)
    assert NIM.to_move(state) is None and NIM.legal_moves(state, 1) == []


@given(st.lists(st.integers(1, 12), min_size=1, max_size=6), st.integers(0, 10**9), st.sampled_from([None, 1, 3]))
def test_random_games_keep_every_promise(heaps: list[int], seed: int, max_take: int | None) -> None:
    args = [str(h) for h in heaps] + ([f"max={max_take}"] if max_take else [])
    state = start(*args)
    rng = random.Random(seed)
    while (seat := NIM.to_move(state)) is not None:
        moves = NIM.legal_moves(state, seat)
        move = rng.choice(moves)
        assert NIM.parse_move(state, seat, NIM.move_text(state, move)) == move
        data = json.loads(json.dumps(NIM.to_json(state)))
        assert NIM.from_json(data) == state
        state = NIM.apply(state, seat, move)
    assert NIM.outcome(state) is not None


# --- the AI against a brute-force solver ------------------------------------------------
def solve(max_take: int | None, misere: bool):
    """A game tree search that knows no theory: does the player to move lose?"""

    @cache
    def loses(heaps: tuple[int, ...]) -> bool:
        if not any(heaps):
            return not misere  # the previous player took the last stone
        for i, n in enumerate(heaps):
            for k in range(1, min(n, max_take or n) + 1):
                after = tuple(sorted(heaps[:i] + (n - k,) + heaps[i + 1 :]))
                if loses(after):
                    return False
        return True

    return lambda heaps: loses(tuple(sorted(heaps)))


VARIANTS = [(k, m) for k in (None, 1, 2, 3, 4, 5, 6, 7) for m in (False, True)]


@pytest.mark.parametrize(("max_take", "misere"), VARIANTS)
def test_hard_ai_is_perfect_on_every_position_of_four_heaps_up_to_seven(max_take: int | None, misere: bool) -> None:
    loses = solve(max_take, misere)
    rng = random.Random(0)
    for heaps in product(range(8), repeat=4):
        if not any(heaps):
            continue
        state = State(heaps, max_take, misere, 0)
        assert mover_loses(state) == loses(heaps), heaps
        move = NIM.ai(state, 0, "hard", NIM.levels["hard"], rng).move
        after = NIM.apply(state, 0, move)
        if not loses(heaps):
            assert loses(after.heaps), (heaps, move)


def test_theory_holds_on_bigger_positions_too() -> None:
    """Five heaps up to 9 and three heaps up to 15 (the solver cannot go much further)."""
    for max_take, misere in [(None, False), (None, True), (3, True), (4, False)]:
        loses = solve(max_take, misere)
        for heaps in [*product(range(10), repeat=5), *product(range(16), repeat=3)]:
            if sorted(heaps) == list(heaps) and any(heaps):
                assert mover_loses(State(heaps, max_take, misere, 0)) == loses(heaps), heaps


def test_seed_game_100_stones_take_1_to_10() -> None:
    """The seed's subtraction game: the first player wins by leaving a multiple of 11."""
    state = start("100", "max=10")
    move = NIM.ai(state, 0, "hard", NIM.levels["hard"], random.Random(1)).move
    assert move == Move(0, 1)


def test_in_a_lost_position_the_ai_does_not_always_take_one_stone() -> None:
    state = start("4", "4", "6", "6")  # nim-sum 0: the mover loses
    counts = {NIM.ai(state, 0, "hard", NIM.levels["hard"], random.Random(s)).move.count for s in range(50)}
    assert counts - {1}


@pytest.mark.parametrize(("level", "low", "high"), [("easy", 0.2, 0.7), ("medium", 0.6, 0.95)])
def test_weaker_levels_make_human_mistakes(level: str, low: float, high: float) -> None:
    state = start("3", "5", "7", "9")  # a won position with few winning moves
    loses = solve(None, False)
    rng = random.Random(5)
    found = sum(loses(NIM.apply(state, 0, NIM.ai(state, 0, level, NIM.levels[level], rng).move).heaps)
                for _ in range(400)) / 400
    assert low < found < high


def test_every_refusal_has_a_sentence() -> None:
    source = Path(NIM.__module__.replace(".", "/") + ".py").read_text()
    keys = set(re.findall(r'Refusal\("([\w.]+)"', source)) | set(re.findall(r'msg\("([\w.]+)"', source))
    assert keys and all(key in catalog("en") for key in keys)
