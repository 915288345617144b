"""Help through the console, in both languages: the first hint and the first take-back say the
game will not be rated for the player (the hint to them alone), and `/stats` shows the game apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.console import Console
from tests.conftest import Clock, close_table, open_table
from tests.console.test_console import lines


async def console_says(tmp_path: Path, language: str, *typed: str) -> str:
    table = await open_table(tmp_path / "c.db", Clock(), language=language)
    out: list[str] = []
    try:
        await Console(table.host, tmp_path / "pictures", "alice", write=out.append).run(lines(table.host, *typed))
    finally:
        await close_table(table)
    return "\n".join(out)


EN = ("/nim solo hard 3 4 5", "/hint", "/hint", "resign", "/nim solo hard 3 4 5", "take 1 1", "undo", "take 1 1",
      "undo", "resign", "/stats")
ZH = ("拈 人机 hard 3 4 5", "提示", "提示", "认输", "拈 人机 hard 3 4 5", "第1堆取1颗", "悔棋", "第1堆取1颗", "悔棋",
      "认输", "战绩")


@pytest.mark.parametrize(("language", "typed", "hint", "unrated", "took_back", "stats"), [
    ("en", EN, "  🔒 Hint: 1 2", " (this game will not be rated for you: you asked for a hint)",
     ("alice took back 2 moves.", "This game will not be rated for alice: they took moves back."),
     "2 games unrated: hints or take-backs"),
    ("zh", ZH, "  🔒 提示：1 2", "（你用了提示，这局将不计入你的等级分）",
     ("alice 悔了 2 步。", "alice 悔了棋，这局将不计入 alice 的等级分。"), "2 局不计分：用了提示或悔棋"),
])
async def test_help_is_told_once_and_shown_in_stats(tmp_path: Path, language: str, typed: tuple[str, ...],
                                                    hint: str, unrated: str, took_back: tuple[str, str],
                                                    stats: str) -> None:
    text = await console_says(tmp_path, language, *typed)
    assert text.count(hint) == 2 and text.count(hint + unrated) == 1, text  # two hints, told at the first
    assert text.count(took_back[0]) == 2 and text.count(took_back[1]) == 1, text
    assert stats in text, text
