"""`gamehost`: start the bot on the configured platforms (with no tokens: the console).

What stops it from starting (a database it must not use, a refused token, a network
that stayed down) is printed as one line, and it exits non-zero.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot import logs, rating_store, startup
from bot.adapters.console import Console
from bot.ai import AIRunner
from bot.config import Settings, load
from bot.host import Host
from bot.ops import Ops
from bot.pictures import Pictures
from bot.startup import StartFailed
from bot.storage import StorageUnavailable, is_postgres, open_storage
from bot.web.site import Site

log = logging.getLogger("gamehost")


async def rebuild_ratings(settings: Settings) -> None:
    """`gamehost --rebuild-ratings`: every rating again from the results, in one transaction (a
    running bot, or several sharing PostgreSQL, may stay up: their finishing games wait for it,
    then go on with the new ratings)."""
    store = await open_storage(settings.db, pool_size=1)
    try:
        games = await rating_store.rebuild(store)
    finally:
        await store.close()
    print(f"gamehost: rated {games} games again from the results in {where(settings.db)}")


def where(db: str) -> str:
    """The database as it may be shown: a URL without its password."""
    if is_postgres(db):
        from bot.storage.pgdriver import shown

        return shown(db)
    return db


async def run(settings: Settings) -> None:
    if settings.rebuild_ratings:
        await rebuild_ratings(settings)
        return
    store = await open_storage(settings.db, pool_size=settings.db_pool)
    ai = AIRunner(settings.ai_workers)
    pictures = Pictures(settings.render_workers)
    host = Host(store, ai, turn_seconds=settings.turn_seconds, lobby_seconds=settings.lobby_seconds,
                language=settings.language, lease_seconds=settings.lease_seconds, pictures=pictures)
    host.core.web_url = settings.web_url
    platforms: list[Any] = []  # adapters with start() and stop(), running alongside the console
    if settings.telegram_token:
        from bot.adapters.telegram import Telegram

        platforms.append(Telegram.from_settings(host, settings))
    if settings.discord_token:
        from bot.adapters.discord import DiscordBot

        platforms.append(DiscordBot.from_settings(host, settings))
    # Attached before the host starts: it resumes the timers and bots' turns of these platforms only.
    console = Console(host, Path(settings.images), settings.name) if settings.wants_console else None
    ops = None
    if settings.metrics_port is not None:  # live at once; ready when the storage and every platform are up
        ops = Ops(store, {p.name: p.readiness for p in platforms}, settings.metrics_listen, settings.metrics_port)
    site = Site(host.core, settings.web_url, settings.web_listen, settings.web_port) \
        if settings.web_port is not None else None
    try:
        if ops is not None:
            await ops.start()
        if site is not None:
            await site.start()
        await host.start()
        for platform in platforms:
            await startup.start(platform, settings.start_attempts)
        log.info("gamehost is up: games in %s, platforms: %s", where(settings.db),
                 ", ".join([p.name for p in platforms] + (["console"] if console is not None else [])))
        await serve(console)
    finally:
        log.info("gamehost is stopping")
        for platform in reversed(platforms):
            with contextlib.suppress(Exception):
                await platform.stop()
        await host.stop()
        if site is not None:
            await site.stop()
        if ops is not None:
            await ops.stop()
        ai.close()
        pictures.close()
        await store.close()


async def serve(console: Console | None) -> None:
    """Until the console ends, Ctrl-C, or SIGTERM (how docker, systemd and Kubernetes stop a
    service): each then stops the platforms and closes the store on the way out."""
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopped.set)
    tasks: set[asyncio.Future[Any]] = {asyncio.ensure_future(stopped.wait())}
    if console is not None:
        tasks.add(asyncio.ensure_future(console.run()))
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()  # the console's own error, if it had one
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def main(argv: list[str] | None = None) -> None:
    try:
        settings = load(sys.argv[1:] if argv is None else argv)
    except ValidationError as error:  # one line per bad setting, no traceback
        sys.exit("\n".join(f"gamehost: {_setting_error(e)}" for e in error.errors()))
    logs.setup(settings.log_level, settings.log_format, settings.secrets)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how people stop it
            asyncio.run(run(settings))
    except (StartFailed, StorageUnavailable) as error:
        _let_threads_finish()  # their last log lines first, so the one line stays whole and last
        sys.exit(logs.clean(f"gamehost: {error}"))


def _let_threads_finish(timeout: float = 5.0) -> None:
    """Wait (briefly) for the threads still running, such as aiosqlite's after its database was
    closed: one logs its last line after the close has returned, and would cut into ours."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join(timeout)


def _setting_error(error: Any) -> str:
    where = ".".join(map(str, error["loc"]))
    reason = error["msg"].removeprefix("Value error, ")
    return f"{where}: {reason}" if where else reason


if __name__ == "__main__":
    main()
