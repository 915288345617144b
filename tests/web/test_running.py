"""The real `gamehost` command with the web site: off unless asked (the quickstart opens no port);
with `--web-port` and `--web-url`, a console game played to its end is linked from its result and
served at that link, and the site's port serves no `/metrics`."""

from __future__ import annotations

import asyncio
import re
import socket
import sys
from pathlib import Path

from aiohttp import ClientSession

from bot.config import load
from tests.support.running import ROOT, SLOW, environment


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_site_is_off_unless_a_port_is_given() -> None:
    settings = load([])
    assert settings.web_port is None and settings.web_url is None and settings.web_listen == "127.0.0.1"
    assert load(["--web-port", "8080", "--web-url", "https://example.org/games/"]).web_port == 8080


async def test_a_console_game_is_linked_and_served(tmp_path: Path) -> None:
    port = free_port()
    env = environment(tmp_path, GAMEHOST_WEB_PORT=str(port), GAMEHOST_WEB_URL="https://example.org/games/")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.main", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    site = f"http://127.0.0.1:{port}"
    try:
        async with ClientSession() as http:
            async with asyncio.timeout(SLOW):
                while True:  # up once the bot is
                    try:
                        async with http.get(site + "/") as response:
                            assert response.status == 200
                            break
                    except OSError:
                        await asyncio.sleep(0.2)
            process.stdin.write(b"/nim start 1\n/as bob\njoin\n/as alice\ntake 1 1\n")
            await process.stdin.drain()
            out, found = b"", None
            async with asyncio.timeout(SLOW):
                while found is None:
                    out += await process.stdout.read(4096)
                    found = re.search(rb"Replay: https://example\.org/games(/game/[\w-]{22})", out)
            async with http.get(site + found.group(1).decode()) as response:
                assert response.status == 200 and "took the last stone" in await response.text()
            async with http.get(site + "/metrics") as response:
                assert response.status == 404
    finally:
        process.stdin.close()
        async with asyncio.timeout(SLOW):
            await process.wait()
