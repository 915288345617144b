"""The Telegram adapter: python-telegram-bot updates in, host replies out.

Thin by design: a message becomes the text the user typed (plus mentions), a button
press becomes `Event(button=callback_data)`, and a `Reply` becomes sendPhoto /
sendMessage / editMessageMedia / answerCallbackQuery. Telegram-only degradations live
here: ephemeral refusals of button presses become callback alerts, private hands go
to the player's private chat (or inline mode), and a player who never opened the bot
gets a deep-link button instead of their cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import re
import secrets
from dataclasses import asdict, dataclass, field, replace
from typing import Any
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaPhoto,
    Message,
    ReplyParameters,
    Update,
)
from telegram import User as TgUser
from telegram.constants import ChatAction, ChatType, MessageEntityType, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Application, CallbackQueryHandler, ContextTypes, InlineQueryHandler, MessageHandler, filters

from bot.adapters.telegram.inline import answer_inline
from bot.adapters.telegram.plumbing import ChatOrder, FloodSafeLimiter
from bot.commands import HOST_COMMANDS, Command, parse
from bot.host import Host
from bot.i18n import catalog, t
from bot.model import TELEGRAM, Button, Event, Reply, User

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query", "inline_query"]
CAPTION_MAX, TEXT_MAX, ALERT_MAX = 1024, 4096, 200
BUTTONS_PER_ROW = 3
TYPING_EVERY = 4.5  # seconds; a chat action shows for about 5
TYPING_AT_MOST = 600.0
MODERATOR_COMMANDS = ("cancel", "hints")  # the only commands where being a chat admin matters
PERSON_COMMANDS = ("challenge", "stats")  # a reply to someone's message names that person
HAND_LINK = re.compile(r"hand_(-?\d{1,20})")


@dataclass
class TelegramOptions:
    token: str
    api_url: str = "https://api.telegram.org"  # or a local Bot API server, e.g. http://localhost:8081
    local_mode: bool = False  # True with a local Bot API server started with --local
    webhook_url: str | None = None  # set: receive updates by webhook at this public URL instead of polling
    webhook_secret: str | None = None  # checked on every webhook call (made up at start when unset)
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    poll_timeout: float = 10.0
    overall_rate: float = 30.0  # requests per second, whole bot
    group_rate: float = 20.0  # messages per group_period per group (Telegram's limit: 20 a minute)
    group_period: float = 60.0
    max_retries: int = 10  # RetryAfter answers honoured per request before giving up


BOARD_SETTING = "telegram_board"


@dataclass
class BoardMessage:
    """The table message of a chat's session, edited in place move after move."""

    session: int
    message_id: int
    pinged: str | None = None  # the user id last told it is their move
    ping_id: int | None = None  # that short message, deleted when the next one is sent


@dataclass
class Origin:
    """Where the replies to one event go, and how."""

    chat_id: int
    user_id: int | None = None
    message_id: int | None = None  # the command message: ephemeral answers reply to it
    query: CallbackQuery | None = None  # a button press, answered exactly once
    answered: bool = False
    fresh_board: bool = False  # a typed /board: post the board anew instead of editing it
    private_chat: int | None = None  # a /start deep link: every reply goes to this private chat
    skip: set[int] = field(default_factory=set)  # replies already shown (as the callback's alert)


def build_application(options: TelegramOptions) -> Application:
    root = options.api_url.rstrip("/")
    limiter = FloodSafeLimiter(
        overall_max_rate=options.overall_rate, group_max_rate=options.group_rate,
        group_time_period=options.group_period, max_retries=options.max_retries,
    )  # fmt: skip
    return (
        Application.builder()
        .token(options.token)
        .base_url(f"{root}/bot")
        .base_file_url(f"{root}/file/bot")
        .local_mode(options.local_mode)
        .rate_limiter(limiter)
        .concurrent_updates(ChatOrder())
        .build()
    )


class Telegram:
    def __init__(self, host: Host, options: TelegramOptions, application: Application | None = None) -> None:
        self.host = host
        self.tr = host.tr
        self.options = options
        self.app = application or build_application(options)
        self.username = ""
        self._boards: dict[int, BoardMessage | None] = {}  # chat id -> its table message (None: none yet)
        self._threads: dict[int, int] = {}  # forum chat id -> the topic the game is played in
        self._names: dict[str, str] = {}  # user id -> display name, from updates
        self._nudged: set[tuple[int | None, str]] = set()  # (session, user) told to open the bot
        self._typing: dict[int, asyncio.Task[None]] = {}
        self.app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, self._on_message))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        self.app.add_handler(CallbackQueryHandler(self._on_callback))
        self.app.add_handler(InlineQueryHandler(self._on_inline))
        self.app.add_error_handler(self._on_error)
        host.attach(TELEGRAM, self.deliver)

    @classmethod
    def from_settings(cls, host: Host, settings: Any) -> Telegram:
        return cls(host, TelegramOptions(
            token=settings.telegram_token, api_url=settings.telegram_api_url,
            local_mode=settings.telegram_local_mode, webhook_url=settings.telegram_webhook_url,
            webhook_secret=settings.telegram_webhook_secret, webhook_listen=settings.telegram_webhook_listen,
            webhook_port=settings.telegram_webhook_port,
        ))  # fmt: skip

    # --- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        await self.app.initialize()
        self.username = self.app.bot.username
        await self._set_commands()
        await self.app.start()
        updater = self.app.updater
        assert updater is not None
        o = self.options
        if o.webhook_url:
            secret = o.webhook_secret or secrets.token_urlsafe(32)
            await updater.start_webhook(
                listen=o.webhook_listen, port=o.webhook_port, url_path=urlparse(o.webhook_url).path.lstrip("/"),
                webhook_url=o.webhook_url, secret_token=secret, allowed_updates=ALLOWED_UPDATES,
            )  # fmt: skip
        else:
            await updater.start_polling(timeout=o.poll_timeout, allowed_updates=ALLOWED_UPDATES,
                                        error_callback=lambda e: log.warning("polling: %s", e))  # fmt: skip

    async def stop(self) -> None:
        for task in self._typing.values():
            task.cancel()
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    async def _set_commands(self) -> None:
        """The command menu: the games, the host's commands, and the games' move words."""
        tr, known = self.tr, catalog(self.tr.language) | catalog("en")
        commands: dict[str, str] = {}
        for name in self.host.games:
            commands[name] = tr(t("telegram.command_game", game=tr(t(f"{name}.title"))))
        for word in HOST_COMMANDS:
            key = f"telegram.command_{word}"
            commands.setdefault(word, tr(t(key if key in known else "telegram.command_other")))
        words: dict[str, list[str]] = {}
        for name, game in self.host.games.items():
            for word in [*game.move_words, *game.queries]:
                words.setdefault(word, []).append(tr(t(f"{name}.title")))
        for word, titles in words.items():
            commands.setdefault(word, tr(t("telegram.command_move_word", games=", ".join(titles))))
        menu = [BotCommand(w, d[:256]) for w, d in commands.items() if re.fullmatch(r"[a-z0-9_]{1,32}", w)]
        try:
            await self.app.bot.set_my_commands(menu[:100])
        except TelegramError as e:
            log.warning("setMyCommands failed: %s", e)

    # --- updates in -------------------------------------------------------------------
    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup with a new chat id: its game goes on there. Telegram says so in
        both chats; the second notice finds nothing left to move."""
        message = update.message
        if message is None:
            return
        old, new = ((message.chat.id, message.migrate_to_chat_id) if message.migrate_to_chat_id
                    else (message.migrate_from_chat_id, message.chat.id))  # fmt: skip
        if old is None or new is None:
            return
        await self.host.move_channel(f"{TELEGRAM}:{old}", f"{TELEGRAM}:{new}")
        self._boards.pop(old, None)
        self._boards[new] = None  # the old table message is not in the new chat: the next board is posted anew

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
        chat, user = message.chat, message.from_user
        if message.is_topic_message and message.message_thread_id is not None:
            self._threads[chat.id] = message.message_thread_id
        origin = Origin(chat.id, user.id, message.message_id)
        word, _, rest = text[1:].partition(" ")
        if word.lower() == "start":
            payload = rest.strip()
            if chat.type == ChatType.PRIVATE and (m := HAND_LINK.fullmatch(payload)):
                # The deep link of "show my cards": the hand of the game in that group, here.
                self._nudged = {k for k in self._nudged if k[1] != f"{TELEGRAM}:{user.id}"}
                origin.private_chat = chat.id
                await self.host.handle(Event(f"{TELEGRAM}:{m[1]}", self._user(user), "/hand"), self._responder(origin))
                return
            text = "/help"
        command = parse(text, self.host.words)
        if isinstance(command, Command):
            reply_to = message.reply_to_message
            if (command.name in PERSON_COMMANDS and not command.mentions and reply_to is not None
                    and reply_to.forum_topic_created is None and reply_to.from_user is not None
                    and not reply_to.from_user.is_bot):  # fmt: skip
                token = f"<@{reply_to.from_user.id}>"
                text, mentions = f"{text} {token}", {**mentions, token: self._user(reply_to.from_user)}
            origin.fresh_board = command.name == "board"
        moderator = await self._is_moderator(message, command)
        event = Event(f"{TELEGRAM}:{chat.id}", self._user(user, moderator), text, mentions=mentions)
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
            if addressee.lower() != self.username.lower():
                return None
            text = word + space + rest
        return text, mentions

    async def _is_moderator(self, message: Message, command: object) -> bool:
        if message.chat.type == ChatType.PRIVATE:
            return True
        if not isinstance(command, Command) or command.name not in MODERATOR_COMMANDS or message.from_user is None:
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
            with contextlib.suppress(TelegramError):
                await query.answer(self.tr(t("telegram.button_not_here")), show_alert=True)
            return
        chat = query.message.chat
        origin = Origin(chat.id, query.from_user.id, query=query)
        event = Event(f"{TELEGRAM}:{chat.id}", self._user(query.from_user, chat.type == ChatType.PRIVATE),
                      button=query.data)  # fmt: skip
        try:
            await self.host.handle(event, self._responder(origin))
        finally:
            if not origin.answered:
                await self._answer(origin)

    async def _on_inline(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.inline_query is not None:
            self._user(update.inline_query.from_user)
            await answer_inline(self, update.inline_query)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("handling a Telegram update failed", exc_info=context.error)

    def _user(self, user: TgUser, moderator: bool = False) -> User:
        uid = f"{TELEGRAM}:{user.id}"
        self._names[uid] = user.full_name
        return User(uid, user.full_name, user.username, moderator)

    # --- replies out ------------------------------------------------------------------
    def _responder(self, origin: Origin) -> Any:
        async def respond(replies: list[Reply]) -> None:
            await self._send(origin, replies)

        return respond

    async def deliver(self, channel: str, replies: list[Reply]) -> None:
        """Replies nobody asked for right now: the AI's moves, timeouts."""
        chat_id = int(channel.partition(":")[2])
        task = self._typing.pop(chat_id, None)
        if task is not None:
            task.cancel()
        await self._send(Origin(chat_id), replies)

    async def _send(self, origin: Origin, replies: list[Reply]) -> None:
        query = origin.query
        if query is not None and not origin.answered:
            # A refusal of a press is the press's own alert; otherwise stop the spinner now.
            alert = next((i for i, r in enumerate(replies) if r.ephemeral and r.to is None and r.image is None
                          and not r.buttons and r.text), None)  # fmt: skip
            if alert is not None:
                origin.skip.add(alert)
                await self._answer(origin, replies[alert].text, alert=True)
            elif not any(r.to == f"{TELEGRAM}:{origin.user_id}" for r in replies):
                await self._answer(origin)
        for i, reply in enumerate(replies):
            if i in origin.skip:
                continue
            try:
                await self._send_one(origin, reply)
            except TelegramError:
                log.exception("sending a reply to chat %s failed", origin.chat_id)
        await self._typing_if_thinking(origin.chat_id, replies)

    async def _send_one(self, origin: Origin, reply: Reply) -> None:
        if reply.to is not None:
            await self._send_private(origin, reply)
        elif origin.private_chat is not None:
            await self._post(origin.private_chat, replace(reply, mentions=(), board=False))
        elif reply.board and reply.session is not None and reply.image is not None:
            await self._show_board(origin, reply)
        else:
            await self._post(origin.chat_id, reply, reply_to=origin.message_id if reply.ephemeral else None)

    async def _send_private(self, origin: Origin, reply: Reply) -> None:
        """A hidden hand: to the player's private chat with the bot, never to the group."""
        prefix, _, number = (reply.to or "").partition(":")
        if prefix != TELEGRAM:
            return
        user_chat = int(number)
        mine = origin.query is not None and origin.user_id == user_chat and not origin.answered
        try:
            await self._post(user_chat, replace(reply, mentions=(), board=False))
            if mine:
                await self._answer(origin, self.tr(t("telegram.sent_private")))
            return
        except Forbidden:
            pass  # the player has never opened the bot (or blocked it)
        except BadRequest as e:
            if "chat not found" not in str(e).lower():
                raise
        link = self.deep_link(f"hand_{origin.chat_id}")
        if mine:  # Telegram opens the private chat right away, with the cards in it
            await self._answer(origin, url=link)
            return
        if (reply.session, reply.to) in self._nudged or origin.chat_id == user_chat:
            return
        self._nudged.add((reply.session, reply.to or ""))
        name = await self._mention_html(reply.to or "", reply.session)
        text = self._html(t("telegram.open_private", name="\x00name\x00", bot=self.username), name=name)
        button = InlineKeyboardButton(self.tr(t("telegram.button_open_private")), url=link)
        await self._send_text(origin.chat_id, text, InlineKeyboardMarkup([[button]]))

    async def _show_board(self, origin: Origin, reply: Reply) -> None:
        """The session's table message: edited in place (editMessageMedia), posted anew when
        there is none yet, it cannot be edited, or someone typed /board."""
        chat_id, session = origin.chat_id, reply.session or 0
        target = reply.mentions[0] if reply.mentions else None
        caption = self._html(reply.text)
        if reply.mentions:
            links = [await self._mention_html(u, session) for u in reply.mentions]
            caption += "\n" + self._html(t("telegram.invited", mentions="\x00mentions\x00"), mentions=" ".join(links))
        caption = _fit(caption, CAPTION_MAX)
        markup = self._keyboard(reply.buttons)
        board = await self._board(chat_id)
        if board is not None and board.session == session and not origin.fresh_board:
            media = InputMediaPhoto(InputFile(reply.image, filename=reply.image_name, attach=True), caption=caption,
                                    parse_mode=ParseMode.HTML)  # fmt: skip
            try:
                await self.app.bot.edit_message_media(media, chat_id=chat_id, message_id=board.message_id,
                                                      reply_markup=markup)  # fmt: skip
                edited = True
            except BadRequest as e:
                edited = "not modified" in str(e).lower()
                if not edited:
                    log.info("editing the board in %s failed (%s); posting it anew", chat_id, e)
            if edited:
                if target is not None and target != board.pinged:
                    await self._ping(board, chat_id, target)
                return
        sent = await self._post(chat_id, replace(reply, text=""), caption_html=caption)
        if sent is not None:
            await self._keep_board(chat_id, BoardMessage(session, sent.message_id, pinged=target))

    async def _board(self, chat_id: int) -> BoardMessage | None:
        """The chat's table message; kept in the database too, so a restart goes on editing it."""
        if chat_id not in self._boards:
            saved = await self.host.store.setting(f"{TELEGRAM}:{chat_id}", BOARD_SETTING)
            self._boards[chat_id] = BoardMessage(**json.loads(saved)) if saved else None
        return self._boards[chat_id]

    async def _keep_board(self, chat_id: int, board: BoardMessage) -> None:
        self._boards[chat_id] = board
        await self.host.store.set_setting(f"{TELEGRAM}:{chat_id}", BOARD_SETTING, json.dumps(asdict(board)))

    async def _ping(self, board: BoardMessage, chat_id: int, target: str) -> None:
        """An edit notifies nobody: a short message, as a reply to the board, tells the player."""
        if board.ping_id is not None:
            with contextlib.suppress(TelegramError):
                await self.app.bot.delete_message(chat_id, board.ping_id)
        mention = await self._mention_html(target, board.session)
        text = self._html(t("telegram.your_turn", mention="\x00mention\x00"), mention=mention)
        sent = await self._send_text(chat_id, text, None, reply_to=board.message_id)
        board.pinged, board.ping_id = target, sent.message_id if sent else None
        await self._keep_board(chat_id, board)

    async def _post(
        self, chat_id: int, reply: Reply, reply_to: int | None = None, caption_html: str | None = None
    ) -> Message | None:
        body = caption_html if caption_html is not None else self._html(reply.text)
        if reply.mentions and caption_html is None:
            links = [await self._mention_html(u, reply.session) for u in reply.mentions]
            body += "\n" + self._html(t("telegram.invited", mentions="\x00mentions\x00"), mentions=" ".join(links))
        markup = self._keyboard(reply.buttons)
        if reply.image is None:
            return await self._send_text(chat_id, body, markup, reply_to) if body.strip() else None
        fits = len(body) <= CAPTION_MAX
        sent = await self.app.bot.send_photo(
            chat_id, InputFile(reply.image, filename=reply.image_name), caption=body if fits else None,
            parse_mode=ParseMode.HTML, reply_markup=markup if fits or not body.strip() else None,
            message_thread_id=self._threads.get(chat_id), reply_parameters=_reply_to(reply_to),
        )  # fmt: skip
        if not fits:
            await self._send_text(chat_id, body, markup)
        return sent

    async def _send_text(
        self, chat_id: int, body: str, markup: InlineKeyboardMarkup | None, reply_to: int | None = None
    ) -> Message | None:
        chunks = _chunks(body, TEXT_MAX)
        sent = None
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            sent = await self.app.bot.send_message(
                chat_id, chunk, parse_mode=ParseMode.HTML, reply_markup=markup if last else None,
                message_thread_id=self._threads.get(chat_id), reply_parameters=_reply_to(reply_to if not i else None),
            )  # fmt: skip
        return sent

    async def _answer(
        self, origin: Origin, text: str | None = None, alert: bool = False, url: str | None = None
    ) -> None:
        origin.answered = True
        if origin.query is None:
            return
        try:
            await origin.query.answer(_fit(text, ALERT_MAX) if text else None, show_alert=alert, url=url)
        except TelegramError as e:  # too old, or already answered: nothing more to do
            log.info("answerCallbackQuery failed: %s", e)

    # --- "typing…" while the AI thinks -----------------------------------------------
    async def _typing_if_thinking(self, chat_id: int, replies: list[Reply]) -> None:
        sessions = {r.session for r in replies if r.board and r.session is not None and r.to is None}
        for session_id in sessions:
            if session_id is not None and await self.host.ai_to_move(session_id):
                with contextlib.suppress(TelegramError):
                    await self.app.bot.send_chat_action(chat_id, ChatAction.TYPING,
                                                        message_thread_id=self._threads.get(chat_id))  # fmt: skip
                old = self._typing.pop(chat_id, None)
                if old is not None:
                    old.cancel()
                self._typing[chat_id] = asyncio.ensure_future(self._keep_typing(chat_id, session_id))

    async def _keep_typing(self, chat_id: int, session_id: int) -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + TYPING_AT_MOST
        try:
            while loop.time() < until:
                await asyncio.sleep(TYPING_EVERY)
                if not await self.host.ai_to_move(session_id):
                    return
                with contextlib.suppress(TelegramError):
                    await self.app.bot.send_chat_action(chat_id, ChatAction.TYPING,
                                                        message_thread_id=self._threads.get(chat_id))  # fmt: skip
        finally:
            if self._typing.get(chat_id) is asyncio.current_task():
                del self._typing[chat_id]

    # --- small helpers ----------------------------------------------------------------
    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.username}?start={payload}"

    def _keyboard(self, buttons: tuple[Button, ...]) -> InlineKeyboardMarkup | None:
        keys = [InlineKeyboardButton(b.label, callback_data=b.id) for b in buttons if len(b.id.encode()) <= 64]
        if not keys:
            return None
        return InlineKeyboardMarkup([keys[i : i + BUTTONS_PER_ROW] for i in range(0, len(keys), BUTTONS_PER_ROW)])

    def _html(self, text: Any, **fragments: str) -> str:
        """A sentence (or a `Msg`) as Telegram HTML; `fragments` replace "\\x00name\\x00" marks
        with ready-made HTML (mention links), so only the rest is escaped."""
        out = html.escape(self.tr(text), quote=False)
        for name, fragment in fragments.items():
            out = out.replace(f"\x00{name}\x00", fragment)
        return out

    async def _mention_html(self, user_id: str, session_id: int | None) -> str:
        name = None
        if session_id is not None:
            session = await self.host.store.get(session_id)
            seat = session.seat_of(user_id) if session is not None else None
            name = seat.name if seat is not None else None
        name = name or self._names.get(user_id) or self.tr(t("telegram.someone"))
        prefix, _, number = user_id.partition(":")
        if prefix != TELEGRAM or not number.isdigit():
            return html.escape(name, quote=False)
        return f'<a href="tg://user?id={number}">{html.escape(name, quote=False)}</a>'


def _reply_to(message_id: int | None) -> ReplyParameters | None:
    return ReplyParameters(message_id, allow_sending_without_reply=True) if message_id is not None else None


def _fit(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _chunks(body: str, most: int) -> list[str]:
    """Split a long message at line ends (a line longer than a message is cut)."""
    chunks, current = [], ""
    for line in body.split("\n"):
        while len(line) > most:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:most])
            line = line[most:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > most:
            chunks.append(current)
            candidate = line
        current = candidate
    if current:
        chunks.append(current)
    return chunks or [body]
