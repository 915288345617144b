"""Fuzz the host: random events against a real `Host` on a real SQLite file.

    nice -n 5 .venv/bin/python -m bench.fuzz --events 1000000 --seed 1 --db /dev/shm/fuzz.db

Every event goes through `Host.handle` as an adapter would send it: hostile unicode (the
alphabet of `tests/support/hostile.py`: right-to-left text, zero-width and bidi characters, emoji,
controls, lone surrogates, digits `int()` refuses, up to 100k characters), random commands
of the help with random and hostile options, random users (hostile display names, some
moderators) in channels of the three platforms, all four games, buttons from old replies
and forged ones, time passing (timers, lobbies, watched games), and a host restart now and
then. Interleaved is legal play: the person to move plays a legal move (asked of the
game's engine), so games go on to their end, are rated, and `/stats`, `/leaderboard`,
`/replay`, `/rematch` have something to show.

The AI is a stub that plays a random legal move (seeded by the game, so runs repeat);
real pictures are drawn for a share of the boards (`--pictures`, 0.02 by default: the
others get a placeholder PNG), so the renderers see hostile names too.

Checked: no exception escapes `Host.handle` or the background work (bots' turns,
timers: their logged errors count too); every reply is a `Reply` with text or a picture,
encodes as UTF-8 and has no bidi override; and at the end, every session replays from its
moves to its stored state, no channel has two active sessions, and SQLite's integrity and
foreign-key checks pass. Printed: events per second, each distinct escape with the event
that caused it, the slowest events, the longest reply. Exit status 1 on any escape or
failed invariant. The same `--seed` gives the same events and the same games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import logging
import os
import random
import re
import secrets
import sqlite3
import subprocess
import sys
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engines
import engines.review
import render
from bot import command_table
from bot.host import Host
from bot.info import replay
from bot.model import CONSOLE, DISCORD, TELEGRAM, Event, Everyone, NotSecret, Private, Reply, User
from bot.session import SessionStatus
from bot.storage import open_storage
from engines.checkers.board import TIP_DISTANCE
from engines.checkers.state import GOAL_POINT
from tests.support import hostile

GAMES = engines.all_games()
WORDS_OF_GAMES = sorted({w for g in GAMES.values() for w in (g.name, *g.aliases)})
HOST_WORDS = sorted(command_table.HOST_COMMANDS)
GAME_ACTIONS = sorted(command_table.GAME_ACTIONS)
VOCABULARY = command_table.vocabulary(GAMES.values())
OTHER_WORDS = sorted(VOCABULARY.commands)  # 认输, 过, ...
GAME_WORDS = sorted({w for g in GAMES.values() for w in (*g.move_words, *g.queries)})
CODE = re.compile(r"\b([A-HJ-NP-Z2-9]{6})\b")
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
SLOW = 0.25  # seconds: an event slower than this is listed


def placeholder_png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4), "white").save(out, "PNG")
    return out.getvalue()


def pick(game: Any, state: Any, seat: int, rng: random.Random) -> str:
    """A random legal move, as typed. In Chinese Checkers mostly one of those that go furthest
    towards the goal: random play there reaches the 200-round cap (1,200 moves at six seats)."""
    moves = game.legal_moves(state, seat)
    if game.name == "checkers" and rng.random() < 0.8:
        table = TIP_DISTANCE[GOAL_POINT[state.seats][seat]]
        gains = [table[m.path[0]] - table[m.path[-1]] for m in moves]
        best = max(gains)
        moves = [m for m, gain in zip(moves, gains, strict=True) if gain == best]
    return game.move_text(state, rng.choice(moves))


class StubAI:
    """Plays a random legal move (see `pick`), chosen with the game's AI seed (so a run repeats)."""

    workers = 0

    def __init__(self) -> None:
        self.moves = 0

    async def move(self, game: str, state: Any, seat: int, level: str, seed: int, limit: Any = None):
        g = engines.get(game)
        s = g.from_json(state)
        self.moves += 1
        return pick(g, s, seat, random.Random(seed)), {}

    async def review(self, record: Any) -> Any:
        """A real review of a finished game, at a small budget (replies are checked here, not reviews)."""
        return engines.review.run(record, 200)

    async def warm_up(self) -> None:
        pass

    def close(self) -> None:
        pass


class SomePictures:
    """Real pictures for a share of the boards and standings, drawn in place; a placeholder for the rest."""

    workers = 0

    def __init__(self, share: float, seed: int) -> None:
        self.share, self.rng = share, random.Random(seed)
        self.drawn = self.skipped = 0
        self.png = placeholder_png()

    async def draw(self, game: str, view: Any, ctx: Any) -> bytes:
        return await self.call(render.draw, game, view, ctx)

    async def call(self, draw: Any, *args: Any) -> bytes:
        if self.rng.random() < self.share:
            self.drawn += 1
            return draw(*args)
        self.skipped += 1
        return self.png

    async def warm_up(self) -> None:
        pass

    def processes(self) -> list[int]:
        return []

    def close(self) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class Errors(logging.Handler):
    """Every error the host logged (a swallowed exception in background work counts as an escape)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Findings:
    escapes: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # key -> (count, event, traceback)
    bad_replies: dict[str, tuple[int, str]] = field(default_factory=dict)
    invariants: list[str] = field(default_factory=list)
    slow: list[tuple[float, int, str]] = field(default_factory=list)
    longest: tuple[int, str, str] = (0, "", "")  # length, event, reply's start
    kinds: Counter[str] = field(default_factory=Counter)
    replies: int = 0

    def escape(self, key: str, event: str, trace: str) -> None:
        count, first, tb = self.escapes.get(key, (0, event, trace))
        self.escapes[key] = (count + 1, first, tb)

    def bad(self, key: str, example: str) -> None:
        count, first = self.bad_replies.get(key, (0, example))
        self.bad_replies[key] = (count + 1, first)


def short(text: str, most: int = 160) -> str:
    shown = text.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= most else shown[:most] + f"…(+{len(shown) - most})"


def describe(event: Event) -> str:
    what = f"button={event.button!r}" if event.button is not None else f"text={event.text!r}"
    return short(f"{event.channel} {event.user.id} name={event.user.name!r} {what}", 300)


def check_replies(found: Findings, replies: Any, origin: Callable[[], str]) -> None:
    """`origin()` says what the replies answered (made only when needed: it costs)."""
    if not isinstance(replies, list):
        found.bad("not a list", origin())
        return
    for reply in replies:
        found.replies += 1
        if not isinstance(reply, Reply):
            found.bad("not a Reply", origin())
            continue
        if not (reply.text or reply.image):
            found.bad("empty reply", origin())
        if not isinstance(reply.audience, Everyone | NotSecret | Private) or reply.reader == "":
            found.bad("a reply for nobody in particular", origin() + " -> " + repr(reply.audience))
        try:
            reply.text.encode("utf-8")
            for b in reply.buttons:
                b.label.encode("utf-8")
        except UnicodeEncodeError:
            found.bad("text that cannot be sent (lone surrogate)", origin() + " -> " + short(reply.text))
        if BIDI.search(reply.text):
            found.bad("bidi override in a reply", origin() + " -> " + short(reply.text))
        if len(reply.text) > found.longest[0]:
            found.longest = (len(reply.text), origin(), short(reply.text, 120))


# --- the world: channels, people, what they saw ----------------------------------------------
@dataclass
class Channel:
    id: str
    platform: str
    place: str | None
    people: list[User]
    buttons: deque[str] = field(default_factory=lambda: deque(maxlen=64))


def make_world(rng: random.Random, channels: int, prefix: str) -> tuple[list[Channel], dict[str, User], list[str]]:
    platforms = (CONSOLE, DISCORD, TELEGRAM)
    people: dict[str, list[User]] = {p: [] for p in platforms}
    for p in platforms:
        for i in range(12):
            handle = f"{prefix}{p[0]}{i}" if rng.random() < 0.9 else rng.choice(("", "x" * 70, "a.b", "名字"))
            people[p].append(User(f"{p}:{prefix}u{i}", hostile.name(rng), handle or None, rng.random() < 0.15))
    world = []
    for i in range(channels):
        p = platforms[i % 3]
        place = f"discord:guild:{i % 2}" if p == DISCORD else None
        world.append(Channel(f"{p}:{prefix}c{i}", p, place, rng.sample(people[p], 6)))
    everyone = {u.id: u for us in people.values() for u in us}
    return world, everyone, []


# --- what people type ------------------------------------------------------------------------
def option_words(rng: random.Random, game: Any) -> list[str]:
    words: list[str] = []
    for option in game.options:
        if rng.random() < 0.5:
            continue
        if option.flag:
            words.append(rng.choice([option.name, *option.spellings, f"{option.name}=on", f"{option.name}=no"]))
        elif option.choices:
            value = rng.choice([*option.choices, *option.spellings])
            words.append(str(value) if rng.random() < 0.7 else f"{option.name}={value}")
        else:
            for _ in range(rng.randint(1, max(1, option.many or 1))):
                n = rng.randint(option.low, min(option.high, 9)) if rng.random() < 0.9 else rng.randint(-3, 10**6)
                words.append(str(n) if option.bare and rng.random() < 0.8 else f"{option.name}={n}")
    if rng.random() < 0.2:
        words.append(rng.choice(("timer=90", "timer=5m", "timer=1h", "timer=0", "timer=9999h", "timer=²")))
    if rng.random() < 0.1:
        words.append(hostile.text(rng, 3))
    return words


def arguments(rng: random.Random, ch: Channel, name: str, codes: list[str]) -> list[str]:
    """Arguments for a host command: mostly sensible, sometimes hostile."""
    if rng.random() < 0.15:
        return [hostile.text(rng, 6) for _ in range(rng.randint(1, 4))]
    if name in ("stats",) and rng.random() < 0.6:
        return [f"@{rng.choice(ch.people).handle}"]
    if name == "leaderboard":
        return [w for w in (rng.choice([None, *WORDS_OF_GAMES]), rng.choice([None, "here", "global"]),
                            rng.choice([None, "2", "0", "99"])) if w]
    if name == "replay":
        return [rng.choice(("0", "1", "3", "10", "-1", "²", "99999", "1" * 30))] if rng.random() < 0.8 else []
    if name == "board":
        return [rng.choice(("numbers", "x"))] if rng.random() < 0.3 else []
    if name == "link":
        if codes and rng.random() < 0.6:
            return [rng.choice(codes)]
        return [rng.choice(("ABCDEF", "abc-def", "222222", "Ｚ２３４５６"))] if rng.random() < 0.5 else []
    if name == "hints":
        return [rng.choice(("on", "off", "maybe"))]
    if name == "lang":
        return [rng.choice(("zh", "en", "en", "fr", "ZH"))]
    if name == "rules":
        return [rng.choice(WORDS_OF_GAMES)] if rng.random() < 0.7 else []
    return []


def game_command(rng: random.Random, ch: Channel, user: User) -> str:
    game = GAMES[rng.choice(sorted(GAMES))]
    word = rng.choice((game.name, *game.aliases))
    action = rng.choices(("start", "solo", "challenge", "watch", "rules", "leaderboard"), (5, 3, 4, 1, 1, 1))[0]
    args = option_words(rng, game)
    if action == "solo" and rng.random() < 0.7:
        args.insert(0, rng.choice(list(game.levels)))
    if action == "watch":
        args += [rng.choice(list(game.levels)) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.5:
            args.append(f"every={rng.choice((1, 3, 60, 0, 500))}")
    if action == "challenge":
        other = rng.choice([p for p in ch.people if p is not user] or ch.people)
        args.insert(0, f"@{other.handle}" if rng.random() < 0.9 else "@nobody")
    zh = rng.random() < 0.1 and command_table.name_in("zh", action)
    return " ".join([f"/{word}", zh or action, *args])


def junk(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        return hostile.text(rng, 30)  # chat: not a command
    if roll < 0.8:
        return "/" + hostile.text(rng, 20)
    word = rng.choice([*HOST_WORDS, *OTHER_WORDS, *GAME_WORDS, *WORDS_OF_GAMES])
    return f"/{word} " + " ".join(hostile.text(rng, 5) for _ in range(rng.randint(1, 5)))


def forged_button(rng: random.Random, ch: Channel) -> str:
    roll = rng.random()
    command = rng.choice([*HOST_WORDS, "leaderboard nim 2", "move h8", "move 1 1", "accept", hostile.text(rng, 4)])
    if roll < 0.3:
        return f"{rng.randint(0, 10**6)}.{rng.choice(('*', str(rng.randint(0, 40))))}.{command}"
    if roll < 0.5:
        return f"0.*.{command}"
    if roll < 0.7 and ch.buttons:  # a real button's session with another command
        session = ch.buttons[-1].split(".")[0]
        return f"{session}.*.{command}"
    return hostile.text(rng, 12)


# --- the run ---------------------------------------------------------------------------------
class Fuzz:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.found = Findings()
        self.clock = Clock()
        self.channels, self.people, self.codes = make_world(self.rng, args.channels, args.prefix)
        self.locales = {u: self.rng.choice((None, None, "en", "zh-CN", "en-US", "fr")) for u in sorted(self.people)}
        self.pictures = SomePictures(args.pictures, args.seed + 1)
        self.ai = StubAI()
        self.errors = Errors()
        self.delivered = 0
        self.restarts = 0

    async def open(self) -> None:
        self.store = await open_storage(self.args.db)
        self.host = Host(self.store, self.ai, clock=self.clock, pictures=self.pictures,  # type: ignore[arg-type]
                         bot_name="gamehost_bot")
        for platform in (CONSOLE, DISCORD, TELEGRAM):
            self.host.attach(platform, self.deliver)

    async def close(self) -> None:
        await self.settle("close")
        await self.host.autoplay.stop()
        await self.store.close()

    async def deliver(self, channel: str, replies: list[Reply]) -> None:
        self.delivered += 1
        check_replies(self.found, replies, lambda: f"delivered to {channel}")
        ch = next((c for c in self.channels if c.id == channel), None)
        if ch is not None:
            ch.buttons.extend(b.id for r in replies for b in r.buttons)

    async def settle(self, origin: str | Callable[[], str]) -> None:
        """Let every bot's turn and background task this event started finish (so runs repeat)."""
        autoplay = self.host.autoplay
        while autoplay.thinking or autoplay._tasks:
            results = await asyncio.gather(*autoplay.thinking.values(), *autoplay._tasks, return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException):
                    trace = "".join(traceback.format_exception(result))
                    where = origin if isinstance(origin, str) else origin()
                    self.found.escape(f"background: {type(result).__name__}: {result}"[:200], where, trace)

    async def handle(self, event: Event) -> list[Reply]:
        def origin() -> str:
            return describe(event)

        started = time.perf_counter()
        try:
            replies = await self.host.handle(event)
        except Exception as error:  # what the fuzzer is for
            frame = traceback.extract_tb(error.__traceback__)[-1]
            key = f"{type(error).__name__}: {str(error)[:80]} at {os.path.basename(frame.filename)}:{frame.lineno}"
            self.found.escape(key, origin(), traceback.format_exc())
            replies = []
        else:
            check_replies(self.found, replies, origin)
        await self.settle(origin)
        took = time.perf_counter() - started
        if took > SLOW:
            self.found.slow.append((took, self.n, origin()))
        ch = next(c for c in self.channels if c.id == event.channel)
        for reply in replies if isinstance(replies, list) else ():
            if isinstance(reply, Reply):
                ch.buttons.extend(b.id for b in reply.buttons)
                if reply.private and (m := CODE.search(reply.text or "")):
                    self.codes.append(m[1])
                    del self.codes[:-20]
        return replies

    def event(self, ch: Channel, user: User, text: str = "", button: str | None = None) -> Event:
        mentions = {}
        for word in text.split()[:8]:
            if word.startswith("@"):
                person = next((p for p in self.people.values() if p.handle == word[1:]), None)
                if person is not None and ch.platform != TELEGRAM:  # Telegram sends @handles as text
                    mentions[word] = person
        locale = self.locales[user.id]  # a person's client keeps its language, mostly
        if self.rng.random() < 0.03:
            locale = self.rng.choice((None, "en", "zh-CN", "zh-TW", "fr", "", hostile.text(self.rng, 2)))
        return Event(ch.id, user, text, button, mentions, locale, ch.place)

    async def step(self, n: int) -> None:
        self.n = n
        rng = self.rng
        ch = rng.choice(self.channels)
        user = rng.choice(ch.people) if rng.random() < 0.95 else rng.choice(list(self.people.values()))
        self.clock.now += rng.random() * 2
        kind = rng.choices(("play", "junk", "command", "game", "button", "time", "long", "restart"),
                           (26, 45, 15, 4, 8, 1, 0.2, 0.02))[0]
        self.found.kinds[kind] += 1
        if kind == "play":
            await self.play(ch)
        elif kind == "junk":
            await self.handle(self.event(ch, user, junk(rng)))
        elif kind == "command":
            name = rng.choice([*HOST_WORDS, *GAME_WORDS, *OTHER_WORDS])
            text = " ".join([f"/{name}", *arguments(rng, ch, VOCABULARY.commands.get(name, name), self.codes)])
            if rng.random() < 0.05:
                text = text.replace("/", f"/{rng.choice(('', '@gamehost_bot', '@other_bot'))}", 1)
                text = text.replace(" ", "@gamehost_bot ", 1) if "@" not in text else text
            await self.handle(self.event(ch, user, text))
        elif kind == "game":
            await self.handle(self.event(ch, user, game_command(rng, ch, user)))
        elif kind == "button":
            pressed = rng.choice(ch.buttons) if ch.buttons and rng.random() < 0.7 else forged_button(rng, ch)
            await self.handle(self.event(ch, user, button=pressed))
        elif kind == "time":
            self.clock.now += rng.choice((5, 60, 100, 400, 1000, 4000))
            try:
                await self.host.expire_due()
            except Exception:
                self.found.escape("expire_due: " + traceback.format_exc().splitlines()[-1][:150], "time passes",
                                  traceback.format_exc())
            await self.settle("time passes")
        elif kind == "long":
            length = rng.choice((1001, 5000, 20_000, 100_000))
            text = hostile.long_text(rng, length)
            await self.handle(self.event(ch, user, rng.choice(("/move ", "/", "", "/nim start ")) + text))
        elif kind == "restart":
            self.restarts += 1
            await self.close()
            await self.open()

    async def play(self, ch: Channel) -> None:
        """Move the channel's game on: a legal move by the person to move; join, accept, go; or a new game."""
        rng = self.rng
        session = await self.store.active(ch.id)
        if session is None:
            if rng.random() < 0.3:  # a look at what the last table left (one that never began, say)
                word = rng.choice(("/board", "/board", "/record", "/replay", "/replay 1", "/hint", "/rematch", "/棋盘"))
                await self.handle(self.event(ch, rng.choice(ch.people), word))
                return
            starter = rng.choice(ch.people)
            await self.handle(self.event(ch, starter, game_command(rng, ch, starter)))
            return
        game = GAMES[session.game]
        if session.status == SessionStatus.LOBBY:
            waiting = [s for s in session.seats if s.user_id is not None and not s.accepted]
            seated = {s.user_id for s in session.seats}
            if waiting:
                who = self.people.get(waiting[0].user_id or "")
                if who is not None:
                    word = rng.choice(("/accept", "/accept", "/decline"))
                    await self.handle(self.event(ch, who, word))
                    return
            if any(s.user_id is None and s.ai_level is None for s in session.seats) and rng.random() < 0.8:
                free = [p for p in ch.people if p.id not in seated]
                if free:
                    await self.handle(self.event(ch, rng.choice(free), rng.choice(("/join", "/join", "/加入"))))
                    return
            starter = self.people.get(session.starter)
            word = rng.choice(("/go", "/go", "/cancel"))
            await self.handle(self.event(ch, starter or rng.choice(ch.people), word))
            return
        state = game.from_json(session.state)
        seat = game.to_move(state)
        if seat is None:
            return
        player = session.seats[seat]
        if player.user_id is None or player.user_id not in self.people:
            # A bot's seat waiting for its deadline (a watched game): let it come.
            self.clock.now = max(self.clock.now, session.deadline or self.clock.now)
            await self.host.expire_due()
            await self.settle("time passes for a bot")
            return
        user = self.people[player.user_id]
        if rng.random() < 0.04:  # the others' words now and then: offers, resign, look-ups
            word = rng.choice(("/undo", "/draw", "/restart", "/resign", "/hint", "/hand", "/board", "/record",
                               "/back", "/accept", "/decline", "/rematch"))
            who = self.people.get(rng.choice(session.seats).user_id or "", user)
            await self.handle(self.event(ch, who, word))
            return
        move = pick(game, state, seat, rng)
        words = [w for w, prefix in game.move_words.items() if prefix == "" or move.startswith(prefix)]
        word = rng.choice(["move", "move", *words]) if words else "move"
        if word != "move" and game.move_words[word] and move.startswith(game.move_words[word]):
            move = move[len(game.move_words[word]):].strip()
        await self.handle(self.event(ch, user, f"/{word} {move}".strip()))

    # --- the invariants ----------------------------------------------------------------
    async def check(self) -> None:
        found = self.found
        conn = sqlite3.connect(self.args.db)
        try:
            integrity = conn.execute("PRAGMA integrity_check").fetchall()
            if integrity != [("ok",)]:
                found.invariants.append(f"integrity_check: {integrity[:5]}")
            keys = conn.execute("PRAGMA foreign_key_check").fetchall()
            if keys:
                found.invariants.append(f"foreign_key_check: {keys[:5]}")
            doubled = conn.execute("SELECT channel, COUNT(*) FROM sessions WHERE status IN ('lobby', 'playing') "
                                   "GROUP BY channel HAVING COUNT(*) > 1").fetchall()
            for channel, count in doubled:
                found.invariants.append(f"{channel} has {count} active sessions")
            ids = [row[0] for row in conn.execute("SELECT id FROM sessions WHERE state IS NOT NULL ORDER BY id")]
        finally:
            conn.close()
        self.replayed = 0
        for session_id in ids:
            session = await self.store.get(session_id)
            if session is None:
                found.invariants.append(f"session {session_id} cannot be read")
                continue
            game = GAMES[session.game]
            moves = await self.store.moves(session_id)
            if [m.ply for m in moves] != list(range(len(moves))) or len(moves) != session.ply:
                found.invariants.append(f"session {session_id}: plies {[m.ply for m in moves][:8]}… "
                                        f"but ply {session.ply}")
                continue
            try:
                state = game.to_json(replay(game, session, moves))
            except Exception as error:
                found.invariants.append(f"session {session_id} ({session.game}) does not replay: {error!r}")
                continue
            if json.loads(json.dumps(state)) != json.loads(json.dumps(session.state)):
                found.invariants.append(f"session {session_id} ({session.game}): replayed state differs")
            self.replayed += 1


@contextlib.contextmanager
def seeded_secrets(seed: int) -> Iterator[None]:
    """Game seeds, link codes and lease owners come from `secrets`: seeded meanwhile, so runs repeat."""
    rng = random.Random(seed ^ 0x5EED)
    saved = secrets.randbits, secrets.choice, secrets.token_hex
    secrets.randbits, secrets.choice = rng.getrandbits, rng.choice  # type: ignore[assignment]
    secrets.token_hex = lambda n=16: rng.randbytes(n).hex()  # type: ignore[assignment]
    try:
        yield
    finally:
        secrets.randbits, secrets.choice, secrets.token_hex = saved  # type: ignore[assignment]


def report(fuzz: Fuzz, events: int, seconds: float, out: Any = None) -> bool:
    out = out or sys.stdout
    found = fuzz.found
    errors = fuzz.errors.records
    print(f"\n{events} events in {seconds:.1f} s: {events / max(seconds, 1e-9):.0f} events/s "
          f"(seed {fuzz.args.seed}, {len(fuzz.channels)} channels, {len(fuzz.people)} people)", file=out)
    print("events by kind: " + ", ".join(f"{k} {v}" for k, v in found.kinds.most_common()), file=out)
    conn = sqlite3.connect(fuzz.args.db)
    games = conn.execute("SELECT game, status, COUNT(*) FROM sessions GROUP BY game, status ORDER BY 1, 2").fetchall()
    moves = conn.execute("SELECT COUNT(*), SUM(by_ai) FROM moves").fetchone()
    conn.close()
    print("sessions: " + ", ".join(f"{g} {s} {c}" for g, s, c in games), file=out)
    print(f"moves: {moves[0]} ({moves[1] or 0} by the stub AI: a random legal move, not the real AI); "
          f"replies {found.replies}, deliveries {fuzz.delivered}; host restarts {fuzz.restarts}", file=out)
    print(f"pictures: {fuzz.pictures.drawn} drawn for real, {fuzz.pictures.skipped} placeholders "
          f"(share {fuzz.args.pictures})", file=out)
    print(f"longest reply: {found.longest[0]} characters, to {found.longest[1]}: {found.longest[2]}", file=out)
    print(f"slow events (> {SLOW} s): {len(found.slow)}", file=out)
    for took, n, origin in sorted(found.slow, reverse=True)[:8]:
        print(f"  {took:.2f} s  event #{n}: {origin}", file=out)
    escapes = sum(c for c, _, _ in found.escapes.values())
    print(f"escaped exceptions: {escapes} ({len(found.escapes)} distinct)", file=out)
    for key, (count, event, trace) in found.escapes.items():
        print(f"  {count} x {key}\n    first at: {event}\n" + "".join(f"    | {line}\n" for line in
                                                                  trace.splitlines()[-12:]), file=out)
    print(f"errors logged by the host: {len(errors)}", file=out)
    for key, count in Counter(f"{r.name}: {r.getMessage()[:120]}" for r in errors).most_common(10):
        print(f"  {count} x {key}", file=out)
    for record in errors[:3]:
        if record.exc_info:
            print("    | " + "".join(traceback.format_exception(*record.exc_info)).replace("\n", "\n    | "),
                  file=out)
    bad = sum(c for c, _ in found.bad_replies.values())
    print(f"malformed replies: {bad}", file=out)
    for key, (count, example) in found.bad_replies.items():
        print(f"  {count} x {key}: {example}", file=out)
    print(f"invariants: {fuzz.replayed} sessions replayed from their moves; "
          f"{len(found.invariants)} failures", file=out)
    for line in found.invariants[:20]:
        print(f"  {line}", file=out)
    ok = not (escapes or errors or bad or found.invariants)
    summary = {"events": events, "seconds": round(seconds, 1), "escapes": escapes, "errors": len(errors),
               "malformed": bad, "invariants": len(found.invariants), "replayed": fuzz.replayed,
               "moves": moves[0], "pictures": fuzz.pictures.drawn}
    print("SUMMARY " + json.dumps(summary), file=out)
    print("OK" if ok else "FAILED", file=out)
    return ok


async def run(args: argparse.Namespace) -> bool:
    with seeded_secrets(args.seed):
        return await _run(args)


async def _run(args: argparse.Namespace) -> bool:
    fuzz = Fuzz(args)
    logging.getLogger().addHandler(fuzz.errors)
    await fuzz.open()
    started = time.perf_counter()
    try:
        for n in range(1, args.events + 1):
            await fuzz.step(n)
            if args.progress and n % args.progress == 0:
                took = time.perf_counter() - started
                escapes = sum(c for c, _, _ in fuzz.found.escapes.values())
                print(f"{n} events, {took:.0f} s, {n / took:.0f}/s, escapes {escapes}, "
                      f"errors {len(fuzz.errors.records)}", flush=True)
        seconds = time.perf_counter() - started
        await fuzz.check()
    finally:
        await fuzz.close()
        logging.getLogger().removeHandler(fuzz.errors)
    return report(fuzz, args.events, seconds)


def arguments_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--channels", type=int, default=24, help="channels, spread over the three platforms")
    parser.add_argument("--prefix", default="f", help="ids' prefix (several runs on one database stay apart)")
    parser.add_argument("--db", default="/dev/shm/gamehost-fuzz.db", help="the SQLite file (a fresh one)")
    parser.add_argument("--pictures", type=float, default=0.02, help="share of pictures drawn for real")
    parser.add_argument("--progress", type=int, default=0, help="print a line every this many events")
    parser.add_argument("--keep", action="store_true", help="keep an existing database file")
    parser.add_argument("--jobs", type=int, default=1, help="processes, each with its share of the events")
    return parser


def several(args: argparse.Namespace) -> int:
    """`--jobs N`: N processes, each with its own seed, ids and database, the events split among
    them; their logs are `<db>.<i>.log`; the figures are summed."""
    started = time.perf_counter()
    children = []
    for i in range(args.jobs):
        events = args.events // args.jobs + (i < args.events % args.jobs)
        db = f"{args.db}.{i}"
        command = [sys.executable, "-m", "bench.fuzz", "--events", str(events), "--seed", str(args.seed + i),
                   "--prefix", f"{args.prefix}{i}-", "--db", db, "--channels", str(args.channels),
                   "--pictures", str(args.pictures), "--progress", str(args.progress)]
        print(" ".join(command), flush=True)
        log = open(f"{db}.log", "w")  # noqa: SIM115 (closed below)
        children.append((subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT), log, f"{db}.log"))
    total: Counter[str] = Counter()
    failed = 0
    for child, log, path in children:
        failed += child.wait() != 0
        log.close()
        lines = Path(path).read_text().splitlines()
        found = [json.loads(line[8:]) for line in lines if line.startswith("SUMMARY ")]
        if not found:
            print(f"{path}: no summary (exit {child.returncode}); its end:\n" + "\n".join(lines[-30:]))
            failed += 1
            continue
        print(f"{path}: " + json.dumps(found[0]))
        total.update({k: v for k, v in found[0].items() if k != "seconds"})
    seconds = time.perf_counter() - started
    print(f"\n{args.jobs} processes: {total['events']} events in {seconds:.0f} s ({total['events'] / seconds:.0f} "
          f"events/s together); escaped exceptions {total['escapes']}, errors logged {total['errors']}, "
          f"malformed replies {total['malformed']}, invariant failures {total['invariants']} "
          f"({total['replayed']} sessions replayed), {total['moves']} moves, {total['pictures']} pictures drawn")
    print("OK" if not failed else "FAILED")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args = arguments_parser().parse_args(argv)
    if args.jobs > 1:
        return several(args)
    if not args.keep:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(args.db + suffix):
                os.remove(args.db + suffix)
    logging.getLogger().setLevel(logging.ERROR)  # only the fuzzer's handler hears them (no console output)
    return 0 if asyncio.run(run(args)) else 1


if __name__ == "__main__":
    sys.exit(main())
