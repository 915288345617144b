"""A tournament in a Telegram group (no topics): the round's games one after another in the group,
played there with the ordinary commands; the standings and the podium as photos with their text."""

from __future__ import annotations

import asyncio

from bot.tournament.model import EventStatus
from tests.telegram.conftest import CHANNEL, GROUP, World


async def test_a_round_robin_in_a_group_plays_its_games_in_turn(world: World) -> None:
    api, host = world.api, world.table.host
    await api.say(world.alice, GROUP, "/nim tournament roundrobin 2 2")
    await api.wait(lambda: [m for m in api.to_chat(GROUP) if "opened a Nim round robin" in m.text])
    await api.say(world.bob, GROUP, "/join")
    await api.say(world.alice, GROUP, "/join bot easy")
    await api.wait(lambda: [m for m in api.to_chat(GROUP) if "(3 entrants)" in m.text])
    await api.say(world.alice, GROUP, "/go")
    people = {"telegram:101": world.alice, "telegram:102": world.bob}
    async with asyncio.timeout(120):
        while (event := await world.table.store.event_latest(CHANNEL)).status.active:
            for user_id, person in people.items():
                moves = await host.legal_moves(CHANNEL, user_id)
                if moves:
                    sent = len(api.to_chat(GROUP))
                    await api.say(person, GROUP, f"/move {moves[0]}")
                    await api.wait(lambda n=sent: len(api.to_chat(GROUP)) > n)
                    break
            else:
                await asyncio.sleep(0.05)
    assert event.status == EventStatus.FINISHED and event.round == 3
    assert {g.place for g in event.games if not g.bye} == {CHANNEL}  # all in the group, one after another
    podium = await api.wait(lambda: [m for m in api.of("sendPhoto", chat_id=GROUP) if "podium" in m.text])
    assert podium and any("final standings" in m.text for m in api.of("sendPhoto", chat_id=GROUP))
