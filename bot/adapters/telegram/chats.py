"""Where a reply goes in Telegram: a chat, or a forum topic of one, and the host's channel id for it.

A forum topic is a channel of its own, "telegram:<chat>:<topic>" (the topic's message_thread_id),
so a game in a topic is an ordinary session there; the chat itself (and a forum's General topic)
is "telegram:<chat>". Tournament games are given a topic each (`open_topic`) where the group has
topics and the bot may make them.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

from telegram import Message
from telegram.error import TelegramError
from telegram.ext import Application

from bot.model import TELEGRAM

log = logging.getLogger(__name__)

TOPIC_NAME_MAX = 128  # characters Telegram takes in a topic's name


class Chat(NamedTuple):
    """A chat, and the forum topic in it (None: the chat itself, or a forum's General topic)."""

    id: int
    thread: int | None = None

    @property
    def channel(self) -> str:
        return f"{TELEGRAM}:{self.id}" if self.thread is None else f"{TELEGRAM}:{self.id}:{self.thread}"

    @property
    def link(self) -> str:
        """The chat (and topic) in a deep link's payload, which takes only [A-Za-z0-9_-]."""
        return str(self.id) if self.thread is None else f"{self.id}_{self.thread}"


def chat_of(channel: str) -> Chat:
    """The chat (and topic) of a channel id, "telegram:<chat>" or "telegram:<chat>:<topic>"."""
    chat, _, thread = channel.partition(":")[2].partition(":")
    return Chat(int(chat), int(thread) if thread else None)


def from_link(payload: str) -> Chat:
    """The chat of a deep link's payload (`Chat.link`)."""
    chat, _, thread = payload.partition("_")
    return Chat(int(chat), int(thread) if thread else None)


def of_message(message: Message) -> Chat:
    """Where a message was typed: its topic when it is in one of a forum's topics."""
    thread = message.message_thread_id if message.is_topic_message else None
    return Chat(message.chat.id, thread)


async def open_topic(app: Application, channel: str, name: str) -> str | None:
    """A forum topic in the group of `channel` for one game (a tournament's), as its channel, or None
    where Telegram makes none (a group without topics, a bot without the right to manage them):
    the game is then played in the group itself."""
    chat = chat_of(channel)  # (an event opened in a topic gets topics beside it)
    try:
        topic = await app.bot.create_forum_topic(chat.id, name[:TOPIC_NAME_MAX] or "game")
    except TelegramError as error:
        log.info("no forum topic for a game in %s: %s", channel, error)
        return None
    return Chat(chat.id, topic.message_thread_id).channel
