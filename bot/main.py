"""`gamehost`: start the bot on the configured platforms (with no tokens: the console).

What stops it from starting (a database it must not use, a refused token, a network
that stayed down) is printed as one line, and it exits non-zero.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from pathlib import Path
from typing import Any

from bot import ladder, startup
from bot.adapters.console import Console
from bot.ai import AIRunner
from bot.config import Settings, load
from bot.host import Host
from bot.startup import StartFailed
from bot.store import StorageUnavailable, Store


async def rebuild_ratings(settings: Settings) -> None:
    """`gamehost --rebuild-ratings`: every rating again from the results, in one transaction (a
    running bot may stay up: its games wait for the transaction, then go on with the new ratings)."""
    store = await Store.open(settings.db)
    try:
        games = await ladder.rebuild(store)
    finally:
        await store.close()
    print(f"gamehost: rated {games} games again from the results in {settings.db}")


async def run(settings: Settings) -> None:
    if settings.rebuild_ratings:
        await rebuild_ratings(settings)
        return
    store = await Store.open(settings.db)
    ai = AIRunner(settings.ai_workers)
    host = Host(store, ai, turn_seconds=settings.turn_seconds, lobby_seconds=settings.lobby_seconds,
                language=settings.language)  # fmt: skip
    platforms: list[Any] = []  # adapters with start() and stop(), running alongside the console
    if settings.telegram_token:
        from bot.adapters.telegram import Telegram

        platforms.append(Telegram.from_settings(host, settings))
    if settings.discord_token:
        from bot.adapters.discord import DiscordBot

        platforms.append(DiscordBot.from_settings(host, settings))
    try:
        await host.start()
        for platform in platforms:
            await startup.start(platform, settings.start_attempts)
        if settings.wants_console:
            await Console(host, Path(settings.images), settings.name).run()
        else:
            await asyncio.Event().wait()  # serve until Ctrl-C or a signal
    finally:
        for platform in reversed(platforms):
            with contextlib.suppress(Exception):
                await platform.stop()
        await host.stop()
        ai.close()
        await store.close()


def main(argv: list[str] | None = None) -> None:
    settings = load(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how people stop it
            asyncio.run(run(settings))
    except (StartFailed, StorageUnavailable) as error:
        sys.exit(f"gamehost: {error}")


if __name__ == "__main__":
    main()
