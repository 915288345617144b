"""A tournament's pictures: the standings after a round, a knockout's bracket, the podium. Pure:
a view (every word already in the reader's language) in, PNG bytes out.

The standings are drawn as wide as the leaderboard (720 px), a row a player; the bracket is a
column a round, as tall as its first round's players need; names are fitted with an ellipsis,
numbers never are.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.base import png
from render.standings import (
    DRAW,
    INK,
    MEDALS,
    MINE,
    PAPER,
    RULE,
    SOFT,
    WIN,
    ZEBRA,
    Cell,
    Layout,
    Ranked,
    header,
    ranked,
)
from render.text import draw_text, fit, text_width

WIDTH = 720
ROW = 44
NAME_SIZE, NUMBER_SIZE, HEAD_SIZE, TITLE_SIZE = 23, 22, 17, 32
# Column right edges (numbers right-aligned) after the rank and the name.
COLUMNS = (("points", 420), ("buchholz", 520), ("sonneborn", 610), ("wins", 700))
NAME_LEFT = 70
STANDINGS = Layout(top=100, title_y=50, subtitle_y=82, title_size=TITLE_SIZE, head_size=HEAD_SIZE, headings=36,
                   heading_y=26, row=ROW, name_size=NAME_SIZE, number_size=NUMBER_SIZE, medal_size=28, rank_x=40,
                   name_left=NAME_LEFT, name_room=COLUMNS[0][1] - NAME_LEFT - 90, columns=COLUMNS, footer_gap=32)


def _header(image: Image.Image, width: int, title: str, subtitle: str) -> int:
    return header(image, width, title, subtitle, STANDINGS)


def _name(row: dict[str, Any]) -> str:
    return ("🤖 " if row.get("ai") else "") + str(row["name"])


def standings(view: dict[str, Any]) -> bytes:
    """`view`: title, subtitle, headings {name, points, buchholz, sonneborn, wins}, rows [{rank,
    name, points, buchholz, sonneborn, wins, ai, out (withdrawn), me}], footer, medals (default true)."""
    rows = [Ranked(row["rank"], _name(row), tuple(Cell(str(row[key]), bold=key == "points") for key, _ in COLUMNS),
                   bool(row.get("me")), bool(row.get("out"))) for row in view["rows"]]
    return ranked(STANDINGS, view["title"], view.get("subtitle", ""), view["headings"], rows, view.get("footer", ""),
                  medals=view.get("medals", True))


# --- the bracket -------------------------------------------------------------------------------
SLOT = 30  # px a player's line takes in the first round
COLUMN = 230
GUTTER = 24
BRACKET_SIZE = 17


def bracket(view: dict[str, Any]) -> bytes:
    """`view`: title, subtitle, rounds [{name, matches [{a, b, winner (0, 1 or None), score}]}]
    where a and b are {name, seed, ai} or None (a bye), champion {name, ai} or None, footer.
    The first round has every slot; later rounds as far as they are known."""
    rounds = view["rounds"]
    first = max(1, len(rounds[0]["matches"])) if rounds else 1
    slots = 2 * first
    columns = len(rounds) + 1
    width = max(WIDTH, 24 + columns * (COLUMN + GUTTER))
    height = 100 + 40 + slots * SLOT + 60
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    top = _header(image, width, view["title"], view.get("subtitle", "")) + 36
    for r, rnd in enumerate(rounds):
        x = 24 + r * (COLUMN + GUTTER)
        draw_text(image, (x, top - 12), fit(rnd["name"], HEAD_SIZE, COLUMN), HEAD_SIZE, fill=SOFT)
        span = SLOT * (2 << r)  # the height one match of this round spans
        for m, match in enumerate(rnd["matches"]):
            centre = top + span * m + span / 2
            a_y, b_y = centre - SLOT / 2, centre + SLOT / 2
            box = (x, a_y - SLOT / 2 + 2, x + COLUMN, b_y + SLOT / 2 - 2)
            draw.rounded_rectangle(box, radius=6, fill="white", outline=RULE, width=2)
            draw.line((x + 6, centre, x + COLUMN - 6, centre), fill=ZEBRA, width=1)
            for side, y in ((0, a_y), (1, b_y)):
                _slot(image, match.get("ab"[side]), x, y, match.get("winner"), side)
            if match.get("score"):
                draw_text(image, (x + COLUMN - 6, centre), match["score"], 13, fill=SOFT, anchor="rm")
            if r + 1 < len(rounds):  # the line on to the next round's match
                nx = x + COLUMN + GUTTER
                target = top + span * 2 * (m // 2) + span  # the next match's centre
                elbow = x + COLUMN + GUTTER / 2
                draw.line((x + COLUMN, centre, elbow, centre), fill=RULE, width=2)
                draw.line((elbow, centre, elbow, target), fill=RULE, width=2)
                draw.line((elbow, target, nx, target), fill=RULE, width=2)
            elif len(rnd["matches"]) == 1:  # the final: on to the champion
                draw.line((x + COLUMN, centre, x + COLUMN + GUTTER, centre), fill=RULE, width=2)
    return _ending(image, view, 24 + len(rounds) * (COLUMN + GUTTER), top + slots * SLOT / 2)


def _ending(image: Image.Image, view: dict[str, Any], x: float, centre: float) -> bytes:
    """A bracket's last column (the champion's box, centred on `centre`, if there is one) and footer."""
    champion = view.get("champion")
    if champion is not None:
        ImageDraw.Draw(image).rounded_rectangle((x, centre - SLOT, x + COLUMN, centre + SLOT), radius=10, fill=MINE,
                                                outline=RULE, width=2)
        draw_text(image, (x + 10, centre), "🏆", 24, anchor="lm")
        draw_text(image, (x + 44, centre), fit(_name(champion), BRACKET_SIZE + 2, COLUMN - 54, bold=True),
                  BRACKET_SIZE + 2, fill=INK, bold=True, anchor="lm")
    if view.get("footer"):
        draw_text(image, (24, image.height - 24), fit(view["footer"], HEAD_SIZE, image.width - 48), HEAD_SIZE,
                  fill=SOFT)
    return png(image)


def _slot(image: Image.Image, who: dict[str, Any] | None, x: float, y: float, winner: int | None,
          side: int) -> None:
    if who is None:
        draw_text(image, (x + 10, y), "—", BRACKET_SIZE, fill=RULE, anchor="lm")
        return
    won, lost = winner == side, winner is not None and winner != side
    seed = str(who.get("seed", ""))
    draw_text(image, (x + 26, y), seed, 13, fill=SOFT, anchor="rm")
    colour = WIN if won else DRAW if lost else INK
    room = COLUMN - 36 - 44
    draw_text(image, (x + 32, y), fit(_name(who), BRACKET_SIZE, room, bold=won), BRACKET_SIZE, fill=colour,
              bold=won, anchor="lm")


# --- the podium ------------------------------------------------------------------------------
STEPS = (200, 150, 110)  # the steps' heights, first to third
COLOURS = ("#e9c54a", "#c9ccd1", "#d49a6a")
ORDER = (1, 0, 2)  # left to right: second, first, third


def podium(view: dict[str, Any]) -> bytes:
    """`view`: title, subtitle, places [{name, points, ai}] (first, second, third; fewer when the
    field was smaller), footer."""
    height = 100 + 380
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _header(image, WIDTH, view["title"], view.get("subtitle", ""))
    ground = height - 40
    for index, place in enumerate(view["places"][:3]):
        left, step = 40 + ORDER.index(index) * 220, STEPS[index]
        draw.rectangle((left, ground - step, left + 200, ground), fill=COLOURS[index], outline=RULE, width=2)
        draw_text(image, (left + 100, ground - step / 2), str(index + 1), 56, fill="white", bold=True, anchor="mm")
        draw_text(image, (left + 100, ground - step - 86), MEDALS[index], 40, anchor="mm")
        draw_text(image, (left + 100, ground - step - 44), fit(_name(place), 22, 196, bold=True), 22, fill=INK,
                  bold=True, anchor="mm")
        draw_text(image, (left + 100, ground - step - 16), str(place["points"]), 18, fill=SOFT, anchor="mm")
    draw.line((20, ground, WIDTH - 20, ground), fill=INK, width=3)
    if view.get("footer"):
        draw_text(image, (WIDTH / 2, height - 14), fit(view["footer"], HEAD_SIZE, WIDTH - 48), HEAD_SIZE, fill=SOFT,
                  anchor="mm")
    return png(image)


# --- a knockout of tables ------------------------------------------------------------------------
BOX_GAP = 14  # px between two tables' boxes
RULE_SIZE = 14
NOTE = 24  # px a table's note ("plays again") takes under its players


def table_bracket(view: dict[str, Any]) -> bytes:
    """`view`: title, subtitle, rounds [{name, rule (who goes on), tables [{name, players [{name,
    seed, ai, out, score, through (True, False, or None while undecided)}], note: under the players,
    e.g. that the table plays again}], byes [{name, seed, ai}],
    byes_label}], champion {name, ai} or None, footer. A column a round, a box a table (its players
    in finishing order once decided); each column's boxes spread over the height the tallest needs."""
    rounds = view["rounds"]

    def boxes(rnd: dict[str, Any]) -> list[int]:
        heights = [len(t["players"]) * SLOT + 8 + (NOTE if t.get("note") else 0) for t in rnd["tables"]]
        return heights + ([len(rnd["byes"]) * SLOT + 8 + 22] if rnd["byes"] else [])

    tallest = max([sum(boxes(r)) + BOX_GAP * len(boxes(r)) for r in rounds] + [2 * SLOT + BOX_GAP])
    width = max(WIDTH, 24 + (len(rounds) + 1) * (COLUMN + GUTTER))
    top = 100 + 72
    height = top + tallest + 40
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    _header(image, width, view["title"], view.get("subtitle", ""))
    for r, rnd in enumerate(rounds):
        x = 24 + r * (COLUMN + GUTTER)
        draw_text(image, (x, top - 50), fit(rnd["name"], HEAD_SIZE, COLUMN, bold=True), HEAD_SIZE, fill=INK, bold=True)
        for n, line in enumerate(_wrap(rnd.get("rule", ""), RULE_SIZE, COLUMN)):
            draw_text(image, (x, top - 30 + 17 * n), line, RULE_SIZE, fill=SOFT)
        sizes = boxes(rnd)
        room = tallest / max(1, len(sizes))  # each box centred in an equal share of the height
        for i, box_height in enumerate(sizes):
            y = top + room * i + (room - box_height) / 2
            draw.rounded_rectangle((x, y, x + COLUMN, y + box_height - BOX_GAP / 2), radius=6, fill="white",
                                   outline=RULE, width=2)
            if i < len(rnd["tables"]):
                for j, who in enumerate(rnd["tables"][i]["players"]):
                    _table_slot(image, who, x, y + 4 + SLOT * j + SLOT / 2)
                if rnd["tables"][i].get("note"):  # the table plays again
                    below = y + 4 + SLOT * len(rnd["tables"][i]["players"]) + 9
                    draw_text(image, (x + 8, below), fit(rnd["tables"][i]["note"], RULE_SIZE, COLUMN - 16), RULE_SIZE,
                              fill=SOFT, anchor="lm")
            else:
                draw_text(image, (x + 8, y + 14), fit(rnd.get("byes_label", ""), RULE_SIZE, COLUMN - 16), RULE_SIZE,
                          fill=SOFT, anchor="lm")
                for j, who in enumerate(rnd["byes"]):
                    _table_slot(image, {**who, "through": True}, x, y + 26 + SLOT * j + SLOT / 2)
    return _ending(image, view, 24 + len(rounds) * (COLUMN + GUTTER), top + tallest / 2)


def _wrap(text: str, size: int, width: float, most: int = 2) -> list[str]:
    """`text` in at most `most` lines of `width`, broken at spaces (the last cut short if need be)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] += f" {word}"
        elif len(lines) < most:
            lines.append(word)
        else:
            lines[-1] += f" {word}"
    return [fit(line, size, width) for line in lines]


def _table_slot(image: Image.Image, who: dict[str, Any], x: float, y: float) -> None:
    """A player at a table: seed, name (green and bold: goes on; grey: out), the points of each game."""
    went = who.get("through")
    draw_text(image, (x + 26, y), str(who.get("seed", "")), 13, fill=SOFT, anchor="rm")
    score = str(who.get("score", ""))
    room = COLUMN - 40 - (text_width(score, 13) + 8 if score else 0)
    colour = WIN if went else DRAW if went is False or who.get("out") else INK
    name = fit(("✓ " if went else "") + _name(who), BRACKET_SIZE, room, bold=bool(went))
    draw_text(image, (x + 32, y), name, BRACKET_SIZE, fill=colour, bold=bool(went), anchor="lm")
    if score:
        draw_text(image, (x + COLUMN - 6, y), score, 13, fill=SOFT, anchor="rm")
