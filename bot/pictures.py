"""Pictures drawn off the event loop: in worker processes (`bot.workers`, the same pool that
exits with the host as the AI's), so drawing uses every core and holds no GIL the event loop
needs; the loop only sends the view and gets the PNG's bytes back.

`Pictures(0, draw)` draws in a background thread of this process, with any `draw` callable
(tests, tiny hosts). While the worker processes start (`warm_up`: seconds after the bot starts),
pictures are drawn in a thread of this process too, so no answer waits for them. A picture that
cannot be drawn raises here as it would in place: the caller (`bot.replies.drawn`) falls back to
the text board.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import render
from bot import metrics
from bot.workers import Workers
from render.base import RenderContext

Draw = Callable[[str, Any, RenderContext], bytes]


class Pictures:
    """`workers` > 0: that many processes (None: one per CPU), each drawing with `render.draw`;
    0: `draw` in threads of this process."""

    def __init__(self, workers: int | None = None, draw: Draw = render.draw,
                 load: Callable[[], Any] = render.load_all) -> None:
        """`load`: what each worker loads when it starts (the renderers and fonts)."""
        if workers != 0 and draw is not render.draw:
            raise ValueError("worker processes draw with render.draw; another draw runs in threads (workers=0)")
        self._draw, self._load = draw, load
        self._pool = Workers(workers, "pictures", threads=2)
        self.workers = self._pool.count

    async def draw(self, game: str, view: Any, ctx: RenderContext) -> bytes:
        """The PNG of `view` (a game's picture)."""
        with metrics.rendering(game):
            return await self._run(self._draw, game, view, ctx)

    async def call(self, draw: Callable[..., bytes], *args: Any) -> bytes:
        """Another picture (`draw` a module-level function of `render`, as the standings' are)."""
        with metrics.rendering("standings"):
            return await self._run(draw, *args)

    @property
    def warming(self) -> bool:
        """Whether the workers are starting (pictures are drawn in this process meanwhile)."""
        return self._pool.warming

    async def _run(self, draw: Callable[..., bytes], *args: Any) -> bytes:
        if self.warming:  # the workers are starting: drawn here now rather than seconds later
            return await asyncio.to_thread(draw, *args)
        return await self._pool.run(draw, *args)

    async def warm_up(self) -> None:
        """Start the workers and load the renderers and fonts in them now, not at the first picture."""
        await self._pool.warm_up(self._load)

    def processes(self) -> list[int]:
        return self._pool.processes()

    def close(self) -> None:
        self._pool.close()
