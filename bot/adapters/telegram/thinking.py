""""typing…" in a chat (or forum topic) while the AI thinks of its move: a chat action shows for about
five seconds, so it is sent again until the AI has moved."""

from __future__ import annotations

import asyncio
import contextlib

from telegram.constants import ChatAction
from telegram.error import TelegramError
from telegram.ext import Application

from bot.adapters.telegram.chats import Chat
from bot.host import Host
from bot.model import Reply

TYPING_EVERY = 4.5  # seconds; a chat action shows for about 5
TYPING_AT_MOST = 600.0


class Typing:
    def __init__(self, app: Application, host: Host) -> None:
        self.app, self.host = app, host
        self._tasks: dict[Chat, asyncio.Task[None]] = {}

    def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()

    def done(self, chat: Chat) -> None:
        """Something is said in the chat: its "typing…" stops (the next board may start it again)."""
        task = self._tasks.pop(chat, None)
        if task is not None:
            task.cancel()

    async def if_thinking(self, chat: Chat, replies: list[Reply]) -> None:
        sessions = {r.session for r in replies if r.board and r.session is not None and not r.private}
        for session_id in sessions:
            if session_id is not None and await self.host.ai_to_move(session_id):
                await self._show(chat)
                self.done(chat)
                self._tasks[chat] = asyncio.ensure_future(self._keep(chat, session_id))

    async def _show(self, chat: Chat) -> None:
        with contextlib.suppress(TelegramError):
            await self.app.bot.send_chat_action(chat.id, ChatAction.TYPING, message_thread_id=chat.thread)

    async def _keep(self, chat: Chat, session_id: int) -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + TYPING_AT_MOST
        try:
            while loop.time() < until:
                await asyncio.sleep(TYPING_EVERY)
                if not await self.host.ai_to_move(session_id):
                    return
                await self._show(chat)
        finally:
            if self._tasks.get(chat) is asyncio.current_task():
                del self._tasks[chat]
