"""The game contract (engines/base.py), checked the same way for every registered game and the
test-only fifth game: seeded random games at every seat count, with the invariants checked on
every step. A new game gets these checks for free; the per-engine tests keep the game's theory."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import engines
import render
from bot.i18n import Translator
from engines.base import Game, Limit, Msg, Outcome, Refusal
from render.base import RenderContext
from tests.toy import NAME as TOY
from tests.toy import install, uninstall

GAMES = [*engines.REGISTRY, TOY]
PLIES = 70  # per random game: enough to reach the end of Nim and Tic-tac-toe, the middle of the others
SAMPLE = 12  # moves per position whose notation is read back
TRANSLATORS = (Translator("en"), Translator("zh"))
TINY = Limit(work=300, seconds=0.05)  # the AI checks are about legality, not strength


@pytest.fixture(autouse=True, scope="module")
def toy() -> Iterator[None]:
    install()
    yield
    uninstall()


def games() -> list[Any]:
    return [pytest.param(name, id=name) for name in GAMES]


def walk(game: Game, seats: int, seed: int) -> Iterator[tuple[Any, random.Random]]:
    """The states of one seeded random game, from the start."""
    rng = random.Random(seed)
    options = game.parse_options([]).options
    state = game.new_state(options, seats, seed)
    yield state, rng
    for _ in range(PLIES):
        seat = game.to_move(state)
        if seat is None:
            return
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        yield state, rng


def check_position(game: Game, state: Any, seats: int, rng: random.Random) -> None:
    seat = game.to_move(state)
    outcome = game.outcome(state)
    assert (seat is None) == (outcome is not None), "to_move is None exactly when the game is over"
    for other in range(seats):
        moves = game.legal_moves(state, other)
        assert bool(moves) == (other == seat), f"seat {other}: legal moves only for the seat to move"
    if seat is not None:
        moves = game.legal_moves(state, seat)
        for move in rng.sample(moves, min(SAMPLE, len(moves))):
            text = game.move_text(state, move)
            assert game.parse_move(state, seat, text) == move, f"{text!r} reads back as itself"
    data = json.loads(json.dumps(game.to_json(state)))
    assert game.to_json(game.from_json(data)) == data, "JSON round trip"
    public = game.view(state, None)
    json.dumps(public)
    for tr in TRANSLATORS:
        board = game.text(public, tr)
        assert isinstance(board, str) and board
        if game.hidden_hands:
            for owner in range(seats):
                for line in game.private_lines(state, owner, tr):
                    assert line not in board, f"seat {owner}'s private line {line!r} is on the public board"
    if game.hidden_hands:
        for owner in range(seats):
            assert game.view(state, owner) != public, "a seat's view shows what the public one does not"
            assert game.private_lines(state, owner, TRANSLATORS[0]), "a hidden hand has lines to show"
    if outcome is not None:
        assert len(outcome.ranks) == seats and min(outcome.ranks) == 1
        assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome


def check_forfeit(game: Game, state: Any, seats: int) -> None:
    for seat in range(seats):
        outcome = game.forfeit(state, seats, seat, Msg("host.resigned", {"name": "x"}))
        assert len(outcome.ranks) == seats, "forfeit ranks every seat"
        assert outcome.ranks[seat] == max(outcome.ranks) and min(outcome.ranks) == 1 and not outcome.draw


def check_ai(game: Game, state: Any, seed: int) -> None:
    seat = game.to_move(state)
    if seat is None:
        return
    legal = {game.move_text(state, m) for m in game.legal_moves(state, seat)}
    for level in game.levels:
        result = game.ai(state, seat, level, TINY, random.Random(seed))
        assert game.move_text(state, result.move) in legal, f"{level} plays a legal move"
        json.dumps(dict(result.info))
        text, _ = engines.think(game.name, game.to_json(state), seat, level, seed, TINY)
        assert text in legal


def check_picture(game: Game, state: Any, seats: int) -> None:
    seat = game.to_move(state)
    ctx = RenderContext(tuple(f"P{i}" for i in range(seats)), seat, game.outcome(state), TRANSLATORS[1])
    viewers = [None, *range(seats)] if game.hidden_hands else [None]
    for viewer in viewers:
        data = render.draw(game.name, game.view(state, viewer), ctx)
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        image.load()
        assert image.width >= 200 and image.height >= 100


@pytest.mark.parametrize("name", games())
def test_every_game_keeps_the_contract(name: str) -> None:
    game = engines.get(name)
    assert game.default_level in game.levels and game.levels, "levels, weakest first, with a default"
    assert all(isinstance(limit, Limit) and limit.work > 0 for limit in game.levels.values())
    for seats in game.seat_counts:
        for seed in range(2):
            states = list(walk(game, seats, seed))
            for i, (state, rng) in enumerate(states):
                check_position(game, state, seats, rng)
                if i % 15 == 0 and game.to_move(state) is not None:
                    check_forfeit(game, state, seats)
                    check_ai(game, state, seed)
            for state, _ in (states[0], states[len(states) // 2], states[-1]):
                check_picture(game, state, seats)


@pytest.mark.parametrize("name", games())
def test_bad_options_are_refusals_not_crashes(name: str) -> None:
    game = engines.get(name)
    for words in (["nonsense"], ["x" * 500], ["²"], ["=" * 3], ["9" * 40]):
        try:
            setup = game.parse_options(words)
        except Refusal:
            continue
        assert setup.seats in game.seat_counts
