"""An AI that thinks, CPU-bound, in a worker process of its own until the test lets it go: a
think as long as the test needs, whatever the machine's speed or load (a real level's think
lasts a time that depends on both)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import engines
from bot.ai import AIRunner


def think_until_let_go(go: str, *args: Any) -> Any:
    """In the worker: spin (CPU-bound, as a search is) until the file `go` exists, then move."""
    while not os.path.exists(go):
        pass
    return engines.think(*args)


class HeldAI(AIRunner):
    """`AIRunner(1)` whose every move waits, thinking, until `let_go()`; `thinking` counts the
    moves it has started."""

    def __init__(self, folder: Path) -> None:
        super().__init__(1)
        self.go = folder / "go"
        self.thinking = 0

    async def move(self, game: str, state: Any, seat: int, level: str, seed: int, limit: Any = None) -> Any:
        self.thinking += 1
        return await self._pool.run(think_until_let_go, str(self.go), game, state, seat, level, seed, limit)

    def let_go(self) -> None:
        self.go.touch()
