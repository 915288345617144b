"""The picture of a game's review: one image, top to bottom.

- the players, and what is reviewed ("Review · Gomoku · 41 moves");
- the graph of each side's chance to win over the moves (`Review.chances`): estimated stretches drawn
  thin, proved ones thick; the turning points ringed on the side that lost by them; the critical
  moment a dashed line with its move number;
- the critical moment: the game's own picture (`render.<game>`) of the position before the biggest
  mistake, the move played marked in red and the better one in green (Gomoku points, Chinese Checkers
  paths; Nim's stones taken drawn faded; Dou Dizhu's hands open, the two plays as cards below it);
- the text twin's lines (translated by the host, who knows the names), under it.

`view` is `{"game": name, "review": Review.to_json(), "lines": [str, ...], "title": str}`.
"""

from __future__ import annotations

import io
import math
from typing import TypedDict, cast

from PIL import Image, ImageDraw

from engines.base import JSON, msg
from engines.checkers import board as checkers_board
from render import checkers as checkers_picture
from render import draw as draw_game
from render import gomoku as gomoku_picture
from render.base import RenderContext, png
from render.doudizhu import SMALL, card_image
from render.header import SEAT_COLOURS, draw_players
from render.text import draw_text, fit

WIDTH = 800
BACKGROUND = "#f6f1e7"
PANEL = "#fffdf8"
INK = "#3b3a36"
MUTED = "#8a857a"
GRID = "#e3dccd"
PLAYED = "#d6336c"
BETTER = "#2f9e44"
GRAPH_H = 260
PAD = 56  # left of the graph: room for the percentages
TEXT_SIZE = 19
LINE = 28


class ReviewPicture(TypedDict):
    game: str
    review: JSON  # engines.review.Review.to_json()
    lines: list[str]  # the text twin, translated
    title: str


def render(view: ReviewPicture, ctx: RenderContext) -> bytes:
    return png(_draw(view, ctx))


def _draw(view: ReviewPicture, ctx: RenderContext) -> Image.Image:
    review = view["review"]
    critical = review["critical"]
    board = _board(view, ctx) if critical else None
    legend = 64 if critical else 0
    lines = [fit(line, TEXT_SIZE, WIDTH - 48) for text in view["lines"] for line in _wrap(text, WIDTH - 48)]
    top = 94
    height = top + GRAPH_H + 40 + (board.height + legend if board else 0) + len(lines) * LINE + 32
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    header = RenderContext(ctx.names, None, None, ctx.tr, ai_seats=ctx.ai_seats)
    draw_players(image, header, subtitle=view["title"])
    _graph(image, review, ctx, top + 8)
    y = top + GRAPH_H + 40
    if board is not None:
        image.paste(board, ((WIDTH - board.width) // 2, y))
        y += board.height
        _legend(image, view, ctx, y)
        y += legend
    for line in lines:
        draw_text(image, (24, y + LINE / 2), line, TEXT_SIZE, INK, False, "lm")
        y += LINE
    return image


# --- the graph ------------------------------------------------------------------------------------


def _graph(image: Image.Image, review: JSON, ctx: RenderContext, top: int) -> None:
    draw = ImageDraw.Draw(image, "RGBA")
    left, right, bottom = PAD, WIDTH - 24, top + GRAPH_H
    draw.rounded_rectangle((12, top - 4, WIDTH - 12, bottom + 30), radius=12, fill=PANEL)
    chances: list[list[float]] = review["chances"]
    exact: list[bool] = review["exact"]
    moves = max(1, len(chances) - 1)

    def xy(i: int, p: float) -> tuple[float, float]:
        return left + (right - left) * i / moves, bottom - 12 - (GRAPH_H - 24) * p

    for p, label in ((0.0, "0%"), (0.5, "50%"), (1.0, "100%")):
        y = xy(0, p)[1]
        draw.line((left, y, right, y), fill=GRID, width=2 if p == 0.5 else 1)
        draw_text(image, (left - 8, y), label, 14, MUTED, False, "rm")
    step = max(1, 10 ** math.floor(math.log10(moves)))
    step = step * 2 if moves / step > 10 else step // 2 if moves / step < 4 and step > 1 else step
    for i in range(0, moves + 1, step):
        draw_text(image, (xy(i, 0)[0], bottom + 14), str(i), 13, MUTED, False, "mm")
    critical = review["critical"]
    if critical is not None:
        x = xy(critical["ply"] + 1, 0)[0]
        for y in range(top + 4, bottom - 6, 12):
            draw.line((x, y, x, y + 6), fill=PLAYED, width=2)
        label = ctx.tr(msg("review.move_number", ply=critical["ply"] + 1))
        draw_text(image, (min(max(x, left + 40), right - 40), top + 10), label, 14, PLAYED, True, "mt")
    sides: list[list[int]] = review["sides"]
    for k, seats in enumerate(sides):
        colour = SEAT_COLOURS[seats[0] % len(SEAT_COLOURS)]
        points = [xy(i, c[k]) for i, c in enumerate(chances)]
        for i in range(len(points) - 1):
            proved = exact[i] and exact[i + 1]
            draw.line((points[i], points[i + 1]), fill=colour, width=5 if proved else 3)
    side_of = {seat: k for k, seats in enumerate(sides) for seat in seats}
    movers = {m["ply"]: m["seat"] for m in review["mistakes"]}
    for ply in review["turning"]:
        seat = movers.get(ply)
        k = side_of.get(seat, 0) if seat is not None else 0
        x, y = xy(ply + 1, chances[ply + 1][k])
        r = 7 if critical is not None and ply == critical["ply"] else 5
        draw.ellipse((x - r, y - r, x + r, y + r), outline=PLAYED, width=3, fill=PANEL)
    if review["estimate"]:
        draw_text(image, (left + 8, top + 10), ctx.tr(msg("review.estimated")), 13, MUTED, False, "lt")


# --- the critical moment -----------------------------------------------------------------------------


def _board(view: ReviewPicture, ctx: RenderContext) -> Image.Image:
    """The game's picture of the position before the critical move, with the two moves on it."""
    review = view["review"]
    game, board, marks = view["game"], review["board"], review["marks"] or {}
    critical = review["critical"]
    if game == "nim" and marks.get("played"):  # the stones taken, faded in the mover's colour
        heap, count = marks["played"]
        heaps = list(board["heaps"])
        heaps[heap] -= count
        board = {**board, "heaps": heaps, "last": {"heap": heap, "count": count, "seat": critical["seat"]}}
    if game == "checkers":  # the two moves are the paths drawn, not the one before them
        board = {**board, "last": None}
    shown = RenderContext(ctx.names, critical["seat"], None, ctx.tr, ai_seats=ctx.ai_seats)
    with Image.open(io.BytesIO(draw_game(game, board, shown))) as drawn:
        image = drawn.convert("RGB")
    overlay = ImageDraw.Draw(image, "RGBA")
    if game == "gomoku":
        lay = gomoku_picture.Layout(board["size"])
        for key, colour in (("better", BETTER), ("played", PLAYED)):
            if marks.get(key):
                x, y = lay.xy(*marks[key])
                r = lay.stone / 2
                overlay.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=5)
                if key == "better":
                    overlay.ellipse((x - r / 3, y - r / 3, x + r / 3, y + r / 3), fill=colour)
                else:
                    overlay.line((x - r / 2, y - r / 2, x + r / 2, y + r / 2), fill=colour, width=5)
                    overlay.line((x - r / 2, y + r / 2, x + r / 2, y - r / 2), fill=colour, width=5)
    elif game == "checkers":
        for key, colour in (("played", PLAYED), ("better", BETTER)):
            if marks.get(key):
                holes = [cast(int, checkers_board.parse_label(label)) for label in marks[key]]
                checkers_picture._path(image, holes, colour)
                x, y = checkers_picture.centre(holes[-1])  # where it lands, ringed: a step's arrow is short
                r = checkers_picture.HOLE_R + 4
                overlay.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=5)
    return image


def _legend(image: Image.Image, view: ReviewPicture, ctx: RenderContext, top: int) -> None:
    """The move played and the better one, under the board: their names, and for Dou Dizhu their cards."""
    review = view["review"]
    critical, marks = review["critical"], review["marks"] or {}
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, top, WIDTH, top + 64), fill=PANEL)
    x: float = 24
    for key, colour, text in (("played", PLAYED, critical["played"]), ("better", BETTER, critical["better"])):
        if not text:
            continue
        draw.ellipse((x, top + 24, x + 16, top + 40), fill=colour)
        label = ctx.tr(msg(f"review.label_{key}"))
        x += 24 + draw_text(image, (x + 24, top + 32), label, 18, colour, True, "lm")
        cards = marks.get(key) if view["game"] == "doudizhu" else None
        if cards:
            small = (round(SMALL[0] * 0.8), round(SMALL[1] * 0.8))
            for card in cards:
                sprite = card_image(card, small)
                image.paste(sprite, (round(x + 8), top + 6), sprite)
                x += small[0] * 0.6
            x += small[0] * 0.4 + 30
        else:
            shown = _named(view["game"], text, ctx)
            x += 8 + draw_text(image, (x + 8, top + 32), shown, 20, INK, True, "lm") + 30


def _named(game: str, text: str, ctx: RenderContext) -> str:
    """A move as the legend names it: Nim's "2 3" as "heap 2: 3 stones", others as typed."""
    if game == "nim":
        heap, _, count = text.partition(" ")
        return ctx.tr(msg("review.nim_take", heap=int(heap), count=int(count)))
    if game == "doudizhu" and text == "pass":
        return ctx.tr(msg("doudizhu.label_pass"))
    return text


def _wrap(text: str, width: float) -> list[str]:
    """`text` in lines of at most `width` pixels, broken at spaces (or anywhere, in Chinese)."""
    from render.text import text_width

    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for part in paragraph.split(" ") if " " in paragraph else list(paragraph):
            glue = " " if line and " " in paragraph else ""
            if line and text_width(line + glue + part, TEXT_SIZE) > width:
                out.append(line)
                line = part
            else:
                line += glue + part
        out.append(line)
    return out


