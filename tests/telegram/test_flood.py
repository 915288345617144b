"""The flood limit of one group holds up neither other chats nor what is not a message."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Clock
from tests.telegram.conftest import GROUP, make_world


async def test_a_group_out_of_budget_holds_up_no_other_chat(tmp_path: Path, clock: Clock) -> None:
    world = await make_world(tmp_path, clock, group_rate=1, group_period=4)  # one message per 4 s in a group
    api = world.api
    try:
        api.opened.add(102)
        await api.say(world.alice, GROUP, "/help")
        await api.wait(lambda: api.to_chat(GROUP))  # the group's budget is spent for 4 s
        await api.say(world.alice, GROUP, "/games")  # waits for the group's next slot
        await api.say(world.bob, 102, "/games")  # a private chat is answered meanwhile
        [games] = await api.wait(lambda: api.to_chat(102))
        assert games.text.startswith("Games:") and len(api.to_chat(GROUP)) == 1
        await world.tg.app.bot.send_chat_action(GROUP, "typing")  # not a message: not held up either
        assert api.of("sendChatAction", chat_id=GROUP)
        # The group's own answer was held, not dropped: it comes once the group has budget again.
        first, held = await api.wait(lambda: api.to_chat(GROUP)[1:] and api.to_chat(GROUP))
        assert held.text.startswith("Games:") and held.at - first.at >= 3.5 and held.at > games.at
        [typing] = api.of("sendChatAction", chat_id=GROUP)
        assert typing.at < held.at  # the typing action did not wait behind the held message
    finally:
        await world.stop()
