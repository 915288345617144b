"""One gamehost host in a process of its own, driven through JSON lines: the several-processes
test runs two of these on one PostgreSQL database.

    python -m tests.support.hostproc URL --lease 3 [--stuck-ai] [--publish ok|stuck]

In (stdin), one object a line, each handled at once (several at a time, as a platform's
events are): {"id": 1, "channel": "console:c1", "user": "alice", "text": "/nim start"}, or
"button" instead of "text"; {"advance": 400} moves this process's clock and wakes its timers.
Out (stdout): {"ready": pid}; {"id": 1, "replies": [{"text", "buttons", "reader"}]} when the
host has answered; {"delivered": channel, "texts": [...]} for what the host said unasked (a
bot's move, a timeout). `--stuck-ai`: the bots of this process think forever (so it holds
their turns until it dies). `--publish`: channels "shown:..." are on a platform that publishes
through the outbox: {"published": channel, "text": ...} for each public reply it shows (`ok`),
or one that never answers (`stuck`: the process holds its outbox rows until it dies). Pictures
are not drawn: the test reads only text.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from bot.ai import AIRunner
from bot.host import Host
from bot.model import Event, Reply, User
from bot.storage import open_storage


class Clock:
    """The host's clock, moved only by the test ({"advance": seconds})."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class StuckAI(AIRunner):
    """Bots that never find their move."""

    async def move(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()


def out(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def user(name: str) -> User:
    return User(f"console:{name}", name.title(), name)


def shown(replies: list[Reply]) -> list[dict[str, Any]]:
    return [{"text": r.text, "reader": r.reader, "buttons": [{"id": b.id, "command": b.command}
                                                                   for b in r.buttons]} for r in replies]


async def main(url: str, lease: float, stuck_ai: bool, publishing: str | None) -> None:
    clock = Clock()
    store = await open_storage(url)
    host = Host(store, StuckAI(0) if stuck_ai else AIRunner(0), clock=clock, lease_seconds=lease,
                draw=lambda game, view, context: b"")

    async def deliver(channel: str, replies: list[Reply]) -> None:
        out({"delivered": channel, "texts": [r.text for r in replies]})

    host.attach("console", deliver)

    async def publish(channel: str, reply: Reply, ids: list[str], key: str) -> None:
        if publishing == "stuck":
            await asyncio.Event().wait()
        out({"published": channel, "text": reply.text})
        ids.append("1")

    if publishing is not None:
        host.attach("shown", deliver, publish)
    await host.start()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: set[asyncio.Task[None]] = set()

    async def handle(request: dict[str, Any]) -> None:
        event = Event(request["channel"], user(request["user"]), request.get("text", ""), request.get("button"))
        out({"id": request["id"], "replies": shown(await host.handle(event))})

    out({"ready": os.getpid()})
    while line := await reader.readline():
        request = json.loads(line)
        if "advance" in request:
            clock.advance(request["advance"])
            host.autoplay.wake()
            out({"advanced": clock()})
            continue
        task = asyncio.ensure_future(handle(request))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await host.stop()
    host.ai.close()
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--lease", type=float, default=3.0)
    parser.add_argument("--stuck-ai", action="store_true")
    parser.add_argument("--publish", choices=["ok", "stuck"])
    arguments = parser.parse_args()
    asyncio.run(main(arguments.url, arguments.lease, arguments.stuck_ai, arguments.publish))
