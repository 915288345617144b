"""The gomoku picture: a real PNG of the right size, with the last stone, the move numbers, the winning
five and renju's forbidden points visible where they should be."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.i18n import Translator
from engines.gomoku import Gomoku, State
from render.base import RenderContext
from render.gomoku import _layout, render

GAME = Gomoku()
RECORD = """h8 i9 g9 i7 i8 g7 j8 k8 g8 f8 h9 h10 h7 i6 g6 f5 g10 g11 j9 i10 i11 k9 f10 e11 j10 j7 k11 l12 j11 j12
k12 l13 e9 d8 f9 d9 e10 c8 d10 c10 c11 b12 e12 f13 e13"""
GAME_RECORD = RECORD.split()


def play(moves: list[str], size: int = 15, rule: str = "freestyle") -> State:
    state = GAME.new_state({"size": size, "rule": rule}, 2, 0)
    for text in moves:
        state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, text))
    return state


def picture(state: State, numbers: bool = False, view: dict | None = None, names=("Alice", "Bob")) -> Image.Image:
    ctx = RenderContext(names, GAME.to_move(state), GAME.outcome(state), Translator(), overlay={"numbers": numbers})
    data = render(view or GAME.view(state, None), ctx)
    assert len(data) < 150 * 1024
    return Image.open(io.BytesIO(data)).convert("RGB")


def changed(a: Image.Image, b: Image.Image, box: tuple[float, float, float, float]) -> int:
    """How many pixels differ inside box."""
    box = tuple(round(v) for v in box)
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L").point(lambda v: 255 if v > 40 else 0)
    return sum(1 for v in diff.tobytes() if v)


@pytest.mark.parametrize("size", [15, 19])
def test_a_sharp_png_of_either_board(size: int) -> None:
    state = play(GAME_RECORD[:30], size)
    for numbers in (False, True):
        image = picture(state, numbers)
        assert image.width >= 720 and image.height > image.width


def test_a_full_board_with_numbers_stays_small() -> None:
    black = [f"{'abcdefghijklmno'[c]}{r + 1}" for r in range(15) for c in range(15) if ((c + 2 * r) // 2) % 2 == 0]
    white = [f"{'abcdefghijklmno'[c]}{r + 1}" for r in range(15) for c in range(15) if ((c + 2 * r) // 2) % 2 == 1]
    moves = [m for pair in zip(black, [*white, None], strict=True) for m in pair if m]
    picture(play(moves), numbers=True)  # asserts the size


def test_the_last_stone_is_marked() -> None:
    state = play(GAME_RECORD[:20])
    view = GAME.view(state, None)
    x, y = _layout(15).xy(*view["last"])
    unmarked = picture(state, view={**view, "last": None})
    marked = picture(state)
    r = _layout(15).stone / 2
    assert changed(marked, unmarked, (x - r, y - r, x + r, y + r)) > 20
    red = marked.getpixel((round(x), round(y)))
    assert red[0] > 150 and red[1] < 120  # a red mark on the stone


def test_move_numbers_appear_on_the_stones() -> None:
    state = play(GAME_RECORD[:20])
    plain, numbered = picture(state), picture(state, numbers=True)
    for i in (0, 9, 18):  # the 1st, 10th and 19th stones
        x, y = _layout(15).xy(*GAME.view(state, None)["moves"][i])
        assert changed(plain, numbered, (x - 12, y - 10, x + 12, y + 10)) > 15, i


def test_the_winning_five_is_struck_through() -> None:
    state = play(["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"])
    assert GAME.outcome(state) is not None
    view = GAME.view(state, None)
    plain = picture(state, view={**view, "win_line": []})
    struck = picture(state)
    lay = _layout(15)
    (xa, ya), (xb, yb) = lay.xy(7, 7), lay.xy(11, 7)
    between = (xa + lay.cell * 0.3, ya - 4, xa + lay.cell * 0.7, ya + 4)  # the gap between h8 and i8
    assert changed(plain, struck, between) > 10
    assert changed(plain, struck, (xb + lay.cell * 0.3, yb - 4, xb + lay.cell * 0.45, yb + 4)) > 0  # past l8


def test_the_numbers_of_the_winning_five_show_over_the_strike() -> None:
    state = play(["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"])
    struck, numbered = picture(state), picture(state, numbers=True)
    lay = _layout(15)
    for col in range(7, 12):  # h8 .. l8: the stroke runs through the middle of each number
        x, y = lay.xy(col, 7)
        assert changed(struck, numbered, (x - 8, y - 2, x + 8, y + 2)) > 8, col


def test_forbidden_points_are_marked_for_black_in_renju() -> None:
    state = play(["g8", "a1", "i8", "a3", "h7", "o1", "h9", "o3"], rule="renju")
    view = GAME.view(state, None)
    assert view["forbidden"] == [[7, 7]]
    x, y = _layout(15).xy(7, 7)
    r = _layout(15).cell * 0.3
    assert changed(picture(state), picture(state, view={**view, "forbidden": []}), (x - r, y - r, x + r, y + r)) > 20


def test_names_in_any_script_and_the_winner() -> None:
    state = play(["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"])
    image = picture(state, names=("小明", "Zoë 🐼"))
    playing = picture(play(["h8"]))
    assert image.getpixel((5, image.height - 30)) != playing.getpixel((5, playing.height - 30))  # the result band


CHINESE_PICTURES = {
    "playing": (GAME_RECORD[:20], 15, "freestyle", False),
    "numbers": (GAME_RECORD[:30], 15, "standard", True),
    "won": (["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"], 15, "freestyle", False),
    "renju": (["g8", "a1", "i8", "a3", "h7", "o1", "h9", "o3"], 15, "renju", False),
    "19x19": (GAME_RECORD, 19, "renju", True),
}


@pytest.mark.parametrize("name", CHINESE_PICTURES)
def test_every_picture_draws_in_chinese(name: str) -> None:
    """Each kind of picture with a Chinese translator and Chinese names: a PNG that decodes, with its labels
    (rule, stone count, whose move or the result) drawn, so the header and footer are not blank."""
    moves, size, rule, numbers = CHINESE_PICTURES[name]
    state = play(moves, size, rule)
    ctx = RenderContext(("小明", "王芳"), GAME.to_move(state), GAME.outcome(state), Translator("zh"),
                        overlay={"numbers": numbers})
    image = Image.open(io.BytesIO(render(GAME.view(state, None), ctx))).convert("RGB")
    image.load()
    english = picture(state, numbers, names=("小明", "王芳"))
    assert image.size == english.size
    header = (0, 0, image.width, _layout(size).top)
    assert len(image.crop(header).getcolors(1 << 16) or ()) > 8  # names and the subtitle are drawn
    assert changed(image, english, header) > 50  # in other words than the English picture
