"""The stand-in Bot API refuses what Telegram refuses, seen through the real python-telegram-bot
client (the adapter's tests are only as strict as it is)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import AIORateLimiter, ExtBot

from tests.support.pictures import png
from tests.telegram.refusals import parse_html
from tests.telegram.standin import TOKEN, BotAPI, retry_after

GROUP, ALICE = -100777, 101


@pytest.fixture
async def api() -> AsyncIterator[BotAPI]:
    server = BotAPI()
    await server.start()
    server.group(GROUP)
    server.person(ALICE, "Alice")
    yield server
    await server.stop()


@pytest.fixture
async def bot(api: BotAPI) -> AsyncIterator[Bot]:
    client = Bot(TOKEN, base_url=f"{api.url}/bot")
    async with client:
        yield client


def refused(what: str):
    return pytest.raises(BadRequest, match=f"(?i){what}")  # python-telegram-bot capitalizes the first letter


@pytest.mark.parametrize(("html", "why"), [
    ("<b>bold", "can't find end tag"), ("<blink>hi</blink>", 'unsupported start tag "blink"'),
    ("a < b", "unclosed start tag|unsupported start tag"), ("x</b>", "unexpected end tag"),
    ("<b>x</i>", "unmatched end tag"), ('<span class="big">x</span>', 'must have class "tg-spoiler"'),
    ("<b><i>x</b></i>", "unmatched end tag"),
])
async def test_html_telegram_cannot_parse_is_refused(bot: Bot, html: str, why: str) -> None:
    with refused(f"can't parse entities: .*({why})"):
        await bot.send_message(GROUP, html, parse_mode=ParseMode.HTML)


async def test_html_telegram_parses_is_taken_and_measured_after_parsing(bot: Bot, api: BotAPI) -> None:
    html = '<b>A</b> &amp; <a href="tg://user?id=101">Alice</a> &lt;3 &#x4e94; & more'
    assert parse_html(html) == "A & Alice <3 五 & more"  # a lone & stays a character, as in Telegram
    await bot.send_message(GROUP, html, parse_mode=ParseMode.HTML)
    await bot.send_message(GROUP, "<b>" + "x" * 4096 + "</b>", parse_mode=ParseMode.HTML)  # 4,096 once parsed
    with refused("message is too long"):
        await bot.send_message(GROUP, "x" * 4097)
    with refused("message is too long"):
        await bot.send_message(GROUP, "五" * 4097)
    with refused("message text is empty"):
        await bot.send_message(GROUP, "<b> </b>", parse_mode=ParseMode.HTML)


async def test_captions_photos_and_edits(bot: Bot, api: BotAPI) -> None:
    with refused("caption is too long"):
        await bot.send_photo(GROUP, png(), caption="y" * 1025)
    with refused("IMAGE_PROCESS_FAILED"):
        await bot.send_photo(GROUP, b"\x89PNG\r\n\x1a\n" + b"\0" * 64, caption="not an image")
    with refused("PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(GROUP, png(2100, 100))
    sent = await bot.send_photo(GROUP, png(), caption="<b>board</b>", parse_mode=ParseMode.HTML)
    assert sent.photo[-1].width == 240
    media = InputMediaPhoto(sent.photo[-1].file_id, caption="<b>board</b>", parse_mode=ParseMode.HTML)
    with refused("message is not modified"):
        await bot.edit_message_media(media, chat_id=GROUP, message_id=sent.message_id)
    keys = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="j")]])
    await bot.edit_message_media(media, chat_id=GROUP, message_id=sent.message_id, reply_markup=keys)
    with refused("message to edit not found"):
        await bot.edit_message_media(InputMediaPhoto(png()), chat_id=GROUP, message_id=999)
    text = await bot.send_message(GROUP, "hello")
    with refused("message is not modified"):
        await bot.edit_message_text("hello", chat_id=GROUP, message_id=text.message_id)
    with refused("there is no media in the message"):
        await bot.edit_message_media(InputMediaPhoto(png()), chat_id=GROUP, message_id=text.message_id)


async def test_keyboards_chats_and_fields(bot: Bot, api: BotAPI) -> None:
    with refused("BUTTON_DATA_INVALID"):
        await bot.send_message(GROUP, "pick", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("far", callback_data="x" * 65)]]))
    with refused("reply markup is too long"):
        await bot.send_message(GROUP, "pick", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton(str(i), callback_data=str(i)) for i in range(9)]]))
    with refused("chat not found"):
        await bot.send_message(-100999, "anyone?")
    with pytest.raises(Forbidden):
        await bot.send_message(ALICE, "psst")  # she never opened the bot
    with refused("message to be replied not found"):
        await bot.send_message(GROUP, "re", reply_to_message_id=4242)
    with refused("message text is empty"):
        await bot._post("sendMessage", {"chat_id": GROUP})
    with refused("query is too old"):
        await bot.answer_callback_query("never-sent")
    with pytest.raises(TelegramError, match="Not Found"):  # Telegram's 404 for a method it does not have
        await bot._post("sendDice", {"chat_id": GROUP})


async def test_a_retry_inside_the_flood_wait_is_refused_again(api: BotAPI) -> None:
    api.faults.append(retry_after({"sendMessage"}, count=1, seconds=1))
    async with Bot(TOKEN, base_url=f"{api.url}/bot") as impatient:
        with pytest.raises(RetryAfter):
            await impatient.send_message(GROUP, "one")
        with pytest.raises(RetryAfter):  # at once: still in the flood wait, though no fault is queued
            await impatient.send_message(GROUP, "two")
    assert len(api.early) == 1
    api.flood.clear(), api.early.clear()  # a new chat's worth of flood wait
    async with ExtBot(TOKEN, base_url=f"{api.url}/bot", rate_limiter=AIORateLimiter(max_retries=3)) as patient:
        api.faults.append(retry_after({"sendMessage"}, count=1, seconds=1))
        started = time.monotonic()
        await patient.send_message(GROUP, "three")  # waits the second out, then is taken
    assert time.monotonic() - started >= 1 and not api.early
    assert [c.params["text"] for c in api.of("sendMessage")] == ["three"]


async def test_forum_topics_are_made_and_refused_as_telegram_does(api: BotAPI, bot: Bot) -> None:
    forum, locked = -100888, -100999
    api.group(forum, forum=True)
    api.group(locked, forum=True, rights=False)
    with refused("the chat is not a forum"):
        await bot.create_forum_topic(GROUP, "Round 1")
    with refused("not enough rights to create a topic"):
        await bot.create_forum_topic(locked, "Round 1")
    with refused("TOPIC_NAME_INVALID"):
        await bot.create_forum_topic(forum, "x" * 129)
    topic = await bot.create_forum_topic(forum, "Round 1 · table 1")
    sent = await bot.send_message(forum, "hi", message_thread_id=topic.message_thread_id)
    assert sent.message_thread_id == topic.message_thread_id and sent.is_topic_message
    assert not (await bot.send_message(forum, "in general")).is_topic_message
    for chat, thread in ((forum, topic.message_thread_id + 100), (GROUP, topic.message_thread_id)):
        with refused("message thread not found"):
            await bot.send_message(chat, "hi", message_thread_id=thread)
    assert await bot.close_forum_topic(forum, topic.message_thread_id)
    with refused("TOPIC_CLOSED"):
        await bot.send_message(forum, "hi", message_thread_id=topic.message_thread_id)


def test_a_topic_is_a_channel_of_its_own_and_its_deep_link_finds_it() -> None:
    from bot.adapters.telegram.chats import Chat, chat_of, from_link

    topic, group = Chat(-100123, 45), Chat(-100123)
    assert topic.channel == "telegram:-100123:45" and group.channel == "telegram:-100123"
    assert chat_of(topic.channel) == topic and chat_of(group.channel) == group
    assert from_link(topic.link) == topic and from_link(group.link) == group and topic.link == "-100123_45"
