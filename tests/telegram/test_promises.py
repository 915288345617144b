"""The README's promise that each accepted move is committed before its reply is sent, seen
where a player sees the reply: when the Bot API receives the board, another connection to the
database already holds the move (a typed move, and the bot's own move sent unasked)."""

from __future__ import annotations

from tests.bot.test_hidden_pictures import moves_in
from tests.telegram.conftest import GROUP, World, two_player_nim
from tests.telegram.standin import Call


def watch_boards(world: World) -> list[tuple[str, int]]:
    """(first line of each board edit, moves another connection sees as Telegram receives it)."""
    seen: list[tuple[str, int]] = []

    def watch(call: Call) -> None:
        if call.method == "editMessageMedia" and call.chat_id == GROUP:
            seen.append((call.text.splitlines()[0], moves_in(world.table.db)))

    world.api.watchers.append(watch)
    return seen


async def test_each_move_is_in_the_database_when_telegram_receives_its_board(world: World) -> None:
    api = world.api
    await two_player_nim(world, "3 4 5")
    seen = watch_boards(world)
    await api.say(world.alice, GROUP, "/take 1 2")
    await api.wait(lambda: seen)
    await api.say(world.bob, GROUP, "/take 2 1")
    await api.wait(lambda: seen[1:])
    assert seen == [("Alice took 2 stones from heap 1.", 1), ("Bob took 1 stone from heap 2.", 2)]


async def test_the_bots_move_is_in_the_database_when_telegram_receives_it(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/nim solo easy 3 4 5")
    await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    seen = watch_boards(world)
    await api.say(world.alice, GROUP, "/take 1 1")
    await api.wait(lambda: [s for s in seen if "Bot (easy)" in s[0]])
    assert [n for line, n in seen if "Bot (easy)" in line] == [2]
