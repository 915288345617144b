"""Discord's numbers on the operations endpoint, with the real discord.py against the stand-in:
a 429 waited out is counted with its seconds, a refused call is counted, and /readyz follows the
gateway connection (ready while connected, not once Discord is gone)."""

from __future__ import annotations

import contextlib
import json

import aiohttp

from bot.ops import Ops
from tests.conftest import until
from tests.discord.conftest import Bot, board_saying, first_channel, run
from tests.discord.fake import ALICE, BOB, FakeDiscord
from tests.support.ops import get, moved, scrape


async def test_rate_limit_waits_errors_and_readiness(fake: FakeDiscord, bot: Bot) -> None:
    server = Ops(bot.store, {"discord": bot.discord.readiness}, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{await server.start()}"
    try:
        status, body = await get(f"{base}/readyz")
        assert status == 200 and json.loads(body) == {"ready": True, "storage": "up", "discord": "up"}
        channel = first_channel(fake)
        before = await scrape(base)
        await run(fake, ALICE, "nim start", channel, heaps="3 4")
        fake.rate_limit("POST", rf"channels/{channel}/messages", count=1, retry_after=0.25)
        await run(fake, BOB, "join", channel)
        await board_saying(fake, channel, "Nim begins: Alice vs Bob")
        after = await scrape(base)
        assert moved(before, after, "gamehost_rate_limit_waits_total", platform="discord") == 1
        assert moved(before, after, "gamehost_rate_limit_wait_seconds_total", platform="discord") == 0.25
        assert moved(before, after, "gamehost_moves_total", game="nim", by="person") == 0
        assert moved(before, after, "gamehost_command_seconds_count", platform="discord", command="join") == 1
        await fake.close()  # Discord goes away: the gateway connection drops
        await until(lambda: not bot.discord.connected())
        status, body = await get(f"{base}/readyz")
        assert status == 503 and json.loads(body)["discord"] == "down"
        assert (await get(f"{base}/healthz"))[0] == 200
        with contextlib.suppress(aiohttp.ClientError):
            await bot.discord.client.fetch_user(1)  # no answer: counted
        errors = await scrape(base)
        assert moved(after, errors, "gamehost_platform_errors_total", platform="discord",
                     kind="ClientConnectorError") >= 1  # its reconnecting may add more
    finally:
        await server.stop()
