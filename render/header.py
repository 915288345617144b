"""The strip above every board (players, whose turn) and the status line below it."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.base import msg
from render.base import RenderContext
from render.text import draw_text, fit

# One colour per seat, told apart also by people with red-green colour blindness.
SEAT_COLOURS = ("#d1495b", "#2e86ab", "#edae49", "#3f8f5a", "#8d6cab", "#4b4b4b")
INK = "#3b3a36"
HIGHLIGHT = "#fff6d6"


def draw_players(
    image: Image.Image,
    ctx: RenderContext,
    subtitle: str = "",
    colours: tuple[str, ...] = SEAT_COLOURS,
    top: int = 14,
) -> int:
    """Names in seat order, the player to move highlighted; returns the y below it."""
    draw = ImageDraw.Draw(image)
    width = image.width
    seats = len(ctx.names)
    cell = (width - 24) / seats
    size = 24 if seats <= 2 else 20
    for seat, name in enumerate(ctx.names):
        left = 12 + seat * cell
        if seat == ctx.to_move:
            draw.rounded_rectangle((left + 4, top, left + cell - 4, top + 44), radius=12, fill=HIGHLIGHT,
                                   outline=colours[seat], width=2)
        label = ("🤖 " if seat in ctx.ai_seats else "") + name
        label = fit(label, size, cell - 58, bold=seat == ctx.to_move)
        cy = top + 22
        draw.ellipse((left + 16, cy - 9, left + 34, cy + 9), fill=colours[seat])
        draw_text(image, (left + 44, cy), label, size, fill=INK, bold=seat == ctx.to_move, anchor="lm")
    y = top + 52
    if subtitle:
        draw_text(image, (width / 2, y + 12), subtitle, 16, fill="#6b665c", anchor="mm")
        y += 28
    return y


def status(ctx: RenderContext) -> tuple[str, str]:
    """The headline and its detail: ("Bob wins", "took the last stone"), ("Alice to move", "")."""
    if ctx.outcome is not None:
        reason = ctx.tr(ctx.outcome.reason)
        winners = ctx.outcome.winners
        if not winners:
            return ctx.tr(msg("host.result_draw")), reason
        names = [ctx.names[s] for s in winners]  # joined as the reader's language lists names
        return ctx.tr(msg("host.result_win", count=len(winners), names=names)), reason
    if ctx.to_move is not None:
        return ctx.tr(msg("host.to_move", name=ctx.names[ctx.to_move])), ""
    return "", ""


def draw_status(image: Image.Image, ctx: RenderContext, top: int, colours: tuple[str, ...] = SEAT_COLOURS) -> None:
    """The status line in a band from `top` to the bottom of the image."""
    draw = ImageDraw.Draw(image)
    finished = ctx.outcome is not None
    draw.rectangle((0, top, image.width, image.height), fill="#2f3b45" if finished else "#ebe4d6")
    headline, detail = status(ctx)
    if ctx.outcome is not None and ctx.outcome.winners:
        headline = "🏆 " + headline
    colour = "#ffffff" if finished else INK
    mid = (top + image.height) / 2
    if not finished and ctx.to_move is not None:
        draw.ellipse((24, mid - 9, 42, mid + 9), fill=colours[ctx.to_move])
    room = image.width - 100
    if detail:
        draw_text(image, (image.width / 2, mid - 12), fit(headline, 22, room, True), 22, colour, True, "mm")
        draw_text(image, (image.width / 2, mid + 15), fit(detail, 16, room), 16, "#c9d3da", anchor="mm")
    else:
        draw_text(image, (image.width / 2, mid), fit(headline, 24, room, True), 24, colour, True, "mm")
