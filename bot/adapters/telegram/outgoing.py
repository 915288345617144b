"""Replies out to Telegram: how each `Reply` becomes sendPhoto / sendMessage /
editMessageMedia / answerCallbackQuery, and Telegram's own degradations. By audience:
- `Private` (hidden cards, a hint, a link code, a refusal that tells what one holds) goes
  to that person's private chat with the bot, and only there (`_post_private` takes no chat
  id); when they never opened it, the group gets a note without the content and a button
  that opens the chat. A short one answering their own button press is the press's alert,
  which only they see.
- `NotSecret` (a refusal that hides nothing) is the press's alert, or a reply to their message.
- `Everyone` goes to the group; the board is one message edited in place with a short ping
  for the player to move.
Only `_post` and `_show_board` write to a group, and they take a `Public`, which cannot hold
a Private reply. What the adapter adds to a reply (a ping, a mention line, a note) is in the
reply's language."""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Application

from bot.adapters.telegram.boards import BoardMessage, Boards, lost
from bot.adapters.telegram.chats import Chat
from bot.host import Notes
from bot.i18n import Translator, translator
from bot.model import TELEGRAM, Button, NotSecret, Private, Public, Reply
from engines.base import msg

log = logging.getLogger(__name__)

CAPTION_MAX, TEXT_MAX, ALERT_MAX = 1024, 4096, 200
BUTTONS_PER_ROW, BUTTONS_MAX, CALLBACK_DATA_MAX = 3, 100, 64  # Telegram takes at most 100 buttons


@dataclass
class Origin:
    """Where the replies to one event go, and how."""

    chat: Chat  # the chat, or the forum topic, the event came from
    user_id: int | None = None
    message_id: int | None = None  # the command message: ephemeral answers reply to it
    query: CallbackQuery | None = None  # a button press, answered exactly once
    answered: bool = False
    fresh_board: bool = False  # a typed /board: post the board anew instead of editing it
    private_chat: int | None = None  # a /start deep link: every reply goes to this private chat
    skip: set[int] = field(default_factory=set)  # replies already shown (as the callback's alert)


class Sender:
    """Sends one event's replies (or unasked-for ones) to Telegram."""

    def __init__(self, app: Application, tr: Translator, notes: Notes) -> None:
        self.app = app
        self.tr = tr  # for replies that do not say their language
        self.notes = notes
        self.username = ""  # the bot's, known once started
        self.boards = Boards(app, notes)  # each chat's table message and its ping
        self.names: dict[str, str] = {}  # user id -> display name, from updates
        self.nudged: set[tuple[int | None, str]] = set()  # (session, user) told to open the bot

    async def send(self, origin: Origin, replies: list[Reply]) -> None:
        self.boards.saw(origin.chat, origin.message_id)
        query = origin.query
        if query is not None and not origin.answered:
            # An answer for the presser alone (a refusal, a hint) is the press's own alert, which only
            # they see (a secret one only if it fits whole); otherwise stop the spinner now.
            presser = f"{TELEGRAM}:{origin.user_id}"
            alert = next((i for i, r in enumerate(replies) if r.reader == presser and r.image is None
                          and not r.buttons and r.text and (not r.private or len(r.text) <= ALERT_MAX)),
                         None)
            if alert is not None:
                origin.skip.add(alert)
                await self.answer(origin, replies[alert].text, alert=True)
            elif not any(r.private and r.reader == presser for r in replies):
                await self.answer(origin)
        for i, reply in enumerate(replies):
            if i in origin.skip:
                continue
            try:
                await self._send_one(origin, reply)
            except Forbidden as error:  # the bot may not post there (removed, muted): nothing to fix here
                log.warning("chat %s refused a reply: %s", origin.chat.channel, error)
            except TelegramError:
                log.exception("sending a reply to chat %s failed", origin.chat.channel)

    async def _send_one(self, origin: Origin, reply: Reply) -> None:
        await self._route(origin, reply)
        if reply.over and reply.session is not None and origin.private_chat is None:
            await self.boards.unping(origin.chat, reply.session)

    async def _route(self, origin: Origin, reply: Reply) -> None:
        if isinstance(reply.audience, Private):
            await self._send_private(origin, reply)
        elif origin.private_chat is not None:
            await self._post(Chat(origin.private_chat), Public(replace(reply, mentions=(), board=False)))
        elif reply.board and reply.session is not None and reply.image is not None:
            await self._show_board(origin, Public(reply))
        else:
            mine = isinstance(reply.audience, NotSecret)  # an answer to their message: a reply to it
            await self._post(origin.chat, Public(reply), reply_to=origin.message_id if mine else None)

    async def _send_private(self, origin: Origin, reply: Reply) -> None:
        """A Private reply: to its reader's private chat with the bot, never to the group. When
        they never opened that chat, the group gets only a note with a button that opens it."""
        user = reply.reader or ""
        prefix, _, number = user.partition(":")
        if prefix != TELEGRAM or not number.lstrip("-").isdigit():
            return
        user_chat = int(number)
        mine = origin.query is not None and origin.user_id == user_chat and not origin.answered
        tr = self._tr(reply)
        try:
            await self._post_private(reply)
            if mine:
                await self.answer(origin, tr(msg("telegram.sent_private")))
            return
        except Forbidden:
            pass  # the player has never opened the bot (or blocked it)
        except BadRequest as e:
            if "chat not found" not in str(e).lower():
                raise
        hand = reply.session is not None  # a hidden hand (an answer to a question has no session)
        link = self.deep_link(f"hand_{origin.chat.link}" if hand else "help")
        if mine:  # Telegram opens the private chat right away (a hand: with the cards in it)
            await self.answer(origin, url=link)
            return
        # An answer to what they typed is always followed by a note; a hand (each move sends one) once a game.
        asked = not hand and origin.user_id == user_chat and origin.query is None
        if origin.chat.id == user_chat or (not asked and (reply.session, user) in self.nudged):
            return
        self.nudged.add((reply.session, user))
        name = self._mention_html(user, reply.names, tr)
        key, label = ("open_private", "button_open_private") if hand else ("open_private_answer", "button_open_chat")
        text = self._html(tr(msg(f"telegram.{key}", name="\x00name\x00", bot=self.username)), name=name)
        button = InlineKeyboardButton(tr(msg(f"telegram.{label}")), url=link)
        await self._send_text(origin.chat, text, InlineKeyboardMarkup([[button]]),
                              reply_to=origin.message_id if asked else None)

    async def _post_private(self, reply: Reply) -> Message | None:
        """`reply` in the private chat of the one person it is for, the only place it can go:
        the chat is its reader's, never one given."""
        reader = Chat(int((reply.reader or "").partition(":")[2]))
        return await self._send_reply(reader, replace(reply, mentions=(), board=False))

    async def publish(self, chat: Chat, public: Public, ids: list[str]) -> None:
        """A reply for everyone in the chat, from the host's outbox, raising when Telegram refuses
        it: the messages in `ids` were sent already (a retry skips them); each new one's id is added
        as Telegram answers (a board: its table message, then the ping of an edited one)."""
        reply = public.reply
        if reply.board and reply.session is not None and reply.image is not None:
            await self._show_board(Origin(chat), public, ids)
        elif not ids:
            sent = await self._post(chat, public)
            ids.append(str(sent.message_id) if sent is not None else "")
        if reply.over and reply.session is not None:  # the game ended: its last ping goes (as in `send`)
            await self.boards.unping(chat, reply.session)

    async def _show_board(self, origin: Origin, public: Public, ids: list[str] | None = None) -> None:
        """The session's table message: edited in place (editMessageMedia), posted anew when
        there is none yet, it cannot be edited, or someone typed /board. `ids`: as `publish`'s."""
        reply = public.reply
        assert reply.image is not None  # only a board with its picture comes here (`publish`)
        ids = [] if ids is None else ids
        chat, session = origin.chat, reply.session or 0
        target = reply.mentions[0] if reply.mentions else None
        tr = self._tr(reply)
        caption = self._html(reply.text)
        if reply.mentions:
            links = [self._mention_html(u, reply.names, tr) for u in reply.mentions]
            caption += "\n" + self._html(tr(msg("telegram.invited", mentions="\x00mentions\x00")),
                                          mentions=" ".join(links))
        caption = _fit_html(caption, CAPTION_MAX)
        markup = self._keyboard(reply.buttons)
        board = await self.boards.get(chat)
        if not ids and board is not None and board.session == session and not origin.fresh_board and not board.unsure:
            media = InputMediaPhoto(InputFile(reply.image, filename=reply.image_name, attach=True), caption=caption,
                                    parse_mode=ParseMode.HTML)
            try:
                await self.app.bot.edit_message_media(media, chat_id=chat.id, message_id=board.message_id,
                                                      reply_markup=markup)
                ids.append(str(board.message_id))
            except BadRequest as e:
                if "not modified" in str(e).lower():
                    ids.append(str(board.message_id))
                else:
                    log.info("editing the board in %s failed (%s); posting it anew", chat.channel, e)
        if ids and board is not None and not board.unsure:  # edited: an edit notifies nobody, so a ping does
            if target is None or target == board.pinged:
                return
            try:
                await self._ping(board, chat, target, reply.names, tr)
                return
            except TelegramError as error:
                if not lost(error):
                    raise
                log.info("a ping's answer in %s was lost (%s); posting the board anew", chat.channel, error)
        old = await self.boards.posting(chat)  # posted anew, at the bottom of the chat: its caption pings
        sent = await self._post(chat, Public(replace(reply, text="")), caption_html=caption)
        if sent is not None:
            ids.append(str(sent.message_id))
            await self.boards.posted(chat, BoardMessage(session, sent.message_id, pinged=target), old)

    async def _ping(self, board: BoardMessage, chat: Chat, target: str, names: Mapping[str, str],
                    tr: Translator) -> None:
        """An edit notifies nobody: a short message, as a reply to the board, tells the player."""
        mention = self._mention_html(target, names, tr)
        text = self._html(tr(msg("telegram.your_turn", mention="\x00mention\x00")), mention=mention)
        await self.boards.pinging(chat, board, text)
        try:
            sent = await self._send_text(chat, text, None, reply_to=board.message_id)
        except TelegramError as error:
            await self.boards.pinged(chat, board, target, None, error)
            raise
        await self.boards.pinged(chat, board, target, sent.message_id if sent else None)

    async def _post(
        self, chat: Chat, public: Public, reply_to: int | None = None, caption_html: str | None = None
    ) -> Message | None:
        """A reply anyone in `chat` may see (a `Public`: never a Private one)."""
        return await self._send_reply(chat, public.reply, reply_to, caption_html)

    async def _send_reply(
        self, chat: Chat, reply: Reply, reply_to: int | None = None, caption_html: str | None = None
    ) -> Message | None:
        """sendPhoto / sendMessage / sendDocument. Reached only through `_post` (a Public reply, any chat) and
        `_post_private` (a Private reply, its reader's own chat)."""
        body = caption_html if caption_html is not None else self._html(reply.text)
        if reply.mentions and caption_html is None:
            tr = self._tr(reply)
            links = [self._mention_html(u, reply.names, tr) for u in reply.mentions]
            invited = tr(msg("telegram.invited", mentions="\x00mentions\x00"))
            body += "\n" + self._html(invited, mentions=" ".join(links))
        markup = self._keyboard(reply.buttons)
        if reply.image is None and reply.document and len(body) > TEXT_MAX:  # a long record: a file
            first = _fit_html(self._html(reply.text.partition("\n")[0]), CAPTION_MAX)
            sent = await self.app.bot.send_document(
                chat.id, InputFile(reply.text.encode(), filename=reply.document), caption=first,
                parse_mode=ParseMode.HTML, reply_markup=markup, message_thread_id=chat.thread,
                reply_parameters=_reply_to(reply_to),
            )
            self.boards.saw(chat, sent.message_id, made=True)
            return sent
        if reply.image is None:
            return await self._send_text(chat, body, markup, reply_to) if body.strip() else None
        fits = len(body) <= CAPTION_MAX
        sent = await self.app.bot.send_photo(
            chat.id, InputFile(reply.image, filename=reply.image_name), caption=body if fits else None,
            parse_mode=ParseMode.HTML, reply_markup=markup if fits or not body.strip() else None,
            message_thread_id=chat.thread, reply_parameters=_reply_to(reply_to),
        )
        self.boards.saw(chat, sent.message_id, made=True)
        if not fits:
            await self._send_text(chat, body, markup)
        return sent

    async def _send_text(
        self, chat: Chat, body: str, markup: InlineKeyboardMarkup | None, reply_to: int | None = None
    ) -> Message | None:
        chunks = _chunks(body, TEXT_MAX)
        sent = None
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            sent = await self.app.bot.send_message(
                chat.id, chunk, parse_mode=ParseMode.HTML, reply_markup=markup if last else None,
                message_thread_id=chat.thread, reply_parameters=_reply_to(reply_to if not i else None),
            )
            self.boards.saw(chat, sent.message_id, made=True)
        return sent

    async def answer(
        self, origin: Origin, text: str | None = None, alert: bool = False, url: str | None = None
    ) -> None:
        origin.answered = True
        if origin.query is None:
            return
        try:
            await origin.query.answer(_fit(text, ALERT_MAX) if text else None, show_alert=alert, url=url)
        except TelegramError as e:  # too old, or already answered: nothing more to do
            log.info("answerCallbackQuery failed: %s", e)


    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.username}?start={payload}"

    def _keyboard(self, buttons: tuple[Button, ...]) -> InlineKeyboardMarkup | None:
        keys = [InlineKeyboardButton(b.label, callback_data=b.id) for b in buttons
                if 1 <= len(b.id.encode()) <= CALLBACK_DATA_MAX and b.label.strip()][:BUTTONS_MAX]
        if not keys:
            return None
        return InlineKeyboardMarkup([keys[i : i + BUTTONS_PER_ROW] for i in range(0, len(keys), BUTTONS_PER_ROW)])

    def _tr(self, reply: Reply) -> Translator:
        """The language of what is added to `reply`: its own."""
        return translator(reply.language) if reply.language else self.tr

    def _html(self, text: str, **fragments: str) -> str:
        """A sentence as Telegram HTML; `fragments` replace "\\x00name\\x00" marks with
        ready-made HTML (mention links), so only the rest is escaped."""
        out = html.escape(text, quote=False)
        for name, fragment in fragments.items():
            out = out.replace(f"\x00{name}\x00", fragment)
        return out

    def _mention_html(self, user_id: str, names: Mapping[str, str], tr: Translator) -> str:
        """A link that notifies `user_id`, shown with the name the host gave (or the one last seen)."""
        name = names.get(user_id) or self.names.get(user_id) or tr(msg("telegram.someone"))
        prefix, _, number = user_id.partition(":")
        if prefix != TELEGRAM or not number.isdigit():
            return html.escape(name, quote=False)
        return f'<a href="tg://user?id={number}">{html.escape(name, quote=False)}</a>'


def _reply_to(message_id: int | None) -> ReplyParameters | None:
    return ReplyParameters(message_id, allow_sending_without_reply=True) if message_id is not None else None


def _fit(text: str, most: int) -> str:
    """Plain text cut to `most` characters."""
    return text if len(text) <= most else text[: most - 1] + "…"


def _fit_html(body: str, most: int) -> str:
    """Telegram HTML cut to at most `most` characters, still HTML Telegram can parse."""
    if len(body) <= most:
        return body
    return body[: _cut_html(body, most - 1)].rstrip() + "…"


def _chunks(body: str, most: int) -> list[str]:
    """Telegram HTML split into messages of at most `most` characters, at line ends where it
    can, never inside a tag, an entity or a link; no piece is blank (Telegram refuses those)."""
    chunks = []
    while len(body) > most:
        cut = _cut_html(body, most)
        chunks.append(body[:cut])
        body = body[cut:].lstrip("\n")
    chunks.append(body)
    return [c for c in chunks if c.strip()] or [body]


_TOKEN = re.compile(r"<[^>]*>|&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);|[^<&]|[<&]")


def _cut_html(body: str, most: int) -> int:
    """The last place at or before `most` where `body` may be cut: outside every tag and
    entity with no element open; the last line end if it is in the second half."""
    places, depth, line_end = [0], 0, 0
    for token in _TOKEN.finditer(body):
        if token.end() > most:
            break
        text = token.group()
        if text.startswith("</") and len(text) > 2:
            depth -= 1
        elif text.startswith("<") and len(text) > 1 and not text.endswith("/>"):
            depth += 1
        if depth == 0:
            places.append(token.end())
            if text == "\n":
                line_end = token.end()
    cut = line_end if line_end * 2 >= most else places[-1]
    return cut or most  # nothing safe (one long element): cut anyway
