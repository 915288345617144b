"""Each chat's table message (the board, edited in place move after move, and the short ping of
the player to move under it), kept across restarts in the host's notes, and what a lost answer
leaves behind.

The Bot API has no idempotency key: a message Telegram made whose answer was lost (a timeout, a
dropped connection) is in the chat under an id the bot never learns. So:
- Before a board is posted anew or a ping is sent, the chat's note says the bot is `unsure`, until
  Telegram's answer comes. While it is, the next board is posted anew, at the bottom of the chat,
  not edited in place above a board or a ping the bot does not know: the board people see at the
  bottom of the chat is never a stale one. (A ping whose answer was lost is followed at once by the
  board posted anew, whose caption pings the player instead.)
- A ping whose answer was lost is then looked for: message ids grow in a chat, so it lies between
  the newest id the bot knew when it sent it and the next message it made. Each id there that is
  not one the bot knows it made is edited to the ping's own text: Telegram refuses to edit
  someone else's message, and answers "message is not modified" only for a message of the bot's
  with exactly that text. That one is deleted. Not tried when several processes share the chat
  (another's message may lie between), nor further back than `LOOK_BACK` ids.
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from dataclasses import asdict, dataclass
from typing import Any

from telegram.constants import ParseMode
from telegram.error import BadRequest, NetworkError, TelegramError
from telegram.ext import Application

from bot.adapters.telegram.chats import Chat
from bot.host import Notes

log = logging.getLogger(__name__)

BOARD_NOTE = "board"  # the host's note of a chat's table message
LOOK_BACK = 12  # ids tried below the next message, at most, for a ping whose answer was lost
REMEMBERED = 64  # ids of messages the bot made, remembered per chat


@dataclass
class BoardMessage:
    """The table message of a chat's session, edited in place move after move."""

    session: int
    message_id: int
    pinged: str | None = None  # the user id last told it is their move
    ping_id: int | None = None  # that short message, deleted when the next one is sent
    unsure: bool = False  # a board or a ping went out and no answer came: the next board is posted anew
    lost_ping: dict[str, Any] | None = None  # a ping that may be in the chat: {"html": its text, "after": an id}


def lost(error: Exception) -> bool:
    """Whether `error` means Telegram's answer never came (the request may have been done)."""
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


class Boards:
    def __init__(self, app: Application, notes: Notes) -> None:
        self.app = app
        self.notes = notes
        self.boards: dict[Chat, BoardMessage | None] = {}  # chat or topic -> its table message (None: none yet)
        self._newest: dict[int, int] = {}  # chat id -> the newest message id seen there
        self._made: dict[int, deque[int]] = {}  # chat id -> ids of the last messages the bot made there

    def saw(self, chat: Chat, message_id: int | None, made: bool = False) -> None:
        """A message in the chat: someone's command, or one the bot `made` (ids count in the whole chat,
        its topics too)."""
        if message_id is None:
            return
        chat_id = chat.id
        self._newest[chat_id] = max(message_id, self._newest.get(chat_id, 0))
        if made:
            self._made.setdefault(chat_id, deque(maxlen=REMEMBERED)).append(message_id)

    async def get(self, chat: Chat) -> BoardMessage | None:
        """The chat's (or topic's) table message; kept in the database too, so a restart goes on editing it."""
        if chat not in self.boards or self.notes.shared:  # another process may have posted since
            saved = await self.notes.get(chat.channel, BOARD_NOTE)
            self.boards[chat] = BoardMessage(**saved) if saved else None
        return self.boards[chat]

    async def keep(self, chat: Chat, board: BoardMessage) -> None:
        self.boards[chat] = board
        await self.notes.put(chat.channel, BOARD_NOTE, asdict(board))

    async def pinging(self, chat: Chat, board: BoardMessage, html: str) -> None:
        """A ping is about to be sent: its old one goes, and until the answer comes the note says a
        ping with this text may be in the chat after the newest id known now."""
        if board.ping_id is not None:
            with contextlib.suppress(TelegramError):
                await self.app.bot.delete_message(chat.id, board.ping_id)
        after = max(self._newest.get(chat.id, 0), board.message_id)
        board.pinged, board.ping_id, board.unsure = None, None, True
        board.lost_ping = {"html": html, "after": after}
        await self.keep(chat, board)

    async def pinged(self, chat: Chat, board: BoardMessage, target: str, message_id: int | None,
                     error: Exception | None = None) -> None:
        """The ping's answer (its id), or the error Telegram answered (then nothing was made)."""
        if error is not None and lost(error):
            return  # it may be in the chat: the note says so
        board.pinged, board.ping_id = (target, message_id) if error is None else (None, None)
        board.unsure, board.lost_ping = False, None
        await self.keep(chat, board)

    async def posting(self, chat: Chat) -> BoardMessage | None:
        """A board is about to be posted anew: until its answer comes, the note says so. The table
        message as it was."""
        old = await self.get(chat)
        if old is not None and not old.unsure:
            old.unsure = True
            await self.keep(chat, old)
        return old

    async def posted(self, chat: Chat, board: BoardMessage, old: BoardMessage | None) -> None:
        """The board posted anew is the table message now; the old one's ping goes (the caption pings),
        and a ping whose answer was lost is looked for below it."""
        await self.keep(chat, board)
        if old is None:
            return
        if old.ping_id is not None:
            with contextlib.suppress(TelegramError):
                await self.app.bot.delete_message(chat.id, old.ping_id)
        if old.lost_ping is not None and not self.notes.shared:
            await self._find_lost(chat.id, old.lost_ping["html"], int(old.lost_ping["after"]), board.message_id)

    async def unping(self, chat: Chat, session: int) -> None:
        """The game ended: its last "X, your move." goes, as each one went when the next came."""
        board = await self.get(chat)
        if board is None or board.session != session or board.ping_id is None:
            return
        with contextlib.suppress(TelegramError):
            await self.app.bot.delete_message(chat.id, board.ping_id)
        board.pinged, board.ping_id = None, None
        await self.keep(chat, board)

    async def _find_lost(self, chat_id: int, html: str, after: int, before: int) -> None:
        """The ping with text `html` sent after message `after` whose answer was lost, deleted if it is
        in the chat below message `before` (see the module's doc)."""
        made = set(self._made.get(chat_id, ()))
        for message_id in range(before - 1, max(after, before - 1 - LOOK_BACK), -1):
            if message_id in made:
                continue
            try:
                await self.app.bot.edit_message_text(html, chat_id, message_id, parse_mode=ParseMode.HTML)
            except BadRequest as error:
                if "not modified" not in str(error).lower():
                    continue  # someone else's, gone, or not text: not the ping
            except TelegramError as error:
                log.info("looking for a lost ping in %s stopped: %s", chat_id, error)
                return
            else:  # a message of the bot's whose answer was lost too, now saying the ping: it goes as well
                log.warning("message %s in %s was the bot's and unknown to it; deleted", message_id, chat_id)
            with contextlib.suppress(TelegramError):
                await self.app.bot.delete_message(chat_id, message_id)
            return
