"""The storage contract's puzzle part on both databases: attempts kept as rows (one open per person and
channel, versioned), and the ratings a finished attempt changes, in its own transaction."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.rating_model import Skill
from bot.session import Conflict
from bot.storage import Storage
from bot.storage.puzzle_contract import FAILED, OPEN, SOLVED, Attempt
from tests.conftest import BOTH
from tests.support.stores import opened_store  # noqa: F401  (the fixture `store`)

BACKENDS = BOTH
NOW = 1_700_000_000.0


def an_attempt(channel: str = "c:1", user: str = "u:alice", puzzle: str = "nim:3") -> Attempt:
    return Attempt(channel, user, "Alice", puzzle, {"heaps": [1, 2, 3]}, NOW)


async def test_an_attempt_reads_back_and_moves_on_by_versions(store: Storage) -> None:
    assert await store.puzzle_attempt("c:1", "u:alice") is None
    begun = await store.puzzle_begin(an_attempt(), Skill(21.0, 8.0))
    assert begun.id is not None and begun.version == 1 and begun.status == OPEN
    assert await store.puzzle_attempt("c:1", "u:alice") == begun
    assert await store.puzzle_attempt("c:2", "u:alice") is None and await store.puzzle_attempt("c:1", "u:bob") is None
    stale = replace(begun)
    begun.position = {"heaps": [0, 2, 3]}
    assert await store.puzzle_save(begun) == {} and begun.version == 2
    assert (await store.puzzle_attempt("c:1", "u:alice")) == begun
    with pytest.raises(Conflict):
        await store.puzzle_save(stale)  # read before the save above: changes nothing
    assert (await store.puzzle_attempt("c:1", "u:alice")).position == {"heaps": [0, 2, 3]}  # type: ignore[union-attr]


async def test_one_open_attempt_per_person_and_channel(store: Storage) -> None:
    await store.puzzle_begin(an_attempt(), Skill())
    with pytest.raises(Conflict):
        await store.puzzle_begin(an_attempt(puzzle="nim:4"), Skill())
    await store.puzzle_begin(an_attempt(channel="c:2", puzzle="nim:4"), Skill())
    await store.puzzle_begin(an_attempt(user="u:bob"), Skill())
    assert await store.puzzles_tried("u:alice") == {"nim:3", "nim:4"}


async def test_a_solved_attempt_is_a_win_against_the_puzzle(store: Storage) -> None:
    attempt = await store.puzzle_begin(an_attempt(), Skill(21.0, 8.0))
    assert (await store.puzzle_skills(["nim:3"]))["nim:3"].skill == Skill(21.0, 8.0)  # its prior, until rated
    attempt.status, attempt.finished_at = SOLVED, NOW + 5
    moved = await store.puzzle_save(attempt)
    assert moved["u:alice"][0] == Skill() and moved["u:alice"][1].mu > Skill().mu
    assert moved["nim:3"][0] == Skill(21.0, 8.0) and moved["nim:3"][1].mu < 21.0
    player = await store.puzzle_player("u:alice")
    assert player is not None and (player.solved, player.tried, player.name) == (1, 1, "Alice")
    assert player.skill == moved["u:alice"][1]
    puzzle = (await store.puzzle_skills(["nim:3", "nim:9"]))
    assert list(puzzle) == ["nim:3"] and (puzzle["nim:3"].solved, puzzle["nim:3"].tried) == (1, 1)
    assert await store.puzzle_attempt("c:1", "u:alice") is None
    with pytest.raises(Conflict):
        await store.puzzle_save(attempt)  # a finished attempt is not written again


async def test_failed_counts_as_a_loss_and_help_or_a_second_try_counts_for_nothing(store: Storage) -> None:
    first = await store.puzzle_begin(an_attempt(), Skill())
    first.status = FAILED
    lost = await store.puzzle_save(first)
    assert lost["u:alice"][1].mu < Skill().mu and lost["nim:3"][1].mu > Skill().mu
    aided = await store.puzzle_begin(an_attempt(puzzle="nim:5"), Skill())
    aided.aided = True
    await store.puzzle_save(aided)
    aided.status = SOLVED
    assert await store.puzzle_save(aided) == {}
    again = await store.puzzle_begin(replace(an_attempt(), rated=False), Skill())
    again.status = SOLVED
    assert await store.puzzle_save(again) == {}
    player = await store.puzzle_player("u:alice")
    assert player is not None and (player.solved, player.tried) == (0, 1)


async def test_the_leaderboard_orders_by_the_conservative_rating(store: Storage) -> None:
    assert await store.puzzle_leaderboard() == []
    for user, solved in (("u:a", 3), ("u:b", 1), ("u:c", 0)):
        for n in range(3):
            attempt = await store.puzzle_begin(an_attempt(user=user, puzzle=f"gomoku:{n}"), Skill())
            attempt.status = SOLVED if n < solved else FAILED
            await store.puzzle_save(attempt)
    board = await store.puzzle_leaderboard(limit=2)
    assert [user for user, _ in board] == ["u:a", "u:b"]
    assert board[0][1].solved == 3 and board[0][1].skill.ordinal > board[1][1].skill.ordinal
