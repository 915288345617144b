"""The operations endpoint (bot/ops.py) over HTTP: /metrics moves with the games played on the
host (moves, command latency, AI think time, pictures, active games, the outbox backlog),
/healthz answers while the process lives, /readyz only while the storage and every platform are
up. The platforms' own numbers (rate limits, errors, connections) are tested in tests/telegram
and tests/discord test_ops.py."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ops import Ops
from bot.startup import StartFailed
from bot.storage import open_storage
from tests.conftest import ALICE, BOB, BOTH, Table
from tests.support.ops import get, moved, scrape, value

BACKENDS = BOTH  # the gauges are read from the store: on SQLite and on PostgreSQL


@pytest.fixture
async def ops(table: Table) -> AsyncIterator[str]:
    server = Ops(table.store, {}, "127.0.0.1", 0)
    port = await server.start()
    yield f"http://127.0.0.1:{port}"
    await server.stop()


async def play_solo(table: Table, moves: int) -> int:
    """Alice plays the bot at Nim, `moves` of her moves (or to the end); how many she made."""
    await table.say(ALICE, "/nim solo 4 5 6")
    await table.host.idle()
    made = 0
    while made < moves and (legal := await table.host.legal_moves(table.channel, ALICE.id)):
        await table.say(ALICE, f"/move {legal[0]}")
        await table.host.idle()  # the bot's answer
        made += 1
    return made


async def test_metrics_move_with_the_games_played(table: Table, ops: str) -> None:
    before = await scrape(ops)
    made = await play_solo(table, 3)
    await table.say(BOB, "/zzz-not-a-command")
    after = await scrape(ops)
    session = await table.session()
    bot_moves = session.ply - made

    assert made >= 2 and bot_moves >= 2
    assert moved(before, after, "gamehost_moves_total", game="nim", by="person") == made
    assert moved(before, after, "gamehost_moves_total", game="nim", by="bot") == bot_moves
    # Every command timed, under its own word; what nobody knows under "other".
    assert moved(before, after, "gamehost_command_seconds_count", platform="console", command="move") == made
    assert moved(before, after, "gamehost_command_seconds_count", platform="console", command="nim") == 1
    assert moved(before, after, "gamehost_command_seconds_count", platform="console", command="other") == 1
    assert moved(before, after, "gamehost_command_seconds_sum", platform="console", command="move") > 0
    assert moved(before, after, "gamehost_ai_think_seconds_count", game="nim", level="hard") == bot_moves
    assert moved(before, after, "gamehost_render_seconds_count", picture="nim") >= made
    assert value(after, "gamehost_outbox_backlog") == await table.store.outbox_backlog()  # the store's own count
    playing = 1 if session.status == "playing" else 0
    assert value(after, "gamehost_active_games", game="nim") == playing

    await table.say(ALICE, "/认输")  # resign, in Chinese: timed as "resign"
    final = await scrape(ops)
    assert value(final, "gamehost_active_games", game="nim") == 0  # read from the store, not kept
    assert moved(after, final, "gamehost_command_seconds_count", platform="console", command="resign") == 1
    await table.say(ALICE, "/gomoku start")
    assert value(await scrape(ops), "gamehost_open_tables", game="gomoku") == 1


async def test_the_outbox_backlog_is_read_when_the_store_keeps_one(table: Table, ops: str) -> None:
    assert (await get(f"{ops}/metrics"))[0] == 200

    async def backlog() -> int:
        return 7

    table.store.outbox_backlog = backlog  # type: ignore[attr-defined]
    assert value(await scrape(ops), "gamehost_outbox_backlog") == 7


async def test_live_always_ready_only_with_storage_and_every_platform(tmp_path: Path) -> None:
    store = await open_storage(str(tmp_path / "g.db"))
    up = {"telegram": False}
    server = Ops(store, {"telegram": lambda: up["telegram"], "discord": lambda: True}, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{await server.start()}"
    try:
        assert await get(f"{base}/healthz") == (200, "live\n")
        status, body = await get(f"{base}/readyz")
        assert status == 503 and json.loads(body) == {"ready": False, "storage": "up", "telegram": "down",
                                                      "discord": "up"}
        up["telegram"] = True
        status, body = await get(f"{base}/readyz")
        assert status == 200 and json.loads(body)["ready"] is True
        await store.close()  # the storage goes away: live, not ready
        status, body = await get(f"{base}/readyz")
        assert status == 503 and json.loads(body)["storage"].startswith("down")
        assert (await get(f"{base}/healthz"))[0] == 200
        assert (await get(f"{base}/metrics"))[0] == 200  # the numbers that need no store still go out
    finally:
        await server.stop()
        await store.close()  # again, if the test failed before: an open one keeps pytest from exiting


async def test_a_port_taken_is_one_line(tmp_path: Path) -> None:
    store = await open_storage(str(tmp_path / "g.db"))
    first = Ops(store, {}, "127.0.0.1", 0)
    port = await first.start()
    try:
        with pytest.raises(StartFailed, match=f"cannot serve /metrics on 127.0.0.1:{port}"):
            await Ops(store, {}, "127.0.0.1", port).start()
    finally:
        await first.stop()
        await store.close()
