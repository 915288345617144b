"""Dou Dizhu as a picture: the bottom cards, one row per seat (role, cards left, last play),
a counter of the cards not yet seen, and — in a private picture — the viewer's hand fanned out.

Card faces are drawn once per size and cached; a picture only pastes them.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw

from engines.base import msg
from engines.doudizhu.cards import BLACK_JOKER, LABELS, RED_JOKER, SUITS, rank_of, suit_of
from engines.doudizhu.state import DdzPrivateView, DdzView
from render.base import RenderContext, png
from render.header import SEAT_COLOURS, draw_players, draw_status
from render.text import draw_text, fit

WIDTH = 800
BACKGROUND = "#1f6f4a"  # card-table green
FELT_DARK = "#185a3c"
INK = "#22201c"
LIGHT = "#f4f1e8"
MUTED = "#b9d3c4"
RED = "#c8102e"
BLACK = "#1b1b1b"
GOLD = "#f2c14e"
SMALL = (46, 66)  # a card on the table
BIG = (66, 94)  # a card in the viewer's hand
ROW = 112
FOOTER = 72
OPEN_ROW = 72  # a seat's row grows by this to show its hand once the game is over


# --- card sprites ---------------------------------------------------------------------------


@lru_cache(maxsize=256)
def card_image(card: int, size: tuple[int, int]) -> Image.Image:
    """A card face: rank and suit in the corner, a big suit (or star for a joker) in the middle."""
    w, h = size
    scale = 3
    image = Image.new("RGBA", (w * scale, h * scale))
    draw = ImageDraw.Draw(image)
    rank, suit = rank_of(card), suit_of(card)
    face = "#fff8e1" if rank == RED_JOKER else ("#eef0f2" if rank == BLACK_JOKER else "#ffffff")
    draw.rounded_rectangle((0, 0, w * scale - 1, h * scale - 1), radius=7 * scale, fill=face,
                           outline="#8c8c8c", width=scale)
    colour = RED if (rank == RED_JOKER or suit in (1, 3)) else BLACK
    big = image
    corner = round(w * 0.36) * scale
    if suit is None:  # a joker
        for i, letter in enumerate("JOKER"):
            draw_text(big, (corner * 0.45 + 2 * scale, (h * 0.13 + i * h * 0.155) * scale), letter,
                      round(h * 0.15) * scale, colour, True, "mm")
        star = "★" if rank == RED_JOKER else "☆"
        draw_text(big, (w * scale * 0.62, h * scale * 0.62), star, round(w * 0.5) * scale, colour, False, "mm")
    else:
        label = LABELS[rank]
        size_px = round(w * (0.36 if label == "10" else 0.42)) * scale
        draw_text(big, (corner * 0.55 + 2 * scale, 4 * scale + size_px * 0.5), label, size_px, colour, True, "mm")
        draw_text(big, (corner * 0.55 + 2 * scale, 4 * scale + size_px * 1.45), SUITS[suit],
                  round(w * 0.34) * scale, colour, False, "mm")
        draw_text(big, (w * scale * 0.62, h * scale * 0.66), SUITS[suit], round(w * 0.56) * scale, colour, False,
                  "mm")
    return image.resize(size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def card_back(size: tuple[int, int]) -> Image.Image:
    w, h = size
    scale = 3
    image = Image.new("RGBA", (w * scale, h * scale))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w * scale - 1, h * scale - 1), radius=7 * scale, fill="#ffffff",
                           outline="#8c8c8c", width=scale)
    draw.rounded_rectangle((4 * scale, 4 * scale, (w - 4) * scale, (h - 4) * scale), radius=5 * scale,
                           fill="#2e5e9e")
    for y in range(8 * scale, (h - 6) * scale, 7 * scale):
        draw.line((6 * scale, y, (w - 6) * scale, y + 5 * scale), fill="#4a7dc0", width=scale)
    return image.resize(size, Image.Resampling.LANCZOS)


def _sort_desc(cards: list[int]) -> list[int]:
    return sorted(cards, key=lambda c: (-rank_of(c), c))


def _sort_play(cards: list[int]) -> list[int]:
    """A play as people lay it down: the main group first (the trio before its kicker), low to high."""
    count = Counter(rank_of(c) for c in cards)
    return sorted(cards, key=lambda c: (-count[rank_of(c)], rank_of(c), c))


def fan(image: Image.Image, cards: list[int], size: tuple[int, int], left: float, top: float, room: float,
        step: float | None = None) -> float:
    """Cards overlapping left to right from `left`, at most `room` wide; returns the right edge."""
    if not cards:
        return left
    w = size[0]
    if step is None:
        step = w * 0.62
    if len(cards) > 1:
        step = min(step, (room - w) / (len(cards) - 1))
    x = left
    for card in cards:
        sprite = card_image(card, size)
        image.paste(sprite, (round(x), round(top)), sprite)
        x += step
    return x - step + w


# --- the picture ----------------------------------------------------------------------------


def render(view: DdzView | DdzPrivateView, ctx: RenderContext) -> bytes:
    viewer = ctx.viewer
    hand = cast(DdzPrivateView, view).get("hand") if viewer is not None else None  # a seat's view holds its hand
    hand_height = 150 if hand is not None else 0
    top_strip = 104
    row = ROW + (OPEN_ROW if view.get("hands") else 0)
    height = top_strip + 104 + 3 * row + 76 + hand_height + FOOTER
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, top_strip), fill=LIGHT)

    subtitle = ctx.tr(msg(f"doudizhu.mode_{view['mode']}"))
    if view["phase"] == "bidding":
        subtitle = ctx.tr(msg("doudizhu.label_bidding", deal=view["deal"] + 1)) + " · " + subtitle
    draw_players(image, ctx, subtitle=subtitle)

    y = top_strip
    _draw_bottom(image, view, ctx, y)
    y += 104
    for seat in range(3):
        _draw_seat(image, view, ctx, seat, y, row)
        y += row
    _draw_counter(image, view, ctx, y + 6)
    y += 76
    if hand is not None:
        draw.rectangle((0, y, WIDTH, y + hand_height), fill=FELT_DARK)
        label = ctx.tr(msg("doudizhu.label_your_hand")) + " · " + ctx.tr(msg("doudizhu.cards_left", count=len(hand)))
        draw_text(image, (24, y + 24), label, 20, LIGHT, True, "lm")
        fan(image, _sort_desc(hand), BIG, 24, y + 44, WIDTH - 48, step=BIG[0] * 0.78)
        y += hand_height
    draw_status(image, ctx, height - FOOTER)
    return png(image)


def _draw_bottom(image: Image.Image, view: DdzView | DdzPrivateView, ctx: RenderContext, top: int) -> None:
    draw_text(image, (24, top + 22), ctx.tr(msg("doudizhu.label_bottom")), 20, MUTED, True, "lm")
    bottom = view["bottom"]
    x = 24
    for i in range(3):
        sprite = card_image(bottom[i], SMALL) if bottom else card_back(SMALL)
        image.paste(sprite, (x + i * (SMALL[0] + 6), top + 36), sprite)
    right = WIDTH - 24
    if view["phase"] == "bidding" and view["mode"] == "points":
        stake = ctx.tr(msg("doudizhu.label_bid", bid=view["bid"]))
    else:  # in call mode the stake is 1 from the start
        stake = ctx.tr(msg("doudizhu.label_stake", bid=max(1, view["bid"])))
    mult = ctx.tr(msg("doudizhu.label_multiplier", multiplier=view["multiplier"]))
    draw_text(image, (right, top + 40), mult, 40, GOLD, True, "rm")
    draw_text(image, (right, top + 82), stake, 22, LIGHT, True, "rm")


def _role_badge(image: Image.Image, ctx: RenderContext, landlord: bool, x: float, y: float) -> float:
    draw = ImageDraw.Draw(image)
    text = ("👑 " if landlord else "") + ctx.tr(msg("doudizhu.landlord" if landlord else "doudizhu.farmer"))
    size = 18
    from render.text import text_width

    w = text_width(text, size, True) + 20
    draw.rounded_rectangle((x, y - 14, x + w, y + 14), radius=14, fill=GOLD if landlord else "#cfe3d6")
    draw_text(image, (x + 10, y), text, size, INK, True, "lm")
    return x + w


def _draw_seat(image: Image.Image, view: DdzView | DdzPrivateView, ctx: RenderContext, seat: int, top: int,
               height: int = ROW) -> None:
    """A seat's row; `height` past `ROW` holds its open hand (a game that is over shows every hand)."""
    draw = ImageDraw.Draw(image)
    turn = view["turn"] == seat
    trick = view["trick"]
    fill = "#2a8a5e" if turn else FELT_DARK
    draw.rounded_rectangle((12, top + 4, WIDTH - 12, top + height - 4), radius=14, fill=fill,
                           outline=SEAT_COLOURS[seat] if turn else None, width=3)
    draw.rounded_rectangle((12, top + 4, 22, top + height - 4), radius=5, fill=SEAT_COLOURS[seat])
    hands = view.get("hands")
    if hands and hands[seat]:
        fan(image, _sort_desc(hands[seat]), SMALL, 36, top + ROW - 6, WIDTH - 72, step=SMALL[0] * 0.7)
    name = ctx.names[seat] if seat < len(ctx.names) else str(seat + 1)
    if seat == ctx.viewer:
        name = "▸ " + name
    draw_text(image, (36, top + 30), fit(name, 22, 250, True), 22, LIGHT, True, "lm")
    x: float = 36
    if view["landlord"] is not None:
        x = _role_badge(image, ctx, view["landlord"] == seat, 36, top + 66) + 10
    # Cards left: a card back with the number on it.
    count = view["counts"][seat]
    back = card_back((30, 42))
    image.paste(back, (round(x), top + 45), back)
    draw_text(image, (x + 15, top + 66), str(count), 17, "#ffffff", True, "mm")
    colour = GOLD if count <= 2 and view["landlord"] is not None else LIGHT
    label_right = x + 38 + draw_text(image, (x + 38, top + 66), ctx.tr(msg("doudizhu.cards_left", count=count)), 20,
                                     colour, count <= 2, "lm")
    if view["scores"] is not None:
        points = view["scores"][seat]
        sign = "+" if points > 0 else ("−" if points < 0 else "")
        label = ctx.tr(msg("doudizhu.label_points", sign=sign, count=abs(int(points))))
        draw_text(image, (WIDTH - 30, top + 28), label, 22, GOLD if points > 0 else "#f0b7b7", True, "rm")
    # What the seat did last: cards, a pass or a bid.
    area_left = max(300, round(label_right) + 20)
    said = None
    if view["phase"] == "bidding":
        bids = [b for s, b in view["bids"] if s == seat]
        if bids:
            if not bids[0]:
                said = ctx.tr(msg("doudizhu.label_no_bid"))
            elif view["mode"] == "call":
                said = ctx.tr(msg("doudizhu.label_call"))
            else:
                said = ctx.tr(msg("doudizhu.label_bid", bid=bids[0]))
    else:
        last = view["recent"][seat]
        if last is not None and not last:
            said = ctx.tr(msg("doudizhu.label_pass"))
        elif last:
            winning = trick is not None and trick["seat"] == seat and sorted(trick["cards"]) == sorted(last)
            right = fan(image, _sort_play(last), SMALL, area_left, top + (ROW - SMALL[1]) / 2, WIDTH - 30 - area_left)
            if winning:
                draw.line((area_left, top + ROW - 10, right, top + ROW - 10), fill=GOLD, width=4)
        elif view["lead"] and turn:
            said = ctx.tr(msg("doudizhu.label_leads"))
    if said:
        draw_text(image, (area_left + 10, top + ROW / 2), said, 24, MUTED, True, "lm")


def _draw_counter(image: Image.Image, view: DdzView | DdzPrivateView, ctx: RenderContext, top: int) -> None:
    """How many cards of each rank nobody has played (private: and that are not in the viewer's hand)."""
    unseen = cast(DdzPrivateView, view).get("unseen") if ctx.viewer is not None else None
    counts = unseen if unseen else view["remaining"]
    key = "doudizhu.label_unseen" if unseen else "doudizhu.label_left"
    draw_text(image, (24, top + 10), ctx.tr(msg(key)), 18, MUTED, False, "lm")
    cell = (WIDTH - 48) / 15
    for rank in range(15):
        x = 24 + rank * cell
        n = counts[rank]
        label = ctx.tr(msg("doudizhu.card_" + LABELS[rank])) if rank >= BLACK_JOKER else LABELS[rank]
        colour = RED if rank == RED_JOKER else INK
        fill = "#f4f1e8" if n else "#7fa894"
        ImageDraw.Draw(image).rounded_rectangle((x + 2, top + 22, x + cell - 2, top + 66), radius=6, fill=fill)
        draw_text(image, (x + cell / 2, top + 34), label, 15, colour, True, "mm")
        draw_text(image, (x + cell / 2, top + 55), str(n), 19, INK if n else "#4d6b5c", n > 0, "mm")
