"""The Chinese Checkers picture: size, pieces in their colours, labels, last move, marks and paths."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot.i18n import Translator
from engines.base import Outcome, msg
from engines.checkers import Checkers
from engines.checkers import board as B
from render.base import RenderContext
from render.checkers import HOLE, MARK_FILL, PIECE_R, centre, render
from render.header import SEAT_COLOURS

G = Checkers()
TR = Translator("en")
NAMES = ("Alice", "张伟", "Dora 🎲", "Bob", "Эмиль", "Faisal al-Rashid the Third")


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def near(pixel, colour: str, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], rgb(colour), strict=True))


def draw(state, overlay=None, outcome=None) -> tuple[bytes, Image.Image]:
    ctx = RenderContext(NAMES[: state.seats], G.to_move(state), outcome, TR, overlay=overlay, ai_seats=frozenset({1}))
    data = render(G.view(state, None), ctx)
    return data, Image.open(io.BytesIO(data)).convert("RGB")


def played(seats: int, plies: int, seed: int = 1):
    rng = random.Random(seed)
    state = G.new_state({}, seats, seed)
    for _ in range(plies):
        seat = G.to_move(state)
        state = G.apply(state, seat, G.ai(state, seat, "easy", G.levels["easy"], rng).move)
    return state


def piece_edge(image: Image.Image, label: str):
    """A pixel on a piece, between its rim and the name written on it."""
    x, y = centre(B.parse_label(label))
    return image.getpixel((round(x), round(y + PIECE_R - 6)))


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_every_table_size_draws_a_small_wide_png_with_pieces_in_seat_colours(seats):
    state = played(seats, 8 * seats)
    data, image = draw(state)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.width >= 720 and len(data) < 200_000
    for h, v in enumerate(state.board):
        label = B.LABELS[h]
        if v:
            assert near(piece_edge(image, label), SEAT_COLOURS[v - 1]), label
        else:
            x, y = centre(h)
            assert near(image.getpixel((round(x), round(y + 14))), HOLE, 12), label


def test_every_hole_shows_its_name():
    _, image = draw(G.new_state({}, 2, 0))
    for h in range(B.SIZE):
        x, y = centre(h)
        box = image.crop((round(x - 12), round(y - 6), round(x + 12), round(y + 6)))
        darkest = min(sum(p) for p in box.get_flattened_data())
        assert darkest < 3 * 160, B.LABELS[h]  # text, on an empty hole and on a piece alike


def test_the_last_move_is_drawn_from_its_start():
    state = G.with_board(G.new_state({}, 2, 0), {"m5": 0, "n6": 1, "p8": 1, "a13": 1})
    before = draw(state)[1]
    state = G.apply(state, 0, G.parse_move(state, 0, "m5 q9"))
    _, image = draw(state)
    x, y = centre(B.parse_label("m5"))
    ring = image.getpixel((round(x + 21), round(y)))  # the ring around the hole it left
    assert near(ring, SEAT_COLOURS[0], 40)
    landing = centre(B.parse_label("o7"))  # the hole jumped to on the way gets a dot
    assert image.getpixel(tuple(map(round, landing))) != before.getpixel(tuple(map(round, landing)))


def test_destinations_are_marked_when_asked():
    state = G.with_board(G.new_state({}, 2, 0), {"m5": 0, "n6": 1, "p8": 1, "a13": 1})
    answer = G.query(state, 0, "moves", ["m5"])
    _, image = draw(state, answer.overlay)
    _, plain = draw(state)
    for label in answer.overlay["marks"]:
        x, y = centre(B.parse_label(label))
        assert near(image.getpixel((round(x), round(y + 13))), MARK_FILL, 16), label
        assert not near(plain.getpixel((round(x), round(y + 13))), MARK_FILL, 16)


def test_the_best_path_is_drawn_when_asked():
    state = G.with_board(G.new_state({}, 2, 0), {"m5": 0, "n6": 1, "p8": 1, "p10": 1, "n12": 1, "a13": 1})
    answer = G.query(state, 0, "path", ["m5", "m13"])
    _, image = draw(state, answer.overlay)
    _, plain = draw(state)
    for label in ("o7", "q9", "o11"):  # the numbered landings
        x, y = centre(B.parse_label(label))
        assert image.getpixel((round(x - 8), round(y))) != plain.getpixel((round(x - 8), round(y)))
    x, y = centre(B.parse_label("m13"))
    assert near(image.getpixel((round(x), round(y + 13))), MARK_FILL, 16)


def test_a_finished_game_and_any_names_render():
    state = played(3, 30)
    outcome = Outcome((2, 1, 3), msg("checkers.end_stalled", rounds=30))
    data, image = draw(state, outcome=outcome)
    assert len(data) < 200_000 and image.width >= 720


def test_every_picture_renders_in_chinese(tmp_path):
    """Each kind of picture with a Chinese translator: the plain board of every table size, a
    finished game, the /moves and /path pictures, and a long stall; each decodes and is not blank."""
    zh = Translator("zh")
    state = G.with_board(G.new_state({}, 2, 0), {"m5": 0, "n6": 1, "p8": 1, "p10": 1, "n12": 1, "a13": 1})
    pictures = {f"board{n}": (played(n, 8 * n), None, None) for n in (2, 3, 4, 6)}
    pictures["moves"] = (state, G.query(state, 0, "moves", ["m5"]).overlay, None)
    pictures["path"] = (state, G.query(state, 0, "path", ["m5", "m13"]).overlay, None)
    six = played(6, 60)
    pictures["finished"] = (replace(six, finished=(2, 0, 5, 4), idle=40), None,
                           Outcome((2, 6, 1, 5, 4, 3), msg("checkers.end_stalled", rounds=30)))
    pictures["stalled"] = (replace(six, finished=(3,), idle=6 * 12), None, None)
    for name, (position, overlay, outcome) in pictures.items():
        ctx = RenderContext(NAMES[: position.seats], None if outcome else G.to_move(position), outcome, zh,
                            overlay=overlay, ai_seats=frozenset({1}))
        data = render(G.view(position, None), ctx)
        (tmp_path / f"{name}.png").write_bytes(data)
        image = Image.open(io.BytesIO(data)).convert("RGB")
        assert image.width >= 720 and len(data) < 200_000, name
        low, high = zip(*image.getextrema(), strict=True)
        assert max(high) - min(low) > 100, name  # not one flat colour
        top = image.crop((0, 60, image.width, 92))  # the subtitle line, in Chinese
        assert len(top.getcolors(1 << 16)) > 2, name
