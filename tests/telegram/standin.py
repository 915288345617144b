"""A stand-in Bot API on 127.0.0.1 (aiohttp), enough of it for python-telegram-bot.

Tests push updates (a user types, presses a button, uses inline mode) and look at the
calls the bot made. The bot's messages live here as Telegram would keep them: edits
change them in place, and a press carries the message as it is now. Faults can be
queued: `retry_after` answers 429 with a RetryAfter, as Telegram does under flood; `failing`
answers a 5xx, drops the connection without an answer (`DROP`: nothing was done), or does
what was asked and then drops the connection (`LOST`: the message is made, its answer lost).
`unreachable` drops every connection (Telegram cannot be reached). The webhook is kept as
Telegram keeps it (setWebhook, deleteWebhook, getWebhookInfo with `webhook_error` as the
last delivery failure); getUpdates is refused while one is set.

It refuses what Telegram refuses (tests/telegram/refusals.py lists the documented limits:
text and caption lengths after entity parsing, HTML Telegram cannot parse, inline keyboards
and callback data, callback and inline answers, photos that are not images or too big), and
also: an unknown method (404), a missing required field, an unknown chat, a message to edit,
delete or reply to that is not there, a private chat the person never opened (403), an edit
that changes nothing ("message is not modified"), an edit of another's message or of a text
message into a photo, a command menu Telegram refuses. After a 429 the chat is in flood wait:
every request of those methods to it is refused with 429 again until `retry_after` has
passed (`early` lists them), as Telegram does; a client must wait it out.

Forum topics: a supergroup made with `group(..., forum=True)` has topics (`is_forum`); createForumTopic
makes one where the bot may (`topic_rights`), refusing as Telegram does in a group without topics
("the chat is not a forum") and without the right ("not enough rights to create a topic"); its
message_thread_id is the id of the service message that opened it. A message sent with a
message_thread_id goes into that topic (refused when there is no such open topic), and people type in
one with `say(..., thread=...)`, their message a reply to the topic's first message as Telegram makes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from tests.telegram import refusals
from tests.telegram.refusals import ApiError

TOKEN = "123456:STAND-IN"
BOT = {
    "id": 999000, "is_bot": True, "first_name": "Gamehost", "username": "gamehost_bot", "can_join_groups": True,
    "can_read_all_group_messages": False, "supports_inline_queries": True,
}
JSON_FIELDS = {"reply_markup", "media", "results", "reply_parameters", "commands", "button", "allowed_updates",
               "scope", "entities", "caption_entities", "link_preview_options"}
INT_FIELDS = {"chat_id", "message_id", "offset", "limit", "cache_time", "user_id", "message_thread_id"}
NUMBER_FIELDS = {"timeout"}
T = TypeVar("T")


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    status: int = 200  # what the stand-in answered
    at: float = field(default_factory=time.monotonic)  # when it came
    description: str = ""  # why it was refused

    def file(self, value: Any) -> bytes | None:
        """The bytes behind a file parameter ("attach://name" or the field itself)."""
        if isinstance(value, str) and value.startswith("attach://"):
            return self.files.get(value.removeprefix("attach://"))
        return None

    @property
    def photo(self) -> bytes | None:
        if self.method == "sendPhoto":
            return self.files.get("photo") or self.file(self.params.get("photo"))
        if self.method == "editMessageMedia":
            return self.file(self.params["media"].get("media"))
        return None

    @property
    def document(self) -> bytes | None:
        if self.method == "sendDocument":
            return self.files.get("document") or self.file(self.params.get("document"))
        return None

    @property
    def chat_id(self) -> int | None:
        return self.params.get("chat_id")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        markup = self.params.get("reply_markup") or {}
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    @property
    def text(self) -> str:
        if self.method == "editMessageMedia":
            return self.params["media"].get("caption", "")
        return self.params.get("text") or self.params.get("caption") or ""


@dataclass
class Fault:
    methods: set[str]
    count: int
    status: int
    body: dict[str, Any]


class BotAPI:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.updates: list[dict[str, Any]] = []
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # (chat, message id) -> as it is now
        self.images: dict[tuple[int, int], bytes] = {}
        self.chats: dict[int, dict[str, Any]] = {}
        self.topics: dict[tuple[int, int], dict[str, Any]] = {}  # (chat, thread) -> the topic's first message
        self.closed: set[tuple[int, int]] = set()  # topics closed (closeForumTopic)
        self.topic_rights: set[int] = set()  # forums where the bot may manage topics
        self.opened: set[int] = set()  # users who have started a private chat with the bot
        self.menus: dict[str, dict[str, str]] = {}  # language code ("" for everyone) -> command -> description
        self.admins: set[tuple[int, int]] = set()
        self.faults: list[Fault] = []
        self.watchers: list[Callable[[Call], None]] = []  # called with each request as it arrives
        self.flood: dict[Any, tuple[float, set[str]]] = {}  # chat (or "bot") -> until when, for which methods
        self.early: list[Call] = []
        self.queries: set[str] = set()  # callback and inline queries sent to the bot
        self.answered: set[str] = set()  # requests refused because the flood wait was not over
        self.url = ""
        self.unreachable = False  # every connection dropped before any answer
        self.webhook: dict[str, Any] = {}  # what setWebhook set (url, max_connections, ...); {}: none
        self.webhook_error: tuple[int, str] | None = None  # the last failed delivery: (unix time, why)
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._stopping = False
        self._runner: web.AppRunner | None = None

    # --- serving --------------------------------------------------------------------
    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._serve)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def stop(self) -> None:
        self._stopping = True
        await self._notify()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _serve(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        method = request.match_info["method"]
        params, files = await _read_body(request)
        call = Call(method, params, files)
        for watch in self.watchers:  # a test looks at the world as the request arrives
            watch(call)
        if self.unreachable:
            return await self._drop(call, request)
        if (waiting := self._flood_wait(call)) is not None:
            self.early.append(call)
            return await self._refuse(call, 429, f"Too Many Requests: retry after {waiting}",
                                      {"parameters": {"retry_after": waiting}})
        fault = next((f for f in self.faults if method in f.methods and f.count > 0), None)
        if fault is not None and fault.status == DROP:
            fault.count -= 1
            return await self._drop(call, request)
        if fault is not None and fault.status != LOST:
            fault.count -= 1
            retry = (fault.body.get("parameters") or {}).get("retry_after")
            if fault.status == 429 and retry:
                self.flood[_flood_key(params)] = (time.monotonic() + retry, set(fault.methods))
            call.status = fault.status
            await self._record(call)
            return web.json_response({"ok": False, **fault.body}, status=fault.status)
        if method == "getUpdates":
            if self.webhook:
                return await self._refuse(call, 409, "Conflict: can't use getUpdates method while webhook is active; "
                                                     "use deleteWebhook to delete the webhook first")
            return web.json_response({"ok": True, "result": await self._get_updates(params)})
        serve = getattr(self, f"_api_{method}", None)
        if serve is None:
            return await self._refuse(call, 404, "Not Found")
        try:
            refusals.required(method, params, files)
            result = serve(params, call)
        except ApiError as e:
            return await self._refuse(call, e.status, e.description)
        if fault is not None and fault.status == LOST:  # done, and the answer never arrives
            fault.count -= 1
            call.description = "done, answer lost"
            return await self._drop(call, request)
        await self._record(call)
        return web.json_response({"ok": True, "result": result})

    async def _drop(self, call: Call, request: web.Request) -> web.Response:
        """The connection breaks before any answer (`call.status` stays 200 if the work was done)."""
        if not call.description:
            call.status, call.description = DROP, "connection dropped"
        await self._record(call)
        assert request.transport is not None
        request.transport.abort()
        return web.Response()

    async def _refuse(self, call: Call, status: int, description: str, extra: dict[str, Any] | None = None
                      ) -> web.Response:
        call.status, call.description = status, description
        await self._record(call)
        return web.json_response({"ok": False, "error_code": status, "description": description, **(extra or {})},
                                 status=status)

    def _flood_wait(self, call: Call) -> int | None:
        """Whole seconds left of the chat's flood wait for this method, or None."""
        until, methods = self.flood.get(_flood_key(call.params), (0.0, set()))
        left = until - call.at
        return max(1, math.ceil(left)) if left > 0 and call.method in methods else None

    async def _record(self, call: Call) -> None:
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = params.get("offset") or 0
        self.updates = [u for u in self.updates if u["update_id"] >= offset]  # confirmed ones are gone
        timeout = float(params.get("timeout") or 0)
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait_for(lambda: self._stopping or bool(self.updates)), timeout)
            return list(self.updates)

    # --- the methods ------------------------------------------------------------------
    def _api_getMe(self, p: dict[str, Any], call: Call) -> Any:
        return BOT

    def _api_deleteWebhook(self, p: dict[str, Any], call: Call) -> Any:
        self.webhook, self.webhook_error = {}, None
        return True

    def _api_setWebhook(self, p: dict[str, Any], call: Call) -> Any:
        if not p.get("url"):  # an empty URL removes the webhook, as deleteWebhook does
            return self._api_deleteWebhook(p, call)
        if not re.fullmatch(r"https?://\S+", p["url"]):
            raise refusals.bad("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = {"url": p["url"], "max_connections": int(p.get("max_connections") or 40),
                        "allowed_updates": p.get("allowed_updates") or []}
        self.webhook_error = None
        return True

    def _api_getWebhookInfo(self, p: dict[str, Any], call: Call) -> Any:
        """As Telegram answers: `url` empty without a webhook; the optional fields only when they
        have a value (the last delivery failure's time in unix seconds, and its message)."""
        info: dict[str, Any] = {"url": self.webhook.get("url", ""), "has_custom_certificate": False,
                                "pending_update_count": len(self.updates)}
        if self.webhook:
            info["max_connections"] = self.webhook["max_connections"]
            if self.webhook["allowed_updates"]:
                info["allowed_updates"] = self.webhook["allowed_updates"]
            info["ip_address"] = "127.0.0.1"
        if self.webhook_error is not None:
            info["last_error_date"], info["last_error_message"] = self.webhook_error
        return info

    def _api_setMyCommands(self, p: dict[str, Any], call: Call) -> Any:
        """Telegram's rules: at most 100 commands named [a-z0-9_]{1,32}, described in 1-256
        characters, for everyone or for one two-letter language."""
        commands, language = p.get("commands") or [], p.get("language_code") or ""
        if len(commands) > 100 or not re.fullmatch(r"([a-z]{2})?", language):
            raise ApiError(400, "Bad Request: invalid commands or language code")
        for command in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", command["command"]):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(command["description"]) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.menus[language] = {c["command"]: c["description"] for c in commands}
        return True

    def _api_sendChatAction(self, p: dict[str, Any], call: Call) -> Any:
        self._chat(p["chat_id"])
        self._thread(p)
        if p["action"] not in refusals.CHAT_ACTIONS:
            raise refusals.bad("wrong parameter action in request")
        return True

    def _api_answerCallbackQuery(self, p: dict[str, Any], call: Call) -> Any:
        refusals.alert(p.get("text"))
        self._answer_once(p["callback_query_id"])
        return True

    def _api_answerInlineQuery(self, p: dict[str, Any], call: Call) -> Any:
        refusals.inline_results(p)
        self._answer_once(p["inline_query_id"])
        return True

    def _answer_once(self, query_id: str) -> None:
        """A query the stand-in sent, answered once."""
        if query_id not in self.queries or query_id in self.answered:
            raise refusals.bad("query is too old and response timeout expired or query ID is invalid")
        self.answered.add(query_id)

    def _api_getChatMember(self, p: dict[str, Any], call: Call) -> Any:
        self._chat(p["chat_id"])
        user = self.chats.get(p["user_id"], {"id": p["user_id"], "first_name": "?"})
        person = {"id": user["id"], "is_bot": False, "first_name": user.get("first_name", "?")}
        if (p["chat_id"], p["user_id"]) in self.admins:
            return {"status": "creator", "user": person, "is_anonymous": False}
        return {"status": "member", "user": person}

    def _api_sendMessage(self, p: dict[str, Any], call: Call) -> Any:
        refusals.message_text(p.get("text"), p.get("parse_mode"))
        return self._post(p, text=p["text"])

    def _api_sendPhoto(self, p: dict[str, Any], call: Call) -> Any:
        refusals.caption(p.get("caption"), p.get("parse_mode"))
        image = call.photo
        if image is None:
            raise refusals.bad("wrong file identifier/HTTP URL specified" if isinstance(p.get("photo"), str)
                               else "there is no photo in the request")
        size = refusals.photo(image)
        message = self._post(p, caption=p.get("caption"), photo=self._photo(size))
        self.images[(p["chat_id"], message["message_id"])] = image
        return message

    def _api_sendDocument(self, p: dict[str, Any], call: Call) -> Any:
        refusals.caption(p.get("caption"), p.get("parse_mode"))
        data = call.document
        if data is None:
            raise refusals.bad("wrong file identifier/HTTP URL specified" if isinstance(p.get("document"), str)
                               else "there is no document in the request")
        if not data:
            raise refusals.bad("file must be non-empty")
        n = next(self._ids)
        return self._post(p, caption=p.get("caption"), document={"file_id": f"doc-{n}", "file_unique_id": f"d{n}",
                                                                 "file_size": len(data)})

    def _api_editMessageMedia(self, p: dict[str, Any], call: Call) -> Any:
        media = p["media"]
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise refusals.bad("can't parse InputMedia JSON object" if not isinstance(media, dict)
                               else "the stand-in edits photos only")
        refusals.caption(media.get("caption"), media.get("parse_mode"))
        key, message = self._own_message(p)
        if "photo" not in message:
            raise refusals.bad("there is no media in the message to edit")
        new_file = media.get("media")
        known = next((size["file_id"] for size in message["photo"] if size["file_id"] == new_file), None)
        if known is not None:  # the same picture again, by its file id
            self._unchanged(message, photo=message["photo"], caption=media.get("caption") or "",
                            markup=p.get("reply_markup"))
            return message
        image = call.photo
        if image is None:
            raise refusals.bad("can't find attached file" if str(new_file).startswith("attach://")
                               else "wrong file identifier/HTTP URL specified")
        message["photo"] = self._photo(refusals.photo(image))
        message["caption"] = media.get("caption", "")
        message["edit_date"] = int(time.time())
        _set_markup(message, p.get("reply_markup"))
        self.images[key] = image
        return message

    def _api_editMessageText(self, p: dict[str, Any], call: Call) -> Any:
        refusals.message_text(p.get("text"), p.get("parse_mode"))
        _, message = self._own_message(p)
        if "text" not in message:
            raise refusals.bad("there is no text in the message to edit")
        self._unchanged(message, text=p["text"], markup=p.get("reply_markup"))
        message["text"], message["edit_date"] = p["text"], int(time.time())
        _set_markup(message, p.get("reply_markup"))
        return message

    def _api_editMessageCaption(self, p: dict[str, Any], call: Call) -> Any:
        refusals.caption(p.get("caption"), p.get("parse_mode"))
        _, message = self._own_message(p)
        if "photo" not in message:
            raise refusals.bad("there is no caption in the message to edit")
        self._unchanged(message, caption=p.get("caption") or "", markup=p.get("reply_markup"))
        message["caption"], message["edit_date"] = p.get("caption") or "", int(time.time())
        _set_markup(message, p.get("reply_markup"))
        return message

    def _api_editMessageReplyMarkup(self, p: dict[str, Any], call: Call) -> Any:
        _, message = self._own_message(p)
        self._unchanged(message, markup=p.get("reply_markup"))
        _set_markup(message, p.get("reply_markup"))
        return message

    def _own_message(self, p: dict[str, Any]) -> tuple[tuple[int, int], dict[str, Any]]:
        """The bot's message that an edit names (and its markup checked)."""
        refusals.keyboard(p.get("reply_markup"))
        self._chat(p["chat_id"])
        key = (p["chat_id"], p["message_id"])
        message = self.messages.get(key)
        if message is None:
            raise refusals.bad("message to edit not found")
        if message.get("from") != BOT:
            raise refusals.bad("message can't be edited")
        return key, message

    @staticmethod
    def _unchanged(message: dict[str, Any], markup: dict[str, Any] | None, **content: Any) -> None:
        """Telegram refuses an edit that would change nothing."""
        same = all(message.get(k, "" if k != "photo" else None) == v for k, v in content.items())
        current = message.get("reply_markup") or {}
        if same and (current.get("inline_keyboard") or []) == ((markup or {}).get("inline_keyboard") or []):
            raise refusals.bad("message is not modified: specified new message content and reply markup are "
                               "exactly the same as a current content and reply markup of the message")

    def _api_deleteMessage(self, p: dict[str, Any], call: Call) -> Any:
        self._chat(p["chat_id"])
        if self.messages.pop((p["chat_id"], p["message_id"]), None) is None:
            raise refusals.bad("message to delete not found")
        return True

    def _api_createForumTopic(self, p: dict[str, Any], call: Call) -> Any:
        chat = self._chat(p["chat_id"])
        if not chat.get("is_forum"):
            raise refusals.bad("the chat is not a forum")
        if p["chat_id"] not in self.topic_rights:
            raise refusals.bad("not enough rights to create a topic")
        if not 1 <= len(p["name"]) <= 128:
            raise refusals.bad("TOPIC_NAME_INVALID")
        created = {"name": p["name"], "icon_color": 7322096}
        opening = self._post({"chat_id": p["chat_id"]}, forum_topic_created=created)
        thread = opening["message_id"]
        opening.update(message_thread_id=thread, is_topic_message=True)
        self.topics[(p["chat_id"], thread)] = opening
        return {"message_thread_id": thread, **created}

    def _api_closeForumTopic(self, p: dict[str, Any], call: Call) -> Any:
        self._chat(p["chat_id"])
        key = (p["chat_id"], p["message_thread_id"])
        if key not in self.topics:
            raise refusals.bad("message thread not found")
        if p["chat_id"] not in self.topic_rights:
            raise refusals.bad("not enough rights to manage topics")
        if key in self.closed:
            raise refusals.bad("TOPIC_NOT_MODIFIED")
        self.closed.add(key)
        return True

    def _thread(self, p: dict[str, Any]) -> int | None:
        """The open topic a message is sent to (message_thread_id), or None: the chat itself."""
        thread = p.get("message_thread_id")
        if thread is None:
            return None
        key = (p["chat_id"], thread)
        if key not in self.topics:
            raise refusals.bad("message thread not found")
        if key in self.closed:
            raise refusals.bad("TOPIC_CLOSED")
        return int(thread)

    def _chat(self, chat_id: Any) -> dict[str, Any]:
        chat = self.chats.get(chat_id)
        if chat is None:
            raise refusals.bad("chat not found")
        return chat

    def _post(self, p: dict[str, Any], **content: Any) -> dict[str, Any]:
        refusals.keyboard(p.get("reply_markup"))
        chat_id = p["chat_id"]
        chat = self._chat(chat_id)
        if chat["type"] == "private" and chat_id not in self.opened:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        thread = self._thread(p)
        replying = p.get("reply_parameters") or {}
        reply = replying.get("message_id")
        if reply is not None and (chat_id, reply) not in self.messages and not replying.get(
                "allow_sending_without_reply"):
            raise refusals.bad("message to be replied not found")
        message: dict[str, Any] = {"message_id": self._next_message_id(chat_id), "date": int(time.time()),
                                   "chat": chat, "from": BOT}
        message.update({k: v for k, v in content.items() if v is not None})
        if thread is not None:
            message.update(message_thread_id=thread, is_topic_message=True)
        if reply is not None and (chat_id, reply) in self.messages:
            message["reply_to_message"] = dict(self.messages[(chat_id, reply)])
        _set_markup(message, p.get("reply_markup"))
        self.messages[(chat_id, message["message_id"])] = message
        return message

    def _photo(self, size: tuple[int, int]) -> list[dict[str, Any]]:
        n = next(self._ids)
        return [{"file_id": f"photo-{n}", "file_unique_id": f"u{n}", "width": size[0], "height": size[1]}]

    def _next_message_id(self, chat_id: int) -> int:
        return next(self._message_ids.setdefault(chat_id, itertools.count(1)))

    # --- the world: people, chats, updates ---------------------------------------------
    def person(self, user_id: int, first_name: str, username: str | None = None,
               language_code: str | None = None) -> dict[str, Any]:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if username:
            user["username"] = username
        if language_code:
            user["language_code"] = language_code  # the language of their Telegram app
        self.chats[user_id] = {"id": user_id, "type": "private", "first_name": first_name}
        return user

    def group(self, chat_id: int, title: str = "Games", forum: bool = False, rights: bool = True) -> dict[str, Any]:
        """A supergroup; `forum`: with topics, which the bot may make if it has the `rights`."""
        self.chats[chat_id] = {"id": chat_id, "type": "supergroup", "title": title}
        if forum:
            self.chats[chat_id]["is_forum"] = True
        if forum and rights:
            self.topic_rights.add(chat_id)
        return self.chats[chat_id]

    async def push(self, update: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        async with self._changed:
            self.updates.append({"update_id": update_id, **update})
            self._changed.notify_all()
        return update_id

    async def say(
        self, user: dict[str, Any], chat_id: int, text: str, *, reply_to: dict[str, Any] | None = None,
        via_bot: bool = False, entities: list[dict[str, Any]] | None = None, thread: int | None = None,
    ) -> dict[str, Any]:
        """`user` types `text` in a chat (entities for the command and @mentions are made up). As with
        a bot in privacy mode, a group's message reaches the bot only if it starts with a command
        Telegram recognises (/[A-Za-z0-9_]), replies to the bot, or was sent via the bot."""
        chat = self.chats[chat_id]
        message: dict[str, Any] = {"message_id": self._next_message_id(chat_id), "date": int(time.time()),
                                   "chat": chat, "from": user, "text": text}
        message["entities"] = entities if entities is not None else _entities(text)
        to_bot = (reply_to or {}).get("from", {}).get("id") == BOT["id"]  # (not the topic's first message)
        if thread is not None:  # in a topic: a reply to its first message unless to another one
            message.update(message_thread_id=thread, is_topic_message=True)
            message["reply_to_message"] = reply_to or self.topics[(chat_id, thread)]
        elif reply_to is not None:
            message["reply_to_message"] = reply_to
        if via_bot:
            message["via_bot"] = BOT
        self.messages[(chat_id, message["message_id"])] = message
        commanded = any(e["type"] == "bot_command" and e["offset"] == 0 for e in message["entities"])
        if chat["type"] == "private" or commanded or to_bot or via_bot or BOT["can_read_all_group_messages"]:
            await self.push({"message": message})
        return message

    async def press(self, user: dict[str, Any], chat_id: int, message_id: int, data: str) -> str:
        query_id = f"cb{next(self._ids)}"
        self.queries.add(query_id)
        message = self.messages.get((chat_id, message_id)) or {"message_id": message_id, "date": 0,
                                                               "chat": self.chats[chat_id]}
        await self.push({"callback_query": {"id": query_id, "from": user, "chat_instance": "ci", "data": data,
                                            "message": message}})
        return query_id

    async def inline(self, user: dict[str, Any], query: str = "", offset: str = "") -> str:
        query_id = f"iq{next(self._ids)}"
        self.queries.add(query_id)
        await self.push({"inline_query": {"id": query_id, "from": user, "query": query, "offset": offset,
                                          "chat_type": "supergroup"}})
        return query_id

    # --- looking ------------------------------------------------------------------------
    def broken_rules(self) -> list[str]:
        """What the bot sent that Telegram refuses for breaking one of its rules."""
        return [f"{c.method}: {c.description}" for c in self.calls
                if c.status == 400 and refusals.BROKE_A_RULE.search(c.description)]

    def photos(self) -> list[bytes]:
        """Every photo Telegram took from the bot."""
        return [c.photo for c in self.calls if c.status == 200 and c.photo is not None]

    async def wait(self, found: Callable[[], T | None], timeout: float = 60.0) -> T:
        """Wait until `found()` gives something (re-checked after every call the bot makes)."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: bool(found())), timeout)
            result = found()
        assert result
        return result

    def of(self, method: str, **where: Any) -> list[Call]:
        return [c for c in self.calls if c.method == method and c.status == 200
                and all(c.params.get(k) == v for k, v in where.items())]

    def answer(self, query_id: str) -> Call | None:
        return next(iter(self.of("answerCallbackQuery", callback_query_id=query_id)), None)

    def inline_answer(self, query_id: str) -> Call | None:
        return next(iter(self.of("answerInlineQuery", inline_query_id=query_id)), None)

    def to_chat(self, chat_id: int) -> list[Call]:
        """Every successful call that put something in a chat, in order."""
        posting = ("sendMessage", "sendPhoto", "sendDocument", "editMessageMedia")
        return [c for c in self.calls if c.method in posting and c.status == 200 and c.chat_id == chat_id]

    def to_topic(self, chat_id: int, thread: int | None) -> list[Call]:
        """Every successful call that put something in a topic (None: the chat outside its topics)."""
        def topic(c: Call) -> Any:
            if c.method == "editMessageMedia":  # an edit stays where its message is
                return self.messages.get((chat_id, c.params["message_id"]), {}).get("message_thread_id")
            return c.params.get("message_thread_id")

        return [c for c in self.to_chat(chat_id) if topic(c) == thread]

    def bot_messages(self, chat_id: int) -> list[dict[str, Any]]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id and m.get("from") == BOT]


def _flood_key(params: dict[str, Any]) -> Any:
    return params.get("chat_id", "bot")


DROP = 0  # a Fault's status: the connection is dropped without an answer (nothing done)
LOST = 1  # a Fault's status: the request is done (a message made), then the connection dropped


def failing(methods: set[str], count: int, status: int) -> Fault:
    """The next `count` calls of `methods` fail: a 5xx as Telegram answers it, a connection
    dropped before any answer (`DROP`), or after the work was done (`LOST`)."""
    return Fault(methods, count, status, {"error_code": status, "description": "Internal Server Error"})


def retry_after(methods: set[str], count: int, seconds: int = 1) -> Fault:
    return Fault(methods, count, 429, {"error_code": 429, "description": f"Too Many Requests: retry after {seconds}",
                                       "parameters": {"retry_after": seconds}})


async def _read_body(request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
    params: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    if request.content_type == "application/json":
        raw: dict[str, Any] = await request.json()
    else:
        form = await request.post()
        raw = {}
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = value.file.read()
            else:
                raw[key] = value
    for key, value in raw.items():
        if isinstance(value, str) and key in JSON_FIELDS:
            value = json.loads(value)
        elif isinstance(value, str) and key in INT_FIELDS:
            value = int(value)
        elif isinstance(value, str) and key in NUMBER_FIELDS:
            value = float(value)
        elif value in ("true", "false"):
            value = value == "true"
        params[key] = value
    return params, files


def _set_markup(message: dict[str, Any], markup: dict[str, Any] | None) -> None:
    if markup and markup.get("inline_keyboard"):
        message["reply_markup"] = markup
    else:
        message.pop("reply_markup", None)


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _entities(text: str) -> list[dict[str, Any]]:
    """What Telegram marks in a typed text: the leading /command and @mentions."""
    entities, pos = [], 0
    for i, word in enumerate(text.split(" ")):
        offset = _utf16_len(text[:pos])
        if i == 0 and re.fullmatch(r"/[A-Za-z0-9_]{1,32}(@\w+)?", word):
            entities.append({"type": "bot_command", "offset": 0, "length": _utf16_len(word)})
        elif word.startswith("@") and len(word) > 1:
            entities.append({"type": "mention", "offset": offset, "length": _utf16_len(word)})
        pos += len(word) + 1
    return entities
