"""How updates come in and requests go out: per-chat order, and a flood-safe rate limiter."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.error import RetryAfter, TelegramError
from telegram.ext import AIORateLimiter, BaseUpdateProcessor
from telegram.request import HTTPXRequest

from bot import metrics
from bot.model import TELEGRAM

# Requests that post nothing into a chat: Telegram's "20 messages a minute per group" is
# about messages, so these skip the group limiter (a typing action must not wait 3 s).
UNTHROTTLED = frozenset({
    "sendChatAction", "getChatMember", "deleteMessage", "answerCallbackQuery", "answerInlineQuery",
    "getMe", "setMyCommands", "deleteWebhook", "setWebhook", "getUpdates", "getWebhookInfo",
})


class FloodSafeLimiter(AIORateLimiter):
    """AIORateLimiter (overall and per-group limits, RetryAfter honoured and retried), with
    the requests that are not messages kept out of the per-group budget.

    A 429 waited out here is counted (`bot.metrics`), with the seconds Telegram asked for."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        if endpoint in UNTHROTTLED:
            data = {k: v for k, v in data.items() if k != "chat_id"}  # only what the limiter looks at

        async def measured(*args: Any, **kwargs: Any) -> Any:
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as error:  # waited out and tried again by AIORateLimiter
                metrics.rate_limited(TELEGRAM, _seconds(error.retry_after))
                raise

        return await super().process_request(measured, args, kwargs, endpoint, data, rate_limit_args)


class Reach:
    """Whether Telegram answered the bot's last request, and when one last got an answer
    (readiness reads it; the webhook's watch asks Telegram only when nothing did lately)."""

    up = False
    why = "not started"  # why it is down: the last request's failure
    answered_at = -math.inf  # the event loop's clock at the last request Telegram answered


class MeasuredRequest(HTTPXRequest):
    """python-telegram-bot's HTTP client, every request of the bot through it (getUpdates too,
    which skips the rate limiter): a failed call is counted (`bot.metrics`, by status or by
    error) and `reach` says whether the last one got an answer."""

    def __init__(self, reach: Reach, **options: Any) -> None:
        super().__init__(**options)
        self.reach = reach

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            status, payload = await super().do_request(*args, **kwargs)
        except TelegramError as error:  # no answer: the network, a timeout
            self.reach.up, self.reach.why = False, f"no answer ({type(error).__name__})"
            metrics.platform_error(TELEGRAM, type(error).__name__)
            raise
        self.reach.up = status < 500
        if self.reach.up:
            self.reach.answered_at = asyncio.get_running_loop().time()
        else:
            self.reach.why = f"Telegram answered {status}"
        if status >= 400 and status != 429:  # a 429 is a wait, counted by the limiter
            metrics.platform_error(TELEGRAM, str(status))
        return status, payload


class ChatOrder(BaseUpdateProcessor):
    """Updates of different chats run concurrently (a group waiting on its flood limit does
    not hold up the others); updates of one chat run one at a time, in the order they came."""

    def __init__(self, max_concurrent_updates: int = 256) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[object, asyncio.Lock] = {}
        self._users: dict[object, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = _key(update)
        if key is None:
            await coroutine
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._users[key] -= 1
            if not self._users[key]:  # nobody else waits: forget the lock
                del self._users[key], self._locks[key]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


def _key(update: object) -> object:
    if not isinstance(update, Update):
        return None
    if update.inline_query is not None:  # inline answers only read: never behind a busy group
        return ("inline", update.inline_query.from_user.id)
    chat = update.effective_chat
    return ("chat", chat.id) if chat is not None else None


def _seconds(retry_after: Any) -> float:
    """RetryAfter.retry_after: seconds, as an int or a timedelta (python-telegram-bot 22)."""
    return float(retry_after.total_seconds() if hasattr(retry_after, "total_seconds") else retry_after)
