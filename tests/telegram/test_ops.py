"""Telegram's numbers on the operations endpoint, with the real python-telegram-bot against the
stand-in: a 429 waited out is counted with its seconds, a failed call is counted, and /readyz
follows the connection (ready while Telegram answers, not once it stops answering). The whole
`gamehost --metrics-port` is run as a process too, scraped over HTTP after a few moves."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

from bot.ops import Ops
from tests.conftest import Clock, until
from tests.support.ops import get, moved, scrape, value
from tests.support.running import SLOW, gamehost
from tests.telegram.conftest import GROUP, make_world
from tests.telegram.standin import TOKEN, BotAPI, Fault, retry_after
from tests.telegram.test_running import free_port


async def test_rate_limit_waits_errors_and_readiness(tmp_path: Path, clock: Clock) -> None:
    world = await make_world(tmp_path, clock)
    api = world.api
    server = Ops(world.table.store, {"telegram": world.tg.readiness}, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{await server.start()}"
    try:
        status, body = await get(f"{base}/readyz")
        assert status == 200 and json.loads(body) == {"ready": True, "storage": "up", "telegram": "up"}
        before = await scrape(base)
        api.faults.append(retry_after({"sendMessage"}, 1, seconds=1))
        await api.say(world.alice, GROUP, "/help")
        await api.wait(lambda: api.to_chat(GROUP))  # waited out, then sent
        api.faults.append(Fault({"sendMessage"}, 1, 502, {"error_code": 502, "description": "Bad Gateway"}))
        await api.say(world.alice, GROUP, "/games")
        await api.wait(lambda: [c for c in api.calls if c.status == 502])
        await api.say(world.alice, GROUP, "/rules nim")
        await api.wait(lambda: len(api.to_chat(GROUP)) == 2)  # the one after the failure went out
        after = await scrape(base)
        assert moved(before, after, "gamehost_rate_limit_waits_total", platform="telegram") == 1
        assert moved(before, after, "gamehost_rate_limit_wait_seconds_total", platform="telegram") == 1.0
        assert moved(before, after, "gamehost_platform_errors_total", platform="telegram", kind="502") == 1
        await api.stop()  # Telegram stops answering: the next poll fails
        await until(lambda: not world.tg.connected())
        status, body = await get(f"{base}/readyz")
        assert status == 503 and json.loads(body)["telegram"] == "down: no answer (NetworkError)"
        assert (await get(f"{base}/healthz"))[0] == 200
    finally:
        await server.stop()
        await world.stop()


async def test_gamehost_serves_health_and_metrics_that_move(tmp_path: Path) -> None:
    api = BotAPI()
    await api.start()
    api.group(GROUP)
    alice = api.person(101, "Alice", "alice")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    try:
        async with gamehost(tmp_path, TELEGRAM_TOKEN=TOKEN, GAMEHOST_TELEGRAM_API_URL=api.url,
                            GAMEHOST_METRICS_PORT=str(port)) as bot:
            await api.wait(lambda: api.of("setMyCommands"), timeout=SLOW)
            async with asyncio.timeout(SLOW):
                while (await _status(f"{base}/readyz")) != 200:  # live first, ready once Telegram answered
                    await asyncio.sleep(0.05)
            before = await scrape(base)
            await api.say(alice, GROUP, "/nim start 2 2")
            await api.wait(lambda: api.to_chat(GROUP), timeout=SLOW)
            await api.say(api.person(102, "Bob", "bob"), GROUP, "/join")
            await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP), timeout=SLOW)
            await api.say(alice, GROUP, "/take 1 1")
            await api.wait(lambda: len(api.to_chat(GROUP)) >= 3, timeout=SLOW)
            after = await scrape(base)
            stopped = await bot.stop(signal.SIGTERM)  # as docker, systemd and Kubernetes stop it
    finally:
        await api.stop()
    assert stopped == 0  # SIGTERM stops it cleanly, as Ctrl-C does
    assert moved(before, after, "gamehost_moves_total", game="nim", by="person") == 1
    assert moved(before, after, "gamehost_command_seconds_count", platform="telegram", command="join") == 1
    assert value(after, "gamehost_active_games", game="nim") == 1
    assert moved(before, after, "gamehost_render_seconds_count", picture="nim") >= 2


async def _status(url: str) -> int:
    try:
        return (await get(url))[0]
    except OSError:  # not listening yet
        return 0
