"""`/link CODE` and `/unlink` on a database with a long history, and what the other channels
feel meanwhile, on SQLite and on PostgreSQL.

    nice -n 10 .venv/bin/python -m bench.links [--games 10000,100000] [--backends sqlite,postgres]
    .venv/bin/python -m bench.links --games 2000 --pairs 2 --backends sqlite     # a quick look

For each backend and history size: a fresh database gets that many finished Nim games (written
directly: sessions and results rows between 400 people over months, two of them the accounts to
link), every game rated (`Storage.rebuild_ratings`, timed: "rebuild"), then a host (no pictures,
no AI workers) serves `--channels` other channels, each playing Nim one move every `--pace`
seconds and starting a new game when one ends (so games finish and are rated meanwhile). After
a quiet spell that measures them alone ("others alone"), one account links the other (`/link`,
then `/link CODE`) and later unlinks it (`/unlink`), `--pairs` times. Printed per row:

- command: `/link CODE` and `/unlink` together, the time the host took to answer (n, p50, p99, max);
- re-rated: from the command to the ratings up to date (`Host.idle`: the re-rating in the
  background done; where the command itself re-rates, the command);
- others: the other channels' moves started in those spells (command to ratings up to date),
  p50, p99, max, and how many were answered "storage unavailable" (refused: not applied), against
  "others alone" (p99, max).

The figures depend on the machine's load (printed): the machine these were written on is a
shared 2-core one. Exit status 0; this bench checks no target, it measures (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import secrets
import sqlite3
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

PEOPLE = 400
LINKER, JOINER = "bench:linker", "bench:joiner"  # the accounts that link (each in about 1 % of the games)
HEAPS = "20 20 20 20 20"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if ordered else float("nan")


def history(games: int, seed: int = 34) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """`games` finished Nim games, one every 3 minutes: (sessions rows, results rows)."""
    rng = random.Random(seed)
    sessions, results = [], []
    start = 1_600_000_000.0
    for n in range(1, games + 1):
        at = start + n * 180.0
        roll = rng.random()
        first = LINKER if roll < 0.01 else JOINER if roll < 0.02 else f"bench:p{rng.randrange(PEOPLE)}"
        second = f"bench:p{rng.randrange(PEOPLE)}"
        winner = rng.randrange(2)
        sessions.append((n, f"bench:old{n % 500}", "nim", "finished", '{"heaps": [1]}', n, None, 2, first, 300,
                         at - 600, at))
        for seat, who in enumerate((first, second)):
            won = seat == winner
            results.append((n, seat, who, who.removeprefix("bench:"), "nim", 1 if won else 2,
                            "win" if won else "loss", None, at))
    return sessions, results


SESSION_COLUMNS = ("id", "channel", "game", "status", "options", "seed", "state", "version", "starter",
                   "turn_seconds", "created_at", "updated_at")
RESULT_COLUMNS = ("session_id", "seat", "user_id", "name", "game", "rank", "result", "score", "at")


def fill_sqlite(path: str, games: int) -> None:
    sessions, results = history(games)
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.executemany(f"INSERT INTO sessions ({', '.join(SESSION_COLUMNS)}) VALUES"
                             f" ({', '.join('?' * len(SESSION_COLUMNS))})", sessions)
            conn.executemany(f"INSERT INTO results ({', '.join(RESULT_COLUMNS)}) VALUES"
                             f" ({', '.join('?' * len(RESULT_COLUMNS))})", results)
    finally:
        conn.close()


async def fill_postgres(url: str, games: int) -> None:
    import asyncpg

    sessions, results = history(games)
    conn = await asyncpg.connect(url)
    try:
        await conn.copy_records_to_table("sessions", records=sessions, columns=SESSION_COLUMNS)
        await conn.copy_records_to_table("results", records=results, columns=RESULT_COLUMNS)
        await conn.execute("SELECT setval(pg_get_serial_sequence('sessions', 'id'), (SELECT MAX(id) FROM sessions))")
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def database(backend: str, admin: str) -> AsyncIterator[str]:
    """A new, empty database (its path or URL), removed afterwards."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="bench-links-", dir=os.environ.get("BENCH_DIR")) as where:
            yield str(Path(where) / "games.db")
        return
    import asyncpg

    name = f"gamehost_bench_links_{os.getpid()}_{secrets.token_hex(3)}"
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    try:
        yield urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))
    finally:
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


class Others:
    """`channels` channels playing Nim, one move every `pace` seconds each: (start, seconds) per move."""

    def __init__(self, host: Any, channels: int, pace: float) -> None:
        self.host, self.channels, self.pace = host, channels, pace
        self.times: list[tuple[float, float]] = []
        self.refused: list[float] = []  # when a move was answered "storage unavailable" (not applied)
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def _channel(self, c: int) -> None:
        from bot.model import Event, User

        people = (User(f"bench:o{c}a", f"A{c}"), User(f"bench:o{c}b", f"B{c}"))
        channel, ply = f"bench:other{c}", 0
        await self.host.handle(Event(channel, people[0], f"/nim start {HEAPS} max=1"))
        await self.host.handle(Event(channel, people[1], "/join"))
        while not self._stop.is_set():
            started = time.perf_counter()
            said = await self.host.handle(Event(channel, people[ply % 2], f"/take {ply // 20 + 1} 1"))
            self.times.append((started, time.perf_counter() - started))
            if any("storage is unavailable" in r.text for r in said):
                self.refused.append(started)
                continue  # not applied: the same move again
            ply += 1
            if any("wins" in r.text for r in said):  # a game ended (and was rated): the next one
                ply = 0
                await self.host.handle(Event(channel, people[0], f"/nim start {HEAPS} max=1"))
                await self.host.handle(Event(channel, people[1], "/join"))
            await asyncio.sleep(self.pace)

    def start(self) -> None:
        self._tasks = [asyncio.ensure_future(self._channel(c)) for c in range(self.channels)]

    async def stop(self) -> None:
        self._stop.set()
        await asyncio.gather(*self._tasks)

    def within(self, spells: list[tuple[float, float]]) -> list[float]:
        return [t for started, t in self.times if any(a <= started <= b for a, b in spells)]

    def refused_within(self, spells: list[tuple[float, float]]) -> int:
        return sum(any(a <= started <= b for a, b in spells) for started in self.refused)


async def one(backend: str, games: int, args: argparse.Namespace) -> dict[str, Any]:
    from bot.ai import AIRunner
    from bot.host import Host
    from bot.model import Event, User
    from bot.storage import open_storage

    async with database(backend, args.pg) as where:
        store = await open_storage(where)  # the schema
        await store.close()
        if backend == "sqlite":
            await asyncio.to_thread(fill_sqlite, where, games)
        else:
            await fill_postgres(where, games)
        store = await open_storage(where)
        started = time.perf_counter()
        await store.rebuild_ratings()
        rebuild = time.perf_counter() - started
        host = Host(store, AIRunner(0), draw=lambda game, view, ctx: b"")
        host.attach("bench", lambda channel, replies: asyncio.sleep(0))
        await host.start()
        others = Others(host, args.channels, args.pace)
        others.start()
        linker, joiner = User(LINKER, "Linker"), User(JOINER, "Joiner")
        try:
            quiet_from = time.perf_counter()
            await asyncio.sleep(args.quiet)
            alone = (quiet_from, time.perf_counter())
            commands: list[float] = []
            rerated: list[float] = []
            spells: list[tuple[float, float]] = []
            for _ in range(args.pairs):
                said = await host.handle(Event("bench:linker", linker, "/link"))
                code = re.search(r"code: ([A-Z2-9]{6})", said[0].text)[1]  # type: ignore[index]
                for user, text, expect in ((joiner, f"/link {code}", "share"), (joiner, "/unlink", "own games")):
                    began = time.perf_counter()
                    said = await host.handle(Event("bench:joiner", user, text))
                    commands.append(time.perf_counter() - began)
                    assert expect in said[0].text, said[0].text
                    await host.idle()  # the ratings up to date
                    spells.append((began, time.perf_counter()))
                    rerated.append(spells[-1][1] - began)
                    await asyncio.sleep(args.gap)
        finally:
            await others.stop()
            await host.stop()
            await store.close()
    during, quiet = others.within(spells), others.within([alone])
    return {"backend": backend, "games": games, "rebuild": rebuild, "commands": commands, "rerated": rerated,
            "during": during, "alone": quiet, "refused": others.refused_within(spells)}


def line(r: dict[str, Any]) -> str:
    c, d, a, ms = r["commands"], r["during"], r["alone"], 1000.0
    return " ".join([
        f"{r['backend']:8} {r['games']:>7} games  rebuild {r['rebuild']:6.1f} s  |",
        f"command n={len(c)} p50 {statistics.median(c) * ms:7.1f} p99 {percentile(c, 99) * ms:7.1f}",
        f"max {max(c) * ms:7.1f} ms  |  re-rated p50 {statistics.median(r['rerated']):5.1f}",
        f"max {max(r['rerated']):5.1f} s  |  others during n={len(d)} p50 {percentile(d, 50) * ms:6.1f}",
        f"p99 {percentile(d, 99) * ms:7.1f} max {max(d, default=0) * ms:7.1f} ms, refused {r['refused']};",
        f"alone n={len(a)} p99 {percentile(a, 99) * ms:6.1f} max {max(a, default=0) * ms:6.1f} ms",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10000,100000", help="history sizes, comma-separated")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--pairs", type=int, default=3, help="link and unlink this many times")
    parser.add_argument("--channels", type=int, default=8, help="other channels playing meanwhile")
    parser.add_argument("--pace", type=float, default=0.05, help="seconds between a channel's moves")
    parser.add_argument("--quiet", type=float, default=5.0, help="seconds the others play alone first")
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between commands")
    parser.add_argument("--pg", default=os.environ.get("GAMEHOST_TEST_POSTGRES",
                                                       "postgresql://postgres@127.0.0.1:5432/postgres"))
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.channels} other channels, a move every {args.pace} s each",
          flush=True)
    for games in (int(g) for g in args.games.split(",")):
        for backend in args.backends.split(","):
            print(line(asyncio.run(one(backend, games, args))), f"(load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
