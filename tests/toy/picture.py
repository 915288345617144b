"""Tic-tac-toe as a picture: the grid, the marks, the last one ringed, the winning three struck."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.base import JSON
from render.base import RenderContext, png
from render.header import SEAT_COLOURS, draw_players, draw_status
from render.text import draw_text

CELL, TOP, LEFT, FOOTER = 120, 112, 220, 72
WIDTH = 800


def render(view: JSON, ctx: RenderContext) -> bytes:
    height = TOP + 3 * CELL + 40 + FOOTER
    image = Image.new("RGB", (WIDTH, height), "#f6f1e7")
    draw = ImageDraw.Draw(image)
    draw_players(image, ctx)
    for i in (1, 2):
        draw.line((LEFT + i * CELL, TOP, LEFT + i * CELL, TOP + 3 * CELL), fill="#3b3a36", width=4)
        draw.line((LEFT, TOP + i * CELL, LEFT + 3 * CELL, TOP + i * CELL), fill="#3b3a36", width=4)

    def centre(square: int) -> tuple[float, float]:
        return LEFT + (square % 3 + 0.5) * CELL, TOP + (2 - square // 3 + 0.5) * CELL

    for square, mark in enumerate(view["cells"]):
        x, y = centre(square)
        if mark:
            draw_text(image, (x, y), mark, 72, fill=SEAT_COLOURS["XO".index(mark)], bold=True, anchor="mm")
        if square == view["last"]:
            draw.ellipse((x - 52, y - 52, x + 52, y + 52), outline="#e0a020", width=3)
        if square // 3 == 0:
            draw_text(image, (x, TOP + 3 * CELL + 24), "abc"[square], 18, fill="#8a857a", anchor="mm")
    if view["line"]:
        (x0, y0), (x1, y1) = centre(view["line"][0]), centre(view["line"][-1])
        draw.line((x0, y0, x1, y1), fill="#c0392b", width=8)
    draw_status(image, ctx, height - FOOTER)
    return png(image)
