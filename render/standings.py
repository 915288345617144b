"""Leaderboards and player cards as pictures. Pure: a view (words already in the reader's
language) in, PNG bytes out.

Drawn 720 px wide, so on a phone that shows it some 360-400 px wide every word is still at
least 11-12 px: names are fitted with an ellipsis, numbers never are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from PIL import Image, ImageDraw

from render.base import png
from render.text import draw_text, fit, text_width

WIDTH = 720
PAPER, INK, SOFT, RULE, ZEBRA, MINE = "#fbf8f1", "#2f2d29", "#77716a", "#e4ddcf", "#f3eee3", "#fff1c4"
WIN, LOSS, DRAW = "#3f8f5a", "#c0392b", "#8a8478"
MEDALS = ("🥇", "🥈", "🥉")
ROW = 58
NAME_SIZE, NUMBER_SIZE, HEAD_SIZE, TITLE_SIZE = 27, 26, 19, 34


class LeaderboardRow(TypedDict):
    rank: int
    name: str
    rating: str
    games: int
    win: str  # the win rate, as shown
    streak: str  # "+3", "-1", "0"
    ai: bool
    me: bool  # the reader


class LeaderboardView(TypedDict):
    title: str
    subtitle: str
    headings: dict[str, str]  # column -> its heading
    rows: list[LeaderboardRow]
    footer: str
    empty: str  # what an empty board says


class GameCard(TypedDict):
    title: str
    rating: str
    change: str  # since the game before, as shown ("+1.2")
    history: list[float]  # the rating after each of the last rated games
    lines: list[str]
    recent: list[tuple[str, str]]  # (win/loss/draw, its letter in the reader's language)


class CardView(TypedDict):
    title: str
    subtitle: str
    games: list[GameCard]
    empty: str


def _header(image: Image.Image, title: str, subtitle: str) -> int:
    return header(image, WIDTH, title, subtitle, LEADERBOARD)


# --- ranked rows: the leaderboard's and a tournament's standings ------------------------
@dataclass(frozen=True)
class Layout:
    """Where a picture of ranked rows puts things: the title block's height and sizes, the row
    height and text sizes, the rank's centre, the name's left edge and room, each number column's
    right edge."""

    top: int  # the title block
    title_y: int  # the title's and the subtitle's baselines
    subtitle_y: int
    title_size: int
    head_size: int
    headings: int  # the headings' block under the title
    heading_y: int  # the headings' baseline in it
    row: int
    name_size: int
    number_size: int
    medal_size: int
    rank_x: int
    name_left: int
    name_room: int
    columns: tuple[tuple[str, int], ...]
    footer_gap: int  # from the last rule to the footer's middle

    def height(self, rows: int) -> int:
        return self.top + self.headings + 4 + max(1, rows) * self.row + 56


@dataclass(frozen=True)
class Cell:
    text: str
    colour: str = INK
    bold: bool = False


@dataclass(frozen=True)
class Ranked:
    """A row: its rank, the name, a cell per column; `me` is shaded, `out` struck out in grey."""

    rank: int
    name: str
    cells: tuple[Cell, ...]
    me: bool = False
    out: bool = False


def header(image: Image.Image, width: int, title: str, subtitle: str, layout: Layout) -> int:
    """The title (down to two thirds of its size before it is cut short) and the subtitle; where the
    rest begins."""
    size = layout.title_size
    while size > layout.title_size * 2 // 3 and text_width(title, size, bold=True) > width - 48:
        size -= 1
    draw_text(image, (24, layout.title_y), fit(title, size, width - 48, bold=True), size, fill=INK, bold=True)
    if subtitle:
        draw_text(image, (24, layout.subtitle_y), fit(subtitle, layout.head_size, width - 48), layout.head_size,
                  fill=SOFT)
    return layout.top


def ranked(layout: Layout, title: str, subtitle: str, headings: dict[str, str], rows: list[Ranked], footer: str,
           empty: str = "", medals: bool = True) -> bytes:
    """Ranked rows under their headings (`headings`: name and each column's), shaded every other
    one, medals for the first three ranks (unless `medals` is false), a rule above and below."""
    image = Image.new("RGB", (WIDTH, layout.height(len(rows))), PAPER)
    draw = ImageDraw.Draw(image)
    y = header(image, WIDTH, title, subtitle, layout)
    base = y + layout.heading_y
    for key, right in layout.columns:
        draw_text(image, (right, base), headings[key], layout.head_size, fill=SOFT, anchor="rs")
    draw_text(image, (layout.name_left, base), headings["name"], layout.head_size, fill=SOFT)
    y += layout.headings
    draw.line((16, y, WIDTH - 16, y), fill=RULE, width=2)
    if not rows and empty:
        draw_text(image, (WIDTH / 2, y + layout.row / 2), fit(empty, layout.name_size, WIDTH - 48), layout.name_size,
                  fill=SOFT, anchor="mm")
    for i, row in enumerate(rows):
        top = y + i * layout.row
        if row.me:
            draw.rectangle((16, top + 2, WIDTH - 16, top + layout.row - 2), fill=MINE)
        elif i % 2:
            draw.rectangle((16, top + 2, WIDTH - 16, top + layout.row - 2), fill=ZEBRA)
        mid = top + layout.row / 2
        if row.rank <= len(MEDALS) and medals:
            draw_text(image, (layout.rank_x, mid), MEDALS[row.rank - 1], layout.medal_size, anchor="mm")
        else:
            draw_text(image, (layout.rank_x, mid), str(row.rank), layout.number_size, fill=SOFT, bold=True,
                      anchor="mm")
        bold = row.rank <= 3
        name = fit(row.name, layout.name_size, layout.name_room)
        draw_text(image, (layout.name_left, mid), name, layout.name_size, fill=SOFT if row.out else INK, bold=bold,
                  anchor="lm")
        if row.out:
            ends = layout.name_left + text_width(name, layout.name_size, bold=bold)
            draw.line((layout.name_left, mid, ends, mid), fill=SOFT, width=2)  # struck out: withdrawn
        for (_, right), cell in zip(layout.columns, row.cells, strict=True):
            draw_text(image, (right, mid), cell.text, layout.number_size, fill=SOFT if row.out else cell.colour,
                      bold=cell.bold, anchor="rm")
    bottom = y + max(1, len(rows)) * layout.row
    draw.line((16, bottom, WIDTH - 16, bottom), fill=RULE, width=2)
    if footer:
        draw_text(image, (WIDTH / 2, bottom + layout.footer_gap), fit(footer, layout.head_size, WIDTH - 48),
                  layout.head_size, fill=SOFT, anchor="mm")
    return png(image)


# --- the leaderboard ----------------------------------------------------------------------
# Column right edges (numbers are right-aligned) after the rank and the name.
COLUMNS = (("rating", 452), ("games", 534), ("win", 624), ("streak", 704))
LEADERBOARD = Layout(top=104, title_y=52, subtitle_y=86, title_size=TITLE_SIZE, head_size=HEAD_SIZE, headings=40,
                     heading_y=28, row=ROW, name_size=NAME_SIZE, number_size=NUMBER_SIZE, medal_size=34, rank_x=46,
                     name_left=84, name_room=COLUMNS[0][1] - 84 - 96, columns=COLUMNS, footer_gap=34)


def leaderboard(view: LeaderboardView) -> bytes:
    """`view`: title, subtitle, headings {rating, games, win, streak}, rows [{rank, name, rating,
    games, win, streak, ai, me}], footer (the page), empty (said when there are no rows)."""
    rows = []
    for row in view["rows"]:
        streak = row["streak"]
        colour = WIN if streak.startswith("+") else LOSS if streak.startswith("-") else DRAW
        cells = (Cell(row["rating"], bold=True), Cell(str(row["games"])), Cell(row["win"]), Cell(streak, colour, True))
        rows.append(Ranked(row["rank"], ("🤖 " if row.get("ai") else "") + row["name"], cells, bool(row.get("me"))))
    return ranked(LEADERBOARD, view["title"], view.get("subtitle", ""), view["headings"], rows,
                  view.get("footer", ""), view["empty"])


# --- a player's card --------------------------------------------------------------------
CARD = 250
PLOT = (430, 0, WIDTH - 28, 112)  # the rating plot inside a card: left, top, right, bottom


def card(view: CardView) -> bytes:
    """`view`: title (the player), subtitle, games [{title, rating, change, history, lines,
    recent, ai}], empty (said when there are none)."""
    games = view["games"]
    height = 104 + max(1, len(games)) * CARD + 16
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = _header(image, view["title"], view.get("subtitle", ""))
    if not games:
        draw_text(image, (WIDTH / 2, y + 60), fit(view["empty"], NAME_SIZE, WIDTH - 48), NAME_SIZE, fill=SOFT,
                  anchor="mm")
    for game in games:
        draw.rounded_rectangle((16, y + 8, WIDTH - 16, y + CARD - 8), radius=18, fill="white", outline=RULE, width=2)
        draw_text(image, (36, y + 48), fit(game["title"], 26, PLOT[0] - 60, bold=True), 26, fill=INK, bold=True)
        width = draw_text(image, (36, y + 104), game["rating"], 46, fill=INK, bold=True)
        change = game.get("change") or ""
        colour = WIN if change.startswith("+") else LOSS if change.startswith("-") else SOFT
        draw_text(image, (48 + width, y + 104), change, 24, fill=colour, bold=True)
        _plot(image, game.get("history", []), 0 + PLOT[0], y + 24 + PLOT[1], PLOT[2], y + 24 + PLOT[3])
        line_y = y + 150
        for line in game.get("lines", [])[:2]:
            draw_text(image, (36, line_y), fit(line, 21, WIDTH - 72), 21, fill=INK)
            line_y += 32
        _chips(image, game.get("recent", []), 36, y + CARD - 40)
        y += CARD
    return png(image)


def _plot(image: Image.Image, values: list[float], left: float, top: float, right: float, bottom: float) -> None:
    """The rating over the last games: a line with its last point marked."""
    if len(values) < 2:
        return  # no line to draw yet: no empty box either
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((left, top, right, bottom), radius=10, fill=ZEBRA)
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (right - left - 24) / (len(values) - 1)
    points = [(left + 12 + i * step, bottom - 12 - (v - low) / span * (bottom - top - 24))
              for i, v in enumerate(values)]
    rising = values[-1] >= values[0]
    draw.line(points, fill=WIN if rising else LOSS, width=4, joint="curve")
    x, y = points[-1]
    draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=WIN if rising else LOSS)


def _chips(image: Image.Image, recent: list[tuple[str, str]], left: float, middle: float) -> None:
    """The last results as coloured dots, oldest first: (result, the letter on its dot) in `recent`."""
    draw = ImageDraw.Draw(image)
    for i, (result, letter) in enumerate(recent):
        x = left + i * 40
        colour = {"win": WIN, "loss": LOSS}.get(result, DRAW)
        draw.ellipse((x, middle - 16, x + 32, middle + 16), fill=colour)
        draw_text(image, (x + 16, middle), letter, 18, fill="white", bold=True, anchor="mm")
