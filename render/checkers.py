"""Chinese Checkers as a picture: the star, every hole labelled, the pieces, the last move.

Every hole carries its name (the letter of its column, the number of its row), also
under a piece, and every row shows its number at both ends, so a player can type a
move from the picture. The empty board of each table size is drawn once (shapes
supersampled for smooth edges) and cached; a render pastes cached piece sprites
onto a copy, draws the path of the last move (and, when asked, the marked
destinations or a best path), the names strip and the status band.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw

from engines.base import Outcome, Overlay, msg
from engines.checkers import board as B
from engines.checkers.state import CheckersView
from render.base import RenderContext, keys_of, png
from render.header import HIGHLIGHT, SEAT_COLOURS, draw_players, draw_status
from render.text import draw_text, fit

WIDTH = 800
PITCH = 54  # distance between neighbouring holes
ROW_H = PITCH * math.sqrt(3) / 2
HOLE_R = 20
PIECE_R = 23
TOP = 146  # y of the centre of row 17
FOOTER = 72
HEIGHT = round(TOP + 17 * ROW_H) + 6 + FOOTER
BACKGROUND = "#f6f1e7"
STAR = "#ebe2cf"
HOLE = "#fbf8f1"
HOLE_EDGE = "#b9ae98"
INK = "#3b3a36"
MUTED = "#77716a"
LABEL_SIZE = 16
SUBTITLE_SIZE = 16  # the size render/header.py draws the subtitle in
MARK = "#2f9e44"
MARK_FILL = "#c9ecc2"
MARK_TEXT = "#1f5f2b"
SS = 3  # supersampling factor for the cached shapes


def centre(hole: int) -> tuple[float, float]:
    return WIDTH / 2 + (B.COLUMN[hole] - 12) * PITCH / 2, TOP + (17 - B.ROW[hole]) * ROW_H


def _blend(colour: str, amount: float, base: str = STAR) -> tuple[int, int, int]:
    a = _rgb(colour)
    b = _rgb(base)
    return tuple(round(b[i] + (a[i] - b[i]) * amount) for i in range(3))  # type: ignore[return-value]


def _hole(label: str) -> int:
    """The hole of a label the engine wrote (a view's or an overlay's)."""
    return cast(int, B.parse_label(label))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _text_colour(colour: str) -> str:
    r, g, b = _rgb(colour)
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _grow(corners: list[tuple[float, float]], margin: float) -> list[tuple[float, float]]:
    """An equilateral triangle pushed out by `margin` on every side."""
    cx = sum(x for x, _ in corners) / 3
    cy = sum(y for _, y in corners) / 3
    out = []
    for x, y in corners:
        dx, dy = x - cx, y - cy
        length = math.hypot(dx, dy)
        out.append((x + dx / length * 2 * margin, y + dy / length * 2 * margin))
    return out


def _point_corners(point: int) -> list[tuple[float, float]]:
    tip = B.TIPS[point]
    # The base row: the four holes three steps from the tip; its ends are the other two corners.
    base = sorted((h for h in B.POINTS[point] if _steps(h, tip) == 3), key=lambda h: B.COLUMN[h])
    return [centre(tip), centre(base[0]), centre(base[-1])]


def _steps(a: int, b: int) -> int:
    (q1, r1), (q2, r2) = B.COORDS[a], B.COORDS[b]
    return max(abs(q1 - q2), abs(r1 - r2), abs((q1 + r1) - (q2 + r2)))


def _point_tints(points: tuple[int, ...]) -> dict[int, tuple[int, int, int]]:
    """The tint of each of the six points: its seat's colour where a seat starts, a paler one for
    a point that is only someone's goal (three players), grey where nobody starts or goes."""
    tints = {p: _blend("#b8ad98", 0.25) for p in range(6)}
    for seat, p in enumerate(points):
        goal = B.opposite(p)
        if goal not in points:
            tints[goal] = _blend(SEAT_COLOURS[seat], 0.16)
    for seat, p in enumerate(points):
        tints[p] = _blend(SEAT_COLOURS[seat], 0.3)
    return tints


@lru_cache(maxsize=8)
def _empty_board(points: tuple[int, ...]) -> Image.Image:
    """The star, its tinted points, the holes with their names and the row numbers."""
    big = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), BACKGROUND)
    draw = ImageDraw.Draw(big)

    def scaled(corners: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * SS, y * SS) for x, y in corners]

    margin = ROW_H / 2
    for triangle in ((3, 5, 1), (0, 2, 4)):  # the star is two big triangles
        corners = [centre(B.TIPS[p]) for p in triangle]
        draw.polygon(scaled(_grow(corners, margin)), fill=STAR)
    for p, tint in _point_tints(points).items():
        draw.polygon(scaled(_grow(_point_corners(p), margin)), fill=tint)
    for h in range(B.SIZE):
        x, y = centre(h)
        r = HOLE_R * SS
        draw.ellipse((x * SS - r, y * SS - r, x * SS + r, y * SS + r), fill=HOLE, outline=HOLE_EDGE, width=SS)
    image = big.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    for h in range(B.SIZE):
        draw_text(image, centre(h), B.LABELS[h], LABEL_SIZE, fill=MUTED, anchor="mm")
    rows: dict[int, list[int]] = {}
    for h in range(B.SIZE):
        rows.setdefault(B.ROW[h], []).append(h)
    for row, holes in rows.items():
        left = min(centre(h)[0] for h in holes)
        right = max(centre(h)[0] for h in holes)
        y = centre(holes[0])[1]
        draw_text(image, (left - PITCH * 0.62, y), str(row), 15, fill=INK, bold=True, anchor="mm")
        draw_text(image, (right + PITCH * 0.62, y), str(row), 15, fill=INK, bold=True, anchor="mm")
    return image


@lru_cache(maxsize=8)
def _disc(colour: str, radius: int, shaded: bool) -> Image.Image:
    big = radius * 2 * SS
    image = Image.new("RGBA", (big, big))
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, big - 1, big - 1), fill=_darker(colour))
    draw.ellipse((SS * 2, SS * 2, big - 1 - SS * 2, big - 1 - SS * 2), fill=colour)
    if shaded:  # a thin light rim at the top, so pieces look round without covering their names
        draw.arc((SS * 3, SS * 3, big - 1 - SS * 3, big - 1 - SS * 3), 200, 340, fill="#ffffff70", width=SS * 2)
    return image.resize((radius * 2, radius * 2), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def _piece(colour: str, hole: int) -> Image.Image:
    """A piece with the name of its hole on it."""
    sprite = _disc(colour, PIECE_R, True).copy()
    draw_text(sprite, (PIECE_R, PIECE_R + 1), B.LABELS[hole], LABEL_SIZE, fill=_text_colour(colour), bold=True,
              anchor="mm")
    return sprite


@lru_cache(maxsize=256)
def _mark(hole: int) -> Image.Image:
    """A destination marked by /moves: a green hole with its name."""
    sprite = _disc(MARK, HOLE_R + 2, False).copy()
    inner = _disc(MARK_FILL, HOLE_R - 1, False)
    sprite.paste(inner, (3, 3), inner)
    draw_text(sprite, (HOLE_R + 2, HOLE_R + 3), B.LABELS[hole], LABEL_SIZE, fill=MARK_TEXT, bold=True, anchor="mm")
    return sprite


def _paste(image: Image.Image, sprite: Image.Image, hole: int) -> None:
    x, y = centre(hole)
    image.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), sprite)


def _ring(draw: ImageDraw.ImageDraw, hole: int, radius: float, colour: str, width: int) -> None:
    x, y = centre(hole)
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=colour, width=width)


def _path(image: Image.Image, holes: list[int], colour: str, numbered: bool = False) -> None:
    """A translucent line through the holes of a path with an arrowhead into the last one, a ring
    on the start and a dot (or the hop's number) on every hole landed on on the way."""
    xs = [centre(h)[0] for h in holes]
    ys = [centre(h)[1] for h in holes]
    pad = PIECE_R + 6
    left, top = round(min(xs) - pad), round(min(ys) - pad)
    layer = Image.new("RGBA", (round(max(xs) + pad) - left, round(max(ys) + pad) - top))
    draw = ImageDraw.Draw(layer)
    rgb = _rgb(colour)
    line = (*rgb, 190)
    points = [(x - left, y - top) for x, y in zip(xs, ys, strict=True)]
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip = (x2 - ux * (PIECE_R + 1), y2 - uy * (PIECE_R + 1))
    base = (tip[0] - ux * 14, tip[1] - uy * 14)
    draw.line([*points[:-1], base], fill=line, width=6, joint="curve")
    draw.polygon([tip, (base[0] - uy * 9, base[1] + ux * 9), (base[0] + uy * 9, base[1] - ux * 9)], fill=line)
    x, y = points[0]
    r = HOLE_R + 2
    draw.ellipse((x - r, y - r, x + r, y + r), outline=(*rgb, 230), width=4)
    for x, y in points[1:-1]:
        r = 11 if numbered else 6
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(*rgb, 235))
    image.paste(layer, (left, top), layer)
    if numbered:
        for i, (x, y) in enumerate(points[1:-1], start=1):
            draw_text(image, (x + left, y + top + 1), str(i), 14, fill="#ffffff", bold=True, anchor="mm")


def _subtitle(view: CheckersView, ctx: RenderContext) -> str:
    """The line under the names: the round, who has finished, the rounds without progress, and
    what a /moves or /path picture shows; shortened to fit the picture."""
    parts = [ctx.tr(msg("checkers.round", round=view["round"]))]
    if view["finished"]:
        sep = ctx.tr(msg("checkers.places_separator"))
        places = sep.join(ctx.tr(msg("checkers.place", place=i + 1, name=ctx.names[s]))
                          for i, s in enumerate(view["finished"]))
        parts.append(ctx.tr(msg("checkers.finished", places=places)))
    overlay = ctx.overlay or {}
    if overlay.get("piece") is not None:
        parts.append(ctx.tr(msg("checkers.marks_caption", piece=overlay["piece"], count=len(overlay["marks"]))))
    elif overlay.get("path"):
        path = [_hole(x) for x in overlay["path"]]
        start, to = overlay["path"][0], overlay["path"][-1]
        if (path[0], path[-1]) in B.ADJACENT and len(path) == 2:
            parts.append(ctx.tr(msg("checkers.path_caption_step", start=start, to=to)))
        else:
            parts.append(ctx.tr(msg("checkers.path_caption", start=start, to=to, count=len(path) - 1)))
    idle_rounds = view["idle"] // view["seats"]
    if idle_rounds >= 5 and not view["end"]:
        parts.append(ctx.tr(msg("checkers.no_progress", count=idle_rounds)))
    return fit(" · ".join(parts), SUBTITLE_SIZE, WIDTH - 40)


def render(view: CheckersView, ctx: RenderContext) -> bytes:
    image = _draw(view, ctx)
    # The picture is flat colours and their anti-aliased edges: 256 colours are plenty, and
    # mapping to a palette made once per table size is quick and makes the PNG a third the size.
    return png(image.quantize(palette=_palette(tuple(view["points"])), dither=Image.Dither.NONE))


def _draw(view: CheckersView, ctx: RenderContext) -> Image.Image:
    points = tuple(view["points"])
    image = _empty_board(points).copy()
    draw = ImageDraw.Draw(image)
    board = view["board"]
    overlay = ctx.overlay or {}
    last = view.get("last")

    for label in overlay.get("marks", ()):
        _paste(image, _mark(_hole(label)), _hole(label))
    path = [_hole(x) for x in overlay.get("path", ())]
    if path:
        _paste(image, _mark(path[-1]), path[-1])
    for h, v in enumerate(board):
        if v != "0":
            _paste(image, _piece(SEAT_COLOURS[int(v) - 1], h), h)
    if path:
        _path(image, path, MARK, numbered=True)
    elif last:
        _path(image, [_hole(x) for x in last["path"]], SEAT_COLOURS[last["seat"]])
        _ring(draw, _hole(last["path"][-1]), PIECE_R + 2, INK, 3)
    if overlay.get("piece"):
        _ring(draw, _hole(overlay["piece"]), PIECE_R + 3, MARK, 4)

    draw_players(image, ctx, subtitle=_subtitle(view, ctx), colours=SEAT_COLOURS)
    draw_status(image, ctx, HEIGHT - FOOTER, colours=SEAT_COLOURS)
    return image


@lru_cache(maxsize=8)
def _palette(points: tuple[int, ...]) -> Image.Image:
    """256 colours for a table size, taken from two sample pictures with every kind of mark on them."""
    n = len(points)
    samples = []
    for finished in (False, True):
        board = "".join(str(h % (n + 1)) if h % 3 else "0" for h in range(B.SIZE))
        view = CheckersView(
            seats=n, points=list(points), board=board, turn=0, round=1, idle=0, finished=[], distance=[0] * n,
            last={"seat": n - 1, "path": ["m1", "m3", "m5", "m7"]}, end=None,
        )
        overlay: Overlay = {"piece": "m9", "marks": ["a5", "e9", "y13", "m11"], "path": ["a13", "e13", "y5"]}
        outcome = Outcome(tuple(range(1, n + 1)), msg("checkers.end_goal")) if finished else None
        names = tuple(f"Player {s}" for s in range(n))
        ctx = RenderContext(names, None if finished else 0, outcome, keys_of, overlay=overlay)
        samples.append(_draw(view, ctx))
    sample = Image.new("RGB", (WIDTH, HEIGHT * 2))
    sample.paste(samples[0], (0, 0))
    sample.paste(samples[1], (0, HEIGHT))
    # The flat colours exactly, the rest (edges, text, emoji) as the sample's most used colours.
    flat: list[str | tuple[int, int, int]] = [
        BACKGROUND, STAR, HOLE, HOLE_EDGE, INK, MUTED, MARK, MARK_FILL, MARK_TEXT, "#ffffff", HIGHLIGHT,
        *SEAT_COLOURS, *(_darker(c) for c in SEAT_COLOURS), *_point_tints(points).values(),
        "#2f3b45", "#ebe4d6", "#c9d3da", "#6b665c",  # the status band and the subtitle (render/header.py)
    ]
    exact = [value for colour in flat for value in (_rgb(colour) if isinstance(colour, str) else colour)]
    rest = sample.quantize(256 - len(flat), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))
    palette.putpalette(exact + cast(list[int], rest.getpalette())[: 3 * (256 - len(flat))])
    return palette


def _darker(colour: str) -> tuple[int, int, int]:
    return tuple(round(c * 0.72) for c in _rgb(colour))  # type: ignore[return-value]
