"""The Telegram adapter: python-telegram-bot updates in, host replies out.

Thin by design: a message becomes the text the user typed (plus mentions), a button
press becomes `Event(button=callback_data)`, an inline query is answered with the
player's hand (inline.py). How replies go out is outgoing.py; "typing…" while a bot
thinks is here. Every event carries the user's `language_code`, so the host answers
them in their language; the command menu is registered once per language.

Telegram takes only [a-z0-9_] as command names: the menu lists the English names
(described in each language), and Chinese words (/认输, /悔棋) are read from text
messages where Telegram delivers them to the bot: private chats, and groups where
the bot sees every message (privacy off, or the bot an admin).
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    Message,
    Update,
)
from telegram import User as TgUser
from telegram.constants import ChatType, MessageEntityType
from telegram.error import BadRequest, Forbidden, InvalidToken, NetworkError, TelegramError
from telegram.ext import Application, CallbackQueryHandler, ContextTypes, InlineQueryHandler, MessageHandler, filters

from bot import command_table, metrics
from bot.adapters.telegram.chats import Chat, chat_of, from_link, of_message, open_topic
from bot.adapters.telegram.inline import answer_inline
from bot.adapters.telegram.outgoing import Origin, Sender
from bot.adapters.telegram.plumbing import ChatOrder, FloodSafeLimiter, MeasuredRequest, Reach
from bot.adapters.telegram.thinking import Typing
from bot.adapters.telegram.watch import WebhookWatch
from bot.host import Host
from bot.i18n import LANGUAGES, Translator, translator
from bot.model import TELEGRAM, Event, Public, Reply, User
from bot.outbox import Undeliverable
from bot.parser import Command, ParseError
from bot.startup import StartFailed
from engines.base import Msg, msg

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query", "inline_query"]
# Commands that name a person: a reply to someone's message with one of them names that person.
PERSON_COMMANDS = {spec.name for spec in (*command_table.GAME_ACTIONS.values(), *command_table.HOST_COMMANDS.values())
                   if any(arg.kind == "user" for arg in spec.args)}
HAND_LINK = re.compile(r"hand_(-?\d{1,20}(?:_\d{1,12})?)")


@dataclass
class TelegramOptions:
    token: str
    api_url: str = "https://api.telegram.org"  # or a local Bot API server, e.g. http://localhost:8081
    local_mode: bool = False  # True with a local Bot API server started with --local
    webhook_url: str | None = None  # set: receive updates by webhook at this public URL instead of polling
    webhook_secret: str | None = None  # checked on every webhook call (made up at start when unset)
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_register: bool = True  # False: serve a webhook another process registered (workers behind one URL)
    poll_timeout: float = 10.0
    overall_rate: float = 30.0  # requests per second, whole bot
    group_rate: float = 20.0  # messages per group_period per group (Telegram's limit: 20 a minute)
    group_period: float = 60.0
    max_retries: int = 10  # RetryAfter answers honoured per request before giving up
    webhook_check: float = 5.0  # webhook mode: seconds without an answered request before asking getWebhookInfo
    webhook_errors_for: float = 60.0  # a delivery failure Telegram reports says "down" this long (or until an update)


def build_application(options: TelegramOptions, reach: Reach | None = None) -> Application:
    root = options.api_url.rstrip("/")
    reach = reach or Reach()
    limiter = FloodSafeLimiter(
        overall_max_rate=options.overall_rate, group_max_rate=options.group_rate,
        group_time_period=options.group_period, max_retries=options.max_retries,
    )
    return (
        Application.builder()
        .token(options.token)
        .base_url(f"{root}/bot")
        .base_file_url(f"{root}/file/bot")
        .local_mode(options.local_mode)
        .rate_limiter(limiter)
        .request(MeasuredRequest(reach, connection_pool_size=256))
        .get_updates_request(MeasuredRequest(reach, connection_pool_size=1))
        .concurrent_updates(ChatOrder())
        .build()
    )


class Telegram:
    def __init__(self, host: Host, options: TelegramOptions, application: Application | None = None) -> None:
        self.host = host
        self.tr = host.tr  # the host's language: the menu for everyone without one of their own
        self.options = options
        self.reach = Reach()  # readiness: whether Telegram answered the last request
        self.app = application or build_application(options, self.reach)
        self.notes = host.notes(TELEGRAM)
        self.out = Sender(self.app, self.tr, self.notes)
        self.typing = Typing(self.app, host)
        self._webhook: Any = None  # the webhook server of a worker that does not register it
        self.watch = (WebhookWatch(self.app, self.reach, options.webhook_url, options.webhook_check,
                                   options.webhook_errors_for) if options.webhook_url else None)
        self.app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, self._on_message))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        self.app.add_handler(CallbackQueryHandler(self._on_callback))
        self.app.add_handler(InlineQueryHandler(self._on_inline))
        self.app.add_error_handler(self._on_error)
        host.attach(TELEGRAM, self.deliver, self.publish, lambda channel, name: open_topic(self.app, channel, name))

    @classmethod
    def from_settings(cls, host: Host, settings: Any) -> Telegram:
        return cls(host, TelegramOptions(
            token=settings.telegram_token, api_url=settings.telegram_api_url,
            local_mode=settings.telegram_local_mode, webhook_url=settings.telegram_webhook_url,
            webhook_secret=settings.telegram_webhook_secret, webhook_listen=settings.telegram_webhook_listen,
            webhook_port=settings.telegram_webhook_port, webhook_register=settings.telegram_webhook_register,
        ))

    # --- life cycle ------------------------------------------------------------------
    name = TELEGRAM

    def connected(self) -> bool:
        return self.readiness() == "up"

    def readiness(self) -> str:
        """"up" while running, Telegram answered its last request and (webhook mode) it has the bot's
        webhook and delivers to it; else "down: why" (for /readyz)."""
        trouble = self.watch.trouble if self.watch is not None else None
        why = "not running" if not self.app.running else self.reach.why if not self.reach.up else trouble
        return "up" if why is None else f"down: {why}"

    async def start(self) -> None:
        """Connect and serve. A token Telegram refuses, or a Telegram it cannot reach (that may
        come back: `transient`), raises StartFailed with one line that never holds the token."""
        try:
            await self._start()
        except InvalidToken:
            raise StartFailed("Telegram refused the token (TELEGRAM_TOKEN)", transient=False) from None
        except (BadRequest, Forbidden) as error:
            reason = f"Telegram refused to start the bot: {self._secret_out(error)}"
            raise StartFailed(reason, transient=False) from None
        except NetworkError as error:
            reason = f"cannot reach Telegram at {self.options.api_url}: {self._secret_out(error)}"
            raise StartFailed(reason, transient=True) from None

    def _secret_out(self, error: Exception) -> str:
        return str(error).replace(self.options.token, "<token>")

    async def _start(self) -> None:
        await self.app.initialize()
        self.out.username = self.app.bot.username
        await self._set_commands()
        if not self.app.running:
            await self.app.start()
        updater = self.app.updater
        assert updater is not None
        o = self.options
        if o.webhook_url and not o.webhook_register:
            await self._serve_webhook()
        elif o.webhook_url:
            secret = o.webhook_secret or secrets.token_urlsafe(32)
            await updater.start_webhook(
                listen=o.webhook_listen, port=o.webhook_port, url_path=urlparse(o.webhook_url).path.lstrip("/"),
                webhook_url=o.webhook_url, secret_token=secret, allowed_updates=ALLOWED_UPDATES,
            )
        else:
            # seconds as a float work (the stub says int)
            await updater.start_polling(timeout=o.poll_timeout, allowed_updates=ALLOWED_UPDATES,  # type: ignore[arg-type]
                                        error_callback=lambda e: log.warning("polling: %s", e))
        if self.watch is not None:  # an idle webhook bot asks Telegram nothing: the watch does
            self.watch.start()

    async def _serve_webhook(self) -> None:
        """One of several workers behind the webhook's URL: serve the updates Telegram posts there
        (with the secret the registering process gave it) and register nothing. The server is
        python-telegram-bot's own, the one `start_webhook` runs, without its setWebhook."""
        from telegram.ext._utils.webhookhandler import WebhookAppClass, WebhookServer

        o = self.options
        path = "/" + urlparse(o.webhook_url or "").path.lstrip("/")
        app = WebhookAppClass(path, self.app.bot, self.app.update_queue, o.webhook_secret)
        self._webhook = WebhookServer(o.webhook_listen, o.webhook_port, app, None)
        await self._webhook.serve_forever()

    async def stop(self) -> None:
        self.typing.stop()
        if self.watch is not None:
            await self.watch.stop()
        if self._webhook is not None:
            await self._webhook.shutdown()
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    async def _set_commands(self) -> None:
        """The command menu in the host's language for everyone, and in each language for the
        people whose Telegram speaks it."""
        await self._set_menu(self.tr, None)
        for language in LANGUAGES:
            await self._set_menu(translator(language), language)

    async def _set_menu(self, tr: Translator, language: str | None) -> None:
        """The command menu: the games, the host's commands, and the games' move words."""
        commands: dict[str, str] = {}
        for name in self.host.games:
            commands[name] = tr(msg("commands.game", game=tr(msg(f"{name}.title"))))
        for word in command_table.HOST_COMMANDS:
            commands.setdefault(word, tr(msg(f"commands.{word}")))
        words: dict[str, tuple[list[Msg], str]] = {}
        for name, game in self.host.games.items():
            for word in [*game.move_words, *game.queries]:
                key = "commands.move_word" if word in game.move_words else "commands.query_word"
                words.setdefault(word, ([], key))[0].append(msg(f"{name}.title"))
        for word, (titles, key) in words.items():
            commands.setdefault(word, tr(msg(key, word=word, games=titles)))
        menu = [BotCommand(w, d[:256]) for w, d in commands.items() if re.fullmatch(r"[a-z0-9_]{1,32}", w)]
        try:
            await self.app.bot.set_my_commands(menu[:100], language_code=language)
        except TelegramError as e:
            log.warning("setMyCommands (%s) failed: %s", language or "default", e)

    # --- updates in -------------------------------------------------------------------
    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup with a new chat id: its game goes on there. Telegram says so in
        both chats; the second notice finds nothing left to move."""
        message = update.message
        if message is None:
            return
        old, new = ((message.chat.id, message.migrate_to_chat_id) if message.migrate_to_chat_id
                    else (message.migrate_from_chat_id, message.chat.id))
        if old is None or new is None:
            return
        await self.host.move_channel(f"{TELEGRAM}:{old}", f"{TELEGRAM}:{new}")
        self.out.boards.boards.pop(Chat(old), None)
        self.out.boards.boards[Chat(new)] = None  # the old table message is not in the new chat: the next board is anew

    async def _on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.text is None or message.from_user is None or message.from_user.is_bot:
            return
        if not message.text.startswith("/"):
            return  # ordinary chat
        read = self._command_text(message)
        if read is None:
            return  # "/cmd@otherbot"
        text, mentions = read
        chat, user, where = message.chat, message.from_user, of_message(message)
        origin = Origin(where, user.id, message.message_id)
        word, _, rest = text[1:].partition(" ")
        if word.lower() == "start":
            payload = rest.strip()
            if chat.type == ChatType.PRIVATE and (m := HAND_LINK.fullmatch(payload)):
                # The deep link of "show my cards": the hand of the game in that group, here.
                self.out.nudged = {k for k in self.out.nudged if k[1] != f"{TELEGRAM}:{user.id}"}
                origin.private_chat = chat.id
                event = Event(from_link(m[1]).channel, self._user(user), "/hand", locale=user.language_code)
                await self.host.handle(event, self._responder(origin))
                return
            text = "/help"
        command = self.host.parse(text)
        if isinstance(command, Command):
            reply_to = message.reply_to_message
            if (command.name in PERSON_COMMANDS and not command.mentions and reply_to is not None
                    and reply_to.forum_topic_created is None and reply_to.from_user is not None
                    and not reply_to.from_user.is_bot):
                token = f"<@{reply_to.from_user.id}>"
                text, mentions = f"{text} {token}", {**mentions, token: self._user(reply_to.from_user)}
            origin.fresh_board = command.name == "board"
        moderator = await self._is_moderator(message, command)
        event = Event(where.channel, self._user(user, moderator), text, mentions=mentions, locale=user.language_code,
                      place=None if where.thread is None else Chat(chat.id).channel)
        await self.host.handle(event, self._responder(origin))

    def _command_text(self, message: Message) -> tuple[str, dict[str, User]] | None:
        """The command as the host reads it: "/cmd@thisbot" loses its "@thisbot", a mention of
        someone without a username becomes a "<@id>" token with its User."""
        text = message.text or ""
        units = text.encode("utf-16-le")  # entity offsets count UTF-16 code units
        pieces, pos, mentions = [], 0, {}
        for entity in sorted(message.entities, key=lambda e: e.offset):
            if entity.type == MessageEntityType.TEXT_MENTION and entity.user is not None and entity.offset >= pos:
                token = f"<@{entity.user.id}>"
                mentions[token] = self._user(entity.user)
                pieces += [units[pos * 2 : entity.offset * 2].decode("utf-16-le"), token]
                pos = entity.offset + entity.length
        text = "".join([*pieces, units[pos * 2 :].decode("utf-16-le")])
        head, space, rest = text.partition(" ")
        word, _, addressee = head.partition("@")
        if addressee:
            if addressee.lower() != self.out.username.lower():
                return None
            text = word + space + rest
        return text, mentions

    async def _is_moderator(self, message: Message, command: Command | ParseError | None) -> bool:
        if message.chat.type == ChatType.PRIVATE:
            return True
        if not command_table.needs_moderator(command) or message.from_user is None:
            return False
        try:
            member = await self.app.bot.get_chat_member(message.chat.id, message.from_user.id)
        except TelegramError:
            return False
        return member.status in ("creator", "administrator")

    async def _on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        if query.message is None or query.data is None:
            tr = await self.host.reader(f"{TELEGRAM}:{query.from_user.id}", query.from_user.language_code)
            with contextlib.suppress(TelegramError):
                await query.answer(tr(msg("telegram.button_not_here")), show_alert=True)
            return
        chat = query.message.chat
        where = of_message(query.message) if isinstance(query.message, Message) else Chat(chat.id)
        origin = Origin(where, query.from_user.id, query=query)
        event = Event(where.channel, self._user(query.from_user, chat.type == ChatType.PRIVATE),
                      button=query.data, locale=query.from_user.language_code,
                      place=None if where.thread is None else Chat(chat.id).channel)
        try:
            await self.host.handle(event, self._responder(origin))
        finally:
            if not origin.answered:
                await self.out.answer(origin)

    async def _on_inline(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.inline_query is not None:
            user = update.inline_query.from_user
            self._user(user)
            await answer_inline(self.host, await self.host.reader(f"{TELEGRAM}:{user.id}", user.language_code),
                                update.inline_query)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        metrics.platform_error(TELEGRAM, "update")
        log.error("handling a Telegram update failed", exc_info=context.error)

    def _user(self, user: TgUser, moderator: bool = False) -> User:
        uid = f"{TELEGRAM}:{user.id}"
        self.out.names[uid] = user.full_name
        return User(uid, user.full_name, user.username, moderator)

    # --- replies out ------------------------------------------------------------------
    def _responder(self, origin: Origin) -> Any:
        async def respond(replies: list[Reply]) -> None:
            await self.out.send(origin, replies)
            await self.typing.if_thinking(origin.chat, replies)

        return respond

    async def deliver(self, channel: str, replies: list[Reply]) -> None:
        """Replies nobody asked for right now: the AI's moves, timeouts."""
        chat = chat_of(channel)
        self.typing.done(chat)
        await self.out.send(Origin(chat), replies)
        await self.typing.if_thinking(chat, replies)

    async def publish(self, channel: str, reply: Reply, ids: list[str], key: str) -> None:
        """A reply for everyone in the chat, from the host's outbox (`Sender.publish`); raises when
        Telegram refuses it (`Undeliverable` when that will not change: no access, a bad request).
        `key` is not used: the Bot API has no nonce (a message made whose answer was lost is made
        again when the outbox tries again)."""
        chat = chat_of(channel)
        self.typing.done(chat)
        try:
            await self.out.publish(chat, Public(reply), ids)
        except (Forbidden, BadRequest) as error:
            raise Undeliverable(self._secret_out(error)) from error
        await self.typing.if_thinking(chat, [reply])
