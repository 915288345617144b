"""Host time per accepted move, with the SQLite commit, at 100 concurrent channels,
against a bare aiosqlite UPSERT of the same session row; and the Nim picture.

    .venv/bin/python -m bench.host [--channels 100] [--moves 20]

Every channel holds a Nim game between two people who move as fast as the host
answers; all channels play at once. "host core" leaves the picture out (a no-op
renderer), "host + picture" is what a player waits for. Figures are for the machine
it runs on; the ratios are measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

import aiosqlite

from bot.ai import AIRunner
from bot.host import Host
from bot.i18n import Translator
from bot.model import Event, User
from bot.storage.sqlite import SQLiteStorage as Store
from engines.nim import Nim
from render.base import RenderContext
from render.nim import render

ALICE, BOB = User("bench:alice", "Alice"), User("bench:bob", "Bob")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def line(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return f"{name:<28} median {statistics.median(ms):7.2f} ms   p99 {percentile(ms, 99):7.2f} ms   n={len(ms)}"


async def host_moves(db: Path, channels: int, moves: int, with_picture: bool) -> tuple[list[float], float]:
    """Per-move times and the wall time of all the moves."""
    store = await Store.open(str(db))
    draw = None if with_picture else (lambda game, view, ctx: b"")
    host = Host(store, AIRunner(0), **({} if draw is None else {"draw": draw}))
    heaps = "20 20 20 20 20"  # a common board: 5 heaps of 20 (20 moves of one stone never end it)
    for c in range(channels):
        await host.handle(Event(f"bench:{c}", ALICE, f"/nim start {heaps}"))
        await host.handle(Event(f"bench:{c}", BOB, "/join"))
    times: list[float] = []

    async def play(c: int) -> None:
        for i in range(moves):
            player = ALICE if i % 2 == 0 else BOB
            started = time.perf_counter()
            replies = await host.handle(Event(f"bench:{c}", player, f"/take {i % 5 + 1} 1"))
            times.append(time.perf_counter() - started)
            assert "took 1 stone" in replies[0].text, replies[0].text

    started = time.perf_counter()
    await asyncio.gather(*(play(c) for c in range(channels)))
    wall = time.perf_counter() - started
    await host.stop()
    host.ai.close()
    await store.close()
    return times, wall


async def bare_upserts(db: Path, channels: int, moves: int) -> tuple[list[float], float]:
    """The same row written the simplest way: one UPSERT, committed, per move."""
    conn = await aiosqlite.connect(str(db), isolation_level=None)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    await conn.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY, channel TEXT, state TEXT, version INTEGER)")
    state = json.dumps({"heaps": [20] * 5, "start": [20] * 5, "max": None, "misere": False, "last": None,
                        "turn": 0})  # fmt: skip
    times: list[float] = []

    async def play(c: int) -> None:
        for i in range(moves):
            started = time.perf_counter()
            await conn.execute(
                "INSERT INTO sessions (id, channel, state, version) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE"
                " SET state=excluded.state, version=excluded.version",
                (c, f"bench:{c}", state, i),
            )
            times.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(play(c) for c in range(channels)))
    wall = time.perf_counter() - started
    await conn.close()
    return times, wall


def picture_figures(repeat: int = 200) -> tuple[list[float], int]:
    nim = Nim()
    state = nim.new_state({"heaps": [3, 4, 5, 7, 12], "max": None, "misere": False}, 2, 1)
    state = nim.apply(state, 0, nim.parse_move(state, 0, "4 3"))
    ctx = RenderContext(("Alice 张伟", "Bob 😀"), nim.to_move(state), None, Translator())
    view = nim.view(state, None)
    png = render(view, ctx)  # warm the font caches
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        png = render(view, ctx)
        times.append(time.perf_counter() - started)
    return times, len(png)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()

    times, size = picture_figures()
    print(f"Nim picture: median {statistics.median(times) * 1000:.1f} ms, {size / 1024:.1f} KB PNG (800 px wide)")
    with tempfile.TemporaryDirectory() as tmp:
        bare = await bare_upserts(Path(tmp) / "bare.db", args.channels, args.moves)
        core = await host_moves(Path(tmp) / "core.db", args.channels, args.moves, with_picture=False)
        full = await host_moves(Path(tmp) / "full.db", args.channels, args.moves, with_picture=True)
        alone = await host_moves(Path(tmp) / "alone.db", 1, args.moves * 5, with_picture=False)
        alone_full = await host_moves(Path(tmp) / "alone_full.db", 1, args.moves * 5, with_picture=True)
    print(f"{args.channels} channels playing at once, {args.moves} moves each:")
    for name, (times, wall) in (("bare aiosqlite UPSERT", bare), ("host core (no picture)", core),
                                ("host + picture", full)):  # fmt: skip
        print(f"{line(name, times)}   {len(times) / wall:6.0f} moves/s")
    print(f"ratio host core / bare UPSERT: median {statistics.median(core[0]) / statistics.median(bare[0]):.1f}x,"
          f" p99 {percentile(core[0], 99) / percentile(bare[0], 99):.1f}x")  # fmt: skip
    print("one channel alone (no queue behind other channels):")
    print(line("host core (no picture)", alone[0]))
    print(line("host + picture", alone_full[0]))


if __name__ == "__main__":
    asyncio.run(main())
