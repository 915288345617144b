"""A database of real games for the web site's tests: played through a real host, move by move
(each a legal move of the game's own list), in a console channel (shown on the web by default),
a Discord channel that allowed the web, and one that did not (private); one Dou Dizhu game still
being played. The names are hostile (markup, right-to-left text, emoji)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from bot.ai import AIRunner
from bot.host import Host
from bot.model import Event, User
from bot.session import Session
from bot.storage import Storage, open_storage
from bot.web.access import WEB
from tests.conftest import Clock

CONSOLE = "console:test"
SHOWN = "discord:100"  # a Discord channel that said /web on
PRIVATE = "discord:200"  # one that did not
GUILD = "discord:guild:7"
HOSTILE = '<script>alert("x")</script>&amp;'


def user(platform: str, name: str, shown: str | None = None) -> User:
    return User(f"{platform}:{name}", shown or name.title(), name, moderator=True)


ALICE, BOB, CAROL = user("console", "alice", HOSTILE), user("console", "bob", "Bob \u202e🎲"), user("console", "carol")
DAN, ERIN, FAY = user("discord", "dan"), user("discord", "erin", "Erin 小红"), user("discord", "fay", "Secret Fay")


@dataclass
class Played:
    """What was played, by channel: the sessions, newest last."""

    store: Storage
    sessions: dict[str, list[Session]] = field(default_factory=dict)
    active: Session | None = None  # a Dou Dizhu game not finished


def _tiny(game: str, view: object, ctx: object) -> bytes:
    return b"\x89PNG not drawn"  # the filling host's pictures are never looked at


async def play_out(host: Host, channel: str, people: dict[int, User], place: str | None, rng: random.Random,
                   most: int = 400, stop_at: int | None = None) -> Session:
    """Legal moves, chosen by `rng`, until the game ends (or `stop_at` moves)."""
    for ply in range(most):
        session = await host.store.active(channel)
        if session is None or (stop_at is not None and ply >= stop_at):
            break
        game = host.games[session.game]
        state = game.from_json(session.state)
        seat = game.to_move(state)
        move = rng.choice(game.legal_moves(state, seat))
        replies = await host.handle(Event(channel, people[seat], f"/move {game.move_text(state, move)}", place=place))
        assert replies and "Use /" not in replies[0].text, replies
    return await host.store.latest(channel)


async def table(host: Host, channel: str, place: str | None, opener: User, others: list[User], command: str) -> None:
    await host.handle(Event(channel, opener, command, place=place))
    for other in others:
        await host.handle(Event(channel, other, "/join", place=place))
    if len(others) > 1:
        await host.handle(Event(channel, opener, "/go", place=place))


async def fill(db: Path | str, clock: Clock) -> Played:
    """Play the games into `db` (and close the host that played them)."""
    store = await open_storage(str(db))
    host = Host(store, AIRunner(0), clock=clock, draw=_tiny)
    host.attach("console", _drop)
    host.attach("discord", _drop)
    await host.start()
    rng = random.Random(7)
    played = Played(store)
    try:
        await store.set_setting(SHOWN, WEB, "on")
        for channel, place, (a, b, c) in ((CONSOLE, "console", (ALICE, BOB, CAROL)), (SHOWN, GUILD, (DAN, ERIN, FAY)),
                                          (PRIVATE, GUILD, (FAY, DAN, ERIN))):
            sessions = played.sessions.setdefault(channel, [])
            for opener, other in ((a, b), (b, a), (a, b)):
                await table(host, channel, place, opener, [other], "/nim start 3 4 5")
                clock.advance(60)
                sessions.append(await play_out(host, channel, {0: opener, 1: other}, place, rng))
            if channel == PRIVATE:
                continue
            await table(host, channel, place, a, [b], "/gomoku start")
            sessions.append(await play_out(host, channel, {0: a, 1: b}, place, rng, stop_at=9))
            await host.handle(Event(channel, b, "/resign", place=place))
            sessions[-1] = await store.latest(channel)
            clock.advance(60)
            await table(host, channel, place, a, [b, c], "/doudizhu start")
            sessions.append(await play_out(host, channel, {0: a, 1: b, 2: c}, place, rng))
            clock.advance(60)
        await table(host, CONSOLE, "console", ALICE, [BOB, CAROL], "/doudizhu start")
        played.active = await play_out(host, CONSOLE, {0: ALICE, 1: BOB, 2: CAROL}, "console", rng, stop_at=6)
    finally:
        await host.stop()
        host.ai.close()
    return played


async def _drop(channel: str, replies: list) -> None:
    pass
