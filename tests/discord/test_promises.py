"""The README's promise that each accepted move is committed before its reply is sent, seen
where a player sees the reply: when Discord receives the board, another connection to the
database already holds the move (a move by slash command, one by button, the bot's own)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_hidden_pictures import moves_in
from tests.discord.conftest import Bot, board_saying, first_channel, run
from tests.discord.fake import ALICE, BOB, FakeDiscord, Message


def watch_boards(fake: FakeDiscord, db: Path) -> list[tuple[str, int]]:
    """(each new board's text, moves another connection sees as Discord receives it)."""
    seen: list[tuple[str, int]] = []

    def watch(message: Message) -> None:
        if message.png is not None and message.edits == 0:
            seen.append((message.content, moves_in(db)))

    fake.watchers.append(watch)
    return seen


async def test_each_move_is_in_the_database_when_discord_receives_its_board(fake: FakeDiscord, bot: Bot,
                                                                            tmp_path: Path) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim start", channel, heaps="3 4 5")
    await run(fake, BOB, "join", channel)
    await board_saying(fake, channel, "Nim begins")
    seen = watch_boards(fake, tmp_path / "games.db")
    await run(fake, ALICE, "take", channel, args="1 2")
    await fake.wait(lambda: seen)
    await run(fake, BOB, "take", channel, args="2 1")
    await fake.wait(lambda: seen[1:])
    assert [("Alice took 2 stones" in text, n) for text, n in seen] == [(True, 1), (False, 2)]


async def test_the_bots_move_is_in_the_database_when_discord_receives_it(fake: FakeDiscord, bot: Bot,
                                                                        tmp_path: Path) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim solo", channel, level="easy", heaps="3 4 5")
    await board_saying(fake, channel, "Alice, your move.")
    seen = watch_boards(fake, tmp_path / "games.db")
    await run(fake, ALICE, "take", channel, args="1 1")
    await fake.wait(lambda: [s for s in seen if "Bot (easy) took" in s[0]])
    assert [n for text, n in seen if "Bot (easy) took" in text] == [2]
