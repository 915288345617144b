"""Puzzles through the real discord.py client against the stand-in Discord: a puzzle of each game
solved move by move with /answer, a wrong move answered (the better move ephemeral, as a hint is), the
rating on /stats and /leaderboard puzzle, the daily puzzle the same for two people, and a puzzle
resumed after a restart."""

from __future__ import annotations

from pathlib import Path

from bot.puzzles import catalog
from engines.gomoku import Gomoku, Point
from engines.gomoku.puzzles import state_of, winning_moves
from engines.puzzles import puzzles_of
from tests.discord.conftest import PNG, Bot, first_channel, run, said_to, start_bot
from tests.discord.fake import ALICE, BOB, FakeDiscord, Person


async def next_move(bot: Bot, channel: int, person: Person = ALICE) -> str | None:
    attempt = await bot.host.store.puzzle_attempt(f"discord:{channel}", f"discord:{person.id}")
    if attempt is None:
        return None
    game, data = catalog.find(attempt.puzzle) or ("", None)
    return puzzles_of(game).solution(data, attempt.position)[0]


async def losing_gomoku_move(bot: Bot, channel: int) -> str:
    """An empty point of Alice's open Gomoku puzzle that does not win."""
    attempt = await bot.host.store.puzzle_attempt(f"discord:{channel}", f"discord:{ALICE.id}")
    assert attempt is not None
    state = state_of(attempt.position)
    good = set(winning_moves(state))
    return next(p.name for p in Gomoku().legal_moves(state, state.turn) if isinstance(p, Point) and p not in good)


async def losing_nim_move(bot: Bot, channel: int) -> str:
    """A move of Alice's open Nim puzzle other than its one winning move."""
    good = await next_move(bot, channel)
    attempt = await bot.host.store.puzzle_attempt(f"discord:{channel}", f"discord:{ALICE.id}")
    assert attempt is not None
    heaps = attempt.position["heaps"]
    return next(f"{i + 1} {k}" for i, n in enumerate(heaps) for k in (1, 2) if k <= n and f"{i + 1} {k}" != good)


async def test_a_puzzle_of_each_game_solved_and_rated(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    for game in catalog.GAMES:
        await run(fake, ALICE, "puzzle", channel, what=game)
        shown = fake.last(channel, "Answer with /answer")
        assert shown is not None and shown.png is not None and shown.png.startswith(PNG)
        while (move := await next_move(bot, channel)) is not None:
            await run(fake, ALICE, "answer", channel, move=move)
        assert fake.last(channel, "🎉 Alice solved it") is not None
    await run(fake, BOB, "stats", channel, user=ALICE)
    card = fake.channel(channel)[-1]
    assert "Results of Alice" in card.content and card.files[0][0] == "stats.png"
    await run(fake, BOB, "leaderboard", channel, game="puzzle")
    board = fake.channel(channel)[-1]
    assert "Leaderboard · Puzzles" in board.content and board.files[0][0] == "leaderboard.png"
    player = await bot.host.store.puzzle_player(f"discord:{ALICE.id}")
    assert player is not None and (player.solved, player.tried) == (4, 4)


async def test_a_wrong_move_and_a_hint_are_answered_the_better_move_to_the_player_alone(fake: FakeDiscord,
                                                                                        bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "puzzle", channel, what="gomoku")
    hint = await said_to(fake, await run(fake, ALICE, "puzzle", channel, what="hint"), "Try ")
    assert hint.ephemeral and hint.visible_to == ALICE.id
    await run(fake, ALICE, "answer", channel, move=await losing_gomoku_move(bot, channel))
    assert fake.last(channel, "lets the win go: Alice's puzzle is over.") is not None
    assert fake.last(channel, "Not rated.") is not None  # the hint made it count for nothing
    everyone = " ".join(m.content for m in fake.channel(channel))
    assert "Try " not in everyone and "A move that kept the win" not in everyone
    await run(fake, ALICE, "puzzle", channel, what="nim")
    wrong = await run(fake, ALICE, "answer", channel, move=await losing_nim_move(bot, channel))
    told = await said_to(fake, wrong, "A move that kept the win: ")
    assert told.ephemeral and told.visible_to == ALICE.id
    assert fake.last(channel, "Puzzle rating 0.0 → -") is not None


async def test_the_daily_puzzle_for_two_and_a_restart_mid_puzzle(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    bot = await start_bot(fake, db)
    channel = first_channel(fake)
    try:
        await run(fake, ALICE, "puzzle", channel, what="daily")
        await run(fake, BOB, "puzzle", channel, what="daily")
        alice = await bot.host.store.puzzle_attempt(f"discord:{channel}", f"discord:{ALICE.id}")
        bob = await bot.host.store.puzzle_attempt(f"discord:{channel}", f"discord:{BOB.id}")
        assert alice is not None and bob is not None and alice.puzzle == bob.puzzle and alice.daily == bob.daily
        await run(fake, ALICE, "puzzle", channel, what="solution")
        await run(fake, ALICE, "puzzle", channel, what="gomoku")
        await run(fake, ALICE, "answer", channel, move=await next_move(bot, channel) or "")
        assert fake.last(channel, "The defence answers ") is not None
        await bot.stop()
        bot = await start_bot(fake, db)
        await run(fake, ALICE, "puzzle", channel)
        assert fake.last(channel, "Your puzzle is still open here:") is not None
        while (move := await next_move(bot, channel)) is not None:
            await run(fake, ALICE, "answer", channel, move=move)
        assert fake.last(channel, "🎉 Alice solved it") is not None
    finally:
        await bot.stop()
