"""The standings' pictures: columns that never run into each other, no empty boxes."""

from __future__ import annotations

import io
from itertools import pairwise

from PIL import Image

from render import standings
from render.standings import COLUMNS, HEAD_SIZE, NUMBER_SIZE
from render.text import text_width

GAP = 12  # px between one column's widest entry and the next one's


def test_the_leaderboards_widest_entries_keep_apart() -> None:
    # The widest a cell gets (ratings stay within -99.9..999.9, games within 4 figures), and the
    # headings of each language.
    values = {"rating": ["999.9", "-99.9"], "games": ["9999"], "win": ["100%"], "streak": ["+99", "-99"]}
    headings = {"rating": ["Rating", "等级分"], "games": ["Games", "局数"], "win": ["Won", "胜率"],
                "streak": ["Streak", "连胜"]}

    def width(key: str) -> float:
        bold = key in ("rating", "streak")  # as the picture draws them
        return max([text_width(v, NUMBER_SIZE, bold=bold) for v in values[key]]
                   + [text_width(h, HEAD_SIZE) for h in headings[key]])

    for (key, right), (next_key, next_right) in pairwise(COLUMNS):
        assert right + GAP <= next_right - width(next_key), (key, right, next_key)
    name_ends = 84 + (COLUMNS[0][1] - 84 - 96)  # the name is fitted to this width
    assert name_ends + GAP <= COLUMNS[0][1] - width("rating")


def _card(history: list[float]) -> Image.Image:
    view = {"title": "bob", "subtitle": "", "empty": "",
            "games": [{"title": "Nim", "rating": "3.4", "change": "+3.4", "history": history,
                       "lines": ["1 won", ""], "recent": [("win", "W")]}]}
    return Image.open(io.BytesIO(standings.card(view))).convert("RGB")


def test_a_card_draws_no_empty_rating_box_before_two_games() -> None:
    plot = (standings.PLOT[0] + 20, 104 + 24 + 20)  # inside where the plot's box goes
    assert _card([3.4]).getpixel(plot) == (255, 255, 255)  # the card's white: no box
    assert _card([0.0, 3.4]).getpixel(plot) != (255, 255, 255)  # a line to draw: its box
