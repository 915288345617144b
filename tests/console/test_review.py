"""/review on the console: a finished game's picture and text twin, refused during a game, stored once."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.console.test_console import play
from tests.support.pictures import picture

# Black builds an open three; white looks away (a15); black wins with an open four.
BLUNDER = ("h8", "a1", "i8", "a2", "j8", "a15", "k8", "g8", "l8")


def gomoku_game(*after: str) -> tuple[str, ...]:
    typed = ["/gomoku start", "/as bob", "join", "/as alice"]
    for i, move in enumerate(BLUNDER):
        typed += [f"/as {'alice' if i % 2 == 0 else 'bob'}", move]
    return (*typed, *after)


async def test_a_gomoku_blunder_is_named_with_the_move_that_held(tmp_path: Path) -> None:
    text, images = await play(tmp_path, *gomoku_game("/review"))
    assert "Move 6, a15 let black win at once (" in text and "held)." in text
    assert "alice won from there." in text
    shown = sorted(images.glob("*.png"))[-1]
    assert str(shown) in text
    picture(shown.read_bytes())
    assert Image.open(shown).width == 800


async def test_review_during_a_game_is_refused_and_in_chinese_too(tmp_path: Path) -> None:
    text, _ = await play(tmp_path, "/lang zh", "/nim start 3 4 5", "/as bob", "join", "/as alice", "1 1",
                         "/review")
    assert "只能分析已结束的对局：这局还在进行中。" in text


async def test_review_n_and_the_usage(tmp_path: Path) -> None:
    text, _ = await play(tmp_path, "/review", "/nim start 1 1", "/as bob", "join", "/as alice", "1 1",
                         "/as bob", "2 1", "/review 2", "/review 1")
    assert "This channel has no finished game to review yet." in text
    assert "Use /review, or /review 1: this channel has 1 finished game." in text
    assert "Move 1, alice took" not in text  # 1 1: the first player loses whatever she does
    assert "The review found no mistake" in text
