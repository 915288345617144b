"""A stand-in Discord on 127.0.0.1: the REST API and the gateway websocket, written with aiohttp.

It knows just enough of Discord for the real discord.py client: login, the
application, command sync, the gateway (HELLO, IDENTIFY, READY, GUILD_CREATE,
heartbeats), interactions (slash commands, autocomplete, button clicks) with
their callbacks, follow-ups and original responses, and channel messages with
attachments and components. It also plays the people: `slash` and `click` send
interactions as a user would, built from the commands the bot synced (so an
option the bot did not declare cannot be used). Like Discord it refuses a
callback after 3 seconds or a second callback, and a first follow-up after a
deferred "thinking" replaces that message.

It refuses what Discord refuses: a message (posted, an interaction's response or
follow-up, or an edit) over Discord's documented limits, listed in
tests/discord/refusals.py (content 2,000 characters, 5 action rows of 5 buttons,
labels 80, custom ids 1-100 and unique, embeds, attachments that do not match
what the payload declares), with 400 and code 50035 (50006 for an empty message),
kept in `refused`; a command sync Discord refuses (`_invalid_commands`).
`rate_limit` makes a route answer 429 as Discord does (the JSON body with
`retry_after` and `global`, the `Retry-After` and `X-RateLimit-*` headers and the
`Via` header that tells discord.py it is Discord and not Cloudflare); until
`retry_after` has passed, every request to that bucket (every request at all for
a global limit) is answered 429 again and kept in `early`. `fail` makes a route fail
as Discord (or what is in front of it) sometimes does: a 429 without `Via`, a 5xx, a
connection dropped before any answer.

Everything it records is behind one condition: tests `wait` for what a user
would see, never sleep.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from tests.discord.refusals import message_problem

T = TypeVar("T")

TOKEN = "fake-bot-token"
APP_ID = 900_000_000_000_000_001
DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 64
CALLBACK_WINDOW = 3.0  # seconds Discord gives a bot to acknowledge an interaction

VIEW_SEND = (1 << 10) | (1 << 11) | (1 << 15) | (1 << 16)  # view channel, send messages, attach files, history
MANAGE_MESSAGES = 1 << 13


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    permissions: int = VIEW_SEND
    bot: bool = False
    locale: str = "en-US"  # the language of their Discord client

    def user(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name.lower(), "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": self.bot, "public_flags": 0, "flags": 0}

    def member(self, with_user: bool = True) -> dict[str, Any]:
        member = {"nick": None, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                  "flags": 0, "pending": False, "avatar": None, "premium_since": None,
                  "communication_disabled_until": None, "permissions": str(self.permissions)}
        if with_user:
            member["user"] = self.user()
        return member


BOT = Person(APP_ID, "GameHost", VIEW_SEND, bot=True)
ALICE = Person(101, "Alice")
BOB = Person(102, "Bob")
CAROL = Person(103, "Carol")
MOD = Person(104, "Mona", VIEW_SEND | MANAGE_MESSAGES)


@dataclass
class Message:
    id: int
    channel_id: int
    content: str = ""
    files: list[tuple[str, bytes]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    interaction: Interaction | None = None  # the interaction it answers (original response or follow-up)
    loading: bool = False  # a deferred "thinking…" not yet replaced
    deleted: bool = False
    edits: int = 0
    created: float = field(default_factory=time.monotonic)
    nonce: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def visible_to(self) -> int | None:
        """The one user who sees it (ephemeral), or None for everyone in the channel."""
        return self.interaction.user.id if self.ephemeral and self.interaction else None

    @property
    def png(self) -> bytes | None:
        return next((data for _, data in self.files if data.startswith(b"\x89PNG\r\n\x1a\n")), None)

    @property
    def attachment_ids(self) -> set[str]:
        return {str(self.id * 10 + i) for i in range(len(self.files))}

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [b for row in self.components for b in row.get("components", []) if b.get("type") == 2]

    def button(self, label: str) -> dict[str, Any]:
        found = [b for b in self.buttons if b.get("label") == label]
        assert found, f"no button {label!r} on {self.content!r}: {[b.get('label') for b in self.buttons]}"
        return found[0]

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "channel_id": str(self.channel_id), "author": BOT.user(), "content": self.content,
            "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "embeds": [], "pinned": False,
            "type": 0, "flags": self.flags, "components": self.components, "nonce": self.nonce,
            "attachments": [{"id": str(self.id * 10 + i), "filename": name, "size": len(data),
                             "url": f"https://cdn.invalid/{self.id}/{name}", "proxy_url": f"https://cdn.invalid/{name}",
                             "content_type": "image/png"} for i, (name, data) in enumerate(self.files)],
        }


@dataclass
class Interaction:
    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: Person
    channel_id: int
    sent: float  # when it went out on the gateway (monotonic)
    callback: dict[str, Any] | None = None
    callback_after: float | None = None  # seconds from dispatch to the callback
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # why Discord refused calls about it

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete suggestions given in the callback."""
        assert self.callback is not None and self.callback["type"] == 8
        return self.callback["data"]["choices"]

    @property
    def settled(self) -> bool:
        """A command is answered once its "thinking…" is replaced or deleted."""
        if self.callback is None:
            return False
        return self.original is None or self.original.deleted or not self.original.loading

    @property
    def said(self) -> list[Message]:
        """What the user was shown privately about it, in order."""
        shown = [self.original] if self.original and not self.original.deleted and not self.original.loading else []
        return [m for m in shown + self.followups if not m.deleted]


@dataclass
class RateLimit:
    """The next `count` requests matching `method` and the path pattern get a 429."""

    method: str
    path: str  # a regular expression the request's path (after /api/v10/) must match
    count: int
    retry_after: float
    is_global: bool = False


DROP = 0  # a Fault's status: the connection is dropped without an answer
LOST = -1  # a Fault's status: the request is done (a message made), then the connection is dropped
NONCE_WINDOW = 120.0  # seconds Discord remembers an enforced nonce ("the past few minutes")


@dataclass
class Fault:
    """The next `count` requests matching `method` and the path pattern fail with `status`."""

    method: str
    path: str
    count: int
    status: int


def bucket(method: str, path: str) -> str:
    """A route's rate-limit bucket: one message's id does not make a bucket of its own."""
    route = re.sub(r"(messages)/[0-9]+", r"\1/:id", path)
    return f"{method} {route}"


class FakeDiscord:
    def __init__(self, *, heartbeat_ms: int = 45_000, guilds: tuple[int, ...] = (), channels: int = 2,
                 recommended_shards: int = 1) -> None:
        self.heartbeat_ms = heartbeat_ms
        self.guild_ids = guilds or (7 << 22,)
        # channel id -> guild id; each guild gets `channels` text channels
        self.channels = {g * 10 + i + 1: g for g in self.guild_ids for i in range(channels)}
        self.threads: dict[int, int] = {}  # thread -> the channel it is under
        self.thread_names: dict[int, str] = {}
        self.no_threads: set[int] = set()  # channels where the bot may not make threads
        self.recommended_shards = recommended_shards
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" or guild id -> synced commands
        self.identified: list[tuple[int, int]] = []  # (shard id, shard count) of every IDENTIFY
        self.heartbeats: list[tuple[float, int]] = []  # (monotonic time, shard id) of each heartbeat received
        self.acks: list[float] = []
        self.unknown: list[str] = []  # requests the stand-in does not know (a test fails on any)
        self.requests: list[tuple[str, str]] = []
        self.watchers: list[Callable[[Message], None]] = []  # called with each message as it is posted or edited
        self.uploads: list[tuple[str, bytes]] = []  # (file name, bytes) of every file the bot uploaded
        self.refused: list[str] = []  # messages refused as Discord refuses them (400)
        self.limits: list[RateLimit] = []
        self.faults: list[Fault] = []
        self.failed: list[tuple[str, str, int]] = []  # (method, path, status) of each request failed on purpose
        self.limited: list[tuple[float, str, str]] = []  # (monotonic time, method, path) of each 429
        self.early: list[tuple[str, str]] = []  # requests made before the retry_after of a 429 had passed
        self._blocked: dict[str, float] = {}  # bucket ("*" for global) -> until when (monotonic)
        self._sockets: dict[int, tuple[web.WebSocketResponse, list[int]]] = {}  # shard id -> (socket, seq)
        self._ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- running -----------------------------------------------------------------------
    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for ws, _ in list(self._sockets.values()):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def snowflake(self) -> int:
        return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._ids) & 0x3FFFFF)

    async def _changed_now(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait(self, predicate: Callable[[], T], timeout: float = 60.0) -> T:
        """Wait until `predicate()` is truthy (re-checked at every change here); returns its value.
        The timeout only turns a hang into a failure (60 s, as `tests.conftest.until`: a loaded
        machine may take a while to draw a picture or think a move)."""

        async def until() -> T:
            async with self._changed:
                while not (value := predicate()):
                    await self._changed.wait()
                return value

        try:
            return await asyncio.wait_for(until(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {getattr(predicate, '__name__', predicate)}") from None

    # --- what people see ---------------------------------------------------------------
    def channel(self, channel_id: int) -> list[Message]:
        """The channel as everyone sees it: its public messages, oldest first."""
        return [m for m in self.messages.values()
                if m.channel_id == channel_id and not m.ephemeral and not m.deleted and not m.loading]

    def private(self, person: Person) -> list[Message]:
        """Ephemeral messages only `person` sees."""
        return [m for m in self.messages.values() if m.visible_to == person.id and not m.deleted and not m.loading]

    def last(self, channel_id: int, contains: str = "") -> Message | None:
        found = [m for m in self.channel(channel_id) if contains in m.content]
        return found[-1] if found else None

    # --- the gateway ---------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}, "s": None, "t": None}))
        shard = 0
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            op, data = message.get("op"), message.get("d")
            if op == 1:
                self.heartbeats.append((time.monotonic(), shard))
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                self.acks.append(time.monotonic())
                await self._changed_now()
            elif op == 2:
                assert data["token"] == TOKEN, "IDENTIFY with a wrong token"
                shard, count = data.get("shard") or [0, 1]
                self.identified.append((shard, count))
                self._sockets[shard] = (ws, [0])
                await self._identified(shard, count)
            elif op == 6:  # resume: pretend nothing was missed
                self._sockets[shard] = (ws, [0])
                await self._send(shard, "RESUMED", {})
        self._sockets = {k: v for k, v in self._sockets.items() if v[0] is not ws}
        await self._changed_now()
        return ws

    async def _identified(self, shard: int, count: int) -> None:
        mine = [g for g in self.guild_ids if (g >> 22) % count == shard]
        await self._send(shard, "READY", {
            "v": 10, "user": BOT.user(), "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "session_id": secrets.token_hex(8), "resume_gateway_url": self.gateway, "shard": [shard, count],
            "application": {"id": str(APP_ID), "flags": 0},
        })
        for guild in mine:
            await self._send(shard, "GUILD_CREATE", self._guild(guild))
        await self._changed_now()

    def _guild(self, guild: int) -> dict[str, Any]:
        channels = [self._channel(c) for c, g in self.channels.items() if g == guild]
        everyone = {"id": str(guild), "name": "@everyone", "permissions": str(VIEW_SEND), "position": 0, "color": 0,
                    "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        return {
            "id": str(guild), "name": f"Guild {guild}", "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(ALICE.id), "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "roles": [everyone], "emojis": [],
            "stickers": [], "features": [], "mfa_level": 0, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None, "description": None, "banner": None,
            "premium_tier": 0, "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "joined_at": "2024-01-01T00:00:00+00:00", "large": False,
            "unavailable": False, "member_count": 5, "voice_states": [], "members": [BOT.member()],
            "channels": channels, "threads": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    def _channel(self, channel: int) -> dict[str, Any]:
        if channel in self.threads:
            return {"id": str(channel), "type": 11, "guild_id": str(self.channels[channel]),
                    "parent_id": str(self.threads[channel]), "name": self.thread_names[channel],
                    "owner_id": str(BOT.id), "member_count": 1, "message_count": 0, "rate_limit_per_user": 0,
                    "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "locked": False,
                                        "archive_timestamp": "2024-01-01T00:00:00+00:00"}}
        return {"id": str(channel), "type": 0, "guild_id": str(self.channels[channel]), "name": f"games-{channel % 10}",
                "position": channel % 10, "permission_overwrites": [], "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0}

    async def _send(self, shard: int, event: str, data: dict[str, Any]) -> None:
        ws, seq = self._sockets[shard]
        seq[0] += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": seq[0], "d": data}))

    def shard_of(self, guild: int) -> int:
        count = max((c for _, c in self.identified), default=1)
        return (guild >> 22) % count

    async def connected(self, shards: int = 1) -> None:
        await self.wait(lambda: len(self._sockets) >= shards)

    # --- playing the people --------------------------------------------------------------
    async def slash(self, person: Person, command: str, channel: int | None = None, **options: Any) -> Interaction:
        """`person` runs a slash command, e.g. slash(ALICE, "nim start", heaps="3 4 5"); Person values
        are users. The command and its options must be ones the bot synced to this channel's guild."""
        return await self._command(person, command, channel, options, autocomplete=None)

    async def autocomplete(self, person: Person, command: str, focused: str, channel: int | None = None,
                           **options: Any) -> Interaction:
        interaction = await self._command(person, command, channel, options, autocomplete=focused)
        await self.wait(lambda: interaction.callback is not None)
        return interaction

    async def _command(self, person: Person, command: str, channel: int | None, options: dict[str, Any],
                       autocomplete: str | None) -> Interaction:
        channel = channel or next(iter(self.channels))
        guild = self.channels[channel]
        scope = str(guild) if str(guild) in self.commands else "global"
        # A client lists the commands by their names in its locale; the interaction carries their own.
        names = command.split()
        synced = {_named(c, person.locale): c for c in self.commands.get(scope, [])}
        assert names[0] in synced, f"/{names[0]} was not synced to {scope}: {sorted(synced)}"
        top = spec = synced[names[0]]
        chain: list[dict[str, Any]] = []
        for sub in names[1:]:
            spec = next((o for o in spec.get("options", []) if _named(o, person.locale) == sub and o["type"] in (1, 2)),
                        None)
            assert spec is not None, f"no subcommand {sub!r} in /{command}"
            chain.append({"type": spec["type"], "name": spec["name"]})
        declared = {o["name"]: o for o in spec.get("options", [])}
        values, resolved_users, resolved_members = [], {}, {}
        for name, value in options.items():
            assert name in declared, f"/{command} has no option {name!r}: {sorted(declared)}"
            kind = declared[name]["type"]
            if isinstance(value, Person):
                assert kind == 6, f"option {name} of /{command} is not a user"
                resolved_users[str(value.id)] = value.user()
                resolved_members[str(value.id)] = value.member(with_user=False)
                value = str(value.id)
            option = {"name": name, "type": kind, "value": value}
            if name == autocomplete:
                option["focused"] = True
            values.append(option)
        for required in (o for o in declared.values() if o.get("required")):
            assert autocomplete or required["name"] in options, f"/{command} needs {required['name']}"
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        if scope != "global":
            data["guild_id"] = scope
        nested: list[dict[str, Any]] = values
        for sub in reversed(chain):
            sub["options"] = nested
            nested = [sub]
        data["options"] = nested
        if resolved_users:
            data["resolved"] = {"users": resolved_users, "members": resolved_members}
        return await self._interact(person, channel, 4 if autocomplete else 2, data)

    async def click(self, person: Person, message: Message, label: str) -> Interaction:
        """`person` presses the button labelled `label` on `message`."""
        button = message.button(label)
        return await self.press(person, message, button["custom_id"])

    async def press(self, person: Person, message: Message, custom_id: str) -> Interaction:
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(person, message.channel_id, 3, data, message=message)

    async def _interact(self, person: Person, channel: int, kind: int, data: dict[str, Any],
                        message: Message | None = None) -> Interaction:
        guild = self.channels[channel]
        interaction = Interaction(self.snowflake(), secrets.token_urlsafe(24), kind, person, channel, time.monotonic())
        self.interactions[interaction.id] = interaction
        payload: dict[str, Any] = {
            "id": str(interaction.id), "application_id": str(APP_ID), "type": kind, "data": data,
            "guild_id": str(guild), "guild": {"id": str(guild), "locale": "en-US", "features": []},
            "channel_id": str(channel),
            "channel": self._channel(channel),
            "member": person.member(), "token": interaction.token, "version": 1,
            "app_permissions": str(VIEW_SEND), "locale": person.locale, "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.payload()
        await self._send(self.shard_of(guild), "INTERACTION_CREATE", payload)
        return interaction

    # --- REST ----------------------------------------------------------------------------------
    def rate_limit(self, method: str, path: str, count: int = 1, retry_after: float = 0.5,
                   is_global: bool = False) -> RateLimit:
        limit = RateLimit(method, path, count, retry_after, is_global)
        self.limits.append(limit)
        return limit

    def fail(self, method: str, path: str, count: int = 1, status: int = 503) -> Fault:
        """The next `count` requests matching `method` and the path pattern fail: with `status`
        (429: without the `Via` header, which discord.py takes for a Cloudflare ban and does not
        retry; a 5xx), or with the connection dropped before any answer (`DROP`), or done and
        then dropped before its answer (`LOST`: the message is made, the bot never hears of it)."""
        fault = Fault(method, path, count, status)
        self.faults.append(fault)
        return fault

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.match_info["path"]
        self.requests.append((request.method, path))
        fault = next((f for f in self.faults if f.count > 0 and f.method == request.method
                      and re.fullmatch(f.path, path)), None)
        if fault is not None:
            fault.count -= 1
            self.failed.append((request.method, path, fault.status))
            if fault.status == LOST:
                await self._bot_request(request, path)
            await self._changed_now()
            if fault.status in (DROP, LOST):
                assert request.transport is not None
                request.transport.abort()
                return web.Response()
            if fault.status == 429:  # as Cloudflare answers: no Via, no rate-limit headers
                return web.Response(status=429, body=b"error code: 1015", headers={"Content-Type": "text/plain"})
            return _error(fault.status, 0, f"{fault.status}: Service Unavailable")
        if (limited := self._rate_limited(request.method, path)) is not None:
            await self._changed_now()
            return limited
        if path.startswith("interactions/"):
            response = await self._callback(request, path)  # carries its own token, not the bot's
        elif path.startswith("webhooks/"):
            response = await self._webhook(request, path)
        else:
            if request.headers.get("Authorization") != f"Bot {TOKEN}":
                return _error(401, 0, "401: Unauthorized")
            response = await self._bot_request(request, path)
        await self._changed_now()
        return response

    def _rate_limited(self, method: str, path: str) -> web.Response | None:
        """A 429 as Discord sends it, if this request hits a queued limit or comes too early."""
        now, key = time.monotonic(), bucket(method, path)
        until = max(self._blocked.get(key, 0.0), self._blocked.get("*", 0.0))
        is_global = self._blocked.get("*", 0.0) > now
        if until > now:
            self.early.append((method, path))
            return self._too_many(method, path, until - now, is_global)
        limit = next((lim for lim in self.limits if lim.count > 0 and lim.method == method
                      and re.fullmatch(lim.path, path)), None)
        if limit is None:
            return None
        limit.count -= 1
        self._blocked["*" if limit.is_global else key] = now + limit.retry_after
        return self._too_many(method, path, limit.retry_after, limit.is_global)

    def _too_many(self, method: str, path: str, retry_after: float, is_global: bool) -> web.Response:
        self.limited.append((time.monotonic(), method, path))
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": is_global,
                "code": 0}
        headers = {
            "Content-Type": "application/json", "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}", "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": f"{abs(hash(bucket(method, path))):x}",
            "X-RateLimit-Scope": "global" if is_global else "user", "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    def _refuse(self, problem: str) -> web.Response:
        self.refused.append(problem)
        if problem == "Cannot send an empty message":
            return _error(400, 50006, problem)
        return _error(400, 50035, f"Invalid Form Body: {problem}")

    async def _bot_request(self, request: web.Request, path: str) -> web.StreamResponse:
        method, parts = request.method, path.split("/")
        if (method, path) == ("GET", "users/@me"):
            return _json(BOT.user() | {"verified": True, "mfa_enabled": False, "locale": "en-US"})
        if (method, path) == ("GET", "oauth2/applications/@me"):
            return _json({"id": str(APP_ID), "name": "GameHost", "description": "", "icon": None,
                          "bot_public": True, "bot_require_code_grant": False, "owner": ALICE.user(),
                          "team": None, "verify_key": "00", "flags": 0, "summary": "",
                          "interactions_endpoint_url": None, "rpc_origins": [], "tags": []})
        if (method, path) == ("GET", "gateway/bot"):
            return _json({"url": self.gateway, "shards": self.recommended_shards,
                          "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                                  "max_concurrency": 1}})
        if method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
            scope = parts[3] if len(parts) == 5 and parts[2] == "guilds" else "global"
            commands = await request.json()
            if problem := _invalid_commands(commands):
                return _error(400, 50035, f"Invalid Form Body: {problem}")
            synced = [c | {"id": str(self.snowflake()), "application_id": str(APP_ID), "version": "1"}
                      | ({"guild_id": scope} if scope != "global" else {}) for c in commands]
            self.commands[scope] = synced
            return _json(synced)
        if (method, parts[0], parts[2:]) == ("POST", "channels", ["threads"]):
            return await self._thread(int(parts[1]), await request.json())
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel = int(parts[1])
            if channel not in self.channels:
                return _error(404, 10003, "Unknown Channel")
            if method == "POST" and len(parts) == 3:
                payload, files = await _read(request)
                if problem := message_problem(payload, files, new=True):
                    return self._refuse(problem)
                if (made := self._made(channel, payload)) is not None:
                    return _json(made.payload())
                message = self._store(channel, payload, files)
                return _json(message.payload())
            message = self.messages.get(int(parts[3])) if len(parts) == 4 else None
            if message is None or message.deleted or message.channel_id != channel:
                return _error(404, 10008, "Unknown Message")
            if answer := await self._on_message(method, message, request):
                return answer
        self.unknown.append(f"{method} {path}")
        return _error(404, 0, f"404: the stand-in does not know {method} {path}")

    async def _thread(self, parent: int, payload: dict[str, Any]) -> web.Response:
        """A thread without a message, as Discord makes one: under a text channel only (not a
        thread), named 1-100 characters, public or private, archived after 1 hour to 7 days."""
        if parent not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        if parent in self.threads or parent in self.no_threads:
            self.refused.append(f"a thread under {parent}")
            return _error(400, 50024, "Cannot execute action on this channel type")
        name, kind = payload.get("name") or "", payload.get("type")
        if not 1 <= len(name) <= 100 or kind not in (11, 12) or \
                payload.get("auto_archive_duration") not in (60, 1440, 4320, 10080):
            return self._refuse(f"thread name {len(name)} characters, type {kind}")
        thread = self.snowflake()
        self.channels[thread], self.threads[thread], self.thread_names[thread] = self.channels[parent], parent, name
        guild = self.channels[parent]
        await self._send(self.shard_of(guild), "THREAD_CREATE", self._channel(thread) | {"newly_created": True})
        return _json(self._channel(thread))

    async def _on_message(self, method: str, message: Message, request: web.Request) -> web.Response | None:
        """GET, PATCH (edit) or DELETE one message, or None for another verb."""
        if method == "PATCH":
            payload, files = await _read(request)
            if problem := message_problem(payload, files, new=False, kept=message.attachment_ids):
                return self._refuse(problem)
            _edit(message, payload, files)
            self._seen(message, files)
            return _json(message.payload())
        if method == "DELETE":
            message.deleted = True
            return web.Response(status=204)
        if method == "GET":
            return _json(message.payload())
        return None

    async def _callback(self, request: web.Request, path: str) -> web.StreamResponse:
        _, interaction_id, token, _ = path.split("/")
        interaction = self.interactions.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            return _error(404, 10062, "Unknown interaction")
        after = time.monotonic() - interaction.sent
        if after > CALLBACK_WINDOW:
            interaction.refused.append(f"callback after {after:.1f}s")
            return _error(404, 10062, "Unknown interaction")
        if interaction.callback is not None:
            interaction.refused.append("second callback")
            return _error(400, 40060, "Interaction has already been acknowledged.")
        payload, files = await _read(request)
        kind, data = payload["type"], payload.get("data") or {}
        if kind == 4 and (problem := message_problem(data, files, new=True)):
            return self._refuse(problem)
        interaction.callback, interaction.callback_after = payload, after
        if kind in (4, 5):  # a message, or "thinking…" to be replaced
            message = self._store(interaction.channel_id, data, files, interaction=interaction)
            message.loading = kind == 5
            interaction.original = message
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        about = {"id": str(interaction.id), "type": interaction.type, "response_message_id": None,
                 "response_message_loading": kind == 5, "response_message_ephemeral": ephemeral}
        result: dict[str, Any] = {"interaction": about}
        if interaction.original is not None:
            result["interaction"]["response_message_id"] = str(interaction.original.id)
            result["resource"] = {"type": kind, "message": interaction.original.payload()}
        return _json(result)

    async def _webhook(self, request: web.Request, path: str) -> web.StreamResponse:
        parts = path.split("/")
        interaction = next((i for i in self.interactions.values() if i.token == parts[2]), None)
        if interaction is None or int(parts[1]) != APP_ID:
            return _error(404, 10015, "Unknown Webhook")
        if interaction.callback is None:
            interaction.refused.append("follow-up before the callback")
            return _error(404, 10015, "Unknown Webhook")
        method = request.method
        if method == "POST" and len(parts) == 3:
            payload, files = await _read(request)
            if problem := message_problem(payload, files, new=True):
                return self._refuse(problem)
            original = interaction.original
            if original is not None and original.loading and not original.deleted:
                # Discord: the first follow-up after a deferred "thinking…" replaces it, keeping its flags.
                _edit(original, payload, files)
                self._seen(original, files)
                return _json(original.payload())
            message = self._store(interaction.channel_id, payload, files, interaction=interaction)
            interaction.followups.append(message)
            return _json(message.payload())
        if len(parts) == 5 and parts[3] == "messages":
            if parts[4] == "@original":
                message = interaction.original
            else:
                message = next((m for m in interaction.followups if m.id == int(parts[4])), None)
            if message is None or message.deleted:
                return _error(404, 10008, "Unknown Message")
            if answer := await self._on_message(method, message, request):
                return answer
        self.unknown.append(f"{method} {path}")
        return _error(404, 0, f"404: the stand-in does not know {method} {path}")

    def _made(self, channel: int, payload: dict[str, Any]) -> Message | None:
        """The message made in `channel` with the payload's nonce in the past few minutes, which
        Discord answers with instead of making another when the nonce is enforced."""
        nonce = payload.get("nonce")
        if nonce is None or not payload.get("enforce_nonce"):
            return None
        return next((m for m in self.messages.values() if m.channel_id == channel and m.nonce == str(nonce)
                     and time.monotonic() - m.created < NONCE_WINDOW), None)

    def _seen(self, message: Message, files: dict[str, tuple[str, bytes]]) -> None:
        self.uploads += files.values()
        for watch in self.watchers:  # a test looks at the world as the message arrives
            watch(message)

    def _store(self, channel: int, payload: dict[str, Any], files: dict[str, tuple[str, bytes]],
               interaction: Interaction | None = None) -> Message:
        message = Message(self.snowflake(), channel, interaction=interaction)
        _edit(message, payload, files, edit=False)
        self._seen(message, files)
        self.messages[message.id] = message
        return message


async def _read(request: web.Request) -> tuple[dict[str, Any], dict[str, tuple[str, bytes]]]:
    """The JSON payload and the files of a request (JSON body, or multipart with payload_json)."""
    if not request.content_type.startswith("multipart/"):
        return (await request.json() if request.can_read_body else {}), {}
    payload: dict[str, Any] = {}
    files: dict[str, tuple[str, bytes]] = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if part.name == "payload_json":
            payload = json.loads(await part.text())  # type: ignore[union-attr]
        else:
            files[part.name or ""] = (part.filename or "", bytes(await part.read()))  # type: ignore[union-attr]
    return payload, files


def _edit(message: Message, payload: dict[str, Any], files: dict[str, tuple[str, bytes]], edit: bool = True) -> None:
    if "content" in payload:
        message.content = payload["content"] or ""
    if "components" in payload:
        message.components = payload["components"] or []
    if "allowed_mentions" in payload:
        message.allowed_mentions = payload["allowed_mentions"]
    if "flags" in payload and not edit:
        message.flags = payload["flags"] or 0
    if "nonce" in payload and not edit:
        message.nonce = str(payload["nonce"])
    if "attachments" in payload or files:
        # Kept: existing attachments listed by id; added: the uploaded files[n].
        kept_ids = {str(a.get("id")) for a in payload.get("attachments", [])}
        kept = [f for i, f in enumerate(message.files) if str(message.id * 10 + i) in kept_ids]
        message.files = kept + [files[name] for name in sorted(files)]
    if edit:
        message.edits += 1
        message.loading = False


def _named(command: dict[str, Any], locale: str) -> str:
    """A command's (or subcommand's) name as a client in `locale` shows it."""
    return (command.get("name_localizations") or {}).get(locale) or command["name"]


LOCALES = {"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
           "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW",
           "ko"}


def _invalid_commands(commands: list[dict[str, Any]], where: str = "") -> str | None:
    """What Discord refuses in a list of commands or options: a name that is not 1-32 lowercase
    letters, digits, - or _ (in any script), a description or choice name not 1-100 characters, a
    locale Discord does not have, two siblings with the same name in some locale, more than 100
    commands or 25 options."""
    if len(commands) > (25 if where else 100):
        return f"{where}: too many"
    for locale in {"", *(loc for c in commands for loc in (c.get("name_localizations") or {}))}:
        names = [_named(c, locale) if locale else c["name"] for c in commands]
        if len(set(names)) < len(names):
            return f"{where}: names not unique in {locale or 'the default locale'}: {names}"
    for c in commands:
        here = f"{where}.{c['name']}"
        for name in [c["name"], *(c.get("name_localizations") or {}).values()]:
            if not (0 < len(name) <= 32 and name == name.lower() and all(ch.isalnum() or ch in "-_" for ch in name)):
                return f"{here}: bad name {name!r}"
        for text in [c.get("description", "x"), *(c.get("description_localizations") or {}).values()]:
            if not 0 < len(text) <= 100:
                return f"{here}: bad description {text!r}"
        for field_name in ("name_localizations", "description_localizations"):
            if unknown := set(c.get(field_name) or {}) - LOCALES:
                return f"{here}: unknown locales {unknown}"
        for choice in c.get("choices") or []:
            for text in [choice["name"], *(choice.get("name_localizations") or {}).values()]:
                if not 0 < len(text) <= 100:
                    return f"{here}: bad choice {text!r}"
            if unknown := set(choice.get("name_localizations") or {}) - LOCALES:
                return f"{here}: unknown locales {unknown}"
        if problem := _invalid_commands(c.get("options") or [], here):
            return problem
    return None


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only with exactly this Content-Type (no charset).
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def _error(status: int, code: int, text: str) -> web.Response:
    return _json({"code": code, "message": text}, status)
