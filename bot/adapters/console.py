"""The console bot: one terminal, any number of people at one keyboard.

`/as bob` switches who is typing. The console's channel is "console:main"; a tournament's games
of a round are played at once, each in a table of its own ("console:1", "console:2", …: the
console's `open_place`): `/switch` lists the tables with a game on, `/switch 2` types into table 2,
`/switch 0` back to the console's channel; what is said at a table the typist is not at is printed
under its name. Replies are printed with the board as text;
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
# The console's own words: who types (/as bob, /换人 bob), which table (/switch 2, /切换 2) and leaving.
AS, SWITCH, QUIT = ("as", "换人"), ("switch", "切换"), ("quit", "exit", "退出")
PLACES = "places"  # the console's note: {"next": the next table's number, "names": channel -> its name}


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
        self.channel = CHANNEL  # where what is typed goes: the console's channel or one of its tables
        self.notes = host.notes(CONSOLE)
        self.places: dict[str, str] = {}  # a table's channel -> its name, as `open_place` made them
        host.attach(CONSOLE, self.deliver, open_place=self.open_place)

    @property
    def prompt(self) -> str:
        table = self.channel.partition(":")[2]
        return f"{self.user.name}> " if self.channel == CHANNEL else f"{self.user.name} @{table}> "

    async def open_place(self, channel: str, name: str) -> str | None:
        """A table of its own for one game (a tournament's): the next "console:<n>"."""
        saved = await self.notes.get(CHANNEL, PLACES) or {}
        number = int(saved.get("next", 1))
        place = f"{CONSOLE}:{number}"
        self.places = {**saved.get("names", {}), place: name}
        await self.notes.put(CHANNEL, PLACES, {"next": number + 1, "names": self.places})
        return place

    async def run(self, lines: AsyncIterator[str] | None = None) -> None:
        tr = await self.host.translator(CHANNEL)
        self.write(tr(msg("console.welcome", name=self.user.name, images=str(self.images))))
        self.places = dict(((await self.notes.get(CHANNEL, PLACES)) or {}).get("names", {}))
        if await self._tables():
            self.write(await self._listing(tr))  # a round's games were going on: where they are
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
            line = "/" + line if self.host.knows(first) or first.lower() in (*AS, *SWITCH, *QUIT) else "/move " + line
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
        if word.lower() in SWITCH:
            await self._switch(rest.strip())
            return True
        mentions = {token: console_user(token[1:]) for token in re.findall(r"@[\w.-]{1,32}", line)}
        await self.host.handle(Event(self.channel, self.user, line, mentions=mentions, place=CONSOLE), self.show)
        return True

    async def _switch(self, which: str) -> None:
        """`/switch`: the tables with a game on; `/switch N`: type into table N (0: the console's channel)."""
        tr = await self.host.translator(CHANNEL)
        if not which:
            self.write(await self._listing(tr))
            return
        place = CHANNEL if which == "0" else f"{CONSOLE}:{which}"
        if place != CHANNEL and place not in self.places:
            self.write(tr(msg("console.no_table", table=which)))
            return
        self.channel = place
        self.write(tr(msg("console.switched", table=which, name=self.places.get(place, ""))) if place != CHANNEL
                   else tr(msg("console.switched_main")))
        if await self.host.has_game(place):
            await self.host.handle(Event(place, self.user, "/board", place=CONSOLE), self.show)

    async def _tables(self) -> list[str]:
        """The tables with a game on, first made first."""
        return [p for p in sorted(self.places, key=lambda c: int(c.partition(":")[2])) if await self.host.has_game(p)]

    async def _listing(self, tr: Callable[..., str]) -> str:
        lines = [tr(msg("console.tables_none" if not await self._tables() else "console.tables"))]
        lines.append(("→ " if self.channel == CHANNEL else "  ") + tr(msg("console.table_main")))
        for place in await self._tables():
            mark = "→ " if place == self.channel else "  "
            lines.append(mark + tr(msg("console.table", table=place.partition(":")[2], name=self.places[place])))
        return "\n".join(lines)

    async def deliver(self, channel: str, replies: list[Reply]) -> None:
        self.write("")
        if channel != self.channel and channel in self.places:  # another table's: said under its name
            tr = await self.host.translator(CHANNEL)
            self.write(tr(msg("console.at_table", table=channel.partition(":")[2], name=self.places[channel])))
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
