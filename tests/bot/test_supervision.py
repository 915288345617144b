"""Background play survives its failures: the timers and the bots' turns are logged, wait a
back-off on the host's clock and go on; `stop` still stops them.

The clock here is the injected one: a test moves it past the back-off and wakes the timer
loop, instead of sleeping.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.storage import StorageUnavailable
from bot.supervised import backoff
from tests.bot.test_storage import fast_lock_timeout, held_write_lock
from tests.conftest import ALICE, BOB, Clock, Table, close_table, open_table, until


class GatedAI:
    """The real AI runner behind a gate the test opens; it can be told to fail instead."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.gate = asyncio.Event()
        self.gate.set()
        self.asked = 0
        self.broken = False

    async def move(self, *args, **kwargs):
        self.asked += 1
        await self.gate.wait()
        if self.broken:
            raise RuntimeError("the AI broke")
        return await self.inner.move(*args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def gated(table: Table) -> GatedAI:
    ai = GatedAI(table.host.core.ai)
    table.host.core.ai = ai
    return ai


def said(table: Table, text: str) -> bool:
    return any(text in r.text for r in table.delivered)


async def retry_after_failures(table: Table, clock: Clock, failures: int = 1) -> None:
    """Move the host's clock past the back-off and wake the timer loop."""
    clock.advance(backoff(failures))
    table.host.autoplay.wake()


async def test_timers_go_on_after_the_database_was_locked(table: Table, clock: Clock, caplog) -> None:
    await fast_lock_timeout(table)
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    with caplog.at_level(logging.WARNING, logger="bot.autoplay"):
        async with held_write_lock(table.db):  # another process holds the write lock
            clock.advance(301)  # Alice's time is up (not before: the loop might time her out unhindered)
            table.host.autoplay.wake()
            await until(lambda: "the timer loop tries again in 1 s" in caplog.text)
            assert "database is locked" in caplog.text and (await table.session()).status == "playing"
    await retry_after_failures(table, clock)
    await until(lambda: said(table, "Alice ran out of time"))
    assert (await table.session()).status == "finished"


async def test_timers_go_on_after_the_store_failed_to_read(table: Table, clock: Clock, caplog,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    reads = table.store.claim
    failing = 3

    async def claim(now: float, owner: str, lease: float, platforms=None):
        nonlocal failing
        if failing:
            failing -= 1
            raise StorageUnavailable("disk I/O error")
        return await reads(now, owner, lease, platforms)

    monkeypatch.setattr(table.store, "claim", claim)
    clock.advance(301)
    with caplog.at_level(logging.WARNING, logger="bot.autoplay"):
        for failures in (1, 2, 3):  # the back-off doubles: 1 s, 2 s, 4 s on the host's clock
            table.host.autoplay.wake()
            await until(lambda f=failures: f"({f} failed passes in a row)" in caplog.text)
            assert f"the timer loop tries again in {backoff(failures):g} s" in caplog.text
            clock.advance(backoff(failures) / 2)  # half the back-off: a wake does not cut it short
            table.host.autoplay.wake()
            await asyncio.sleep(0)
            assert failing == 3 - failures
            await retry_after_failures(table, clock, failures)
    await until(lambda: said(table, "Alice ran out of time"))


async def test_a_bot_turn_that_failed_to_commit_is_played_later(table: Table, clock: Clock, caplog) -> None:
    await fast_lock_timeout(table)
    ai = gated(table)
    await table.say(ALICE, "/nim solo 3 4 5")
    ai.gate.clear()
    await table.say(ALICE, "/take 1 1")
    await until(lambda: ai.asked == 1)  # the bot is thinking
    with caplog.at_level(logging.ERROR, logger="bot.autoplay"):
        async with held_write_lock(table.db):
            ai.gate.set()  # it has its move, and the database is locked
            await table.host.idle()
        assert "a bot turn in session 1 failed (1 in a row); trying again in 1 s" in caplog.text
    assert (await table.session()).ply == 1
    await retry_after_failures(table, clock)
    await until(lambda: said(table, "Alice, your move."))
    assert (await table.session()).ply == 2


async def test_bot_turns_go_on_when_the_renderer_and_the_delivery_fail(tmp_path: Path, clock: Clock,
                                                                      caplog) -> None:
    def broken(game, view, ctx):
        raise RuntimeError("raqm_layout() failed")

    table = await open_table(tmp_path / "g.db", clock, draw=broken)
    deliveries = 0

    async def deliver(channel, replies):
        nonlocal deliveries
        deliveries += 1
        if deliveries == 1:
            raise ConnectionError("the platform is down")
        table.delivered.extend(replies)

    table.host.attach("console", deliver)
    try:
        await table.say(ALICE, "/nim solo 3 4 5")
        await table.say(ALICE, "/take 1 1")
        await table.host.idle()  # its announcement is lost with the platform, but the bot moved
        assert (await table.session()).ply == 2 and "delivering to console:test failed" in caplog.text
        await table.say(ALICE, "/take 2 1")
        await table.host.idle()
        assert said(table, "Alice, your move.") and table.delivered[-1].image is None
        assert " 1 | " in table.delivered[-1].text  # the text board instead of the picture
    finally:
        await close_table(table)


@pytest.mark.ai_fallback
async def test_a_failing_ai_still_moves(table: Table, caplog) -> None:
    ai = gated(table)
    ai.broken = True
    await table.say(ALICE, "/nim solo 3 4 5")
    await table.say(ALICE, "/take 1 1")
    await table.host.idle()
    assert (await table.session()).ply == 2 and said(table, "Alice, your move.")
    assert "the nim AI failed in session 1; playing its first legal move" in caplog.text


async def test_a_bot_turn_that_failed_to_read_is_tried_again(table: Table, clock: Clock, caplog,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    ai = gated(table)
    await table.say(ALICE, "/nim solo 3 4 5")
    ai.gate.clear()
    await table.say(ALICE, "/take 1 1")
    await until(lambda: ai.asked == 1)
    reads = table.store.get
    failing = 2

    async def get(session_id: int):
        nonlocal failing
        if failing:
            failing -= 1
            raise StorageUnavailable("database disk image is malformed")
        return await reads(session_id)

    monkeypatch.setattr(table.store, "get", get)
    ai.gate.set()
    await table.host.idle()
    assert "failed (1 in a row); trying again in 1 s" in caplog.text
    await retry_after_failures(table, clock, 1)
    await until(lambda: "failed (2 in a row); trying again in 2 s" in caplog.text)
    clock.advance(1)
    table.host.autoplay.wake()
    await asyncio.sleep(0)
    assert (await reads(1)).ply == 1  # not yet: 2 s had not passed
    await retry_after_failures(table, clock, 1)
    await until(lambda: said(table, "Alice, your move."))


async def test_stop_stops_a_bot_that_is_thinking_and_the_timers(tmp_path: Path, clock: Clock) -> None:
    table = await open_table(tmp_path / "g.db", clock)
    ai = gated(table)
    await table.say(ALICE, "/nim solo 3 4 5")
    ai.gate.clear()
    await table.say(ALICE, "/take 1 1")
    await until(lambda: ai.asked == 1)
    await asyncio.wait_for(close_table(table), 60)  # cancelled, not taken for a failure to try again
    assert table.host.autoplay.thinking == {} and table.host.autoplay._retry == {}
    assert all(task.done() for task in table.host.autoplay._tasks)
