"""/review as a Telegram group sees it: refused during a game, then the result's Review button and
/review in Chinese answer the group with the picture and its text."""

from __future__ import annotations

from tests.console.test_review import BLUNDER
from tests.support.pictures import picture
from tests.telegram.conftest import GROUP, World, button, last_message_id


async def two_play(world: World, opening: str) -> None:
    """Alice opens a game in the group with `opening`, Bob joins, and its first board is shown."""
    api = world.api
    await api.say(world.alice, GROUP, opening)
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(world.bob, GROUP, "/join")
    await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))


async def test_a_gomoku_blunder_reviewed_by_button_and_in_chinese(world: World) -> None:
    api = world.api
    await two_play(world, "/gomoku start")
    for i, point in enumerate(BLUNDER):
        if i == 3:
            await api.say(world.carol, GROUP, "/review")
            await api.wait(lambda: [c for c in api.to_chat(GROUP) if "only for a finished game" in c.text])
        await api.say(world.alice if i % 2 == 0 else world.bob, GROUP, f"/move {point}")
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if c.photo and "Alice wins" in c.text])
    result = [c for c in api.to_chat(GROUP) if c.buttons and any(b["text"] == "Review" for b in c.buttons)][-1]
    message = result.params.get("message_id") or last_message_id(world)
    await api.press(world.carol, GROUP, message, button(result, "Review"))
    shown = await api.wait(lambda: [c for c in api.of("sendPhoto", chat_id=GROUP) if c.text.startswith("Move 6, a15")])
    assert "let black win at once (" in shown[0].text and "Alice won from there." in shown[0].text
    picture(shown[0].photo)
    await api.say(world.alice, GROUP, "/lang zh")
    await api.say(world.bob, GROUP, "/review 1")  # (a Chinese word after / is no command to Telegram)
    again = await api.wait(lambda: [c for c in api.of("sendPhoto", chat_id=GROUP) if c.text.startswith("第 6 步")])
    assert "让黑棋立刻取胜" in again[0].text and "此后 Alice 获胜。" in again[0].text
    assert api.broken_rules() == []


async def test_a_nim_review_matches_the_theory(world: World) -> None:
    api = world.api
    await two_play(world, "/nim start 3 4 5")
    for i, move in enumerate(("1 1", "2 4", "3 5", "1 2")):  # each lets the win go (3 4 5 is won for Alice)
        await api.say(world.alice if i % 2 == 0 else world.bob, GROUP, f"/take {move}")
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if "Bob wins" in c.text])
    await api.say(world.carol, GROUP, "/review")
    shown = await api.wait(lambda: [c for c in api.of("sendPhoto", chat_id=GROUP) if c.text.startswith("Move 3")])
    assert shown[0].text.startswith("Move 3, Alice took 5 from heap 3 and left the other a win (taking 3 from heap 3")
    assert "Mistakes found: Alice 2, Bob 1." in shown[0].text
    picture(shown[0].photo)
