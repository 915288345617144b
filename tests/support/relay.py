"""Relay to 21: a small three-player game the host tests use for what needs 3+ seats.

Players in turn add 1, 2 or 3 to a running total; whoever reaches 21 wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from PIL import Image

import engines
import render
from bot.i18n import catalog
from engines.base import JSON, AIResult, Game, Limit, Option, Outcome, Refusal, Translate, msg
from render.base import RenderContext, png
from render.text import draw_text


@dataclass(frozen=True)
class State:
    total: int
    turn: int
    seats: int


class Relay(Game[State, int]):
    name = "relay"
    seat_counts = (3, 4)
    options = (Option("players", choices=(3, 4), bare=True),)
    seats_option = "players"
    levels = {"easy": Limit(1, 1.0)}
    default_level = "easy"

    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> State:
        return State(0, 0, seats)

    def to_move(self, state: State) -> int | None:
        return None if state.total >= 21 else state.turn

    def parse_move(self, state: State, seat: int, text: str) -> int:
        if text.strip() not in ("1", "2", "3"):
            raise Refusal("nim.how_to_move")
        return int(text)

    def legal_moves(self, state: State, seat: int) -> list[int]:
        return [1, 2, 3] if self.to_move(state) == seat else []

    def apply(self, state: State, seat: int, move: int) -> State:
        return State(state.total + move, (seat + 1) % state.seats, state.seats)

    def outcome(self, state: State) -> Outcome | None:
        if state.total < 21:
            return None
        winner = (state.turn - 1) % state.seats
        return Outcome(tuple(1 if s == winner else 2 for s in range(state.seats)), msg("nim.normal_end"))

    def move_text(self, state: State, move: int) -> str:
        return str(move)

    def view(self, state: State, seat: int | None) -> JSON:
        return {"total": state.total}

    def text(self, view: JSON, tr: Translate) -> str:
        return f"total {view['total']}"

    def to_json(self, state: State) -> JSON:
        return [state.total, state.turn, state.seats]

    def from_json(self, data: JSON) -> State:
        return State(*data)

    def ai(self, state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[int]:
        return AIResult(min(3, 21 - state.total) if state.total >= 18 else rng.choice([1, 2, 3]))


def render_relay(view: JSON, ctx: RenderContext) -> bytes:
    image = Image.new("RGB", (200, 60), "white")
    draw_text(image, (10, 40), str(view["total"]), 20)
    return png(image)


def install() -> None:
    """Make the host offer /relay (only in the test process and its AI thread)."""
    engines.REGISTRY["relay"] = "tests.support.relay:Relay"
    render.MODULES["relay"] = "tests.support.relay_render"
    # Both languages, as a game's catalogs would: tests/bot/test_catalogs.py may run after this in the process.
    words = {
        "en": ("Relay", "Add 1, 2 or 3; whoever reaches 21 wins.", "How many players", "3 players", "4 players"),
        "zh": ("接力", "每次加 1、2 或 3；先到 21 者胜。", "几名玩家", "3 人", "4 人"),
    }
    for language, texts in words.items():
        entries = catalog(language)
        keys = ("title", "rules", "option_players", "option_players_3", "option_players_4")
        for key, text in zip(keys, texts, strict=True):
            entries[f"relay.{key}"] = text  # type: ignore[index]
