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


def table_bracket_view(n: int, seats: int) -> dict[str, object]:
    """A finished knockout of `n` at tables of `seats`: in each table the first seated goes on."""
    from bot.tournament import tables
    from bot.tournament.pairing import Entrant, Played, place_points

    entrants = [Entrant(f"p{i}", 100.0 - i) for i in range(n)]
    played: list[Played] = []
    while (bracket := tables.knockout(entrants, played, seats)).champion is None:
        for t in bracket.next.tables:
            ranks = tuple(range(1, seats + 1))
            played.append(Played(len(bracket.rounds), t, place_points(ranks), ranks))
    name = {e.id: (LONG if i % 2 else CHINESE) + f" {i}" for i, e in enumerate(entrants)}

    def side(p: str) -> dict[str, object]:
        return {"name": name[p], "seed": int(p[1:]) + 1, "ai": p.endswith("3")}

    rounds = [{"name": f"Round {r}", "rule": "the top 2 of each table go on",
               "tables": [{"name": "", "players": [{**side(p), "score": "0.5 1", "through": p in t.advanced}
                                                   for p in t.order]} for t in stage.tables],
               "byes": [side(p) for p in stage.byes], "byes_label": "Through without playing"}
              for r, stage in enumerate(bracket.rounds, 1)]
    return {"title": "Dou Dizhu knockout · bracket", "rounds": rounds, "champion": side(bracket.champion or ""),
            "footer": ""}


def test_a_bracket_of_tables_grows_with_the_field() -> None:
    small = picture(tournament.table_bracket(table_bracket_view(8, 3)))
    big = picture(tournament.table_bracket(table_bracket_view(64, 3)))
    assert small.width < big.width and small.height < big.height
    # 64 at tables of three: 21 tables of three and a bye box in the first round's column.
    assert big.height >= 21 * (3 * tournament.SLOT + 8)
    right = big.crop((big.width - tournament.COLUMN - 40, 0, big.width, big.height))
    colours = {"#" + bytes(c).hex() for _, c in right.getcolors(1 << 20) or []}
    assert tournament.MINE.lower() in colours  # the champion's box
    six = picture(tournament.table_bracket(table_bracket_view(12, 6)))
    assert six.height > small.height  # boxes of six


def test_a_table_that_plays_again_says_so_under_its_players() -> None:
    view = table_bracket_view(8, 3)
    plain = picture(tournament.table_bracket(view))
    view["rounds"][0]["tables"][0]["note"] = "a tie: played again"  # type: ignore[index]
    noted = picture(tournament.table_bracket(view))
    assert noted.height == plain.height + tournament.NOTE and noted.tobytes() != plain.tobytes()
