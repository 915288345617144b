"""Discord message pieces shared by the bot's answers and posts: the host's text as Discord
shows it literally, buttons, text cut to Discord's limits, attached pictures, ephemeral
follow-ups, acknowledging and editing."""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import aiohttp
import discord

from bot.model import Reply

log = logging.getLogger(__name__)

MAX_CONTENT = 2000  # characters in one message
MAX_BUTTONS, MAX_LABEL, PER_ROW = 25, 80, 5
LINK = re.compile(r"https?://[^\s<>]+[^\s<>.,:;\"')\]]")
MARKDOWN = re.compile(r"[\\*_~|`\[\]<]")  # escaped wherever they are
LINE_START = re.compile(r"^([ \t]*(?:\d+)?)([#>.-])", re.MULTILINE)  # headings, quotes, lists ("1.": its dot)
MENTION = re.compile(r"@(everyone|here)")
BUTTON_STYLES = {
    "accept": discord.ButtonStyle.success,
    "join": discord.ButtonStyle.success,
    "go": discord.ButtonStyle.primary,
    "rematch": discord.ButtonStyle.primary,
    "move": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.danger,
}


def literal(text: str) -> str:
    """The host's text (plain: it holds people's names and what they typed) as Discord shows it,
    character for character: every character markdown reads escaped with a backslash (`**bold**`,
    `_x_`, a backquote, a masked link, and at a line's start a heading, a quote, a list), no tag
    (`<@&123>`, `<#1>`, `<t:1>`: a mention pill), no `@everyone` or `@here`; links left as they are.
    What the adapter adds (the ping of the player to move) is added after."""
    pieces, at = [], 0
    for link in LINK.finditer(text):
        pieces += [MARKDOWN.sub(r"\\\g<0>", text[at : link.start()]), link.group()]
        at = link.end()
    escaped = "".join([*pieces, MARKDOWN.sub(r"\\\g<0>", text[at:])])
    return MENTION.sub("@\u200b\\1", LINE_START.sub(r"\1\\\2", escaped))


class Buttons(discord.ui.View):
    """Buttons that only carry custom ids: never stored in discord.py's view store, because
    clicks are read from the raw interactions (which also works after a restart)."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(timeout=None)
        for i, button in enumerate(reply.buttons[:MAX_BUTTONS]):
            style = BUTTON_STYLES.get(button.command.lstrip("/").split()[0], discord.ButtonStyle.secondary)
            self.add_item(discord.ui.Button(label=button.label[:MAX_LABEL], custom_id=button.id, style=style,
                                            row=i // PER_ROW))

    def is_dispatchable(self) -> bool:
        return False


def chunks(text: str) -> list[str]:
    """Text cut into message-sized pieces at line ends where possible."""
    pieces: list[str] = []
    while len(text) > MAX_CONTENT:
        cut = text.rfind("\n", 0, MAX_CONTENT)
        cut = cut if cut > 0 else MAX_CONTENT
        while cut > 1 and text[cut - 1] == "\\":  # never between an escape and what it escapes
            cut -= 1
        pieces.append(text[:cut])
        text = text[cut:].lstrip("\n")
    pieces.append(text)
    return pieces


def attached(reply: Reply) -> discord.File | None:
    return discord.File(io.BytesIO(reply.image), filename=reply.image_name) if reply.image is not None else None


def documented(reply: Reply, text: str) -> tuple[str, list[discord.File]]:
    """What to send for `text` (`reply`'s, with any pings): as it is, with the picture if there is
    one; or, when it is a document (`reply.document`: a record) longer than one message, its first
    line, and the whole text as a file."""
    files = [f for f in (attached(reply),) if f is not None]
    if reply.document is None or len(text) <= MAX_CONTENT:
        return text, files
    whole = discord.File(io.BytesIO(reply.text.encode()), filename=reply.document)
    return text.partition("\n")[0][:MAX_CONTENT], [*files, whole]


async def followup(interaction: discord.Interaction, reply: Reply, pieces: list[str] | None = None) -> None:
    """An ephemeral message to the user of `interaction` (`pieces`: of its text, as sent)."""
    if not (reply.text or reply.image):
        return
    text, files = documented(reply, literal(reply.text))
    *before, last = pieces or chunks(text)
    for piece in before:
        await interaction.followup.send(piece, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
    extra: dict[str, Any] = {}
    if files:
        extra["files"] = files
    if reply.buttons:
        extra["view"] = Buttons(reply)
    await interaction.followup.send(last or "", ephemeral=True, allowed_mentions=discord.AllowedMentions.none(),
                                    **extra)


async def defer(interaction: discord.Interaction, *, thinking: bool) -> bool:
    """Acknowledge at once. A command shows its user an ephemeral "thinking…"; a click shows nothing."""
    try:
        if thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    except discord.HTTPException:
        log.warning("could not acknowledge interaction %s in time", interaction.id)
        return False
    return True


async def edit(target: discord.PartialMessageable, message_id: int, **changes: Any) -> None:
    try:
        await target.get_partial_message(message_id).edit(**changes)
    except discord.NotFound:
        pass  # deleted by someone: nothing to tidy
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
        log.info("could not tidy message %s: %r", message_id, error)  # its own loss: the new one is posted
