"""What the Bot API refuses, for the stand-in (tests/telegram/standin.py) to refuse it too.

Each check raises `ApiError` with the status and the description Telegram answers. The limits
are the documented ones (https://core.telegram.org/bots/api), unless a line says otherwise:

- text 1-4096 characters after entity parsing (Telegram counts Unicode code points and strips
  surrounding white space), caption 0-1024 after parsing;
- HTML as Telegram parses it: only its tags (b strong i em u ins s strike del span.tg-spoiler
  tg-spoiler a[href] tg-emoji code pre blockquote), each closed in order; only &lt; &gt; &amp;
  &quot; and numeric character references are entities (a lone "&" stays a character, as
  Telegram keeps it); anything else is "can't parse entities";
- inline keyboards: each button a non-empty text and exactly one action, callback_data 1-64
  bytes, url an http(s) or tg:// link; at most 100 buttons and 8 in a row (not documented:
  what Telegram answers in practice);
- callback answers 0-200 characters; inline answers at most 50 results with unique ids of
  1-64 bytes, next_offset at most 64 bytes, the button's start_parameter 1-64 of [A-Za-z0-9_-];
- photos: an image Telegram can decode (else IMAGE_PROCESS_FAILED), at most 10 MB, width and
  height together at most 10000, a ratio of at most 20;
- a parse_mode Telegram knows; the required fields of each method.
"""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image, UnidentifiedImageError

TEXT_MAX, CAPTION_MAX, CALLBACK_DATA_MAX, ALERT_MAX = 4096, 1024, 64, 200
BUTTONS_MAX, ROW_MAX, RESULTS_MAX = 100, 8, 50
PHOTO_BYTES_MAX, PHOTO_SIDES_MAX, PHOTO_RATIO_MAX = 10 * 1024 * 1024, 10_000, 20
PARSE_MODES = {"HTML", "Markdown", "MarkdownV2"}
TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "tg-emoji", "code",
        "pre", "blockquote"}
NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
CHAT_ACTIONS = {"typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
                "upload_document", "choose_sticker", "find_location", "record_video_note",
                "upload_video_note"}
REQUIRED = {
    "sendMessage": ("chat_id", "text"), "sendPhoto": ("chat_id", "photo"),
    "sendDocument": ("chat_id", "document"), "editMessageMedia": ("media",),
    "editMessageText": ("text",), "editMessageCaption": (), "editMessageReplyMarkup": (),
    "deleteMessage": ("chat_id", "message_id"), "answerCallbackQuery": ("callback_query_id",),
    "answerInlineQuery": ("inline_query_id", "results"), "sendChatAction": ("chat_id", "action"),
    "getChatMember": ("chat_id", "user_id"), "setMyCommands": ("commands",),
}


# A refusal that says the bot broke one of the rules above (not: the chat or message is gone).
BROKE_A_RULE = re.compile(r"can't parse|too long|is empty|is required|BUTTON|keyboard markup|IMAGE_PROCESS|"
                          r"PHOTO_INVALID|MESSAGE_TOO_LONG|RESULT|OFFSET|START_PARAM|parse_mode|Not Found|identifier|"
                          r"attached")


class ApiError(Exception):
    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status, self.description = status, description


def bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


def required(method: str, params: dict[str, Any], files: dict[str, bytes]) -> None:
    for name in REQUIRED.get(method, ()):
        value = params.get(name, files.get(name))
        if value is None or value == "":
            if name == "chat_id":
                raise bad("chat_id is empty")
            if name == "text":
                raise bad("message text is empty")
            raise bad(f'parameter "{name}" is required')
    if method.startswith("editMessage") and not params.get("inline_message_id"):
        if params.get("chat_id") in (None, ""):
            raise bad("chat_id is empty")
        if params.get("message_id") in (None, ""):
            raise bad("message identifier is not specified")


def visible(text: str | None, parse_mode: str | None) -> str:
    """The text as Telegram shows it: parsed (raising what Telegram raises) and stripped."""
    if parse_mode is not None and parse_mode not in PARSE_MODES:
        raise bad("unsupported parse_mode")
    text = text or ""
    return (parse_html(text) if parse_mode == "HTML" else text).strip()


def message_text(text: str | None, parse_mode: str | None) -> str:
    shown = visible(text, parse_mode)
    if not shown:
        raise bad("message text is empty")
    if len(shown) > TEXT_MAX:
        raise bad("message is too long")
    return shown


def caption(text: str | None, parse_mode: str | None) -> str:
    shown = visible(text, parse_mode)
    if len(shown) > CAPTION_MAX:
        raise bad("message caption is too long")
    return shown


def parse_html(text: str) -> str:
    """Telegram's HTML: the text without its tags and entities, or "can't parse entities"."""
    out: list[str] = []
    open_tags: list[str] = []
    i, n = 0, len(text)

    def offset(at: int) -> int:
        return len(text[:at].encode())

    def refuse(what: str, at: int) -> ApiError:
        return bad(f"can't parse entities: {what} at byte offset {offset(at)}")

    while i < n:
        ch = text[i]
        if ch == "&":
            decoded, end = _entity(text, i)
            if decoded is not None:
                out.append(decoded)
                i = end
                continue
        if ch != "<":
            out.append(ch)
            i += 1
            continue
        start = i
        close = text.find(">", i)
        if close < 0:
            raise refuse("unclosed start tag" if not text.startswith("</", i) else "unclosed end tag", start)
        inside = text[i + 1 : close]
        i = close + 1
        if inside.startswith("/"):
            name = inside[1:].strip().lower()
            if not open_tags:
                raise refuse("unexpected end tag", start)
            if name and name != open_tags[-1]:
                raise refuse(f'unmatched end tag, expected "</{open_tags[-1]}>", found "</{name}>"', start)
            open_tags.pop()
            continue
        name, _, attributes = inside.strip().partition(" ")
        name = name.lower()
        if not name or name not in TAGS:
            raise refuse(f'unsupported start tag "{name}"', start)
        attrs = _attributes(attributes, name, lambda what, at=start: refuse(what, at))
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise refuse('tag "span" must have class "tg-spoiler"', start)
        if name == "tg-emoji" and not attrs.get("emoji-id", "").isdigit():
            raise bad("can't parse entities: invalid custom emoji identifier specified")
        open_tags.append(name)
    if open_tags:
        raise bad(f'can\'t parse entities: can\'t find end tag corresponding to start tag "{open_tags[-1]}"')
    return "".join(out)


def _entity(text: str, at: int) -> tuple[str | None, int]:
    match = re.match(r"&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]+);", text[at:])
    if match is None:
        return None, at
    body = match.group(1)
    if body.startswith("#x"):
        code = int(body[2:], 16)
    elif body.startswith("#"):
        code = int(body[1:])
    else:
        named = NAMED_ENTITIES.get(body)
        return (named, at + match.end()) if named is not None else (None, at)
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None, at
    return chr(code), at + match.end()


def _attributes(text: str, tag: str, refuse: Any) -> dict[str, str]:
    attrs: dict[str, str] = {}
    pattern = re.compile(r"\s*([^\s=>/\"']+)\s*(?:=\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9.\-]+))?")
    pos = 0
    while pos < len(text.rstrip()):
        match = pattern.match(text, pos)
        if match is None or match.end() == pos:
            raise refuse(f'empty attribute name in the tag "{tag}"')
        value = match.group(2) or ""
        if value[:1] in "\"'":
            value = value[1:-1]
        attrs[match.group(1).lower()] = value
        pos = match.end()
    return attrs


def keyboard(markup: Any) -> None:
    """An inline keyboard Telegram accepts."""
    if not markup:
        return
    if not isinstance(markup, dict):
        raise bad("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return  # another kind of keyboard: the stand-in does not use them
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad("field \"inline_keyboard\" of the InlineKeyboardMarkup must be an Array of Arrays")
    if sum(len(r) for r in rows) > BUTTONS_MAX or any(len(r) > ROW_MAX for r in rows):
        raise bad("reply markup is too long")
    for row in rows:
        for button in row:
            if not str(button.get("text") or "").strip():
                raise bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
            actions = [k for k in ("callback_data", "url", "switch_inline_query", "switch_inline_query_current_chat",
                                   "login_url", "web_app", "pay", "callback_game", "copy_text",
                                   "switch_inline_query_chosen_chat") if k in button]
            if len(actions) != 1:
                raise bad("can't parse inline keyboard button: exactly one of the optional fields must be used")
            if "callback_data" in button and not 1 <= len(str(button["callback_data"]).encode()) <= CALLBACK_DATA_MAX:
                raise bad("BUTTON_DATA_INVALID")
            if "url" in button and not re.match(r"(https?|tg)://\S+$", str(button["url"])):
                raise bad("inline keyboard button URL is invalid")


def photo(data: bytes) -> tuple[int, int]:
    """The size of a photo Telegram takes, or what it answers for one it does not."""
    if len(data) > PHOTO_BYTES_MAX:
        raise bad("file is too big")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            width, height = image.size
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:
        raise bad("IMAGE_PROCESS_FAILED") from e
    if width + height > PHOTO_SIDES_MAX or max(width, height) > PHOTO_RATIO_MAX * min(width, height):
        raise bad("PHOTO_INVALID_DIMENSIONS")
    return width, height


def alert(text: str | None) -> None:
    if text is not None and len(text) > ALERT_MAX:
        raise bad("MESSAGE_TOO_LONG")


def inline_results(params: dict[str, Any]) -> None:
    results = params.get("results") or []
    if len(results) > RESULTS_MAX:
        raise bad("RESULTS_TOO_MUCH")
    ids = [str(r.get("id", "")) for r in results]
    if any(not 1 <= len(i.encode()) <= 64 for i in ids):
        raise bad("RESULT_ID_INVALID")
    if len(set(ids)) < len(ids):
        raise bad("RESULT_ID_DUPLICATE")
    for result in results:
        if not result.get("title"):
            raise bad("RESULT_TITLE_EMPTY") if result.get("type") == "article" else bad("RESULT_TYPE_INVALID")
        content = result.get("input_message_content") or {}
        message_text(content.get("message_text"), content.get("parse_mode"))
        keyboard(result.get("reply_markup"))
    if len(str(params.get("next_offset") or "").encode()) > 64:
        raise bad("NEXT_OFFSET_INVALID")
    button = params.get("button")
    if button is not None:
        if not button.get("text"):
            raise bad("BUTTON_TEXT_INVALID")
        start = button.get("start_parameter")
        if start is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", start):
            raise bad("START_PARAM_INVALID")
