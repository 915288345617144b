"""A PostgreSQL server that hangs (paused, or the network holding every byte) is answered as one
that is down: the same one line to the person, within seconds, nothing of the command applied,
other channels answered too, and the bot carries on by itself once the server answers again.

The hang is a proxy that stops forwarding (`tests.support.postgres.Proxy.stall`); the waits are the
store's defaults (every wait on the server ends after 5 s), and the bound the tests check is a
generous one: they tell a bounded wait from one that never ends, they time nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable

import pytest

from bot.model import Event, Reply
from tests.conftest import ALICE, BOB, CAROL, Clock, Table, close_table, open_table
from tests.support.postgres import Proxy, rows

BACKENDS = ("postgres",)

UNAVAILABLE = "The game storage is unavailable right now; please try again in a moment."
BOUND = 10.0  # seconds: well past the store's 5, well short of forever


async def answered(*commands: Awaitable[list[Reply]]) -> tuple[list[list[str]], float]:
    """The replies to `commands` run together, and how long the slowest took; a wait past
    three times the bound fails the test (the hang was not bounded)."""
    started = time.monotonic()
    async with asyncio.timeout(3 * BOUND):
        said = await asyncio.gather(*commands)
    return [[r.text for r in replies] for replies in said], time.monotonic() - started


@pytest.fixture
async def proxied(database: str) -> AsyncIterator[tuple[Proxy, Table]]:
    """A host whose database is reached through a proxy that can stall."""
    proxy = Proxy()
    await proxy.restore()
    table = await open_table(proxy.url(database), Clock())
    try:
        yield proxy, table
    finally:
        proxy.resume()
        await close_table(table)
        await proxy.cut()


async def test_a_hung_server_gets_the_clear_line_in_seconds_in_every_channel_and_the_game_goes_on(
        proxied: tuple[Proxy, Table], caplog) -> None:
    proxy, table = proxied
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    proxy.stall()  # every connection hangs, old and new
    with caplog.at_level(logging.WARNING, logger="bot.host"):
        said, took = await answered(table.say(ALICE, "/take 1 1"),
                                    table.host.handle(Event("console:other", CAROL, "/nim start 5")))
    assert said == [[UNAVAILABLE], [UNAVAILABLE]] and took < BOUND, (said, took)
    told = [r.getMessage() for r in caplog.records if r.name == "bot.host"]
    assert len(told) == 2 and all(m.endswith("PostgreSQL did not answer in time") for m in told), told
    proxy.resume()
    session = await table.session()
    assert session.ply == 0 and await table.store.moves(session.id) == []  # the move: not at all
    assert "Alice took 1 stone" in (await table.say(ALICE, "/take 1 1"))[0].text
    assert "Bob took 1 stone" in (await table.say(BOB, "/take 2 1"))[0].text
    elsewhere = await table.host.handle(Event("console:other", CAROL, "/nim start 5"))
    assert "opened a table for Nim" in elsewhere[0].text
    session = await table.session()
    assert session.ply == 2 and len(await table.store.moves(session.id)) == 2


async def test_a_server_that_hangs_inside_the_last_moves_transaction_leaves_none_of_it(
        proxied: tuple[Proxy, Table]) -> None:
    proxy, table = proxied
    await table.say(ALICE, "/nim start 1 2")
    await table.say(BOB, "/join")
    await table.say(ALICE, "/take 2 1")
    await table.say(BOB, "/take 1 1")
    # The game's end is one transaction: the session, the move, the results, the ratings. The
    # server hangs when the results arrive, after the session's UPDATE and the move's INSERT.
    proxy.stall_at(b"INSERT INTO results")
    said, took = await answered(table.say(ALICE, "/take 2 1"))
    assert said == [[UNAVAILABLE]] and took < BOUND, (said, took)
    assert proxy.stalled
    proxy.resume()  # the server gets what was held, then finds the connection gone: it rolls back
    session = await table.session()
    assert (session.status, session.ply, len(await table.store.moves(session.id))) == ("playing", 2, 2)
    assert await rows(table.store, "SELECT * FROM results") == []
    last = await table.say(ALICE, "/take 2 1")
    assert "🏆 Alice wins: took the last stone." in last[0].text
    assert len(await rows(table.store, "SELECT * FROM results")) == 2
