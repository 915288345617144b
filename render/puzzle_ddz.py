"""A Dou Dizhu endgame puzzle: every hand open, one row per seat (role, hand, its last play this round)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from engines.base import msg
from render.base import RenderContext, png
from render.doudizhu import BACKGROUND, BIG, FELT_DARK, GOLD, LIGHT, MUTED, SMALL, WIDTH, fan
from render.doudizhu import _role_badge as role_badge
from render.doudizhu import _sort_desc as sort_desc
from render.doudizhu import _sort_play as sort_play
from render.header import SEAT_COLOURS
from render.text import draw_text

ROW = 150


def render(view: dict[str, Any], ctx: RenderContext) -> bytes:
    image = Image.new("RGB", (WIDTH, 24 + 3 * ROW + 16), BACKGROUND)
    for seat in range(3):
        _seat(image, view, ctx, seat, 16 + seat * ROW)
    return png(image)


def _seat(image: Image.Image, view: dict[str, Any], ctx: RenderContext, seat: int, top: int) -> None:
    draw = ImageDraw.Draw(image)
    turn = view["turn"] == seat
    draw.rounded_rectangle((12, top + 4, WIDTH - 12, top + ROW - 4), radius=14, fill="#2a8a5e" if turn else FELT_DARK,
                           outline=SEAT_COLOURS[seat] if turn else None, width=3)
    draw.rounded_rectangle((12, top + 4, 22, top + ROW - 4), radius=5, fill=SEAT_COLOURS[seat])
    name = ctx.names[seat] if seat < len(ctx.names) else str(seat + 1)
    right = role_badge(image, ctx, view["landlord"] == seat, 36, top + 28)
    draw_text(image, (right + 12, top + 28), ("▶ " if turn else "") + name, 20, GOLD if turn else LIGHT, True, "lm")
    hand = view["hands"][seat]
    if hand:
        fan(image, sort_desc(hand), BIG, 36, top + 48, 470, step=BIG[0] * 0.72)
    last = view["recent"][seat]
    area = 540
    if last:
        trick = view["trick"]
        end = fan(image, sort_play(last), SMALL, area, top + 58, WIDTH - 30 - area)
        if trick is not None and trick["seat"] == seat:
            draw.line((area, top + ROW - 18, end, top + ROW - 18), fill=GOLD, width=4)
    elif last is not None:
        draw_text(image, (area + 10, top + ROW / 2 + 10), ctx.tr(msg("doudizhu.label_pass")), 24, MUTED, True, "lm")
    elif turn and view["lead"]:
        draw_text(image, (area + 10, top + ROW / 2 + 10), ctx.tr(msg("doudizhu.label_leads")), 24, MUTED, True, "lm")
