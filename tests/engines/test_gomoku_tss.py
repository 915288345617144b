"""The outside opponent of the Gomoku bench (bench/gomoku_tss.py) plays what a threat-space player must:
five, the block of a five, a win by VCF or VCT that the engine's own search confirms, and a defence against
a threat it sees coming. A yardstick that misses these would measure nothing."""

from __future__ import annotations

import random

import pytest

from bench.gomoku_tss import play
from engines.gomoku import Gomoku

GAME = Gomoku()


def replay(record: str):  # type: ignore[no-untyped-def]
    state = GAME.new_state({"size": 15}, 2, 0)
    for text in record.split():
        state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, text))
    return state


def tss(record: str) -> str:
    state = replay(record)
    col, row = play([(p.col, p.row) for p in state.moves], 15, random.Random(1))
    point = GAME.parse_move(state, state.turn, f"{'abcdefghijklmno'[col]}{row + 1}")
    return GAME.move_text(state, point)


def outcome_after(record: str, moves: int) -> int | None:
    """The winner (0 black, 1 white) when tss plays both sides `moves` more moves (None: no winner yet)."""
    state = replay(record)
    for _ in range(moves):
        if GAME.to_move(state) is None:
            break
        col, row = play([(p.col, p.row) for p in state.moves], 15, random.Random(1))
        state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, f"{'abcdefghijklmno'[col]}{row + 1}"))
    result = GAME.outcome(state)
    return result.winners[0] if result and result.winners else None


def test_it_makes_five_and_blocks_five() -> None:
    assert tss("d8 c8 e8 h12 f8 i12 g8 j3") == "h8"  # black's closed four: five
    assert tss("d8 c8 e8 h12 f8 i12 g8") == "h8"  # white blocks it


def test_it_wins_by_vct() -> None:
    record = "h8 i7 h6 i6 i8 i5 g8 f8 h7 h5 k8 j8"  # the engine's search finds a VCT and no VCF for black
    assert outcome_after(record, 30) == replay(record).turn


@pytest.mark.parametrize(("record", "refutations"), [
    ("h8 f10 f8 i8 h10 i11 h11 h9 i9 f11 g10 f12 f13 i10 i12 j13 g7 j10 j11", "d8 e8 g8 f9 g9"),
    ("h8 f8 f6 e5 h6 h5 i6 g6 g5 e8 f7 e7 e6 d6 g9 i7 g8 d5 c5", "h7 f9 h9 h10 i10"),
])
def test_it_refutes_the_opponent_s_vcf(record: str, refutations: str) -> None:
    """The opponent would win by VCF were it to move: one of the moves the engine's search finds safe."""
    assert tss(record) in refutations.split()


def test_it_answers_an_open_three() -> None:
    """Black's open three h8 i8 j8: white stops it at an end (or the far points), never elsewhere."""
    assert tss("h8 h9 i8 a1 j8") in {"g8", "k8", "f8", "l8"}
