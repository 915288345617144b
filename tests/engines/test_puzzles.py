"""Puzzles: the shipped sets are there and verify again with the engines' exact searches, a solution
plays through to the end, a wrong move is caught with a better one, and Nim's puzzles agree with a
game-tree search written from the rules alone."""

from __future__ import annotations

import random
from functools import cache

import pytest

from bot.puzzles import catalog
from engines.base import JSON, Refusal
from engines.nim import Nim, State
from engines.nim_puzzles import COUNT, make, winning
from engines.puzzles import GOOD, SOLVED, WRONG, puzzles_of

SHIPPED = ("gomoku", "doudizhu", "checkers")
LEAST = {"gomoku": 300, "doudizhu": 300, "checkers": 300}  # shipped (Nim: made on the spot)
SAMPLE = {"gomoku": 4, "doudizhu": 2, "checkers": 4, "nim": 20}


def sample(game: str) -> list[JSON]:
    every = catalog.shipped(game)
    return random.Random(f"sample:{game}").sample(list(every), SAMPLE[game])


@pytest.mark.parametrize("game", SHIPPED)
def test_each_game_ships_its_puzzles_each_from_a_seeded_self_play(game: str) -> None:
    puzzles = catalog.shipped(game)
    assert len(puzzles) >= LEAST[game]
    assert all(p["from"].startswith("self-play 1:") for p in puzzles)
    assert len(catalog.ids(game)) == len(puzzles) and catalog.find(f"{game}:{len(puzzles)}") is None


@pytest.mark.parametrize("game", [*SHIPPED, "nim"])
def test_a_sample_verifies_again_and_its_solution_plays_through(game: str) -> None:
    kind = puzzles_of(game)
    for data in sample(game):
        assert kind.verify(data)
        position = kind.start(data)
        line = kind.solution(data, position)
        verdict = GOOD
        while verdict == GOOD:
            said = kind.answer(data, position, line[0])
            verdict, position = said.verdict, said.position
            line = kind.solution(data, position) if verdict == GOOD else []
        assert verdict == SOLVED


@pytest.mark.parametrize("game", [*SHIPPED, "nim"])
def test_a_move_that_lets_the_win_go_is_wrong_and_a_better_one_is_named(game: str) -> None:
    kind = puzzles_of(game)
    data = sample(game)[0]
    position = kind.start(data)
    good = kind.solution(data, position)[0]
    for text in _legal_texts(game, data, position):
        if text == good:
            continue
        said = kind.answer(data, position, text)
        if said.verdict == WRONG:
            assert said.position == position and said.better is not None
            assert kind.answer(data, position, said.better).verdict != WRONG
            return
    pytest.fail("no losing move found")


@pytest.mark.parametrize(("game", "text"), [("gomoku", "z99"), ("doudizhu", "xyz"), ("checkers", "a1 a2"),
                                            ("nim", "9 1")])
def test_an_unreadable_or_illegal_answer_is_refused(game: str, text: str) -> None:
    kind = puzzles_of(game)
    data = sample(game)[0]
    with pytest.raises(Refusal):
        kind.answer(data, kind.start(data), text)


def _legal_texts(game: str, data: JSON, position: JSON) -> list[str]:
    import engines

    g = engines.get(game)
    state = g.from_json(position["state"] if game == "checkers" else position)
    seat = g.to_move(state)
    texts = [g.move_text(state, m) for m in g.legal_moves(state, seat)]
    return [t for t in texts if not t.startswith("swap")][:60]


# --- Nim against a game-tree search ---------------------------------------------------------------


@cache
def mover_wins(heaps: tuple[int, ...], most: int | None, misere: bool) -> bool:
    if not any(heaps):
        return misere  # the other took the last stone
    for i, n in enumerate(heaps):
        for k in range(1, min(n, most or n) + 1):
            after = heaps[:i] + (n - k,) + heaps[i + 1 :]
            if not mover_wins(tuple(sorted(after)), most, misere):
                return True
    return False


def test_nim_puzzles_have_exactly_one_winning_move_by_the_game_tree() -> None:
    game = Nim()
    for number in range(0, COUNT, 7):
        data = make(number)
        state = State(tuple(data["heaps"]), data["max"], data["misere"], 0, None, tuple(data["heaps"]))
        good = []
        for move in game.legal_moves(state, 0):
            after = game.apply(state, 0, move)
            if not mover_wins(tuple(sorted(after.heaps)), data["max"], data["misere"]):
                good.append(game.move_text(state, move))
        assert good == winning(state) and len(good) == 1
