"""The AI thinks in worker processes: the event loop keeps answering meanwhile."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.ai import AIRunner
from tests.conftest import ALICE, Clock, close_table, open_table


async def test_the_bot_thinks_in_a_worker_process_not_in_the_hosts(tmp_path: Path) -> None:
    """The bot's move in a game is thought in a worker process: its CPU is spent there, so it never
    holds the event loop's GIL (measured in CPU time, not as the loop's lag on the wall clock,
    which depends on how soon a busy machine runs the bot's process again)."""
    table = await open_table(tmp_path / "g.db", Clock(), ai_workers=1)
    try:
        await table.host.ai.warm_up()
        await table.say(ALICE, "/gomoku solo hard")
        thoughts: list[tuple[dict, float]] = []
        move = table.host.ai.move

        async def watched(*args, **kwargs):  # the host's call to its AI, timed in this process's CPU
            mine = time.process_time()
            text, info = await move(*args, **kwargs)
            thoughts.append((info, time.process_time() - mine))
            return text, info

        table.host.ai.move = watched  # type: ignore[method-assign]
        await table.say(ALICE, "/move h8")
        await table.host.idle()
        assert "Bot (hard) played" in table.delivered[-1].text
        [(info, spent_here)] = thoughts
        assert info["pid"] != os.getpid() and info["cpu"] > 0, info
        assert spent_here < info["cpu"] / 4, (spent_here, info["cpu"])
    finally:
        await close_table(table)


# --- the workers die with the host -----------------------------------------------------------------
def descendants(root: int) -> set[int]:
    """Every living process below `root` (zombies count as gone)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                if fields[0] != "Z":
                    children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] != "Z"
    return False


def wait_for(found, what: str, timeout: float = 60.0):
    """Poll `found()` until true; the timeout only turns a hang into a failure."""
    deadline = time.monotonic() + timeout
    while not (value := found()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return value


def test_the_ai_and_picture_workers_exit_when_the_host_is_killed_with_sigkill(tmp_path: Path) -> None:
    env = {**os.environ, "GAMEHOST_DB": str(tmp_path / "g.db"), "GAMEHOST_IMAGES": str(tmp_path / "img"),
           "GAMEHOST_AI_WORKERS": "2", "GAMEHOST_RENDER_WORKERS": "2"}
    env = {k: v for k, v in env.items() if "TOKEN" not in k}
    host = subprocess.Popen([sys.executable, "-m", "bot.main"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, cwd=Path(__file__).parents[2])
    try:
        # The forkserver, the resource tracker, and the two AI and two picture workers the host warms up at start.
        family = wait_for(lambda: (found := descendants(host.pid)) and len(found) == 6 and found,
                          "the host did not start its AI and picture workers")
    finally:
        host.kill()
        host.wait()
    wait_for(lambda: not any(alive(pid) for pid in family), f"still running after kill -9: {family}")


async def test_a_pool_whose_worker_was_killed_starts_anew(tmp_path: Path) -> None:
    ai = AIRunner(1)
    try:
        await ai.warm_up()
        [worker] = ai._pool.processes()
        os.kill(worker, signal.SIGKILL)
        state = {"heaps": [1, 2], "start": [1, 2], "max": None, "misere": False, "last": None, "turn": 0}
        move, _ = await ai.move("nim", state, 0, "hard", 1)
        assert move == "2 1"
        assert worker not in ai._pool.processes()
    finally:
        ai.close()
