"""Ratings, /leaderboard, /stats, /link and watch mode through the real python-telegram-bot
client against the stand-in Bot API, on SQLite and on PostgreSQL."""

from __future__ import annotations

import re

from bot.model import Event, User
from bot.session import SessionStatus
from tests.conftest import BOTH
from tests.telegram.conftest import GROUP, World, last_message_id, session, two_player_nim

BACKENDS = BOTH


async def alice_wins_nim(world: World) -> None:
    api = world.api
    await two_player_nim(world, "1")
    await api.say(world.alice, GROUP, "/take 1 1")
    await api.wait(lambda: [e for e in api.of("editMessageMedia", chat_id=GROUP) if "🏆 Alice wins" in e.text])


async def test_leaderboard_and_stats_are_pictures_in_the_group(world: World) -> None:
    api = world.api
    await alice_wins_nim(world)
    await api.say(world.carol, GROUP, "/leaderboard nim here")
    [board] = await api.wait(lambda: [p for p in api.of("sendPhoto", chat_id=GROUP) if "Leaderboard · Nim" in p.text])
    assert board.photo[:4] == b"\x89PNG" and "This server or group" in board.text
    await api.say(world.bob, GROUP, "/stats @alice")
    [card] = await api.wait(lambda: [p for p in api.of("sendPhoto", chat_id=GROUP) if "Results of Alice" in p.text])
    assert card.photo[:4] == b"\x89PNG"


async def test_link_code_goes_to_the_private_chat_and_joins_another_platform(world: World) -> None:
    api = world.api
    await alice_wins_nim(world)
    api.opened.add(101)  # Alice has talked to the bot before
    await api.say(world.alice, GROUP, "/link")
    [sent] = await api.wait(lambda: [m for m in api.to_chat(101) if "Your code" in m.text])
    assert not [m for m in api.to_chat(GROUP) if "Your code" in m.text]  # never in the group
    code = re.search(r"code: ([A-Z2-9]{6})", sent.text)[1]
    console_alice = User("console:alice", "alice")
    replies = await world.table.host.handle(Event("console:main", console_alice, f"/link {code}", place="console"))
    assert "your 2 accounts now share" in replies[0].text
    stats = await world.table.host.handle(Event("console:main", console_alice, "/stats"))
    assert "1 won · 0 lost" in stats[0].text_board


async def test_watch_mode_edits_the_board_in_place_move_by_move(world: World) -> None:
    api, clock, host = world.api, world.table.clock, world.table.host
    await api.say(world.alice, GROUP, "/nim watch easy hard every=2 2 3")
    await api.wait(lambda: [p for p in api.of("sendPhoto", chat_id=GROUP) if "The bots play" in p.text])
    board_id = last_message_id(world)
    moves = 0
    while (await session(world)).status == SessionStatus.PLAYING and moves < 20:
        clock.advance(2)
        await host.expire_due()
        await host.idle()
        moves += 1
        await api.wait(lambda n=moves: len(api.of("editMessageMedia", chat_id=GROUP)) >= n)
    edits = api.of("editMessageMedia", chat_id=GROUP)
    assert (await session(world)).status == SessionStatus.FINISHED and len(edits) == (await session(world)).ply
    assert {e.params["message_id"] for e in edits} == {board_id}  # one table message, edited in place
    assert "Bot (easy) took" in edits[0].text and "wins" in edits[-1].text
    # another, stopped by Bob, who did not start it
    await api.say(world.alice, GROUP, "/gomoku watch hard master every=5")
    await api.wait(lambda: (len(api.of("sendPhoto", chat_id=GROUP)) == 2) or None)
    await api.say(world.bob, GROUP, "/cancel")
    await api.wait(lambda: [m for m in api.to_chat(GROUP) if "Bob cancelled" in m.text])
    assert (await session(world)).status == SessionStatus.CANCELLED
