"""Puzzles through the console: one of each game solved end to end, a wrong move answered, the
ratings moved, the daily puzzle the same for two people, a puzzle resumed after a restart, and a
puzzle refused while a game is played in the channel."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from PIL import Image

from bot.adapters.console import CHANNEL, Console
from bot.puzzles import catalog
from bot.storage import Storage
from engines.puzzles import puzzles_of
from tests.conftest import Clock, close_table, open_table

Next = Callable[[Storage], "AsyncIterator[str]"]


async def solving(store: Storage, user: str = "console:alice") -> str | None:
    """The next winning move of `user`'s open puzzle, as the engine's solution says (None: none open)."""
    attempt = await store.puzzle_attempt(CHANNEL, user)
    if attempt is None:
        return None
    game, data = catalog.find(attempt.puzzle) or ("", None)
    return "/answer " + puzzles_of(game).solution(data, attempt.position)[0]


async def session(db: Path, images: Path, script: Callable[[Storage], AsyncIterator[str]], clock: Clock) -> str:
    """Run the console on `db` with the lines `script` types (it may look at the store between lines)."""
    table = await open_table(db, clock)
    out: list[str] = []
    console = Console(table.host, images, "alice", write=out.append)

    async def typed() -> AsyncIterator[str]:
        async for line in script(table.store):
            await table.host.idle()
            yield line + "\n"

    try:
        await console.run(typed())
    finally:
        await close_table(table)
    return "\n".join(out)


@pytest.mark.parametrize("game", catalog.GAMES)
async def test_a_puzzle_of_each_game_solved_move_by_move(tmp_path: Path, game: str) -> None:
    async def script(store: Storage) -> AsyncIterator[str]:
        yield f"/puzzle {game}"
        while (line := await solving(store)) is not None:
            yield line
        yield "/stats"
        yield "/leaderboard puzzle"

    text = await session(tmp_path / "c.db", tmp_path / "pictures", script, Clock())
    assert "Answer with /answer <move>" in text and "🎉 alice solved it" in text
    assert "Puzzle rating 0.0 → " in text and "Results of alice" in text
    assert "Puzzles: rating " in text and "1 solved of 1 rated" in text
    assert "Leaderboard · Puzzles" in text and "1. alice — " in text and "1 solved of 1" in text
    pictures = sorted((tmp_path / "pictures").glob("*-puzzle_board.png"))
    assert pictures and all(Image.open(p).width >= 600 for p in pictures)


async def test_a_wrong_move_ends_the_puzzle_and_the_better_one_is_private(tmp_path: Path) -> None:
    async def script(store: Storage) -> AsyncIterator[str]:
        yield "/puzzle nim"
        good = (await solving(store) or "").split()[1:]
        heap, count = int(good[0]), int(good[1])
        attempt = await store.puzzle_attempt(CHANNEL, "console:alice")
        assert attempt is not None
        yield f"/answer {heap} {count - 1}" if count > 1 else f"/answer {heap % len(attempt.position['heaps']) + 1} 1"
        yield "/answer 1 1"

    text = await session(tmp_path / "c.db", tmp_path / "pictures", script, Clock())
    assert "lets the win go: alice's puzzle is over." in text and "Puzzle rating 0.0 → -" in text
    assert "🔒 only alice sees this:\n  🔒 A move that kept the win: " in text
    assert "You have no puzzle open here" in text


async def test_the_daily_puzzle_is_the_same_for_two_people_and_a_second_try_is_not_rated(tmp_path: Path) -> None:
    clock = Clock()

    async def script(store: Storage) -> AsyncIterator[str]:
        yield "/puzzle daily"
        yield "/puzzle solution"
        yield "/puzzle daily"
        yield "/as bob"
        yield "/puzzle daily"

    text = await session(tmp_path / "c.db", tmp_path / "pictures", script, clock)
    assert text.count("The daily puzzle of 2023-11-14, the same for everyone:") == 3
    assert "You have tried this one before" in text and "🔒 The solution: " in text
    table = await open_table(tmp_path / "c.db", clock)
    try:
        alice = await table.store.puzzle_attempt(CHANNEL, "console:alice")
        bob = await table.store.puzzle_attempt(CHANNEL, "console:bob")
        assert alice is not None and bob is not None and alice.puzzle == bob.puzzle == catalog.daily("2023-11-14")
        assert not alice.rated and bob.rated
    finally:
        await close_table(table)


async def test_a_restart_in_the_middle_of_a_puzzle_resumes_it(tmp_path: Path) -> None:
    db, images, clock = tmp_path / "c.db", tmp_path / "pictures", Clock()

    async def first(store: Storage) -> AsyncIterator[str]:
        yield "/puzzle gomoku"
        yield await solving(store) or ""

    async def second(store: Storage) -> AsyncIterator[str]:
        yield "/puzzle"
        while (line := await solving(store)) is not None:
            yield line

    before = await session(db, images, first, clock)
    assert "✓ " in before and "The defence answers " in before
    after = await session(db, images, second, clock)
    assert "Your puzzle is still open here:" in after and "🎉 alice solved it" in after


async def test_a_puzzle_waits_while_a_game_is_played_in_the_channel(tmp_path: Path) -> None:
    async def script(store: Storage) -> AsyncIterator[str]:
        yield "/puzzle nim"
        yield "/nim start 1 2"
        yield "/puzzle"
        yield "/answer 1 1"
        yield "/cancel"
        yield "/puzzle"

    text = await session(tmp_path / "c.db", tmp_path / "pictures", script, Clock())
    assert text.count("A game is being played here: puzzles wait until it is over") == 2
    assert "Your puzzle is still open here:" in text
