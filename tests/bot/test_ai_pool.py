"""The AI thinks in worker processes: the event loop keeps answering meanwhile."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tests.conftest import ALICE, Clock, close_table, open_table


async def test_the_event_loop_stays_responsive_while_the_ai_thinks(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "g.db", Clock(), ai_workers=1)
    try:
        await table.host.ai.warm_up()
        await table.say(ALICE, "/gomoku solo hard")
        gaps: list[float] = []
        thinking = True

        async def ticker() -> None:
            last = time.perf_counter()
            while thinking:
                await asyncio.sleep(0.01)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now

        tick = asyncio.ensure_future(ticker())
        started = time.perf_counter()
        await table.say(ALICE, "/move h8")
        await table.host.idle()
        thought = time.perf_counter() - started
        thinking = False
        await tick
        assert "Bot (hard) played" in table.delivered[-1].text
        assert thought > 0.3  # the bot really thought (its budget is 1 s)
        # While it did, the loop woke every ~10 ms; a blocked loop would show one gap as long as the think.
        assert max(gaps) < thought / 3, (max(gaps), thought)
        assert len(gaps) > thought / 0.05
    finally:
        await close_table(table)
