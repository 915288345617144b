"""Text in any script on any machine: Latin, Chinese and colour emoji in one line.

Pillow draws with one font at a time and has no fallback, so a line is cut into
runs, each run drawn with the first shipped font that has its characters
(`render/fonts/README.md`). Colour emoji exist only as 109 px bitmaps, so an
emoji run is drawn at that size once, scaled, and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
LATIN, LATIN_BOLD, CJK, EMOJI = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DroidSansFallbackFull.ttf",
    "NotoColorEmoji.ttf",
)
EMOJI_STRIKE = 109  # the only pixel size the colour emoji font has
# From here on emoji show in colour by default; below (♠, ❤) only when asked with U+FE0F.
PICTOGRAPHS = 0x1F000
# Characters that only modify the emoji before them.
EMOJI_JOINERS = {0x200D, 0xFE0F, 0x20E3} | set(range(0x1F3FB, 0x1F400)) | set(range(0xE0020, 0xE0080))


@cache
def _cmap(file: str) -> frozenset[int]:
    return frozenset(TTFont(FONT_DIR / file, lazy=True).getBestCmap())


@lru_cache(maxsize=256)
def _font(file: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / file), size)


def _runs(text: str, bold: bool) -> list[tuple[str, str]]:
    """Split `text` into (font file, substring) runs."""
    base = LATIN_BOLD if bold else LATIN
    runs: list[tuple[str, str]] = []
    chars = list(text)
    for i, ch in enumerate(chars):
        cp = ord(ch)
        nxt = ord(chars[i + 1]) if i + 1 < len(chars) else 0
        if runs and runs[-1][0] == EMOJI and (cp in EMOJI_JOINERS or _after_zwj(runs[-1][1])):
            file = EMOJI
        elif cp in _cmap(EMOJI) and (cp >= PICTOGRAPHS or nxt in EMOJI_JOINERS or cp not in _cmap(base)):
            file = EMOJI
        elif cp in _cmap(base) or cp not in _cmap(CJK):
            file = base
        else:
            file = CJK
        if runs and runs[-1][0] == file:
            runs[-1] = (file, runs[-1][1] + ch)
        else:
            runs.append((file, ch))
    return runs


def _after_zwj(run: str) -> bool:
    return run.endswith("\u200d")


@lru_cache(maxsize=512)
def _emoji_image(run: str, size: int) -> tuple[Image.Image, int, int, float]:
    """The run drawn at `size`: (RGBA image, x offset, offset from the baseline, advance)."""
    font = _font(EMOJI, EMOJI_STRIKE)
    left, top, right, bottom = font.getbbox(run, anchor="ls")
    big = Image.new("RGBA", (max(1, int(right - left)), max(1, int(bottom - top))))
    ImageDraw.Draw(big).text((-left, -top), run, font=font, anchor="ls", embedded_color=True)
    scale = size / EMOJI_STRIKE * 0.95
    small = big.resize((max(1, round(big.width * scale)), max(1, round(big.height * scale))), Image.Resampling.LANCZOS)
    return small, round(left * scale), round(top * scale), font.getlength(run) * scale


@lru_cache(maxsize=4096)  # the same names, numbers and labels are measured picture after picture
def _advance(file: str, run: str, size: int) -> float:
    if file == EMOJI:
        return _emoji_image(run, size)[3]
    return _font(file, size).getlength(run)


def text_width(text: str, size: int, bold: bool = False) -> float:
    """Width in pixels of `text` drawn at `size`."""
    return sum(_advance(file, run, size) for file, run in _runs(text, bold))


@dataclass(frozen=True)
class Metrics:
    ascent: int
    descent: int


def metrics(size: int, bold: bool = False) -> Metrics:
    ascent, descent = _font(LATIN_BOLD if bold else LATIN, size).getmetrics()
    return Metrics(ascent, descent)


def fit(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis if it is wider than `max_width`."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text + "…"


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: str | tuple[int, ...] = "black",
    bold: bool = False,
    anchor: str = "ls",
) -> float:
    """Draw `text` with font fallback; returns its width.

    `anchor` is two letters as in Pillow: l/m/r horizontally, then t/m/s
    (top, middle, baseline) vertically, for the whole line.
    """
    runs = _runs(text, bold)
    width = sum(_advance(file, run, size) for file, run in runs)
    x, y = xy
    x -= {"l": 0, "m": width / 2, "r": width}[anchor[0]]
    m = metrics(size, bold)
    y += {"s": 0, "t": m.ascent, "m": (m.ascent - m.descent) / 2}[anchor[1]]
    draw = ImageDraw.Draw(image)
    for file, run in runs:
        if file == EMOJI:
            picture, dx, dy, advance = _emoji_image(run, size)
            image.paste(picture, (round(x + dx), round(y + dy)), picture)
        else:
            font = _font(file, size)
            draw.text((x, y), run, font=font, fill=fill, anchor="ls")
            advance = font.getlength(run)
        x += advance
    return width
