"""What every renderer gets besides the view, and shared drawing helpers."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image

from engines.base import Msg, Outcome, Overlay, Translate


def keys_of(message: Msg | str) -> str:
    """A translator that says each message's key (the renderers' samples draw with it)."""
    return message if isinstance(message, str) else message.key


@dataclass(frozen=True)
class RenderContext:
    """Who sits where and what to say around the board.

    `tr` translates a `Msg` into the channel's language; `viewer` is the seat
    whose private view is drawn (None for the public picture); `overlay` holds a
    game's extras for this one picture (marked holes, a path, move numbers).
    """

    names: tuple[str, ...]
    to_move: int | None
    outcome: Outcome | None
    tr: Translate
    viewer: int | None = None
    overlay: Overlay | None = None
    ai_seats: frozenset[int] = field(default_factory=frozenset)


def png(image: Image.Image) -> bytes:
    """Encode as PNG (zlib level 3: a picture is drawn for every move, and the default level takes
    much longer for files not much smaller; docs/benchmarks.md)."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()
