"""What Discord refuses in a message, for the stand-in (tests/discord/fake.py) to refuse it too.

`message_problem` answers why Discord would refuse a message payload (a channel message, an
interaction's response or follow-up, or an edit of one), or None. The documented limits
(https://discord.com/developers/docs/resources/message, .../interactions/message-components):

- content at most 2,000 characters; a nonce at most 25 characters; a new message must have content, embeds, components,
  stickers, a poll or files ("Cannot send an empty message");
- components: at most 5 action rows of at most 5 buttons; a button has a style 1-6, a label of
  at most 80 characters or an emoji, a custom_id of 1-100 characters (link buttons: a url and no
  custom_id), custom_ids unique in the message;
- embeds: at most 10; title 256, description 4,096, at most 25 fields (name 256, value 1,024),
  footer 2,048, author name 256, and 6,000 characters in all;
- attachments: at most 10; every uploaded `files[n]` declared in `attachments` with id n and the
  same filename, and every declared new attachment uploaded (an edit may also keep existing
  attachments by their ids); at most the upload limit (10 MiB) in all.
"""

from __future__ import annotations

import re
from typing import Any

NONCE_MAX = 25
CONTENT_MAX, ROWS_MAX, ROW_BUTTONS_MAX, LABEL_MAX, CUSTOM_ID_MAX = 2000, 5, 5, 80, 100
EMBEDS_MAX, EMBED_TOTAL_MAX, FIELDS_MAX = 10, 6000, 25
ATTACHMENTS_MAX, UPLOAD_MAX = 10, 10 * 1024 * 1024
LINK_STYLE = 5


def message_problem(payload: dict[str, Any], files: dict[str, tuple[str, bytes]], *, new: bool,
                    kept: set[str] = frozenset()) -> str | None:
    """Why Discord refuses `payload` with these uploaded `files` (None: it takes it). `new`: a
    message being created; `kept`: ids of attachments the edited message already has."""
    content = payload.get("content")
    if content is not None and len(str(content)) > CONTENT_MAX:
        return f"content: Must be {CONTENT_MAX} or fewer in length."
    if len(str(payload.get("nonce") or "")) > NONCE_MAX:
        return f"nonce: Must be {NONCE_MAX} or fewer in length."
    for check in (_components, _embeds):
        if problem := check(payload):
            return problem
    if problem := _attachments(payload, files, kept):
        return problem
    if new and not (content or payload.get("embeds") or payload.get("components") or payload.get("sticker_ids")
                    or payload.get("poll") or files):
        return "Cannot send an empty message"
    return None


def _components(payload: dict[str, Any]) -> str | None:
    rows = payload.get("components")
    if rows is None:
        return None
    if len(rows) > ROWS_MAX:
        return f"components: Must be {ROWS_MAX} or fewer in length."
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            return f"components.{r}: a top-level component must be an action row"
        buttons = row.get("components") or []
        if not 1 <= len(buttons) <= ROW_BUTTONS_MAX:
            return f"components.{r}.components: Must be between 1 and {ROW_BUTTONS_MAX} in length."
        for b, button in enumerate(buttons):
            where = f"components.{r}.components.{b}"
            if button.get("type") != 2:
                continue  # select menus and the like: not used by the bot
            style, label, custom_id = button.get("style"), button.get("label"), button.get("custom_id")
            if style not in range(1, 7):
                return f"{where}.style: Value must be one of (1, 2, 3, 4, 5, 6)."
            if label is not None and len(label) > LABEL_MAX:
                return f"{where}.label: Must be {LABEL_MAX} or fewer in length."
            if not label and not button.get("emoji") and style != 6:
                return f"{where}: a button needs a label or an emoji"
            if style == LINK_STYLE:
                if not button.get("url") or custom_id is not None:
                    return f"{where}: a link button has a url and no custom_id"
                continue
            if custom_id is None or not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
                return f"{where}.custom_id: Must be between 1 and {CUSTOM_ID_MAX} in length."
            if custom_id in seen:
                return f"{where}.custom_id: Component custom id cannot be duplicated"
            seen.add(custom_id)
    return None


def _embeds(payload: dict[str, Any]) -> str | None:
    embeds = payload.get("embeds")
    if not embeds:
        return None
    if len(embeds) > EMBEDS_MAX:
        return f"embeds: Must be {EMBEDS_MAX} or fewer in length."
    total = 0
    for e, embed in enumerate(embeds):
        fields = embed.get("fields") or []
        if len(fields) > FIELDS_MAX:
            return f"embeds.{e}.fields: Must be {FIELDS_MAX} or fewer in length."
        texts = [("title", embed.get("title"), 256), ("description", embed.get("description"), 4096),
                 ("footer.text", (embed.get("footer") or {}).get("text"), 2048),
                 ("author.name", (embed.get("author") or {}).get("name"), 256)]
        texts += [(f"fields.{f}.name", field.get("name"), 256) for f, field in enumerate(fields)]
        texts += [(f"fields.{f}.value", field.get("value"), 1024) for f, field in enumerate(fields)]
        for name, text, most in texts:
            if text is not None and len(str(text)) > most:
                return f"embeds.{e}.{name}: Must be {most} or fewer in length."
            total += len(str(text or ""))
    if total > EMBED_TOTAL_MAX:
        return f"embeds: Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"
    return None


def _attachments(payload: dict[str, Any], files: dict[str, tuple[str, bytes]], kept: set[str]) -> str | None:
    declared = {str(a.get("id")): a for a in payload.get("attachments") or []}
    uploads: dict[str, tuple[str, bytes]] = {}
    for part, (filename, data) in files.items():
        match = re.fullmatch(r"files\[(\d+)\]", part)
        if match is None:
            return f"unknown form field {part!r}"
        uploads[match.group(1)] = (filename, data)
        attachment = declared.get(match.group(1))
        if attachment is None:
            return f"files[{match.group(1)}] is not declared in attachments"
        if attachment.get("filename") not in (None, filename):
            return f"attachments.{match.group(1)}.filename does not match the upload"
    for attachment_id in declared:
        if attachment_id not in uploads and attachment_id not in kept:
            return f"attachments: no file for attachment {attachment_id}"
    if len(declared) + (0 if "attachments" in payload else len(kept)) > ATTACHMENTS_MAX:
        return f"attachments: Must be {ATTACHMENTS_MAX} or fewer in length."
    if sum(len(data) for _, data in uploads.values()) > UPLOAD_MAX:
        return "Request entity too large"
    return None
