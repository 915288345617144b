"""Buttons made before a restart work after it, on Telegram: the next process (same SQLite file,
nothing in memory) answers Agree and Refuse, the Dou Dizhu bids, Pass, Hint and My hand pressed
on messages the previous one sent."""

from __future__ import annotations

from typing import Any

import engines
from bot.adapters.telegram import Telegram, TelegramOptions
from tests.conftest import Clock, close_table, open_table
from tests.telegram.conftest import GROUP, World, session, two_player_nim
from tests.telegram.standin import TOKEN


async def restart(world: World, clock: Clock) -> None:
    """The bot process ends and a new one starts on the same database."""
    await world.tg.stop()
    await close_table(world.table)
    world.table = await open_table(world.table.db, clock)
    world.tg = Telegram(world.table.host, TelegramOptions(TOKEN, api_url=world.api.url, poll_timeout=5.0,
                                                          group_rate=0))
    await world.tg.start()


def button_now(world: World, label: str) -> tuple[int, str]:
    """(message id, callback data) of the newest group message with a button `label`."""
    for message in reversed(world.api.bot_messages(GROUP)):
        for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
            for key in row:
                if key["text"] == label:
                    return message["message_id"], key["callback_data"]
    raise AssertionError(f"no button {label!r} in the group")


async def press(world: World, person: dict[str, Any], label: str) -> Any:
    """`person` presses `label`; the answer to the press (once the bot has answered it)."""
    message_id, data = button_now(world, label)
    query = await world.api.press(person, GROUP, message_id, data)
    return await world.api.wait(lambda: world.api.answer(query))


async def test_agree_refuse_and_hint_after_a_restart(world: World, clock: Clock) -> None:
    api = world.api
    await two_player_nim(world, "3 4 5")
    await api.say(world.alice, GROUP, "/take 1 1")
    await api.say(world.bob, GROUP, "/take 2 1")
    await api.say(world.bob, GROUP, "/undo")
    await api.wait(lambda: [m for m in api.bot_messages(GROUP) if "asks to take back" in m.get("text", "")])
    await restart(world, clock)
    await press(world, world.alice, "Refuse")
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if "Alice said no." in c.text])
    assert (await session(world)).state["heaps"] == [2, 3, 5] and (await session(world)).offer is None

    await api.say(world.bob, GROUP, "/undo")
    await api.wait(lambda: len([m for m in api.bot_messages(GROUP) if "asks to take back" in m.get("text", "")]) == 2)
    await restart(world, clock)
    await press(world, world.alice, "Agree")
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if "Bob took back a move." in c.text])
    assert (await session(world)).state["heaps"] == [2, 4, 5]

    await restart(world, clock)
    hint = await press(world, world.bob, "Hint")  # Bob is to move again
    assert hint.params.get("show_alert") and "Hint" in hint.params["text"]


async def test_bids_pass_and_my_hand_after_a_restart(world: World, clock: Clock) -> None:
    api = world.api
    api.opened.update({101, 102, 103})  # everyone has a private chat with the bot
    people = [world.alice, world.bob, world.carol]
    ddz = engines.get("doudizhu")
    await api.say(world.alice, GROUP, "/ddz start")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(world.bob, GROUP, "/join")
    await api.say(world.carol, GROUP, "/join")
    await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    bidder = ddz.to_move(ddz.from_json((await session(world)).state))
    await restart(world, clock)
    await press(world, people[bidder], "Bid 3")
    name = people[bidder]["first_name"]
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if c.text.startswith(f"{name} bid 3 and is the landlord.")])
    state = ddz.from_json((game := await session(world)).state)
    landlord = ddz.to_move(state)
    assert landlord == bidder and game.ply == 1  # the bid was played: the bidder leads as landlord

    lead = next(m for m in ddz.legal_moves(state, landlord) if ddz.move_text(state, m) not in ("pass", "Pass"))
    await api.say(people[landlord], GROUP, f"/move {ddz.move_text(state, lead)}")
    follower = (landlord + 1) % 3
    await api.wait(lambda: button_now_or_none(world, "Pass"))
    await restart(world, clock)
    before = (await session(world)).ply
    await press(world, people[follower], "Pass")
    name = people[follower]["first_name"]
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if c.text.startswith(f"{name} passed.")])
    after = await session(world)
    assert after.ply == before + 1 and ddz.to_move(ddz.from_json(after.state)) == (follower + 1) % 3

    await restart(world, clock)
    mine = len(api.to_chat(people[follower]["id"]))
    await press(world, people[follower], "My hand")
    shown = await api.wait(lambda: api.to_chat(people[follower]["id"])[mine:])
    assert "hand" in shown[0].text.lower() and shown[0].photo is not None


def button_now_or_none(world: World, label: str) -> tuple[int, str] | None:
    try:
        return button_now(world, label)
    except AssertionError:
        return None
