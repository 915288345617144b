"""Runs the AI off the event loop, in worker processes, so chat clients keep answering.

The workers are `bot.workers.Workers`: they exit with the host, however it ends (`kill -9`
included), and a pool whose worker died is replaced at the next move.
"""

from __future__ import annotations

import engines
import engines.review
from bot import metrics
from bot.workers import Workers
from engines.base import JSON, AIInfo, Limit


class AIRunner:
    """`workers` > 0: a pool of that many processes; 0: one background thread (tests, tiny hosts)."""

    def __init__(self, workers: int | None = None) -> None:
        self._pool = Workers(workers, "ai")
        self.workers = self._pool.count

    async def move(
        self, game: str, state: JSON, seat: int, level: str, seed: int, limit: Limit | None = None
    ) -> tuple[str, AIInfo]:
        """The move `level` plays for `seat`, as text, and what the AI says about it."""
        with metrics.thinking(game, level):
            return await self._pool.run(engines.think, game, state, seat, level, seed, limit)

    async def review(self, record: JSON) -> JSON:
        """A finished game's review (`engines.review.run`: a `Record` in, a `Review` out, as JSON)."""
        return await self._pool.run(engines.review.run, record)

    async def warm_up(self) -> None:
        """Start the workers and load every game in them now, not at the first AI move."""
        await self._pool.warm_up(engines.load_all)

    def close(self) -> None:
        self._pool.close()
