"""Pictures in tests: a real small PNG to send, and what every picture a bot sends must be
(a PNG that decodes, of a board's size, not one flat colour)."""

from __future__ import annotations

import io
import json
from typing import Any

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

PICTURE_SMALLEST = 120  # pixels: the narrowest side of any picture the bot draws (a hand is a strip)


def png(width: int = 240, height: int = 160, text: str = "") -> bytes:
    """A small real PNG (with a mark on it, so it is not blank)."""
    image = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(image).rectangle((4, 4, width // 2, height // 2), fill="black")
    if text:
        ImageDraw.Draw(image).text((6, height // 2 + 4), text, fill="red")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def picture(data: bytes | None, smallest: int = 200, largest: int = 4000) -> Image.Image:
    """`data` decoded: a PNG whose sides are within [smallest, largest] and that is not blank
    (at least two colours, the second covering more than a sliver). Fails the test otherwise."""
    assert data is not None, "no picture"
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG", image.format
        image.load()
        decoded = image.convert("RGB")
    width, height = decoded.size
    assert smallest <= width <= largest and smallest <= height <= largest, decoded.size
    small = decoded.resize((64, 64))
    counts = sorted((n for n, _ in small.getcolors(64 * 64) or []), reverse=True)
    assert len(counts) >= 2 and sum(counts[1:]) >= 40, f"a blank picture ({len(counts)} colours)"
    return decoded


def drawn_with_its_view(game: str, view: Any, ctx: Any) -> bytes:
    """A Host `draw` for tests: a real picture that carries, in a PNG text chunk, the view it was
    drawn from and whose it is, so a test can read them from whatever a platform received."""
    info = PngInfo()
    info.add_text("gamehost-view", json.dumps({"game": game, "view": view, "viewer": ctx.viewer}))
    image = Image.open(io.BytesIO(png(320, 240, text=game)))
    out = io.BytesIO()
    image.save(out, "PNG", pnginfo=info)
    return out.getvalue()


def view_of(data: bytes) -> dict[str, Any]:
    """What `drawn_with_its_view` put in a picture."""
    with Image.open(io.BytesIO(data)) as image:
        return json.loads(image.text["gamehost-view"])  # type: ignore[attr-defined]
