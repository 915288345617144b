"""Reviews of finished games (`engines.review`): what each game's analysis calls a mistake is true.

Nim's against a brute-force game tree (not the theory the review uses); a Gomoku blunder (an open three
left alone) named with the moves that held; a Dou Dizhu endgame error, found by the solver with every
hand known, checked by solving the two positions again; Chinese Checkers' turns; and the picture."""

from __future__ import annotations

import io
import json
from functools import cache

import pytest
from PIL import Image

import engines
from engines.base import Limit, Msg
from engines.budget import Budget
from engines.doudizhu.cards import counts_of_cards
from engines.doudizhu.solver import Solver
from engines.doudizhu.state import trick
from engines.review import Record, Review, review
from render import draw
from render.base import RenderContext

# A Dou Dizhu game (seed 0) in which farmer seat 0 let the landlord's A go by at move 39 with a 2 in hand.
DDZ_MOVES = (
    (1, "bid 1"), (2, "pass"), (0, "pass"), (1, "4 4"), (2, "7 7"), (0, "pass"), (1, "A A"), (2, "2 2"), (0, "pass"),
    (1, "pass"), (2, "3 3 4 4 5 5"), (0, "pass"), (1, "pass"), (2, "8 10 10 10"), (0, "pass"), (1, "pass"), (2, "J"),
    (0, "pass"), (1, "BJ"), (2, "pass"), (0, "RJ"), (1, "pass"), (2, "pass"), (0, "3 3"), (1, "6 6"), (2, "pass"),
    (0, "7 7"), (1, "J J"), (2, "pass"), (0, "Q Q"), (1, "pass"), (2, "pass"), (0, "5"), (1, "Q"), (2, "K"),
    (0, "pass"), (1, "A"), (2, "pass"), (0, "pass"), (1, "5 8 8 8 9 9 9 10"), (2, "pass"), (0, "pass"), (1, "K"),
)


@cache
def _wins(heaps: tuple[int, ...]) -> bool:
    """Brute force, normal play: whether the player to move wins."""
    return any(not _wins(tuple(sorted(heaps[:i] + (heaps[i] - k,) + heaps[i + 1 :])))
               for i in range(len(heaps)) for k in range(1, heaps[i] + 1))


def test_nim_mistakes_are_exactly_the_moves_from_a_won_position_to_a_lost_one() -> None:
    moves = ((0, "1 1"), (1, "2 4"), (0, "3 5"), (1, "1 2"))  # 3 4 5: won for the first player
    found = review(Record("nim", {"heaps": [3, 4, 5]}, 2, 1, moves, (1,)))
    heaps, expected = [3, 4, 5], []
    for ply, (_, text) in enumerate(moves):
        heap, count = (int(x) for x in text.split())
        before = tuple(sorted(heaps))
        heaps[heap - 1] -= count
        if _wins(before) and _wins(tuple(sorted(heaps))):
            expected.append(ply)
    assert [m.ply for m in found.mistakes] == expected == [0, 1, 2]  # each side let the win go in turn
    # The critical moment: the loser's last mistake, the one the game did not come back from.
    assert found.critical is not None and found.critical.ply == 2 and found.critical.better == "3 3"
    assert not _wins((0, 2, 2))  # 2 0 5 after the better move 3 3: lost for the one to move
    assert found.chances[0] == (1.0, 0.0) and found.chances[1] == (0.0, 1.0)
    assert all(found.exact)


def test_a_gomoku_blunder_and_the_moves_that_held() -> None:
    # Black builds an open three (h8 i8 j8); white looks away (a15) and black wins with an open four.
    moves = ((0, "h8"), (1, "a1"), (0, "i8"), (1, "a2"), (0, "j8"), (1, "a15"), (0, "k8"), (1, "g8"), (0, "l8"))
    found = review(Record("gomoku", {}, 2, 1, moves, (0,)))
    assert found.critical is not None
    assert (found.critical.ply, found.critical.seat, found.critical.played) == (5, 1, "a15")
    assert found.critical.better in ("g8", "k8") and found.critical.exact
    assert found.critical.said.key == "review.gomoku_gave_five"
    assert found.marks == {"played": [0, 14], "better": [6 if found.critical.better == "g8" else 10, 7]}
    assert found.chances[6][0] == 1.0  # black to move after the blunder: a proved win


def test_a_dou_dizhu_endgame_error_is_found_exactly() -> None:
    record = Record("doudizhu", {}, 3, 0, DDZ_MOVES, (1,))
    found = review(record)
    exact = [m for m in found.mistakes if m.exact]
    assert [(m.ply, m.seat, m.played, m.better) for m in exact] == [(38, 0, "pass", "2")]
    assert found.critical == exact[0] and found.estimate
    # Solved again from the position: the farmers win after the 2, the landlord after the pass.
    game = engines.get("doudizhu")
    state = record.replay(game)[38][0]
    hands = tuple(counts_of_cards(h) for h in state.hands)
    assert sum(map(sum, hands)) <= 20
    on = trick(state)
    beat = (on[2], on[0]) if on else None
    solver = Solver(state.landlord, Budget(Limit(10**7, 600.0)))
    two = next(p for p in solver.moves(hands[0], beat) if p is not None and p.combo.rank == 12 and p.combo.size == 1)
    assert solver.after(hands, 0, beat, None) and not solver.after(hands, 0, beat, two)
    assert sorted(len(h) for h in found.board["hands"]) == sorted(len(h) for h in state.hands)


def test_checkers_reviews_count_turns() -> None:
    game = engines.get("checkers")
    state, moves = game.new_state({}, 2, 3), []
    for _ in range(12):
        seat = game.to_move(state)
        move = max(game.legal_moves(state, seat), key=lambda m: len(m.path))  # long jumps: plausible moves
        moves.append((seat, game.move_text(state, move)))
        state = game.apply(state, seat, move)
    found = review(Record("checkers", {}, 2, 3, tuple(moves), ()))
    assert len(found.chances) == 13 and all(abs(sum(c) - 1) < 1e-3 for c in found.chances)
    assert all(m.better and m.loss > 0 and not m.exact for m in found.mistakes)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_picture_decodes(language: str) -> None:
    from bot.i18n import translator

    moves = ((0, "h8"), (1, "a1"), (0, "i8"), (1, "a2"), (0, "j8"), (1, "a15"), (0, "k8"), (1, "g8"), (0, "l8"))
    found = Review.from_json(json.loads(json.dumps(review(Record("gomoku", {}, 2, 1, moves, (0,))).to_json())))
    tr = translator(language)
    view = {"game": "gomoku", "review": found.to_json(), "lines": [tr(Msg("review.drawn"))], "title": "t"}
    data = draw("review", view, RenderContext(("Alice", "Bob"), None, None, tr))
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.width == 800 and 1000 < image.height < 2000
