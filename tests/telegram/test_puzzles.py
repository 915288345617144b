"""Puzzles through the real python-telegram-bot client against the stand-in Bot API: a puzzle of each
game solved in a group with /answer, a wrong move answered, a hint and the better move in the private
chat only, the rating on /stats and /leaderboard puzzle, the daily puzzle the same for two people, and
a puzzle resumed after a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.puzzles import catalog
from bot.storage.puzzle_contract import Attempt
from engines.gomoku import Gomoku, Point
from engines.gomoku.puzzles import state_of, winning_moves
from engines.puzzles import puzzles_of
from tests.conftest import Clock
from tests.telegram.conftest import CHANNEL, GROUP, World, make_world


async def attempt_of(world: World, person: dict[str, Any]) -> Attempt | None:
    return await world.table.store.puzzle_attempt(CHANNEL, f"telegram:{person['id']}")


async def said(world: World, person: dict[str, Any], text: str, changes: bool = True) -> None:
    """`person` says `text` in the group; returns once the bot posted there and (`changes`) their puzzle
    row has changed."""
    before = await attempt_of(world, person)
    count = len(world.api.to_chat(GROUP))
    await world.api.say(person, GROUP, text)
    for _ in range(1200):
        now = await attempt_of(world, person)
        changed = (now is None) != (before is None) or (now and before and now.version != before.version)
        if (changed or not changes) and len(world.api.to_chat(GROUP)) > count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no answer to {text!r}: {[c.text for c in world.api.to_chat(GROUP)][-3:]}")


async def next_move(world: World, person: dict[str, Any]) -> str | None:
    attempt = await attempt_of(world, person)
    if attempt is None:
        return None
    game, data = catalog.find(attempt.puzzle) or ("", None)
    return puzzles_of(game).solution(data, attempt.position)[0]


async def losing_gomoku_move(world: World) -> str:
    """An empty point of Alice's open Gomoku puzzle that does not win."""
    attempt = await attempt_of(world, world.alice)
    assert attempt is not None
    state = state_of(attempt.position)
    good = set(winning_moves(state))
    return next(p.name for p in Gomoku().legal_moves(state, state.turn) if isinstance(p, Point) and p not in good)


def group_text(world: World) -> str:
    return "\n".join(c.text for c in world.api.to_chat(GROUP))


async def test_a_puzzle_of_each_game_solved_then_rated_and_a_wrong_move_answered(world: World) -> None:
    api = world.api
    api.opened.add(101)
    for game in catalog.GAMES:
        await said(world, world.alice, f"/puzzle {game}")
        while (move := await next_move(world, world.alice)) is not None:
            await said(world, world.alice, f"/answer {move}")
    text = group_text(world)
    assert text.count("🎉 Alice solved it") == 4 and "Puzzle rating 0.0 → " in text
    assert len([c for c in api.to_chat(GROUP) if c.photo]) >= 8  # each puzzle's picture, and after each answer
    await said(world, world.alice, "/puzzle gomoku")
    await api.say(world.alice, GROUP, "/puzzle hint")
    await api.wait(lambda: [c for c in api.to_chat(101) if "Try " in c.text])
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if "Open the private chat" in c.text] or True)
    await said(world, world.alice, f"/answer {await losing_gomoku_move(world)}")
    await api.wait(lambda: [c for c in api.to_chat(101) if "A move that kept the win: " in c.text])
    text = group_text(world)
    assert "lets the win go: Alice's puzzle is over." in text and "Not rated." in text
    assert "Try " not in text and "A move that kept the win" not in text
    await api.say(world.bob, GROUP, "/stats @alice")
    await api.say(world.bob, GROUP, "/leaderboard puzzle")
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if "Leaderboard · Puzzles" in c.text])
    player = await world.table.store.puzzle_player("telegram:101")
    assert player is not None and (player.solved, player.tried) == (4, 4)


async def test_the_daily_puzzle_for_two_and_a_restart_mid_puzzle(tmp_path: Path, clock: Clock) -> None:
    db = tmp_path / "games.db"
    world = await make_world(tmp_path, clock, db)
    try:
        await said(world, world.alice, "/puzzle daily")
        await said(world, world.bob, "/puzzle daily")
        alice, bob = await attempt_of(world, world.alice), await attempt_of(world, world.bob)
        assert alice is not None and bob is not None and alice.puzzle == bob.puzzle == catalog.daily(alice.daily or "")
        await said(world, world.alice, "/puzzle solution")
        await said(world, world.alice, "/puzzle gomoku")
        await said(world, world.alice, f"/answer {await next_move(world, world.alice)}")
        await world.api.wait(lambda: "The defence answers " in group_text(world) or None)
    finally:
        await world.stop()
    world = await make_world(tmp_path, clock, db)
    try:
        await said(world, world.alice, "/puzzle", changes=False)
        await world.api.wait(lambda: "Your puzzle is still open here:" in group_text(world) or None)
        while (move := await next_move(world, world.alice)) is not None:
            await said(world, world.alice, f"/answer {move}")
        await world.api.wait(lambda: "🎉 Alice solved it" in group_text(world) or None)
    finally:
        await world.stop()
