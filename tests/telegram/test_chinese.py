"""Telegram in Chinese: the command menu registered per language, a group speaking the language of
its first command with each person answered privately in theirs (language_code), Chinese command
words in a private chat (a group in privacy mode never shows the bot "/认输": Telegram does not
take it for a command), and a whole game of each kind played by people whose Telegram speaks Chinese."""

from __future__ import annotations

import random
from typing import Any

import engines
from tests.telegram.conftest import GROUP, World, button, last_message_id, session


def chinese(world: World) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Alice and Carol read Chinese (Carol's Telegram in Traditional), Bob English."""
    api = world.api
    return (api.person(101, "Alice", "alice", "zh-hans"), api.person(102, "Bob", "bob", "en"),
            api.person(103, "Carol", None, "zh-hant"))


async def test_the_menu_in_every_language(world: World) -> None:
    menus = world.api.menus
    assert set(menus) == {"", "en", "zh"}  # "" for everyone else: the host's language
    assert menus[""] == menus["en"] and menus["en"]["resign"] == "Give up this game"
    assert menus["zh"]["resign"] == "认输，放弃这局"
    assert menus["zh"]["gomoku"] == "五子棋：开局、邀请、人机、观战、规则、排行榜"
    assert menus["zh"]["take"] == "拈：/take（走一步）" and menus["zh"]["lang"] == "本频道消息和图片的语言"
    assert set(menus["zh"]) == set(menus["en"])  # the same ASCII commands, described in Chinese


async def test_a_chinese_group_an_english_player_and_chinese_words_in_private(world: World) -> None:
    api = world.api
    alice, bob, carol = chinese(world)
    await api.say(alice, GROUP, "/nim start 1 2")  # the group's first command: it speaks Chinese
    [lobby] = await api.wait(lambda: api.to_chat(GROUP))
    assert "Alice 开了一桌拈。" in lobby.text and [b["text"] for b in lobby.buttons] == ["加入"]
    joined = await api.press(bob, GROUP, last_message_id(world), button(lobby, "加入"))
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "拈 开始：Alice 对 Bob。" in board.text and "Alice，轮到你了。" in board.text
    assert api.answer(joined) is not None
    await api.say(bob, GROUP, "/take 1 1")
    refused = await api.wait(lambda: [c for c in api.to_chat(GROUP) if "turn" in c.text])
    assert refused[0].text == "It is Alice's turn."  # to Bob, in English, as a reply to his command
    await api.say(alice, GROUP, "/take 2 1")
    [edit] = await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    assert "Alice 从第 2 堆取走 1 颗。" in edit.text
    [ping] = await api.wait(lambda: [c for c in api.of("sendMessage", chat_id=GROUP) if "轮到你了" in c.text])
    assert ping.text == '<a href="tg://user?id=102">Bob</a>，轮到你了。'  # the channel's language
    await api.say(bob, GROUP, "/认输")  # not a command to Telegram: a bot in privacy mode never sees it
    await api.say(bob, GROUP, "/resign")
    final = await api.wait(lambda: [e for e in api.of("editMessageMedia", chat_id=GROUP) if "🏆" in e.text])
    assert "🏆 Alice 获胜：Bob 认输。" in final[0].text
    assert [b["text"] for b in final[0].buttons] == ["再来一局", "分析"]

    api.opened.add(103)  # Carol, in her private chat with the bot, types the Chinese words
    for text in ["/拈 人机 easy 1", "/取 1 1", "/战绩", "/悔棋"]:
        await api.say(carol, 103, text)
    said = await api.wait(lambda: len(api.to_chat(103)) >= 4 and api.to_chat(103))
    assert "拈 开始：Carol 对 机器人（easy）。" in said[0].text
    assert "🏆 Carol 获胜：取走了最后一颗石子。" in said[1].text
    assert said[2].text == "Carol 的战绩：" and said[2].photo[:4] == b"\x89PNG"  # the card, in Chinese
    assert said[3].text == "这个频道还没有对局。输入 /help 看看怎么开始。"


async def play_to_the_end(world: World, people: dict[str, dict[str, Any]]) -> Any:
    """The people type the easy bot's move until the game ends."""
    api = world.api
    for _ in range(400):
        await world.table.host.idle()
        game = await session(world)
        if game is None or game.status != "playing":
            break
        engine = engines.get(game.game)
        state = engine.from_json(game.state)
        seat = engine.to_move(state)
        person = people.get(game.seats[seat].user_id or "") if seat is not None else None
        if person is None:
            continue
        move = engine.move_text(state, engine.ai(state, seat, "easy", engine.levels["easy"],
                                                 random.Random(game.ply)).move)
        await api.say(person, GROUP, f"/move {move}")
        while (await session(world)).version == game.version:  # until the bot has read it
            calls = len(api.calls)
            await api.wait(lambda calls=calls: len(api.calls) > calls)
    return await session(world)


async def test_gomoku_in_chinese_against_the_bot(world: World) -> None:
    api = world.api
    alice, _, _ = chinese(world)
    await api.say(alice, GROUP, "/gomoku solo easy standard")
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "五子棋 开始：Alice 对 机器人（easy）。" in board.text
    game = await play_to_the_end(world, {"telegram:101": alice})
    assert game.status == "finished"
    final = [e for e in api.of("editMessageMedia", chat_id=GROUP) if "🏆" in e.text or "和局" in e.text]
    assert final and ("获胜：连成五子" in final[-1].text or "和局" in final[-1].text)


async def test_chinese_checkers_in_chinese_two_people_and_a_bot(world: World) -> None:
    api = world.api
    alice, _, carol = chinese(world)
    await api.say(alice, GROUP, "/checkers start 3")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(carol, GROUP, "/join")
    await api.wait(lambda: api.to_chat(GROUP)[1:])
    await api.say(alice, GROUP, "/go")
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "跳棋 开始：Alice 对 Carol 对 机器人（normal）。" in board.text
    game = await play_to_the_end(world, {"telegram:101": alice, "telegram:103": carol})
    assert game.status == "finished"
    assert any("🏆" in e.text for e in api.of("editMessageMedia", chat_id=GROUP))


async def test_dou_dizhu_hands_in_each_players_language_to_the_settlement(world: World) -> None:
    api = world.api
    alice, bob, carol = chinese(world)
    api.opened |= {101, 102}  # Alice and Bob have private chats with the bot; Carol has not
    await api.say(alice, GROUP, "/ddz start")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(bob, GROUP, "/join")
    await api.say(carol, GROUP, "/join")
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "斗地主 开始：Alice 对 Bob 对 Carol。" in board.text
    [alices] = await api.wait(lambda: api.of("sendPhoto", chat_id=101))
    [bobs] = await api.wait(lambda: api.of("sendPhoto", chat_id=102))
    assert alices.text.startswith("Alice，这是你的手牌") and bobs.text.startswith("Your hand, Bob")
    nudge = await api.wait(lambda: [c for c in api.to_chat(GROUP) if c.buttons and c.buttons[0].get("url")])
    assert "Carol</a>，你的牌是私密的" in nudge[0].text and nudge[0].buttons[0]["text"] == "🂠 看我的牌"
    asked = await api.inline(bob, "")
    answer = await api.wait(lambda: api.inline_answer(asked))
    assert answer.params["results"][0]["title"] == "🂠 Your hand (only you see this)"
    asked = await api.inline(carol, "")
    answer = await api.wait(lambda: api.inline_answer(asked))
    assert answer.params["results"][0]["title"] == "🂠 你的手牌（只有你看得到）"
    game = await play_to_the_end(world, {"telegram:101": alice, "telegram:102": bob, "telegram:103": carol})
    assert game.status == "finished"
    final = [e for e in api.of("editMessageMedia", chat_id=GROUP) if "🏆" in e.text]
    assert final and "得分：" in final[-1].text
    assert all("Your hand" in c.text for c in api.of("sendPhoto", chat_id=102))
    assert all("这是你的手牌" in c.text for c in api.of("sendPhoto", chat_id=101))
