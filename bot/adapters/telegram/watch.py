"""Readiness in webhook mode: while the bot is idle, Telegram is asked how its webhook is.

A bot that polls asks Telegram for updates all the time, so `Reach` (whether the last request
got an answer) says at once when Telegram stops answering. A webhook bot asks nothing while
nobody plays, and would stay "up" through an outage. So every `every` seconds in which no
request got an answer, the watch calls getWebhookInfo through the bot's own client (`Reach`
and the metrics see that call like any other); its answer also says whether Telegram still
has this bot's webhook at this URL, and whether delivering updates to it failed lately (a
failure is over once an update arrives after it, or `errors_for` seconds later)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from telegram import Update, WebhookInfo
from telegram.error import TelegramError
from telegram.ext import Application, TypeHandler

from bot.adapters.telegram.plumbing import Reach

log = logging.getLogger(__name__)


class WebhookWatch:
    def __init__(self, app: Application, reach: Reach, url: str, every: float, errors_for: float) -> None:
        self.bot, self.reach, self.url = app.bot, reach, url
        self.every, self.errors_for = every, errors_for
        self.trouble: str | None = None  # what is wrong with the webhook, as Telegram says; None: nothing
        self.heard_at = datetime.now(UTC)  # when an update last arrived (or the watch started)
        self._task: asyncio.Task[None] | None = None
        app.add_handler(TypeHandler(Update, self._heard), group=-1)  # before the adapter's handlers

    async def _heard(self, update: Update, context: Any) -> None:
        """An update arrived through the webhook: delivery works."""
        self.heard_at = datetime.now(UTC)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.every)
            if self.trouble is None and loop.time() - self.reach.answered_at < self.every:
                continue  # Telegram answered lately and the webhook was fine: nothing to ask
            try:
                await self.check()
            except Exception:  # the watch goes on; readiness keeps what it knew
                log.exception("checking the Telegram webhook failed")

    async def check(self) -> None:
        try:
            info = await self.bot.get_webhook_info()
        except TelegramError:
            return  # no answer: `Reach` says so already
        trouble = webhook_trouble(info, self.url, self.heard_at, datetime.now(UTC) - timedelta(seconds=self.errors_for))
        if trouble != self.trouble:
            if trouble is None:
                log.info("the Telegram webhook is fine again")
            else:
                log.warning("the Telegram webhook is not working: %s", trouble)
        self.trouble = trouble


def webhook_trouble(info: WebhookInfo, url: str, heard_at: datetime, since: datetime) -> str | None:
    """What is wrong with the webhook by `info` (getWebhookInfo's answer), or None: Telegram has
    no webhook, or one to another URL, or it failed to deliver an update after `heard_at` (the
    last update that arrived) and after `since`."""
    if not info.url:
        return "Telegram has no webhook for the bot"
    if info.url != url:
        return "the bot's webhook is set to another URL"
    failed = info.last_error_date  # whole seconds: a failure in the second of the last update is before it
    if failed is not None and failed > heard_at.replace(microsecond=0) and failed > since:
        return f"Telegram cannot deliver updates: {info.last_error_message or 'no reason given'}"
    return None
