"""Discord message pieces shared by the bot's answers and posts: buttons, text cut to
Discord's limits, attached pictures, ephemeral follow-ups, acknowledging and editing."""

from __future__ import annotations

import io
import logging
from typing import Any

import aiohttp
import discord

from bot.model import Reply

log = logging.getLogger(__name__)

MAX_CONTENT = 2000  # characters in one message
MAX_BUTTONS, MAX_LABEL, PER_ROW = 25, 80, 5
BUTTON_STYLES = {
    "accept": discord.ButtonStyle.success,
    "join": discord.ButtonStyle.success,
    "go": discord.ButtonStyle.primary,
    "rematch": discord.ButtonStyle.primary,
    "move": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.danger,
}


class Buttons(discord.ui.View):
    """Buttons that only carry custom ids: never stored in discord.py's view store, because
    clicks are read from the raw interactions (which also works after a restart)."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(timeout=None)
        for i, button in enumerate(reply.buttons[:MAX_BUTTONS]):
            style = BUTTON_STYLES.get(button.command.lstrip("/").split()[0], discord.ButtonStyle.secondary)
            self.add_item(discord.ui.Button(label=button.label[:MAX_LABEL], custom_id=button.id, style=style,
                                            row=i // PER_ROW))  # fmt: skip

    def is_dispatchable(self) -> bool:
        return False


def chunks(text: str) -> list[str]:
    """Text cut into message-sized pieces at line ends where possible."""
    pieces: list[str] = []
    while len(text) > MAX_CONTENT:
        cut = text.rfind("\n", 0, MAX_CONTENT)
        cut = cut if cut > 0 else MAX_CONTENT
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


async def followup(interaction: discord.Interaction, reply: Reply) -> None:
    """An ephemeral message to the user of `interaction`."""
    if not (reply.text or reply.image):
        return
    text, files = documented(reply, reply.text)
    *before, last = chunks(text)
    for piece in before:
        await interaction.followup.send(piece, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
    extra: dict[str, Any] = {}
    if files:
        extra["files"] = files
    if reply.buttons:
        extra["view"] = Buttons(reply)
    await interaction.followup.send(last or "", ephemeral=True, allowed_mentions=discord.AllowedMentions.none(),
                                    **extra)  # fmt: skip


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
