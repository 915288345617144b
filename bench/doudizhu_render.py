"""Dou Dizhu picture figures: render time (CPU seconds, so a busy machine does not change them) and PNG
sizes (public table and a private hand).

    .venv/bin/python -m bench.doudizhu_render
"""

from __future__ import annotations

import random
import statistics
import time

from bot.i18n import Translator
from engines.doudizhu import DouDizhu, State
from render.base import RenderContext
from render.doudizhu import render

GAME = DouDizhu()
NAMES = ("Alice", "张伟", "Bob 🎲")


def positions(games: int = 6) -> list[State]:
    """States from bidding to the end of a few normal-level games."""
    out: list[State] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new_state({"mode": "points"}, 3, seed)
        out.append(state)
        while (seat := GAME.to_move(state)) is not None:
            state = GAME.apply(state, seat, GAME.ai(state, seat, "easy", GAME.levels["easy"], rng).move)
            out.append(state)
    return out


def figures() -> list[str]:
    tr = Translator()
    states = positions()
    lines = []
    # Warm the sprite caches the way a running bot would be warm after its first picture.
    first = states[len(states) // 2]
    render(GAME.view(first, 0), RenderContext(NAMES, GAME.to_move(first), None, tr, viewer=0))
    for label, viewer in (("public table", None), ("private hand", 0)):
        times, sizes = [], []
        for state in states:
            ctx = RenderContext(NAMES, GAME.to_move(state), GAME.outcome(state), tr, viewer=viewer,
                                ai_seats=frozenset({2}))
            view = GAME.view(state, viewer)
            started = time.process_time()
            data = render(view, ctx)
            times.append(time.process_time() - started)
            sizes.append(len(data))
        median, p95 = statistics.median(times), sorted(times)[int(0.95 * len(times))]
        size_ok = "PASS" if max(sizes) < 200 * 1024 else "FAIL"
        time_ok = "PASS" if median < 0.040 else "FAIL"
        lines.append(
            f"render {label:13}: {len(states)} pictures, median {median * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
            f"PNG median {statistics.median(sizes) / 1024:.0f} KB, max {max(sizes) / 1024:.0f} KB "
            f"(PNG < 200 KB: {size_ok}; median < 40 ms: {time_ok})"
        )
    return lines


if __name__ == "__main__":
    for line in figures():
        print(line)
