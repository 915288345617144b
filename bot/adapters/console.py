"""The console bot: one channel in a terminal, any number of people at one keyboard.

`/as bob` switches who is typing. Replies are printed with the board as text;
pictures go to a folder; buttons are shown as the commands they stand for; a
private reply is printed marked with whom it is for. The console speaks the
channel's language: `--language`, or what `/lang` chose.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import sys
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from bot.host import Host
from bot.i18n import translator
from bot.model import CONSOLE, Event, Reply, User
from engines.base import msg

CHANNEL = f"{CONSOLE}:main"
# The console's own words: who types (/as bob, /换人 bob) and leaving.
AS, QUIT = ("as", "换人"), ("quit", "exit", "退出")


def console_user(name: str) -> User:
    # Local people are trusted: anyone at the keyboard may moderate.
    return User(f"{CONSOLE}:{name.lower()}", name, name.lower(), moderator=True)


async def stdin_lines() -> AsyncIterator[str]:
    """The lines typed, read by a daemon thread: Ctrl-C stops the bot without waiting for a line."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read() -> None:
        for line in itertools.chain(iter(sys.stdin.readline, ""), [""]):  # "": the end of the input
            with contextlib.suppress(RuntimeError):  # the bot stopped meanwhile: nobody reads it
                loop.call_soon_threadsafe(lines.put_nowait, line)

    threading.Thread(target=read, name="stdin", daemon=True).start()
    while line := await lines.get():
        yield line


class Console:
    def __init__(
        self, host: Host, images: Path, name: str = "alice", write: Callable[[str], None] | None = None
    ) -> None:
        self.host = host
        self.images = images
        self.user = console_user(name)
        self.write = write or _print
        # Go on numbering after the pictures of earlier runs instead of overwriting them.
        self._pictures = max((int(p.name[:6]) for p in images.glob("[0-9]" * 6 + "-*.png")), default=0)
        host.attach(CONSOLE, self.deliver)

    @property
    def prompt(self) -> str:
        return f"{self.user.name}> "

    async def run(self, lines: AsyncIterator[str] | None = None) -> None:
        tr = await self.host.translator(CHANNEL)
        self.write(tr(msg("console.welcome", name=self.user.name, images=str(self.images))))
        if await self.host.has_game(CHANNEL):
            self.write(tr(msg("console.resumed")))
            board = await self.host.handle(Event(CHANNEL, self.user, "/board", place=CONSOLE), self.show)
            if any(button.command == "/hand" for reply in board for button in reply.buttons):
                await self.say("/hand")  # a game of hidden hands goes on: the typist's own hand too
        self.write(self.prompt)
        async for line in lines or stdin_lines():
            if not await self.say(line):
                break
            self.write(self.prompt)
        await self.host.idle()  # let a bot that is thinking finish its move before we leave

    async def say(self, line: str) -> bool:
        """Handle one typed line; False when the user wants to leave."""
        line = line.strip()
        if not line:
            return True
        if not line.startswith("/"):
            # Everything typed here is for the bot: "join" is /join, and "h8" is /move h8.
            first = line.split()[0]
            line = "/" + line if self.host.knows(first) or first.lower() in (*AS, *QUIT) else "/move " + line
        word, _, rest = line[1:].partition(" ")
        if word.lower() in QUIT:
            return False
        if word.lower() in AS:
            tr = await self.host.translator(CHANNEL)
            name = rest.strip().lstrip("@")
            if not re.fullmatch(r"[\w.-]{1,32}", name):
                self.write(tr(msg("console.as_usage")))
            else:
                self.user = console_user(name)
                self.write(tr(msg("console.now", name=name)))
            return True
        mentions = {token: console_user(token[1:]) for token in re.findall(r"@[\w.-]{1,32}", line)}
        await self.host.handle(Event(CHANNEL, self.user, line, mentions=mentions, place=CONSOLE), self.show)
        return True

    async def deliver(self, channel: str, replies: list[Reply]) -> None:
        self.write("")
        await self.show(replies)
        self.write(self.prompt)

    async def show(self, replies: list[Reply]) -> None:
        for reply in replies:
            lines = []
            if reply.private:  # one terminal for everyone: a secret is printed marked with whose it is
                who = (reply.reader or "").partition(":")[2]
                lines.append(translator(reply.language or self.host.tr.language)(msg("console.private", name=who)))
            lines += reply.text.splitlines()
            if reply.text_board:
                lines += ["", *reply.text_board.splitlines(), ""]
            if reply.image is not None:
                lines.append("🖼  " + self._save(reply))
            if reply.buttons:
                lines.append("   ".join(f"[{b.label}: {b.command}]" for b in reply.buttons))
            prefix = "  🔒 " if reply.private else "  "
            self.write("\n".join(prefix + line for line in lines))

    def _save(self, reply: Reply) -> str:
        self.images.mkdir(parents=True, exist_ok=True)
        self._pictures += 1
        path = self.images / f"{self._pictures:06d}-{reply.image_name}"
        path.write_bytes(reply.image or b"")
        return str(path)


def _print(text: str) -> None:
    end = "" if text.endswith("> ") else "\n"
    try:
        print(text, end=end, flush=True)
    except BrokenPipeError:  # its reader left (`gamehost | head`): the games go on unseen, as Python's docs advise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
