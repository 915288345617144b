"""Leaderboards and player cards as pictures. Pure: a view (words already in the reader's
language) in, PNG bytes out.

Drawn 720 px wide, so on a phone that shows it some 360-400 px wide every word is still at
least 11-12 px: names are fitted with an ellipsis, numbers never are.
"""

from __future__ import annotations

from typing import TypedDict

from PIL import Image, ImageDraw

from render.base import png
from render.text import draw_text, fit

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
    draw_text(image, (24, 52), fit(title, TITLE_SIZE, WIDTH - 48, bold=True), TITLE_SIZE, fill=INK, bold=True)
    if subtitle:
        draw_text(image, (24, 86), fit(subtitle, HEAD_SIZE, WIDTH - 48), HEAD_SIZE, fill=SOFT)
    return 104


# --- the leaderboard ----------------------------------------------------------------------
# Column right edges (numbers are right-aligned) after the rank and the name.
COLUMNS = (("rating", 452), ("games", 534), ("win", 624), ("streak", 704))


def leaderboard(view: LeaderboardView) -> bytes:
    """`view`: title, subtitle, headings {rating, games, win, streak}, rows [{rank, name, rating,
    games, win, streak, ai, me}], footer (the page), empty (said when there are no rows)."""
    rows = view["rows"]
    height = 104 + 44 + max(1, len(rows)) * ROW + 56
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = _header(image, view["title"], view.get("subtitle", ""))
    for key, right in COLUMNS:
        draw_text(image, (right, y + 28), view["headings"][key], HEAD_SIZE, fill=SOFT, anchor="rs")
    draw_text(image, (84, y + 28), view["headings"]["name"], HEAD_SIZE, fill=SOFT)
    y += 40
    draw.line((16, y, WIDTH - 16, y), fill=RULE, width=2)
    if not rows:
        draw_text(image, (WIDTH / 2, y + ROW / 2), fit(view["empty"], NAME_SIZE, WIDTH - 48), NAME_SIZE,
                  fill=SOFT, anchor="mm")
    for i, row in enumerate(rows):
        top = y + i * ROW
        if row.get("me"):
            draw.rectangle((16, top + 2, WIDTH - 16, top + ROW - 2), fill=MINE)
        elif i % 2:
            draw.rectangle((16, top + 2, WIDTH - 16, top + ROW - 2), fill=ZEBRA)
        mid = top + ROW / 2
        rank = row["rank"]
        if rank <= len(MEDALS):
            draw_text(image, (46, mid), MEDALS[rank - 1], 34, anchor="mm")
        else:
            draw_text(image, (46, mid), str(rank), NUMBER_SIZE, fill=SOFT, bold=True, anchor="mm")
        name = ("🤖 " if row.get("ai") else "") + row["name"]
        draw_text(image, (84, mid), fit(name, NAME_SIZE, COLUMNS[0][1] - 84 - 96), NAME_SIZE, fill=INK,
                  bold=rank <= 3, anchor="lm")
        draw_text(image, (COLUMNS[0][1], mid), row["rating"], NUMBER_SIZE, fill=INK, bold=True, anchor="rm")
        draw_text(image, (COLUMNS[1][1], mid), str(row["games"]), NUMBER_SIZE, fill=INK, anchor="rm")
        draw_text(image, (COLUMNS[2][1], mid), row["win"], NUMBER_SIZE, fill=INK, anchor="rm")
        streak = row["streak"]
        colour = WIN if streak.startswith("+") else LOSS if streak.startswith("-") else DRAW
        draw_text(image, (COLUMNS[3][1], mid), streak, NUMBER_SIZE, fill=colour, bold=True, anchor="rm")
    bottom = y + max(1, len(rows)) * ROW
    draw.line((16, bottom, WIDTH - 16, bottom), fill=RULE, width=2)
    if view.get("footer"):
        draw_text(image, (WIDTH / 2, bottom + 34), fit(view["footer"], HEAD_SIZE, WIDTH - 48), HEAD_SIZE, fill=SOFT,
                  anchor="mm")
    return png(image)


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
