"""Help through the real python-telegram-bot client: the first hint tells the player, in their
private chat only, that the game will not be rated for them; a move taken back says so in the
group; the ratings of the game follow (`bot.rating_model`)."""

from __future__ import annotations

from tests.telegram.conftest import GROUP, World, session, two_player_nim

NOTICE = "this game will not be rated for you: you asked for a hint"


async def test_a_hint_in_the_private_chat_says_the_game_is_not_rated_and_a_take_back_says_so_in_the_group(
        world: World) -> None:
    api = world.api
    api.opened.update({101, 102})
    await two_player_nim(world, "3 4 5")
    await api.say(world.alice, GROUP, "/hint")
    [hint] = await api.wait(lambda: [m for m in api.to_chat(101) if m.text.startswith("Hint: ")])
    assert NOTICE in hint.text
    await api.say(world.alice, GROUP, "/take 1 1")
    await api.say(world.bob, GROUP, "/take 2 1")
    await api.say(world.bob, GROUP, "/undo")
    await api.wait(lambda: [m for m in api.to_chat(GROUP) if "asks to take back" in m.text])
    await api.say(world.alice, GROUP, "/accept")
    await api.wait(lambda: [m for m in api.to_chat(GROUP) if "Bob took back a move." in m.text])
    group = " ".join(m.text for m in api.to_chat(GROUP))
    assert "This game will not be rated for Bob: they took moves back." in group
    assert "Hint:" not in group and NOTICE not in group  # the hint and its notice: Alice's alone
    assert (await session(world)).aided == {0: "hint", 1: "undo"}
    await api.say(world.bob, GROUP, "/resign")
    await api.wait(lambda: [m for m in api.of("editMessageMedia", chat_id=GROUP) if "Alice wins" in m.text])
    assert await world.table.store.skills("nim") == {}  # both had help: nobody's rating moved
