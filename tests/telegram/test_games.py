"""Whole games as a Telegram group sees them: challenges, stale buttons, the table message
edited in place, a game against the AI, and a burst of moves under Telegram's flood limit."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.telegram import Telegram, TelegramOptions
from tests.conftest import Clock, close_table, open_table
from tests.telegram.conftest import CHANNEL, GROUP, World, button, last_message_id, make_world, session, two_player_nim
from tests.telegram.standin import TOKEN, retry_after


async def test_commands_for_another_bot_are_ignored_and_ours_are_read(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/nim@otherbot start 7 7")
    await api.say(world.alice, GROUP, "/nim@GameHost_Bot start 1 2")
    [opened] = await api.wait(lambda: api.to_chat(GROUP))  # one chat, in order: the first was not ours
    assert "Alice opened a table for Nim" in opened.text
    assert (await session(world)).options["heaps"] == [1, 2]


async def test_a_challenge_by_username_is_accepted_only_by_that_user(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/nim challenge @bob 3 4")
    [lobby] = await api.wait(lambda: api.to_chat(GROUP))
    assert "Alice challenges @bob to Nim" in lobby.text
    accept = button(lobby, "Accept")
    wrong = await api.press(world.carol, GROUP, last_message_id(world), accept)
    refused = await api.wait(lambda: api.answer(wrong))
    assert refused.params["show_alert"] is True and refused.params["text"] == "This invitation is not for you."
    right = await api.press(world.bob, GROUP, last_message_id(world), accept)
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "Nim begins: Alice vs Bob" in board.text
    assert api.answer(right) is not None and "text" not in api.answer(right).params
    assert [s.user_id for s in (await session(world)).seats] == ["telegram:101", "telegram:102"]


async def test_a_challenge_by_replying_to_someones_message(world: World) -> None:
    api = world.api
    asked = await api.say(world.carol, GROUP, "anyone for a game?")
    await api.say(world.alice, GROUP, "/nim challenge 2 2", reply_to=asked)
    [lobby] = await api.wait(lambda: api.to_chat(GROUP))
    assert "Alice challenges Carol to Nim" in lobby.text
    assert 'href="tg://user?id=103"' in lobby.text  # Carol has no username: pinged by id
    bobs = await api.say(world.bob, GROUP, "/accept")
    refusal = (await api.wait(lambda: api.to_chat(GROUP)[1:]))[0]
    assert refusal.text == "This invitation is not for you."
    assert refusal.params["reply_parameters"]["message_id"] == bobs["message_id"]  # an answer to Bob's command
    await api.say(world.carol, GROUP, "/accept")
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "Nim begins: Alice vs Carol" in board.text


async def test_a_press_on_a_stale_keyboard_gets_an_alert(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/nim start 3 3")
    [first] = await api.wait(lambda: api.to_chat(GROUP))
    old_join, old_message = button(first, "Join"), last_message_id(world)
    await api.say(world.alice, GROUP, "/cancel")
    await api.say(world.alice, GROUP, "/nim start 1 2")
    await api.wait(lambda: len(api.to_chat(GROUP)) >= 3)
    stale = await api.press(world.bob, GROUP, old_message, old_join)
    alert = await api.wait(lambda: api.answer(stale))
    assert alert.params["show_alert"] is True
    assert alert.params["text"] == "That button is out of date; use the latest message."
    forged = await api.press(world.bob, GROUP, old_message, "not a button of ours")
    alert = await api.wait(lambda: api.answer(forged))
    assert alert.params["text"] == "That button is not one of mine."
    assert (await session(world)).seats[1].user_id is None  # nobody joined the new table by the old button
    assert len(api.to_chat(GROUP)) == 3


async def test_the_table_message_is_edited_in_place_and_posted_anew_when_it_cannot_be(world: World) -> None:
    api = world.api
    board = await two_player_nim(world, "3 4 5")
    await api.say(world.alice, GROUP, "/take 1 1")
    [edit] = await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    assert edit.params["message_id"] == board and edit.photo[:4] == b"\x89PNG"
    assert "Alice took 1 stone from heap 1." in edit.text
    [ping] = await api.wait(lambda: api.of("sendMessage", chat_id=GROUP)[1:])  # [0] is the lobby
    assert ping.text == '<a href="tg://user?id=102">Bob</a>, your move.'
    assert ping.params["reply_parameters"]["message_id"] == board
    first_ping = last_message_id(world)
    await api.say(world.bob, GROUP, "/take 2 1")
    await api.wait(lambda: len(api.of("editMessageMedia", chat_id=GROUP)) == 2)
    await api.wait(lambda: api.of("deleteMessage", chat_id=GROUP, message_id=first_ping))  # one ping at a time
    assert len(api.of("sendPhoto", chat_id=GROUP)) == 1
    # Someone deletes the board: the next move posts a new one, and that one is edited from then on.
    del api.messages[(GROUP, board)]
    await api.say(world.alice, GROUP, "/take 3 1")
    [_, fresh] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP)[1:] and api.of("sendPhoto", chat_id=GROUP))
    assert "Alice took 1 stone from heap 3." in fresh.text
    new_board = last_message_id(world) if "photo" in api.bot_messages(GROUP)[-1] else None
    await api.say(world.bob, GROUP, "/take 3 1")
    edits = await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP)[2:])
    assert edits[0].params["message_id"] == new_board != board
    # /board asks to see it here and now: a new table message.
    await api.say(world.carol, GROUP, "/board")
    await api.wait(lambda: len(api.of("sendPhoto", chat_id=GROUP)) == 3)


async def test_after_a_restart_the_same_table_message_is_edited(world: World, clock: Clock) -> None:
    api = world.api
    board = await two_player_nim(world, "3 4 5")
    await world.tg.stop()
    await close_table(world.table)
    world.table = await open_table(world.table.db, clock)  # the same SQLite file, a new process's worth of state
    world.tg = Telegram(world.table.host, TelegramOptions(TOKEN, api_url=api.url, poll_timeout=5.0, group_rate=0))
    await world.tg.start()
    await api.say(world.alice, GROUP, "/take 1 1")
    [edit] = await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    assert edit.params["message_id"] == board and "Alice took 1 stone from heap 1." in edit.text
    assert len(api.of("sendPhoto", chat_id=GROUP)) == 1


async def test_a_whole_game_against_the_ai_in_one_edited_message(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/nim solo 3 4 5")
    [start] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    board = last_message_id(world)
    assert "Alice, your move." in start.text
    while (game := await session(world)).status == "playing":
        heap = next(i for i, n in enumerate(game.state["heaps"]) if n) + 1
        before = len(api.of("editMessageMedia", chat_id=GROUP))

        def answered(before: int = before) -> bool:
            edits = api.of("editMessageMedia", chat_id=GROUP)[before:]
            return bool(edits) and ("🏆" in edits[-1].text or "Alice, your move." in edits[-1].text)

        await api.say(world.alice, GROUP, f"/take {heap} 1")
        await api.wait(answered)
    edits = api.of("editMessageMedia", chat_id=GROUP)
    assert game.status == "finished" and "🏆 Bot (hard) wins" in edits[-1].text
    assert {e.params["message_id"] for e in edits} == {board}
    assert [b["text"] for b in edits[-1].buttons] == ["Rematch", "Review"]
    assert api.of("sendChatAction", chat_id=GROUP, action="typing")  # "typing…" while the AI thought
    assert api.of("sendMessage", chat_id=GROUP) == []  # no flood: one message for the whole game
    assert len(api.of("sendPhoto", chat_id=GROUP)) == 1


async def test_a_burst_of_moves_under_429_retry_after_loses_nothing(tmp_path: Path, clock: Clock) -> None:
    world = await make_world(tmp_path, clock, group_rate=20)  # Telegram's own limit: 20 a minute per group
    api = world.api
    try:
        await two_player_nim(world, "5 5 5 5")
        api.faults.append(retry_after({"editMessageMedia", "sendMessage", "sendPhoto"}, count=3, seconds=1))
        moves = ["1 1", "1 1", "2 1", "2 1", "3 1", "3 1"]
        for i, move in enumerate(moves):
            await api.say(world.alice if i % 2 == 0 else world.bob, GROUP, f"/take {move}")
        edits = await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP)[5:] and
                               api.of("editMessageMedia", chat_id=GROUP))
        said = [e.text.splitlines()[0] for e in edits]
        assert said == [f"{'Alice' if i % 2 == 0 else 'Bob'} took 1 stone from heap {m[0]}."
                        for i, m in enumerate(moves)]
        assert sum(c.status == 429 for c in api.calls) == 3  # Telegram said "slow down" three times
        assert not api.early  # and the bot waited each time as long as it was told
        assert (await session(world)).state["heaps"] == [3, 3, 3, 5]
        pings = await api.wait(lambda: api.of("sendMessage", chat_id=GROUP)[6:] and api.of("sendMessage",
                                                                                          chat_id=GROUP))
        assert [p.text.startswith('<a href="tg://user?id=10') for p in pings[1:]] == [True] * 6
    finally:
        await world.stop()


async def test_a_challenge_by_a_mention_of_someone_without_a_username(world: World) -> None:
    api = world.api
    text = "/nim challenge Carol Smith 2 3"  # the client marks "Carol Smith" as a text_mention
    entities = [{"type": "bot_command", "offset": 0, "length": 4},
                {"type": "text_mention", "offset": 15, "length": 11, "user": world.carol}]
    await api.say(world.alice, GROUP, text, entities=entities)
    [lobby] = await api.wait(lambda: api.to_chat(GROUP))
    assert "Alice challenges Carol to Nim" in lobby.text and 'href="tg://user?id=103"' in lobby.text
    assert (await session(world)).options["heaps"] == [2, 3]
    press = await api.press(world.carol, GROUP, last_message_id(world), button(lobby, "Accept"))
    await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert api.answer(press) is not None


async def test_group_admins_moderate_and_others_do_not(world: World) -> None:
    api = world.api
    api.admins.add((GROUP, 103))  # Carol runs the group
    await two_player_nim(world, "3 4")
    await api.say(world.alice, GROUP, "/take 1 1")
    await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    await api.say(world.bob, GROUP, "/cancel")
    refused = await api.wait(lambda: [c for c in api.of("sendMessage", chat_id=GROUP) if "cancel it" in c.text])
    assert refused[0].text == "Only the one who opened the table (or a moderator) can cancel it."
    await api.say(world.carol, GROUP, "/cancel")
    done = await api.wait(lambda: [c for c in api.of("sendMessage", chat_id=GROUP) if "Carol cancelled" in c.text])
    assert done[0].text == "Carol cancelled the game of Nim."
    assert {c.params["user_id"] for c in api.of("getChatMember")} == {102, 103}


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(world: World) -> None:
    api = world.api
    await two_player_nim(world, "3 4 5")
    await api.say(world.alice, GROUP, "/take 1 1")
    await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    supergroup = api.group(-1009999, "Games (supergroup)")
    old_chat = {**api.chats[GROUP], "type": "group"}
    await api.push({"message": {"message_id": 900, "date": 0, "chat": old_chat, "from": world.alice,
                                "migrate_to_chat_id": supergroup["id"]}})
    await api.push({"message": {"message_id": 1, "date": 0, "chat": supergroup, "from": world.alice,
                                "migrate_from_chat_id": GROUP}})
    await api.say(world.bob, supergroup["id"], "/take 2 1")
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=supergroup["id"]))
    assert "Bob took 1 stone from heap 2." in board.text and "Alice, your move." in board.text
    moved = await world.table.store.active(f"telegram:{supergroup['id']}")
    assert moved is not None and moved.state["heaps"] == [2, 3, 5]
    assert await world.table.store.active(CHANNEL) is None


async def test_the_last_your_move_ping_goes_when_the_game_ends(world: World) -> None:
    api = world.api
    await two_player_nim(world, "1 1")
    await api.say(world.alice, GROUP, "/take 1 1")
    [ping] = await api.wait(lambda: api.of("sendMessage", chat_id=GROUP)[1:])  # [0] is the lobby
    assert ping.text.endswith("Bob</a>, your move.")
    ping_id = last_message_id(world)
    await api.say(world.bob, GROUP, "/take 2 1")  # the last stone: Bob wins
    await api.wait(lambda: api.of("deleteMessage", chat_id=GROUP, message_id=ping_id))
    assert "🏆 Bob wins" in api.of("editMessageMedia", chat_id=GROUP)[-1].text
    assert (GROUP, ping_id) not in api.messages


async def test_a_game_cancelled_mid_way_takes_its_ping_with_it(world: World) -> None:
    api = world.api
    api.admins.add((GROUP, 103))  # Carol may cancel any game here
    await two_player_nim(world, "3 4")
    await api.say(world.alice, GROUP, "/take 1 1")
    await api.wait(lambda: api.of("sendMessage", chat_id=GROUP)[1:])
    ping_id = last_message_id(world)
    await api.say(world.carol, GROUP, "/cancel")
    await api.wait(lambda: api.of("deleteMessage", chat_id=GROUP, message_id=ping_id))
    assert "Carol cancelled" in api.to_chat(GROUP)[-1].text and (GROUP, ping_id) not in api.messages
