"""Gomoku as a picture: a wooden board with coordinates on all four sides, shaded stones,
the last stone marked, optional move numbers, renju's forbidden points and the winning
line struck through.

Everything that does not change from move to move (the board with its grid, star
points and coordinates, the stone sprites, the number labels) is drawn once per
size and cached; a picture is a copy of the board with the stones pasted on.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from engines.base import Outcome, msg
from engines.gomoku.state import GomokuView
from render.base import RenderContext, keys_of, png
from render.header import draw_players, draw_status
from render.text import draw_text

WIDTH = 760
MARGIN = 54  # from the board's edge to the outer grid line: room for the coordinates
HEADER = 96  # names strip and the rule line
FOOTER = 72
BACKGROUND = "#efe6d2"
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# The colours the header uses for the players: stone-like, and our stone sprites are pasted over them.
STONE_COLOURS = ("#1d1d1d", "#f7f5ef")
UNDECIDED = "#a89f8c"  # swap2: a seat whose colour is not chosen yet
NUMBER_COLOURS = ("#ffffff", "#1d1d1d")  # on a black stone, on a white one
LAST_MARK = "#e0473c"
WIN_STRIKE = (214, 48, 49, 235)


def _stars(size: int) -> list[tuple[int, int]]:
    if size == 15:
        return [(3, 3), (3, 11), (7, 7), (11, 3), (11, 11)]
    edge = 3 if size >= 13 else 2
    mid = size // 2
    return [(c, r) for c in (edge, mid, size - 1 - edge) for r in (edge, mid, size - 1 - edge)]


class Layout:
    def __init__(self, size: int) -> None:
        self.size = size
        self.board = WIDTH - 2 * 16  # the wooden square
        self.left = 16
        self.top = HEADER
        self.cell = (self.board - 2 * MARGIN) / (size - 1)
        self.stone = round(self.cell * 0.94)
        self.height = HEADER + self.board + 14 + FOOTER

    def xy(self, col: int, row: int) -> tuple[float, float]:
        """Pixel centre of a point (row 0 is the bottom row)."""
        x = self.left + MARGIN + col * self.cell
        y = self.top + MARGIN + (self.size - 1 - row) * self.cell
        return x, y


@lru_cache(maxsize=4)
def _layout(size: int) -> Layout:
    return Layout(size)


def _wood(width: int, height: int) -> Image.Image:
    """A light wood texture: soft bands along the grain and a few darker streaks, seeded."""
    rng = random.Random(8)
    strip = Image.new("RGB", (1, height))
    base = (222, 178, 112)
    phase = [rng.uniform(0, 6.28) for _ in range(3)]
    for y in range(height):
        t = y / height
        v = math.sin(t * 37 + phase[0]) * 6 + math.sin(t * 91 + phase[1]) * 3 + math.sin(t * 11 + phase[2]) * 5
        shade = (max(0, min(255, round(c + v * k))) for c, k in zip(base, (1.0, 0.9, 0.7), strict=True))
        strip.putpixel((0, y), tuple(shade))
    wood = strip.resize((width, height))
    draw = ImageDraw.Draw(wood, "RGBA")
    for _ in range(26):
        streak = rng.uniform(0, height)
        amp = rng.uniform(2, 7)
        freq = rng.uniform(1.5, 4)
        ph = rng.uniform(0, 6.28)
        points = [(x, streak + amp * math.sin(x / width * freq * 6.28 + ph)) for x in range(0, width + 20, 20)]
        draw.line(points, fill=(150, 100, 45, rng.randint(18, 40)), width=rng.choice((1, 1, 2)))
    return wood


@lru_cache(maxsize=4)
def _board(size: int) -> Image.Image:
    """The empty picture of one size: background, wooden board, grid, star points, coordinates."""
    lay = _layout(size)
    image = Image.new("RGB", (WIDTH, lay.height), BACKGROUND)
    shadow = Image.new("RGBA", (lay.board + 24, lay.board + 24), (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rounded_rectangle((12, 14, lay.board + 12, lay.board + 14), 10, fill=(60, 40, 20, 90))
    shadow = shadow.filter(ImageFilter.GaussianBlur(6))
    image.paste(shadow, (lay.left - 12, lay.top - 12), shadow)
    wood = _wood(lay.board, lay.board)
    mask = Image.new("L", wood.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, lay.board - 1, lay.board - 1), 10, fill=255)
    image.paste(wood, (lay.left, lay.top), mask)
    draw = ImageDraw.Draw(image)
    ink = (70, 45, 20)
    x0, y0 = lay.xy(0, size - 1)
    x1, y1 = lay.xy(size - 1, 0)
    for i in range(size):
        x, _ = lay.xy(i, 0)
        _, y = lay.xy(0, i)
        width = 2 if i in (0, size - 1) else 1
        draw.line((round(x), round(y0), round(x), round(y1)), fill=ink, width=width)
        draw.line((round(x0), round(y), round(x1), round(y)), fill=ink, width=width)
    r = max(3, lay.cell * 0.11)
    for c, rr in _stars(size):
        x, y = lay.xy(c, rr)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    font = 17 if size == 15 else 15
    label = (92, 60, 28)
    for i in range(size):
        x, _ = lay.xy(i, 0)
        draw_text(image, (x, lay.top + 17), LETTERS[i], font, label, True, "mm")
        draw_text(image, (x, lay.top + lay.board - 17), LETTERS[i], font, label, True, "mm")
        _, y = lay.xy(0, i)
        draw_text(image, (lay.left + 18, y), str(i + 1), font, label, True, "mm")
        draw_text(image, (lay.left + lay.board - 18, y), str(i + 1), font, label, True, "mm")
    return image


@lru_cache(maxsize=8)
def _stone(diameter: int, black: bool) -> Image.Image:
    """A shaded stone with a soft shadow, drawn 4x larger and scaled down."""
    scale = 4
    pad = max(2, diameter // 10)
    big = (diameter + 2 * pad) * scale
    d = diameter * scale
    o = pad * scale
    shadow = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(shadow).ellipse((o + d * 0.06, o + d * 0.1, o + d * 1.04, o + d * 1.08), fill=(40, 25, 10, 110))
    shadow = shadow.filter(ImageFilter.GaussianBlur(d * 0.04))
    body = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(body)
    steps = 24
    for i in range(steps):
        # concentric discs shifted towards the light (top left): a radial gradient
        f = i / steps
        r = d / 2 * (1 - f * 0.85)
        cx = o + d / 2 - d * 0.16 * f
        cy = o + d / 2 - d * 0.18 * f
        if black:
            v = round(18 + 70 * f**2)
            colour = (v, v, v + 4, 255)
        else:
            v = round(205 + 50 * f**0.7)
            colour = (v, v, round(v * 0.97), 255)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    if not black:
        draw.ellipse((o, o, o + d, o + d), outline=(150, 140, 125, 255), width=scale)
    shadow.alpha_composite(body)
    return shadow.resize((diameter + 2 * pad, diameter + 2 * pad), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def _label(text: str, size: int, colour: str) -> Image.Image:
    """A move number, drawn once."""
    image = Image.new("RGBA", (size * 3, size * 2), (0, 0, 0, 0))
    draw_text(image, (image.width / 2, image.height / 2), text, size, colour, True, "mm")
    return image


@lru_cache(maxsize=8)
def _forbidden_mark(diameter: int) -> Image.Image:
    image = Image.new("RGBA", (diameter, diameter), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    a, b = diameter * 0.2, diameter * 0.8
    draw.line((a, a, b, b), fill=(200, 40, 40, 230), width=max(2, diameter // 8))
    draw.line((a, b, b, a), fill=(200, 40, 40, 230), width=max(2, diameter // 8))
    return image


def _paste_centred(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    image.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), sprite)


def render(view: GomokuView, ctx: RenderContext) -> bytes:
    # Wood, shaded stones and their edges fit in 128 colours; mapping to a palette made once per size
    # is ten times quicker than choosing one per picture, and the PNG is a third the size of RGB.
    return png(_draw(view, ctx).quantize(palette=_palette(view["size"]), dither=Image.Dither.NONE))


@lru_cache(maxsize=4)
def _palette(size: int) -> Image.Image:
    """128 colours for a board size, taken from two sample pictures with every kind of mark on them."""
    moves = [[c, r] for r in range(size) for c in range(size) if (c + 2 * r) % 3 == 0]
    moves = moves[: len(moves) // 2 * 2]
    names = ("Alice", "小明 🐼")
    samples = []
    for finished in (False, True):
        view: GomokuView = {
            "size": size,
            "rule": "renju",
            "moves": moves,
            "last": moves[-1],
            "win_line": [[i, i] for i in range(5)] if finished else [],
            "forbidden": [[1, 0], [4, 1]],
        }
        outcome = Outcome((1, 2), msg("gomoku.five", points="a1 b2 c3 d4 e5")) if finished else None
        ctx = RenderContext(names, None if finished else 1, outcome, keys_of, overlay={"numbers": finished})
        samples.append(_draw(view, ctx))
    sample = Image.new("RGB", (samples[0].width, samples[0].height * 2))
    sample.paste(samples[0], (0, 0))
    sample.paste(samples[1], (0, samples[0].height))
    return sample.quantize(128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _draw(view: GomokuView, ctx: RenderContext) -> Image.Image:
    size = view["size"]
    lay = _layout(size)
    image = _board(size).copy()
    numbers = bool(ctx.overlay and ctx.overlay.get("numbers"))
    rule = ctx.tr(msg(f"gomoku.rule_{view['rule']}"))
    if view.get("opening"):
        opening = ctx.tr(msg(f"gomoku.opening_{view.get('opening')}"))
        rule = f"{rule} · {opening}"
    subtitle = ctx.tr(msg("gomoku.subtitle", rule=rule, size=size, count=len(view["moves"])))
    colours = _seat_colours(view)
    draw_players(image, ctx, subtitle=subtitle, colours=colours)
    _stones_in_header(image, ctx, view)

    sprites = (_stone(lay.stone, True), _stone(lay.stone, False))
    label_size = max(11, round(lay.cell * (0.42 if size == 15 else 0.40)))
    moves = view["moves"]
    for i, (c, r) in enumerate(moves):
        _paste_centred(image, sprites[i % 2], *lay.xy(c, r))
    draw = ImageDraw.Draw(image, "RGBA")
    if view["win_line"]:
        _strike(draw, lay, view["win_line"], faint=numbers)
    if numbers:  # over the strike, so the numbers of the winning five stay readable
        for i, (c, r) in enumerate(moves):
            text = str(i + 1)
            fs = label_size if len(text) < 3 else round(label_size * 0.8)
            colour = LAST_MARK if i == len(moves) - 1 else NUMBER_COLOURS[i % 2]
            _paste_centred(image, _label(text, fs, colour), *lay.xy(c, r))
    if view.get("forbidden"):
        mark = _forbidden_mark(round(lay.cell * 0.6))
        for c, r in view["forbidden"]:
            _paste_centred(image, mark, *lay.xy(c, r))
    if view["last"] and not numbers:
        x, y = lay.xy(*view["last"])
        rad = lay.stone * 0.16
        draw.ellipse((x - rad, y - rad, x + rad, y + rad), fill=LAST_MARK)
    draw_status(image, ctx, lay.height - FOOTER, colours=_status_colours(view, colours))
    _stone_in_status(image, ctx, lay.height - FOOTER, view)
    return image


def _black_seat(view: GomokuView) -> int | None:
    """The seat that plays black: 0, unless a swap2 opening gave black to seat 1 or has not chosen yet."""
    return view.get("black_seat", 0)


def _seat_colours(view: GomokuView) -> tuple[str, ...]:
    """Each seat's disc in the header: its stones' colour (swapped after a swap2 gave black to seat 1)."""
    black = _black_seat(view)
    if black is None:
        return (UNDECIDED, UNDECIDED)
    return STONE_COLOURS if black == 0 else STONE_COLOURS[::-1]


def _next_stone(view: GomokuView) -> bool | None:
    """Whether the next stone is black (None: the player to move chooses colours, no stone)."""
    if view.get("phase") in ("decide", "pick"):
        return None
    return len(view["moves"]) % 2 == 0


def _status_colours(view: GomokuView, colours: tuple[str, ...]) -> tuple[str, ...]:
    """The status line's disc is the colour of the stone to place (in a swap2 opening, whoever places it)."""
    black = _next_stone(view)
    if black is None:
        return (UNDECIDED, UNDECIDED)
    return (STONE_COLOURS[0 if black else 1],) * 2


def _strike(draw: ImageDraw.ImageDraw, lay: Layout, line: list[list[int]], faint: bool) -> None:
    """The stroke through the winning five, stretched a little past its end stones; `faint` lets the
    move numbers under it show through."""
    xa, ya = lay.xy(*line[0])
    xb, yb = lay.xy(*line[-1])
    dx, dy = xb - xa, yb - ya
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ext = lay.stone * 0.45
    ux, uy = dx / length * ext, dy / length * ext
    w = max(6, round(lay.stone * 0.2))
    strike = (*WIN_STRIKE[:3], 110) if faint else WIN_STRIKE
    for colour, width in (((255, 255, 255, 150), w + 4), (strike, w)):
        draw.line((xa - ux, ya - uy, xb + ux, yb + uy), fill=colour, width=width)
        for px, py in ((xa - ux, ya - uy), (xb + ux, yb + uy)):
            draw.ellipse((px - width / 2, py - width / 2, px + width / 2, py + width / 2), fill=colour)


def _stones_in_header(image: Image.Image, ctx: RenderContext, view: GomokuView) -> None:
    """Shaded stones over the plain discs draw_players puts before the names (same geometry); none
    while a swap2 opening has not chosen the colours."""
    black = _black_seat(view)
    if black is None:
        return
    cell = (image.width - 24) / len(ctx.names)
    for seat in range(len(ctx.names)):
        left = 12 + seat * cell
        _paste_centred(image, _stone(22, seat == black), left + 25, 14 + 22)


def _stone_in_status(image: Image.Image, ctx: RenderContext, top: int, view: GomokuView) -> None:
    black = _next_stone(view)
    if ctx.outcome is None and ctx.to_move is not None and black is not None:
        _paste_centred(image, _stone(22, black), 33, (top + image.height) / 2)
