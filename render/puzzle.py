"""A puzzle's picture: the game's own picture of the position under a banner with the task.

The view: `renderer` and `view` (what the game's renderer draws), `title` and `goal` (messages as
JSON, translated here), `rating` (the puzzle's, shown beside its number)."""

from __future__ import annotations

import io
from importlib import import_module
from typing import Any

from PIL import Image, ImageDraw

from engines.base import Msg
from render.base import RenderContext, png
from render.text import draw_text, fit

BANNER = 96
PAPER = "#f4f1e8"
INK = "#3b3a36"
ACCENT = "#b5523b"


def render(view: dict[str, Any], ctx: RenderContext) -> bytes:
    inner = import_module(f"render.{view['renderer']}").render(view["view"], ctx)
    board = Image.open(io.BytesIO(inner)).convert("RGB")
    image = Image.new("RGB", (board.width, board.height + BANNER), PAPER)
    image.paste(board, (0, BANNER))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, BANNER - 4, board.width, BANNER), fill=ACCENT)
    title = ctx.tr(Msg.from_json(view["title"]))
    goal = ctx.tr(Msg.from_json(view["goal"]))
    draw_text(image, (20, 30), fit(title, 20, board.width - 40, bold=True), 20, ACCENT, True, "lm")
    draw_text(image, (20, 64), fit(goal, 26, board.width - 40, bold=True), 26, INK, True, "lm")
    return png(image)
