"""What the Discord bot posts for everyone in a channel, and how it tidies the channel after.

`post` and `publish` take only what a whole channel may see (`Public`; the outbox's replies
are all for everyone). A new board replaces the last one: the old board keeps its text but
loses its picture and buttons, and older button messages lose their buttons; the ids of those
messages are kept in the channel's settings (the host's notes), so this works after a restart
and across processes. `publish` is the outbox's way in: it skips the messages an earlier try
already made (their ids), records each new one's id as Discord answers, and raises when Discord
refuses (`Undeliverable` when trying again would not change it). Each message it makes carries a
nonce drawn from the outbox's name for the reply and the piece's place, the same on every try,
which Discord is asked to enforce: a message Discord made but whose answer was lost (a dropped
connection, a timeout) is answered with, not made again, when the outbox tries again within
Discord's few minutes.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import defaultdict
from typing import Any

import discord

from bot.adapters.discord.messages import Buttons, chunks, documented, edit, literal
from bot.host import Notes
from bot.model import DISCORD, Public, Reply
from bot.outbox import Undeliverable

log = logging.getLogger(__name__)
MESSAGES = "messages"  # the host's note of a channel's board and button messages, to tidy up


def snowflake(user_id: str) -> int | None:
    platform, _, number = user_id.partition(":")
    return int(number) if platform == DISCORD and number.isdigit() else None


def nonce(key: str, piece: int) -> str:
    """The nonce of piece `piece` of the outbox's reply `key`: 24 hex digits (Discord takes 25)."""
    return hashlib.blake2b(f"{key}#{piece}".encode(), digest_size=12).hexdigest()


def nonced(key: str | None, piece: int) -> dict[str, Any]:
    """`send`'s nonce argument for that piece; none without a key (a reply not from the outbox)."""
    return {} if key is None else {"nonce": nonce(key, piece)}


class Channels:
    def __init__(self, client: discord.Client, notes: Notes) -> None:
        self.client = client
        self.notes = notes
        self._messages: dict[str, dict[str, Any]] = {}  # channel -> {"board": id, "buttons": [ids]}
        self._posting: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)  # one post+tidy at a time

    async def post(self, channel: str, public: Public) -> None:
        """A reply for everyone in the channel."""
        if public.reply.text or public.reply.image:
            async with self._posting[channel]:
                await self._post(channel, public, [], None)

    async def publish(self, channel: str, reply: Reply, ids: list[str], key: str) -> None:
        """A reply for everyone in the channel, from the host's outbox: the messages in `ids` were
        posted already (a retry skips them), each new one's id is added as Discord answers; `key`
        (the same on every try) gives the messages their nonces. Raises when Discord refuses
        (`Undeliverable` when it will not change: no access, no channel)."""
        if not (reply.text or reply.image):
            return
        try:
            async with self._posting[channel]:
                await self._post(channel, Public(reply), ids, key)
        except (discord.Forbidden, discord.NotFound) as error:
            raise Undeliverable(str(error)) from error
        except discord.HTTPException as error:
            if 400 <= error.status < 500 and error.status != 429:  # the message itself refused: again, the same
                raise Undeliverable(str(error)) from error
            raise

    async def _post(self, channel: str, public: Public, ids: list[str], key: str | None) -> None:
        """`key`: the outbox's name for the reply, whence each message's nonce (None: none)."""
        reply = public.reply
        target = self.client.get_partial_messageable(int(channel.partition(":")[2]))
        pings = [uid for uid in map(snowflake, reply.mentions) if uid is not None]
        text = " ".join(f"<@{uid}>" for uid in pings)
        text = f"{text} {literal(reply.text)}" if text else literal(reply.text)
        allowed = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                          users=[discord.Object(uid) for uid in pings])
        text, files = documented(reply, text)  # a long record goes as a file
        *before, last = chunks(text)
        for n, piece in enumerate(before):
            if n >= len(ids):  # not posted by an earlier try
                ids.append(str((await target.send(piece, allowed_mentions=allowed, **nonced(key, n))).id))
        if len(ids) <= len(before):
            extra = nonced(key, len(before))
            if files:
                extra["files"] = files
            if reply.buttons:
                extra["view"] = Buttons(reply)
            ids.append(str((await target.send(last or None, allowed_mentions=allowed, **extra)).id))
        await self._tidy(channel, target, reply, int(ids[-1]))

    async def _tidy(self, channel: str, target: discord.PartialMessageable, reply: Reply,
                    message_id: int) -> None:
        """A new board replaces the last one: the old board keeps its text but loses its picture
        and buttons, and older button messages lose their buttons."""
        if not (reply.board or reply.buttons):
            return
        known = await self._known(channel)
        if reply.board:
            old_board, old_buttons = known.get("board"), known.get("buttons", [])
            known = {"board": message_id, "buttons": [message_id] if reply.buttons else []}
            self._messages[channel] = known
            await self.notes.put(channel, MESSAGES, known)
            if old_board is not None and old_board != message_id:  # (a retry may find itself noted)
                await edit(target, old_board, attachments=[], view=None)
            for old in old_buttons:
                if old not in (old_board, message_id):
                    await edit(target, old, view=None)
        else:
            if message_id not in known.setdefault("buttons", []):
                known["buttons"].append(message_id)
            known["buttons"] = known["buttons"][-10:]
            await self.notes.put(channel, MESSAGES, known)

    async def open_place(self, channel: str, name: str) -> str | None:
        """A public thread under `channel` for one game (a tournament's), or None where Discord
        will not make one (a thread's own channel, no permission): the game is then played here."""
        try:
            thread = await self.client.http.start_thread_without_message(
                int(channel.partition(":")[2]), name=name[:100] or "game", auto_archive_duration=1440, type=11)
        except discord.HTTPException as error:
            log.info("no thread for a game under %s: %s", channel, error)
            return None
        return f"{DISCORD}:{thread['id']}"

    async def _known(self, channel: str) -> dict[str, Any]:
        if channel not in self._messages or self.notes.shared:  # another process may have posted since
            self._messages[channel] = await self.notes.get(channel, MESSAGES) or {}
        return self._messages[channel]
