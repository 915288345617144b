"""The web site in a real browser: Debian's headless Chromium driven by Playwright (no browser of
Playwright's own is downloaded), against the site serving a SQLite file of real games on a real
port. It opens the pages at desktop and phone width, steps through replays with the buttons, the
move list and the arrow keys (each picture loaded), switches the language, and finds a private
channel's game unreachable. Screenshots go to $GAMEHOST_SCREENSHOTS when it is set (to look at).

Where there is no Chromium (a fresh machine running the README's test command) these skip with
their reason; under CI (`CI` set, as `.ci/run` runs) they fail instead."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import review
from bot.ai import AIRunner
from bot.host import Host
from bot.web import access
from bot.web.site import Site
from tests.web.games import CONSOLE, PRIVATE, SHOWN, Played

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"viewport": {"width": 1280, "height": 900}, "locale": "en-US"}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
         "locale": "zh-CN"}


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright's Python package is not installed"
    return None


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests need Chromium under CI: {reason}")
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield browser
        await browser.close()


@pytest.fixture
async def url(played: Played) -> AsyncIterator[str]:
    host = Host(played.store, AIRunner(0))
    site = Site(host.core)
    port = await site.start()
    yield f"http://127.0.0.1:{port}"
    await site.stop()
    host.ai.close()


async def shot(page: Any, name: str) -> None:
    where = os.environ.get("GAMEHOST_SCREENSHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


async def opened(context: Any, address: str, status: int = 200) -> Any:
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and status == 200 else None)
    response = await page.goto(address)
    assert response is not None and response.status == status, (address, response and response.status)
    page.errors = errors
    return page


async def board_at(page: Any, ply: int, count: int, said: str = "Move {ply} of {count}") -> None:
    """The replay shows position `ply`: the counter, the picture (loaded, drawn), the move list."""
    await page.wait_for_function(
        "([ply]) => { const img = document.getElementById('board');"
        " return img.complete && img.naturalWidth > 0 && img.src.endsWith('/' + ply + '.png'); }",
        arg=[ply],
    )
    assert await page.inner_text("#counter") == said.format(ply=ply, count=count)
    assert await page.get_attribute(f'#moves a[data-ply="{ply}"]', "aria-current") == "step"
    assert "?ply=" not in page.url or page.url.endswith(f"?ply={ply}")  # as opened, or as stepped to


async def test_pages_and_a_replay_in_chromium(browser: Any, url: str, played: Played) -> None:
    desktop = await browser.new_context(**DESKTOP)
    home = await opened(desktop, url + "/")
    assert await home.inner_text("h1") == "Games, leaderboards and replays"
    await shot(home, "desktop-home")
    links = await home.eval_on_selector_all("ul.games a", "as => as.map(a => a.getAttribute('href'))")
    assert len(links) == 10
    private = (await access.game_ids(played.store, played.sessions[PRIVATE])).values()
    assert not {f"/game/{t}" for t in private} & set(links)

    # a Nim game of the console, stepped by the buttons, the keys and the move list
    nim = played.sessions[CONSOLE][0]
    reviewer = Host(played.store, AIRunner(0))
    await review.reviewed(reviewer.core, nim)  # as /review in chat does: its page then shows the review
    reviewer.ai.close()
    count = len(await played.store.moves(nim.id or 0))
    token = (await access.game_ids(played.store, [nim]))[nim.id or 0]
    await home.click(f'a[href="/game/{token}"]')
    await home.wait_for_load_state()
    await board_at(home, count, count)
    await home.click("#first")
    await board_at(home, 0, count)
    await home.click("#next")
    await board_at(home, 1, count)
    await home.keyboard.press("ArrowRight")
    await board_at(home, 2, count)
    await home.keyboard.press("ArrowLeft")
    await board_at(home, 1, count)
    await home.keyboard.press("End")
    await board_at(home, count, count)
    await home.click('#moves a[data-ply="2"]')
    await board_at(home, 2, count)
    await home.click("#prev")
    await board_at(home, 1, count)
    assert "wins" in await home.inner_text("#result")
    await home.wait_for_function("() => document.querySelector('#review img').naturalWidth > 0")
    await shot(home, "desktop-replay-nim")

    # the language switch: the same position, in Chinese, kept for the next page
    await home.click("#lang-zh")
    await home.wait_for_load_state()
    await board_at(home, 1, count, "第 {ply} 步，共 {count} 步")
    assert "zh" in await home.get_attribute("html", "lang")
    await shot(home, "desktop-replay-nim-zh")
    await home.goto(url + "/leaderboard/nim")
    assert await home.inner_text("h1") == "排行榜 · 拈"
    await shot(home, "desktop-leaderboard-zh")
    assert not home.errors, home.errors

    # a private channel's game: not reachable even by its web id
    for token in private:
        hidden = await opened(desktop, f"{url}/game/{token}", 404)
        assert "找不到页面" in await hidden.inner_text("h1")  # the cookie still says Chinese
    await desktop.close()


async def test_a_phone_reads_chinese_replays_and_players(browser: Any, url: str, played: Played) -> None:
    phone = await browser.new_context(**PHONE)
    home = await opened(phone, url + "/")
    assert await home.inner_text("h1") == "游戏、排行榜与复盘"  # from Accept-Language
    assert await home.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    await shot(home, "phone-home-zh")

    ddz = played.sessions[SHOWN][-1]
    count = len(await played.store.moves(ddz.id or 0))
    token = (await access.game_ids(played.store, [ddz]))[ddz.id or 0]
    replay = await opened(phone, f"{url}/game/{token}")
    await board_at(replay, count, count, "第 {ply} 步，共 {count} 步")
    width = await replay.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert 300 <= width <= 390
    assert await replay.evaluate("document.documentElement.scrollWidth") <= 390
    hands = await replay.inner_text("#hands")
    await shot(replay, "phone-replay-ddz-end-zh")
    await replay.tap("#first")
    await board_at(replay, 0, count, "第 {ply} 步，共 {count} 步")
    assert await replay.inner_text("#hands") != hands  # the hands as dealt, not as they ended
    await replay.tap("#next")
    await board_at(replay, 1, count, "第 {ply} 步，共 {count} 步")
    await shot(replay, "phone-replay-ddz-zh")

    board = await opened(phone, url + "/leaderboard/doudizhu")
    await shot(board, "phone-leaderboard-zh")
    player = re.search(r'href="(/player/[^"]+)"', await board.content())
    assert player is not None
    card = await opened(phone, url + player.group(1))
    assert await card.locator("svg.plot polyline").count() >= 1
    assert await card.evaluate("document.documentElement.scrollWidth") <= 390
    await shot(card, "phone-player-zh")
    for page in (home, replay, board, card):
        assert not page.errors, page.errors
    await phone.close()
