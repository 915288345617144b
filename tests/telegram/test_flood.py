"""The flood limit of one group holds up neither other chats nor what is not a message.

Neither test asks the machine to answer fast: where one chat must not wait for another, the
group's second message is held for 15 s, long enough for every other answer to come however busy
the machine; where the held message must come, only "not before its slot" is checked, which a busy
machine cannot break."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Clock
from tests.telegram.conftest import GROUP, make_world


async def test_a_group_out_of_budget_holds_up_no_other_chat(tmp_path: Path, clock: Clock) -> None:
    world = await make_world(tmp_path, clock, group_rate=1, group_period=15)  # one message per 15 s in a group
    api = world.api
    try:
        api.opened.add(102)
        await api.say(world.alice, GROUP, "/help")
        await api.wait(lambda: api.to_chat(GROUP))  # the group's budget is spent for 15 s
        await api.say(world.alice, GROUP, "/games")  # waits for the group's next slot
        await api.say(world.bob, 102, "/games")  # a private chat is answered meanwhile
        [games] = await api.wait(lambda: api.to_chat(102))
        assert games.text.startswith("Games:")
        await world.tg.app.bot.send_chat_action(GROUP, "typing")  # not a message: not held up either
        assert api.of("sendChatAction", chat_id=GROUP)
        assert len(api.to_chat(GROUP)) == 1  # the group's second answer is still held
    finally:
        await world.stop()


async def test_a_held_message_comes_in_its_slot(tmp_path: Path, clock: Clock) -> None:
    world = await make_world(tmp_path, clock, group_rate=1, group_period=2)  # one message per 2 s in a group
    api = world.api
    try:
        await api.say(world.alice, GROUP, "/help")
        await api.wait(lambda: api.to_chat(GROUP))
        await api.say(world.alice, GROUP, "/games")  # waits for the group's next slot
        # Held, not dropped: it comes once the group has budget again (not before; later on a busy machine).
        first, held = await api.wait(lambda: api.to_chat(GROUP)[1:] and api.to_chat(GROUP))
        assert held.text.startswith("Games:") and held.at - first.at >= 1.5
    finally:
        await world.stop()
