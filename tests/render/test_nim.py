"""The Nim picture: a real PNG, stones just taken drawn faded, names in any script."""

from __future__ import annotations

import io

from PIL import Image

from bot.i18n import Translator
from engines.base import msg
from engines.nim import Move, Nim
from render.base import RenderContext
from render.nim import render
from render.text import CJK, EMOJI, LATIN, _runs, text_width

NIM = Nim()


def picture(state, names=("Alice", "Bob"), outcome=None) -> Image.Image:
    ctx = RenderContext(names, NIM.to_move(state), outcome, Translator())
    return Image.open(io.BytesIO(render(NIM.view(state, None), ctx))).convert("RGB")


def fresh(*heaps: int):
    return NIM.new_state({"heaps": list(heaps), "max": None, "misere": False}, 2, 1)


def test_png_size_and_shape() -> None:
    state = fresh(3, 4, 5)
    raw = render(NIM.view(state, None), RenderContext(("A", "B"), 0, None, Translator()))
    assert raw.startswith(b"\x89PNG\r\n\x1a\n") and len(raw) < 40_000
    image = picture(state)
    assert image.width == 800 and 300 < image.height < 500


def test_big_heaps_wrap_and_stay_readable() -> None:
    assert picture(fresh(*[100] * 10)).height > picture(fresh(*[20] * 10)).height


def test_stones_just_taken_are_drawn_faded() -> None:
    before = fresh(3, 4, 5)
    after = NIM.apply(before, 0, Move(1, 3))
    row = picture(after).crop((70, 150, 760, 190))  # heap 2
    colours = {c for _, c in row.getcolors(100000)}
    dark = sum(1 for c in colours if sum(c[:3]) < 300)
    reddish = sum(1 for c in colours if c[0] > c[2] + 40)  # Alice's colour marks her taken stones
    assert dark and reddish


def test_winner_is_announced_in_the_picture() -> None:
    state = NIM.apply(fresh(2), 0, Move(0, 2))
    won = picture(state, outcome=NIM.outcome(state))
    playing = picture(fresh(2))
    band = (0, won.height - 60, 800, won.height)
    assert won.crop(band).getpixel((5, 5)) != playing.crop(band).getpixel((5, 5))


def test_each_script_gets_a_font_that_has_it() -> None:
    assert [f for f, _ in _runs("Alice", False)] == [LATIN]
    assert [f for f, _ in _runs("张伟", False)] == [CJK]
    assert [f for f, _ in _runs("👨‍👩‍👧", False)] == [EMOJI]
    assert [f for f, _ in _runs("Bob 😀 李", False)] == [LATIN, EMOJI, LATIN, CJK]
    assert text_width("张伟", 20) > 30 and text_width("😀", 20) > 15


def test_chinese_and_emoji_names_are_drawn_not_as_boxes() -> None:
    """The same picture with different names differs where the names are."""
    a = picture(fresh(1), names=("张伟", "😀"))
    b = picture(fresh(1), names=("李娜", "🎲"))
    assert a.crop((0, 0, 800, 60)).tobytes() != b.crop((0, 0, 800, 60)).tobytes()


def test_status_band_reads_the_outcome_reason() -> None:
    tr = Translator()
    assert tr(msg("nim.normal_end")) == "took the last stone"
