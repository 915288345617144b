"""Dou Dizhu pictures: every phase draws, sizes stay small, card faces read right."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.i18n import Translator
from engines.doudizhu import DouDizhu
from engines.doudizhu.cards import BLACK_JOKER, RED_JOKER
from render.base import RenderContext
from render.doudizhu import BIG, card_image, render

GAME = DouDizhu()
tr = Translator()
NAMES = ("Alice", "张伟", "🐉 Drache mit sehr langem Namen")


def pictures(mode: str, seed: int, tr: Translator = tr):
    rng = random.Random(seed)
    state = GAME.new_state({"mode": mode}, 3, seed)
    while True:
        seat = GAME.to_move(state)
        for viewer in (None, seat if seat is not None else 0):
            ctx = RenderContext(NAMES, seat, GAME.outcome(state), tr, viewer=viewer, ai_seats=frozenset({2}))
            yield state, viewer, render(GAME.view(state, viewer), ctx)
        if seat is None:
            return
        state = GAME.apply(state, seat, GAME.ai(state, seat, "easy", GAME.levels["easy"], rng).move)


def test_every_phase_draws_small_pngs() -> None:
    phases = set()
    for mode, seed in (("points", 1), ("call", 2)):
        for state, viewer, data in pictures(mode, seed):
            image = Image.open(io.BytesIO(data))
            assert image.format == "PNG" and image.width == 800
            assert len(data) < 200 * 1024
            phases.add((GAME.view(state, None)["phase"], viewer is None))
    assert {p for p, _ in phases} == {"bidding", "playing", "over"}


def test_private_picture_adds_the_hand_public_does_not() -> None:
    state = GAME.new_state({}, 3, 5)
    seat = GAME.to_move(state)
    ctx_public = RenderContext(NAMES, seat, None, tr)
    ctx_private = RenderContext(NAMES, seat, None, tr, viewer=seat)
    public = Image.open(io.BytesIO(render(GAME.view(state, None), ctx_public)))
    private = Image.open(io.BytesIO(render(GAME.view(state, seat), ctx_private)))
    assert private.height > public.height  # the fanned hand below the table
    # A view without a hand draws no hand even if a viewer is named (nothing to leak).
    blind = Image.open(io.BytesIO(render(GAME.view(state, None), ctx_private)))
    assert blind.height == public.height


def _has(image: Image.Image, test) -> bool:
    rgb = image.convert("RGB")
    return any(test(rgb.getpixel((x, y))) for x in range(0, rgb.width, 2) for y in range(0, rgb.height, 2))


def test_card_faces_red_black_and_two_jokers() -> None:
    def red(p: tuple[int, int, int]) -> bool:
        return p[0] > 150 and p[1] < 80 and p[2] < 90

    heart, spade = card_image(1, BIG), card_image(0, BIG)  # 3♥, 3♠
    assert _has(heart, red) and not _has(spade, red)
    black_joker, red_joker = card_image(52, BIG), card_image(53, BIG)
    assert _has(red_joker, red) and not _has(black_joker, red)
    assert black_joker.tobytes() != red_joker.tobytes()
    assert BLACK_JOKER == 13 and RED_JOKER == 14


def test_every_picture_draws_in_chinese() -> None:
    """Bidding, play and the end, public and private, in both bidding modes, with the Chinese catalog:
    each picture decodes as a PNG, is not blank, and differs from the English one (its labels are Chinese)."""
    zh = Translator("zh")
    drawn = 0
    phases = set()
    english = {(mode, i): data for mode, seed in (("points", 3), ("call", 4))
               for i, (_, _, data) in enumerate(pictures(mode, seed))}
    for mode, seed in (("points", 3), ("call", 4)):
        for i, (state, viewer, data) in enumerate(pictures(mode, seed, zh)):
            image = Image.open(io.BytesIO(data))
            image.load()
            assert image.format == "PNG" and image.width == 800
            colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
            assert colours is None or len(colours) > 50  # not blank: cards, text, felt
            assert data != english[(mode, i)]
            phases.add((GAME.view(state, None)["phase"], viewer is None))
            drawn += 1
    assert len(phases) == 6 and drawn > 40
