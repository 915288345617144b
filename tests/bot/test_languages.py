"""Language per reader: a channel has one for its public messages and pictures (the first
command's locale, else the host's; /lang changes it), and each person reads what only they see
in their own. Chinese command words are read where people type them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import engines
from bot.ai import AIRunner
from bot.command_table import ACTION_WORDS, GAME_ACTIONS, HOST_COMMANDS, parse, vocabulary
from bot.config import load
from bot.host import Host
from bot.model import EVERYONE, Event, NotSecret, Private, Reply, User
from bot.parser import Command, ParseError
from bot.storage.sqlite import SQLiteStorage as Store
from render.base import RenderContext
from tests.conftest import ALICE, BOB, CAROL, Clock, Table, person

GAMES = {"nim": "nim", "拈": "nim", "gomoku": "gomoku", "五子棋": "gomoku"}
VOCABULARY = vocabulary(engines.all_games().values())  # the host's words and the games'
MOD = person("mona", moderator=True)


def said(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def test_a_channel_takes_the_language_of_its_first_command(table: Table) -> None:
    chinese = Event(table.channel, ALICE, "/nim start 1 2", locale="zh-CN")
    opened = await table.host.handle(chinese)
    assert "Alice 开了一桌拈。" in said(opened) and opened[0].language == "zh"
    english = await table.host.handle(Event(table.channel, BOB, "/join", locale="en-US"))
    assert "拈 开始：Alice 对 Bob。" in said(english)  # public: the channel's language
    refused = await table.host.handle(Event(table.channel, BOB, "/take 1 1", locale="en-US"))
    assert [(r.text, r.audience, r.language) for r in refused] == [("It is Alice's turn.", NotSecret(BOB.id), "en")]
    assert (await table.host.translator(table.channel)).language == "zh"
    other = "console:elsewhere"  # no locale at all: the host's language
    assert "Bob opened a table for Nim." in said(await table.host.handle(Event(other, BOB, "/nim start")))


async def test_every_reply_says_its_language(table: Table) -> None:
    replies = await table.host.handle(Event(table.channel, ALICE, "/nim solo 1 1", locale="zh-hans"))
    replies += await table.host.handle(Event(table.channel, ALICE, "/take 1 1", locale="zh-hans"))
    replies += await table.host.handle(Event(table.channel, ALICE, "/dance", locale="zh-hans"))
    assert replies and all(r.language == "zh" for r in replies)
    assert "我不认识 /dance。" in said(replies)


async def test_lang_switches_the_channel_and_is_remembered(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    store = await Store.open(str(db))
    host = Host(store, AIRunner(0), clock=Clock())
    channel = "console:lang"
    try:
        assert "English" in said(await host.handle(Event(channel, ALICE, "/lang")))  # the usage, in en
        assert said(await host.handle(Event(channel, ALICE, "/lang 中文"))).startswith("本频道的消息和图片现在使用中文")
        await host.handle(Event(channel, ALICE, "/nim start 2 2"))
        refused = await host.handle(Event(channel, BOB, "/lang en"))
        assert said(refused) == "对局进行中只有管理员能改语言。" and refused[0].audience == NotSecret(BOB.id)
        await host.handle(Event(channel, BOB, "/join"))
        assert said(await host.handle(Event(channel, MOD, "/lang en"))).startswith("This channel's messages")
        assert "Alice took 1 stone from heap 1." in said(await host.handle(Event(channel, ALICE, "/take 1 1")))
        await host.handle(Event(channel, MOD, "/lang zh-CN"))
    finally:
        await host.stop()
        host.ai.close()
        await store.close()
    store = await Store.open(str(db))  # a restart keeps the channel's language
    host = Host(store, AIRunner(0), clock=Clock())
    try:
        assert "Bob 从第 1 堆取走 1 颗。" in said(await host.handle(Event(channel, BOB, "/take 1 1")))
    finally:
        await host.stop()
        host.ai.close()
        await store.close()


def draw_as_data(game: str, view, ctx: RenderContext) -> bytes:
    """Instead of a picture, the language its labels would be in."""
    return json.dumps({"language": ctx.tr.language}).encode()  # type: ignore[attr-defined]


async def test_hidden_hands_go_to_each_person_in_their_language(tmp_path: Path) -> None:
    """Dou Dizhu in a Chinese channel: Bob reads English, Carol Chinese; the board is Chinese.
    After a restart the bots' moves still send Bob his hand in English."""
    db = tmp_path / "h.db"
    store = await Store.open(str(db))
    host = Host(store, AIRunner(0), clock=Clock(), draw=draw_as_data)
    channel = "console:cards"
    try:
        await host.handle(Event(channel, ALICE, "/ddz start", locale="zh-CN"))
        await host.handle(Event(channel, BOB, "/join", locale="en-GB"))
        begun = await host.handle(Event(channel, CAROL, "/join", locale="zh-TW"))
        board, *hands = begun
        assert board.audience == EVERYONE and board.language == "zh" and json.loads(board.image)["language"] == "zh"
        languages = {r.reader: (r.language, json.loads(r.image)["language"], r.text.split("，")[-1]) for r in hands}
        assert languages == {ALICE.id: ("zh", "zh", "这是你的手牌（只有你看得到）。"),
                             BOB.id: ("en", "en", "Your hand, Bob (only you see this)."),
                             CAROL.id: ("zh", "zh", "这是你的手牌（只有你看得到）。")}
        assert "hand:" in hands[1].text_board and "手牌" in hands[0].text_board
    finally:
        await host.stop()
        host.ai.close()
        await store.close()
    store = await Store.open(str(db))
    host = Host(store, AIRunner(0), clock=Clock(), draw=draw_as_data)
    try:
        mine = await host.handle(Event(channel, BOB, "/hand"))  # no locale now: the one he came with
        assert [(r.language, r.audience) for r in mine] == [("en", Private(BOB.id))]
    finally:
        await host.stop()
        host.ai.close()
        await store.close()


def test_chinese_command_words_are_read_as_the_commands() -> None:
    assert parse("/认输", GAMES) == Command("resign", None, (), (), "认输")
    assert parse("/悔棋", GAMES).name == "undo"  # type: ignore[union-attr]
    assert parse("/拈 人机 hard", GAMES) == Command("solo", "nim", ("hard",), (), "拈")
    assert parse("/五子棋 开局 19", GAMES) == Command("start", "gomoku", ("19",), (), "五子棋")
    assert parse("/五子棋 开始", GAMES).name == "start"  # type: ignore[union-attr]  # after a game: an action
    assert parse("/开始", GAMES).name == "go"  # type: ignore[union-attr]  # alone: /go
    assert parse("/过", GAMES, words=VOCABULARY.commands).name == "pass"  # type: ignore[union-attr]
    assert isinstance(parse("/认输吧", GAMES), ParseError)


def test_every_command_has_a_chinese_name_of_its_own() -> None:
    names = [words[0] for words in VOCABULARY.words["zh"].values()]
    assert len(names) == len(set(names))
    assert set(ACTION_WORDS.values()) == set(GAME_ACTIONS)
    assert set(HOST_COMMANDS) <= set(VOCABULARY.commands.values())


async def test_chinese_words_play_a_game(table: Table) -> None:
    zh = "zh-CN"
    host = table.host
    await host.handle(Event(table.channel, ALICE, "/拈 开局 2 2", locale=zh))
    await host.handle(Event(table.channel, BOB, "/加入", locale=zh))
    assert "Alice 从第 1 堆取走 1 颗。" in said(await host.handle(Event(table.channel, ALICE, "/取 1 1", locale=zh)))
    offer = await host.handle(Event(table.channel, ALICE, "/悔棋", locale=zh))
    assert "Alice 请求悔棋" in said(offer) and [b.label for b in offer[0].buttons] == ["同意", "拒绝"]
    assert "Alice 悔了一步。" in said(await host.handle(Event(table.channel, BOB, "/同意", locale=zh)))
    moved = await host.handle(Event(table.channel, ALICE, "/走 第2堆取2颗", locale=zh))
    assert "Alice 从第 2 堆取走 2 颗。" in said(moved)
    over = await host.handle(Event(table.channel, BOB, "/认输", locale=zh))
    assert "🏆 Alice 获胜：Bob 认输。" in said(over)
    assert [b.label for b in over[0].buttons] == ["再来一局", "分析"]


async def test_a_person_we_never_heard_from_reads_the_channels_language(table: Table) -> None:
    user = User("console:zoe", "Zoe")
    await table.host.handle(Event(table.channel, ALICE, "/lang zh"))
    answer = said(await table.host.handle(Event(table.channel, user, "/undo")))
    assert answer == "这个频道还没有对局。输入 /help 看看怎么开始。"


def test_the_language_setting_takes_only_languages_there_are_catalogs_for() -> None:
    assert load(["--language", "zh"]).language == "zh"
    with pytest.raises(ValidationError, match="there are catalogs for en, zh, not 'fr'"):
        load(["--language", "fr"])
