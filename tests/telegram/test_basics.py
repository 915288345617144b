"""Commands, photos and buttons through the real python-telegram-bot client."""

from __future__ import annotations

from tests.support.pictures import picture
from tests.telegram.conftest import GROUP, World


async def test_nim_start_then_join_answers_with_a_png_the_standin_received(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/nim start 3 4 5")
    lobby = await api.wait(lambda: api.to_chat(GROUP))
    assert "Alice opened a table for Nim" in lobby[0].text
    [join] = lobby[0].buttons
    assert join["text"] == "Join" and len(join["callback_data"].encode()) <= 64
    press = await api.press(world.bob, GROUP, 1, join["callback_data"])
    photo = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert picture(photo[0].photo).size[0] > 100  # a PNG that decodes, board-sized, not blank
    assert "Nim begins: Alice vs Bob" in photo[0].text
    assert 'href="tg://user?id=101"' in photo[0].text  # Alice is pinged: her move
    assert api.answer(press) is not None  # the spinner stops
    menu = {c["command"] for c in api.of("setMyCommands")[0].params["commands"]}
    assert {"nim", "join", "accept", "take", "help"} <= menu
