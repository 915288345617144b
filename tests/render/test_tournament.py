"""A tournament's pictures: standings whose columns keep apart in both languages, a bracket as
tall as its first round, a podium for fields of one to three and more."""

from __future__ import annotations

import io
from itertools import pairwise

from PIL import Image

from render import tournament
from render.text import text_width
from render.tournament import COLUMNS, HEAD_SIZE, NAME_LEFT, NUMBER_SIZE

GAP = 10
LONG = "Maximilian Alexander Featherstonehaugh-Worthington"
CHINESE = "欧阳诸葛长孙司马慕容皇甫"


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_standings_columns_keep_apart_in_both_languages() -> None:
    values = {"points": ["99.5", "-99.5"], "buchholz": ["999.5"], "sonneborn": ["999.75"], "wins": ["99"]}
    headings = {"points": ["Points", "积分"], "buchholz": ["Buchholz", "布赫霍尔茨"],
                "sonneborn": ["S-B", "索伯分"], "wins": ["Won", "胜局"]}

    def width(key: str) -> float:
        return max([text_width(v, NUMBER_SIZE, bold=key == "points") for v in values[key]]
                   + [text_width(h, HEAD_SIZE) for h in headings[key]])

    for (key, right), (next_key, next_right) in pairwise(COLUMNS):
        assert right + GAP <= next_right - width(next_key), (key, next_key)
    assert NAME_LEFT + COLUMNS[0][1] - NAME_LEFT - 90 + GAP <= COLUMNS[0][1] - width("points")


def rows(n: int) -> list[dict[str, object]]:
    return [{"rank": i + 1, "name": (LONG if i % 2 else CHINESE) + f" {i}", "points": f"{n - i}",
             "buchholz": "12.5", "sonneborn": "3.75", "wins": 2, "ai": i % 3 == 0, "out": i == 5, "me": i == 1}
            for i in range(n)]


def test_standings_of_64_are_a_row_each() -> None:
    headings = {"name": "选手", "points": "积分", "buchholz": "布氏", "sonneborn": "索氏", "wins": "胜局"}
    small = picture(tournament.standings({"title": "t", "headings": headings, "rows": rows(8), "footer": "f"}))
    big = picture(tournament.standings({"title": "t", "headings": headings, "rows": rows(64), "footer": "f"}))
    assert small.width == big.width == tournament.WIDTH
    assert big.height - small.height == 56 * tournament.ROW
    assert len(big.crop((0, big.height - 300, big.width, big.height)).getcolors(1 << 20) or []) > 20  # drawn


def bracket_view(n: int) -> dict[str, object]:
    rounds = []
    matches = n // 2
    r = 0
    while matches:
        rounds.append({"name": f"Round {r + 1}", "matches": [
            {"a": {"name": CHINESE, "seed": 1}, "b": None if r == 0 and m == 0 else {"name": LONG, "seed": 2},
             "winner": 0, "score": ""} for m in range(matches)]})
        matches //= 2
        r += 1
    return {"title": "Knockout", "rounds": rounds, "champion": {"name": CHINESE}, "footer": ""}


def test_bracket_grows_with_the_field() -> None:
    eight, sixty_four = picture(tournament.bracket(bracket_view(8))), picture(tournament.bracket(bracket_view(64)))
    assert eight.size[0] < sixty_four.size[0] and sixty_four.height - eight.height == 56 * tournament.SLOT
    # The champion's box is drawn to the right of the last round.
    right = sixty_four.crop((sixty_four.width - tournament.COLUMN - 40, 0, sixty_four.width, sixty_four.height))
    colours = {"#" + bytes(c).hex() for _, c in right.getcolors(1 << 20) or []}
    assert tournament.MINE.lower() in colours


def test_podium_for_small_fields() -> None:
    for places in (1, 2, 3):
        view = {"title": "Final", "places": [{"name": CHINESE, "points": "3"}] * places, "footer": "7 players"}
        image = picture(tournament.podium(view))
        assert image.size == (tournament.WIDTH, 480)
