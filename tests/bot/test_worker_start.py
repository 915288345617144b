"""The worker processes start without holding up an answer, and stop without a word.

Starting them takes seconds (the forkserver imports the program, each worker loads its fonts or
games): meanwhile the bot answers at once, pictures included; only a bot's move waits for its
worker. Ctrl-C in a terminal reaches the whole process group: the workers ignore it and leave
with the host, so no traceback of theirs is printed.
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import render
from bot.pictures import Pictures
from tests.bot.test_ai_pool import alive, descendants, wait_for
from tests.conftest import ALICE, Clock, close_table, open_table, until

ROOT = Path(__file__).parents[2]
PNG = b"\x89PNG"


def load_when_let_go(go: str) -> None:
    """In a picture worker, as it starts: wait until the file `go` exists, then load as usual."""
    while not os.path.exists(go):
        time.sleep(0.01)
    render.load_all()


async def test_while_the_picture_workers_start_the_bot_answers_with_its_pictures(tmp_path: Path) -> None:
    """The picture workers' start is held until the test lets it go: the answers, board picture
    included, come meanwhile (on the old code the picture waited behind the start: a hang)."""
    go = tmp_path / "go"
    pictures = Pictures(1, load=functools.partial(load_when_let_go, str(go)))
    table = await open_table(tmp_path / "g.db", Clock(), pictures=pictures)  # starts the workers
    try:
        async with asyncio.timeout(60):  # only turns a hang into a failure
            helped = await table.say(ALICE, "/help")
            assert helped and "/rules" in helped[0].text
            started = await table.say(ALICE, "/nim solo 3 4 5")
            assert any(r.image and r.image.startswith(PNG) for r in started), started
            moved = await table.say(ALICE, "/take 1 1")
            assert any(r.image and r.image.startswith(PNG) for r in moved), moved
        assert pictures.warming and not go.exists()  # all that while, the worker had not started
        go.touch()
        await until(lambda: not pictures.warming)
        [worker] = pictures.processes()
        assert alive(worker)
        async with asyncio.timeout(60):
            shown = await table.say(ALICE, "/board")  # drawn by the worker now
        assert any(r.image and r.image.startswith(PNG) for r in shown), shown
    finally:
        go.touch()
        await close_table(table)
        pictures.close()


def test_ctrl_c_stops_the_console_bot_and_its_workers_without_a_traceback(tmp_path: Path) -> None:
    """SIGINT to the process group, as a terminal's Ctrl-C sends it, once the workers are up: the
    host stops, the workers leave with it, and stderr holds no KeyboardInterrupt of theirs."""
    env = {k: v for k, v in os.environ.items() if "TOKEN" not in k and not k.startswith("GAMEHOST_")}
    env |= {"GAMEHOST_DB": str(tmp_path / "g.db"), "GAMEHOST_IMAGES": str(tmp_path / "img"),
            "GAMEHOST_AI_WORKERS": "1", "GAMEHOST_RENDER_WORKERS": "1", "GAMEHOST_LOG_LEVEL": "DEBUG"}
    host = subprocess.Popen([sys.executable, "-m", "bot.main"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env, cwd=ROOT, start_new_session=True)
    said: list[bytes] = []
    reader = threading.Thread(target=lambda: said.extend(iter(host.stderr.readline, b"")))  # type: ignore[union-attr]
    reader.start()
    try:
        ready = (b"1 ai worker processes ready", b"1 pictures worker processes ready")
        wait_for(lambda: all(any(r in line for line in said[:]) for r in ready), "the workers did not start",
                 timeout=120)
        family = descendants(host.pid)  # the forkserver, the resource tracker and the two workers
        assert len(family) == 4, family
        os.killpg(host.pid, signal.SIGINT)
        host.wait(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        reader.join()
    logs = b"".join(said).decode(errors="replace")
    assert host.returncode == 0, logs[-3000:]
    assert "KeyboardInterrupt" not in logs and "Traceback" not in logs, logs[-3000:]
    wait_for(lambda: not any(alive(pid) for pid in family), f"still running after Ctrl-C: {family}")
