"""The real `gamehost` command in a process of its own, its stderr (the logs) read as it writes
them, stopped by Ctrl-C (SIGINT) as a person stops it: for the tests that look at what the whole
program logs or serves."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SLOW = 120.0  # seconds a stand-in may wait for the process: only turns a hang into a failure (a cold
# start imports everything and loads the fonts, which takes long on a loaded machine)


@dataclass
class Gamehost:
    process: asyncio.subprocess.Process
    _err: list[bytes] = field(default_factory=list)
    _out: list[bytes] = field(default_factory=list)

    @property
    def logs(self) -> str:
        return b"".join(self._err).decode(errors="replace")

    @property
    def stdout(self) -> str:
        return b"".join(self._out).decode(errors="replace")

    async def stop(self, how: signal.Signals = signal.SIGINT) -> int:
        if self.process.returncode is None:
            self.process.send_signal(how)
        return await asyncio.wait_for(self.process.wait(), 60)


def environment(tmp_path: Path, **env: str) -> dict[str, str]:
    """This test run's environment without any token or gamehost setting of the machine's, a new
    SQLite file, no worker processes, then `env`."""
    mine = {k: v for k, v in os.environ.items() if "TOKEN" not in k and not k.startswith("GAMEHOST_")
            and k != "DATABASE_URL"}
    return {**mine, "GAMEHOST_DB": str(tmp_path / "g.db"), "GAMEHOST_AI_WORKERS": "0",
            "GAMEHOST_RENDER_WORKERS": "0", **env}


@asynccontextmanager
async def gamehost(tmp_path: Path, *args: str, **env: str) -> AsyncIterator[Gamehost]:
    """`gamehost *args` running with `env` (see `environment`); stopped on the way out."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.main", *args, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=environment(tmp_path, **env),
    )
    running = Gamehost(process)

    async def drain(stream: asyncio.StreamReader | None, into: list[bytes]) -> None:
        while stream is not None and (chunk := await stream.read(65536)):
            into.append(chunk)  # read as it comes: a full pipe would stop the bot mid-write

    readers = [asyncio.ensure_future(drain(process.stderr, running._err)),
               asyncio.ensure_future(drain(process.stdout, running._out))]
    try:
        yield running
    finally:
        try:
            await running.stop()
        except TimeoutError:
            process.kill()
            await process.wait()
        await asyncio.gather(*readers)
