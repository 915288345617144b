"""Nim as a picture: one row of stones per heap, the stones just taken faded."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engines.base import Outcome, msg
from engines.nim import NimView
from render.base import RenderContext, keys_of, png
from render.header import SEAT_COLOURS, draw_players, draw_status
from render.text import draw_text

WIDTH = 800
STONE = 28  # diameter
LEFT = 78  # x of the first stone
PITCH = 32  # distance between stone centres
PER_LINE = 20
GROUP_GAP = 8  # extra space after every five stones, so heaps can be counted at a glance
LINE = 38
HEADER, FOOTER = 112, 72
BACKGROUND = "#f6f1e7"
INK = "#3b3a36"
MUTED = "#8a857a"


@lru_cache(maxsize=8)
def _stone(fill: str, faded: bool) -> Image.Image:
    """A shaded stone, drawn 4x larger and scaled down for smooth edges."""
    big = STONE * 4
    image = Image.new("RGBA", (big, big))
    draw = ImageDraw.Draw(image)
    if faded:
        draw.ellipse((6, 6, big - 6, big - 6), outline=fill + "90", width=8, fill=fill + "22")
    else:
        draw.ellipse((0, 0, big - 1, big - 1), fill=fill)
        draw.ellipse((big * 0.22, big * 0.14, big * 0.58, big * 0.44), fill="#ffffff40")
    return image.resize((STONE, STONE), Image.Resampling.LANCZOS)


def _stone_x(i: int) -> int:
    col = i % PER_LINE
    return LEFT + col * PITCH + (col // 5) * GROUP_GAP


@lru_cache(maxsize=8)
def _strip(fill: str, faded: bool) -> Image.Image:
    """A whole line of stones; a run of stones is a crop of it (one paste, not one per stone)."""
    strip = Image.new("RGBA", (_stone_x(PER_LINE - 1) - LEFT + STONE, STONE))
    stone = _stone(fill, faded)
    for col in range(PER_LINE):
        strip.paste(stone, (_stone_x(col) - LEFT, 0))
    return strip


def _paste_run(image: Image.Image, strip: Image.Image, first: int, last: int, top: int) -> None:
    """Stones `first`..`last` - 1 of a heap, over as many lines as they need."""
    while first < last:
        line, col = divmod(first, PER_LINE)
        end = min(last, (line + 1) * PER_LINE)
        left = _stone_x(col) - LEFT
        right = _stone_x((end - 1) % PER_LINE) - LEFT + STONE
        run = strip.crop((left, 0, right, STONE))
        image.paste(run, (LEFT + left, top + line * LINE + (LINE - STONE) // 2), run)
        first = end


def render(view: NimView, ctx: RenderContext) -> bytes:
    # A palette PNG: a quarter of the bytes and faster to encode; the picture has few colours, and
    # the same ones each time: the palette is taken once, from sample pictures (choosing one for
    # each picture would take a good part of its CPU).
    return png(_draw(view, ctx).quantize(palette=_palette(), dither=Image.Dither.NONE))


@cache
def _palette() -> Image.Image:
    """256 colours from sample pictures with every kind of mark on them: stones each seat took,
    names in several scripts, a game going on and a game won."""
    samples = []
    for seat, finished in ((0, False), (1, True)):
        view: NimView = {"heaps": [0, 3, 7, 12, 20], "start": [5, 5, 9, 12, 20], "max": 3, "misere": finished,
                "last": {"heap": 0, "count": 5, "seat": seat}}
        outcome = Outcome((1, 2), msg("nim.normal_end")) if finished else None
        ctx = RenderContext(("Alice", "小明 🐼"), None if finished else 1 - seat, outcome, keys_of)
        samples.append(_draw(view, ctx))
    sample = Image.new("RGB", (WIDTH, sum(s.height for s in samples)))
    sample.paste(samples[0], (0, 0))
    sample.paste(samples[1], (0, samples[0].height))
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _draw(view: NimView, ctx: RenderContext) -> Image.Image:
    heaps: list[int] = view["heaps"]
    last = view["last"]
    taken = {last["heap"]: last["count"]} if last else {}
    lines = [max(1, -(-(n + taken.get(i, 0)) // PER_LINE)) for i, n in enumerate(heaps)]
    height = HEADER + sum(lines) * LINE + 16 + FOOTER
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)

    variant = [msg("nim.variant_misere" if view["misere"] else "nim.variant_normal")]
    if view["max"]:
        variant.append(msg("nim.variant_max", most=view["max"]))
    draw_players(image, ctx, subtitle=" · ".join(ctx.tr(m) for m in variant))

    # The stones just taken are faded, in the colour of who took them.
    ghost = _strip(SEAT_COLOURS[last["seat"]] if last else MUTED, True)
    solid = _strip("#55616e", False)
    y = HEADER
    for i, n in enumerate(heaps):
        row_top = y
        draw.rounded_rectangle((18, y + 4, 58, y + LINE - 4), radius=8, fill="#e6dfd0")
        draw_text(image, (38, y + LINE / 2), str(i + 1), 18, fill=INK, bold=True, anchor="mm")
        _paste_run(image, solid, 0, n, y)
        _paste_run(image, ghost, n, n + taken.get(i, 0), y)
        count_y = row_top + LINE / 2
        draw_text(image, (WIDTH - 24, count_y), str(n), 20, fill=INK if n else MUTED, bold=True, anchor="rm")
        y += lines[i] * LINE
        if i + 1 < len(heaps):
            draw.line((18, y, WIDTH - 18, y), fill="#e6dfd0", width=1)
    draw_status(image, ctx, height - FOOTER)
    return image

