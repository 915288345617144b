"""Discord in Chinese: the command tree localized through discord.py's translator (a Chinese client
lists /认输, /五子棋 人机 with Chinese descriptions and choices; Discord sends the command's own
name), a channel speaking the language of its first command, each person answered privately in
their own, and a whole game of each kind played by people whose Discord speaks Chinese."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import engines
from tests.discord.conftest import Bot, board_saying, boards, first_channel, run, said_to
from tests.discord.fake import ALICE, BOB, FakeDiscord, Message, Person
from tests.support.setups import to_move

ZH_ALICE, ZH_BOB = replace(ALICE, locale="zh-CN"), replace(BOB, locale="zh-CN")
TW_BOB = replace(BOB, locale="zh-TW")


def synced(fake: FakeDiscord) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in next(iter(fake.commands.values()))}


async def test_the_tree_is_listed_in_chinese_for_chinese_clients(fake: FakeDiscord, bot: Bot) -> None:
    commands = synced(fake)
    assert commands["resign"]["name_localizations"]["zh-CN"] == "认输"
    assert commands["resign"]["description_localizations"]["zh-CN"] == "认输，放弃这局"
    assert commands["undo"]["name_localizations"]["zh-TW"] == "悔棋"
    assert "en-US" not in commands["resign"]["name_localizations"]  # English is the default itself
    gomoku = commands["gomoku"]
    assert gomoku["name_localizations"]["zh-CN"] == "五子棋"
    solo = next(o for o in gomoku["options"] if o["name"] == "solo")
    assert solo["name_localizations"]["zh-CN"] == "人机"
    assert solo["description_localizations"]["zh-CN"] == "和机器人下五子棋"
    rule = next(o for o in solo["options"] if o["name"] == "rule")
    labels = [c["name_localizations"]["zh-CN"] for c in rule["choices"]]
    assert labels == ["无禁手：五子或以上即胜", "标准：恰好五子才胜", "连珠：黑棋有禁手"]
    lang = next(o for o in commands["lang"]["options"] if o["name"] == "language")
    assert {c["value"]: c["name_localizations"]["zh-CN"] for c in lang["choices"]} == {"en": "英文（English）",
                                                                                       "zh": "中文"}
    take = commands["take"]
    assert take["name_localizations"]["zh-CN"] == "取"
    assert take["description_localizations"]["zh-CN"] == "拈：/take（走一步）"
    assert commands["pass"]["description_localizations"]["zh-CN"] == "斗地主：/pass（走一步）"


async def test_a_chinese_channel_and_an_english_player_in_it(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ZH_ALICE, "拈 开局", channel, heaps="1 2")  # the first command: the channel speaks Chinese
    lobby = fake.last(channel, "Alice 开了一桌拈。")
    assert lobby is not None and [b["label"] for b in lobby.buttons] == ["加入"]
    await fake.click(BOB, lobby, "加入")  # Bob's Discord speaks English
    board = await board_saying(fake, channel, "拈 开始：Alice 对 Bob。")
    assert board.png is not None
    early = await run(fake, BOB, "take", channel, args="1 1")
    assert [m.content for m in early.said] == ["It is Alice's turn."]  # to him alone, in his language
    hint = await fake.click(BOB, board, "提示")
    assert (await said_to(fake, hint, "It is not your turn.")).ephemeral
    await run(fake, ZH_ALICE, "取", channel, args="第2堆取1颗")
    await board_saying(fake, channel, "Alice 从第 2 堆取走 1 颗。")
    await run(fake, BOB, "take", channel, args="1 1")
    await run(fake, ZH_ALICE, "取", channel, args="2 1")
    final = await board_saying(fake, channel, "🏆 Alice 获胜：取走了最后一颗石子。")
    assert [b["label"] for b in final.buttons] == ["再来一局", "分析"]
    await fake.click(TW_BOB, final, "再来一局")  # seats move on: Bob moves first
    offer = await fake.wait(lambda: fake.last(channel, "Bob 想和 Alice 再来一局。"))
    await fake.click(ZH_ALICE, offer, "接受")
    await board_saying(fake, channel, "拈 开始：Bob 对 Alice。")
    await run(fake, TW_BOB, "认输", channel)  # zh-TW reads the same Chinese
    await board_saying(fake, channel, "🏆 Alice 获胜：Bob 认输。")
    changed = await run(fake, BOB, "lang", channel, language="en")
    assert changed.said == [] and fake.channel(channel)[-1].content.startswith("This channel's messages")
    await run(fake, ZH_ALICE, "战绩", channel)
    card = fake.channel(channel)[-1]  # the channel's language (en now): the card, its record drawn in it
    assert card.content == "Results of Alice:" and card.files[0][0] == "stats.png"


def easy_move(session: Any) -> str:
    """What a player of modest strength would play: the easy bot's move."""
    game = engines.get(session.game)
    state = game.from_json(session.state)
    seat = game.to_move(state)
    return game.move_text(state, game.ai(state, seat, "easy", game.levels["easy"], random.Random(session.ply)).move)


async def play_to_the_end(fake: FakeDiscord, bot: Bot, channel: int, people: dict[str, Person]) -> Message:
    """The people play (the easy bot's choice, with /走 or /move as their Discord lists it) until the
    game ends; the final board."""
    key = f"discord:{channel}"
    for _ in range(400):
        await bot.host.idle()
        session = await bot.host.store.active(key)
        if session is None:
            break
        game = engines.get(session.game)
        seat = game.to_move(game.from_json(session.state))
        person = people.get(session.seats[seat].user_id or "") if seat is not None else None
        if person is None:
            continue
        await run(fake, person, "走" if person.locale.startswith("zh") else "move", channel, move=easy_move(session))
    assert await bot.host.store.active(key) is None, "the game did not end in 400 turns"

    def final() -> Message | None:  # a win, or a draw (two easy players may fill a Gomoku board)
        shown = boards(fake, channel)
        return shown[-1] if shown and ("🏆" in shown[-1].content or "和局" in shown[-1].content) else None

    return await fake.wait(final)


async def test_gomoku_in_chinese_against_the_bot(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ZH_ALICE, "五子棋 人机", channel, level="easy", rule="renju")
    await board_saying(fake, channel, "五子棋 开始：Alice 对 机器人（easy）。")
    final = await play_to_the_end(fake, bot, channel, {f"discord:{ALICE.id}": ZH_ALICE})
    assert re.search(r"🏆 (Alice|机器人（easy）) 获胜：连成五子：|和局：棋盘已下满", final.content)
    assert final.png is not None and [b["label"] for b in final.buttons] == ["再来一局", "分析"]


async def test_chinese_checkers_in_chinese_between_two_people(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ZH_ALICE, "跳棋 挑战", channel, user=ZH_BOB)
    lobby = fake.last(channel, "Alice 邀请 Bob 下跳棋。")
    assert lobby is not None
    await fake.click(ZH_BOB, lobby, "接受")
    await board_saying(fake, channel, "跳棋 开始：Alice 对 Bob。")
    people = {f"discord:{p.id}": p for p in (ZH_ALICE, ZH_BOB)}
    final = await play_to_the_end(fake, bot, channel, people)
    assert "获胜：率先占满目标营地" in final.content or "获胜：" in final.content
    await run(fake, ZH_BOB, "战绩", channel)
    card = fake.channel(channel)[-1]
    assert card.content.endswith("的战绩：") and card.files[0][0] == "stats.png"


async def test_dou_dizhu_in_chinese_hands_in_each_players_language(fake: FakeDiscord, bot: Bot) -> None:
    """Alice (Chinese) and Bob (English) against a bot, to the settlement; each hand in its owner's language."""
    channel = first_channel(fake)
    await run(fake, ZH_ALICE, "斗地主 挑战", channel, user=BOB)
    lobby = fake.last(channel, "Alice 邀请 Bob 下斗地主。")
    assert lobby is not None
    accepted = await fake.click(BOB, lobby, "接受")
    begun = await run(fake, ZH_ALICE, "开始", channel)  # /go: the open seat goes to a bot
    await board_saying(fake, channel, "斗地主 开始：Alice 对 Bob 对 机器人（normal）。")
    assert (await said_to(fake, begun, "Alice，这是你的手牌（只有你看得到）。")).png is not None
    assert (await said_to(fake, accepted, "Your hand, Bob (only you see this).")).png is not None
    people = {f"discord:{p.id}": p for p in (ZH_ALICE, BOB)}
    final = await play_to_the_end(fake, bot, channel, people)
    assert "得分：Alice " in final.content and final.png is not None
    shown = [m for m in fake.messages.values() if any(name == "hand.png" for name, _ in m.files)]
    assert {m.visible_to for m in shown} == {ALICE.id, BOB.id}
    assert all(m.content.startswith("Alice，这是你的手牌") for m in shown if m.visible_to == ALICE.id)
    assert all(m.content.startswith("Your hand, Bob") for m in shown if m.visible_to == BOB.id)


async def test_moves_are_suggested_in_the_players_language(fake: FakeDiscord, bot: Bot) -> None:
    """/走 suggests Dou Dizhu's bids and passes in Chinese (叫1分, 不叫, 过) and sends the move."""
    channel = first_channel(fake)
    await run(fake, ZH_ALICE, "斗地主 人机", channel)
    key, named = f"discord:{channel}", []
    for _ in range(60):
        await bot.host.idle()
        session = await bot.host.store.active(key)
        if session is None:
            break  # over: no bid nor pass was named in Chinese
        if session.seats[to_move(session)].user_id != f"discord:{ALICE.id}":
            continue
        suggested = await fake.autocomplete(ZH_ALICE, "走", "move", channel, move="")
        named = [(c["name"], c["value"]) for c in suggested.choices if c["name"] != c["value"]]
        if named:
            break
        await run(fake, ZH_ALICE, "走", channel, move=easy_move(session))
    words = {"叫1分": "bid 1", "叫2分": "bid 2", "叫3分": "bid 3", "不叫": "pass", "过": "pass"}
    assert named and all(words[name] == value for name, value in named), named  # was "bid 1" for "bid 1"
    await run(fake, ZH_ALICE, "走", channel, move=named[0][1])
    await board_saying(fake, channel, "Alice")
