"""The web site from a Telegram group, through the real python-telegram-bot client against the
stand-in Bot API: off by default (a finished game has no replay link), `/web on` by the group's
admins only, then results link to their replay and /leaderboard and /stats to their pages."""

from __future__ import annotations

import re

from bot.web import access
from tests.telegram.conftest import CHANNEL, GROUP, World, two_player_nim

URL = "https://example.org/games/"


def results(world: World) -> list[str]:
    return [e.text for e in world.api.of("editMessageMedia", chat_id=GROUP) if "🏆" in e.text]


async def alice_wins(world: World) -> str:
    before = len(results(world))
    await two_player_nim(world, "1")
    await world.api.say(world.alice, GROUP, "/take 1 1")
    return (await world.api.wait(lambda: results(world)[before:]))[0]


async def said(world: World, text: str) -> str:
    found = await world.api.wait(lambda: [c for c in world.api.of("sendMessage", chat_id=GROUP) if text in c.text])
    return found[-1].text


async def test_web_on_by_an_admin_then_replays_and_pages_are_linked(world: World) -> None:
    api, store = world.api, world.table.store
    world.table.host.core.web_url = URL
    assert "Replay:" not in await alice_wins(world)  # off by default in a group
    await api.say(world.alice, GROUP, "/web on")
    assert await said(world, "Only a moderator") and await store.setting(CHANNEL, access.WEB) is None
    api.admins.add((GROUP, 103))  # Carol runs the group
    await api.say(world.carol, GROUP, "/web on")
    assert URL in await said(world, "now shown on the web site")
    result = await alice_wins(world)
    token = re.search(r"Replay: https://example\.org/games/game/([\w-]{22})", result)
    assert token is not None and await access.shown_game(store, token[1]) is not None
    await api.say(world.bob, GROUP, "/leaderboard nim here")
    [board] = await api.wait(lambda: [p for p in api.of("sendPhoto", chat_id=GROUP) if "Leaderboard" in p.text])
    assert re.search(r"More: https://example\.org/games/leaderboard/nim\?place=[\w-]{22}", board.text)
    await api.say(world.bob, GROUP, "/stats @alice")
    [card] = await api.wait(lambda: [p for p in api.of("sendPhoto", chat_id=GROUP) if "Results of Alice" in p.text])
    assert re.search(r"Player page: https://example\.org/games/player/[\w-]{22}", card.text)
    await api.say(world.carol, GROUP, "/web off")
    await said(world, "no longer shown")
    assert await access.shown_game(store, token[1]) is None
