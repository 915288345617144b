"""A tournament's page: a Swiss of four Nim bots played through the host in a console channel
(shown by default): the standings, every round's games linked to their replays, the tournament
linked from its games' pages; hidden with its channel, and never before it begins."""

from __future__ import annotations

import asyncio
import re

from aiohttp.test_utils import TestClient, TestServer

from bot.web import access
from bot.web.site import Site
from tests.conftest import ALICE, BOB, Table
from tests.web.test_pages import page


async def test_a_tournaments_page(table: Table) -> None:
    await table.say(ALICE, "/nim tournament swiss 3 4")
    await table.say(ALICE, "/withdraw")  # bots only: it plays itself out
    for _ in range(4):
        await table.say(BOB, "/join bot easy")
    event = await table.store.event_latest(table.channel)
    assert event is not None and event.id is not None
    token = (await access.ids(table.store, access.EVENT, [str(event.id)]))[str(event.id)]
    async with TestClient(TestServer(Site(table.host.core).app())) as client:
        await page(client, f"/tournament/{token}", 404)  # not begun
        assert "/tournament/" not in await page(client, "/")
        await table.say(ALICE, "/go")
        async with asyncio.timeout(120):
            while (event := await table.store.event_latest(table.channel)).status.active:
                await asyncio.sleep(0.05)
        html = await page(client, f"/tournament/{token}")
        assert "Nim" in html and "Round 1" in html and html.count("<tr>") == 4 + 1
        games = re.findall(r'href="/game/([\w-]{22})"', html)
        assert len(games) == len([g for g in event.games if g.session_id is not None]) >= 4
        assert f'href="/tournament/{token}"' in await page(client, f"/game/{games[0]}")
        assert "锦标赛" in await page(client, f"/game/{games[0]}?lang=zh")
        home = await page(client, "/?lang=en")  # the start page lists it, linked
        assert f'href="/tournament/{token}"' in home and "Nim Swiss" in home and "over · 4 players" in home
        assert "结束 · 4 名选手" in await page(client, "/?lang=zh")
        await table.store.set_setting(table.channel, access.WEB, "off")
        await page(client, f"/tournament/{token}", 404)
        assert "/tournament/" not in await page(client, "/")
        await page(client, "/tournament/AAAAAAAAAAAAAAAAAAAAAA", 404)
