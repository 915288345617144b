"""The Discord bot: a discord.py client whose slash commands and buttons go to the host.

How it answers an interaction:
- It is deferred first, before the host is asked, so every command and click is
  acknowledged within Discord's 3 seconds whatever the AI or the renderer take.
  A command is deferred as an ephemeral "thinking…" only its user sees; a click
  is deferred without any visible change.
- What the host says to everyone (`Everyone`) is posted to the channel as ordinary
  bot messages (they carry the board picture and the buttons); only `post` does
  that, and it takes a `Public`, which cannot hold a Private reply. What is for the
  acting user (`Private` or `NotSecret` to them) becomes an ephemeral answer to the
  interaction; an unused "thinking…" is deleted at the end.
- A reply for someone else (Dou Dizhu: the next player's hand) never goes
  to the channel: it reaches them as an ephemeral follow-up to their own latest
  interaction in that channel if that is recent enough to answer, else it is
  dropped and their "My hand" button (the host adds it) shows it on request.
- Boards are replaced: the new board is posted (pinging the player to move, and
  only them) and the previous one in the channel loses its picture and buttons,
  keeping its text as a line of the game's history (`channels.py`). What a command's
  commits owe the channel goes through the host's outbox (`publish`), so a board
  Discord refuses at first is posted later, once.
- Buttons are sent with custom_id = the host's button id and no timeout, and are
  dispatched from the raw component interactions (no views are registered), so a
  button keeps working across restarts; the host refuses stale ones, privately.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot import metrics
from bot.adapters.discord.channels import Channels
from bot.adapters.discord.commands import CatalogTranslator, Commands
from bot.adapters.discord.messages import Buttons, attached, chunks, defer, followup, literal
from bot.host import Host
from bot.model import DISCORD, Event, Everyone, NotSecret, Public, Reply, User
from bot.startup import StartFailed
from engines.base import msg

log = logging.getLogger(__name__)

FRESH_INTERACTION = 14 * 60.0  # interaction tokens answer follow-ups for 15 minutes



def use_endpoints(api: str | None, gateway: str | None) -> None:
    """Point discord.py at a REST proxy and/or another gateway. discord.py keeps these per
    process (one bot per process), so they are set before the client connects."""
    if api:
        base = api.rstrip("/")
        if not re.search(r"/api/v\d+$", base):
            base += "/api/v10"
        discord.http.Route.BASE = base
    if gateway:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def measured_http() -> aiohttp.TraceConfig:
    """Every REST call of discord.py, measured (`bot.metrics`): a 429's wait (discord.py waits it
    out and tries again), a refusal or a server error, a call that never got an answer."""
    trace = aiohttp.TraceConfig()

    async def answered(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        if status == 429:
            wait = params.response.headers.get("X-RateLimit-Reset-After") or params.response.headers.get("Retry-After")
            metrics.rate_limited(DISCORD, float(wait or 0))
        elif status >= 400:
            metrics.platform_error(DISCORD, str(status))

    async def failed(session: Any, context: Any, params: aiohttp.TraceRequestExceptionParams) -> None:
        metrics.platform_error(DISCORD, type(params.exception).__name__)

    trace.on_request_end.append(answered)
    trace.on_request_exception.append(failed)
    return trace


def channel_key(channel_id: int) -> str:
    return f"{DISCORD}:{channel_id}"


def user_of(user: discord.abc.User, moderator: bool = False) -> User:
    return User(f"{DISCORD}:{user.id}", user.display_name, user.name, moderator=moderator)


def place_of(interaction: discord.Interaction) -> str | None:
    """The server a channel belongs to, where "here" leaderboards count its games (None: a DM)."""
    return f"{DISCORD}:guild:{interaction.guild_id}" if interaction.guild_id else None


class DiscordBot:
    def __init__(
        self,
        host: Host,
        token: str,
        *,
        guilds: Sequence[int] = (),
        api: str | None = None,
        gateway: str | None = None,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        **client_options: Any,
    ) -> None:
        self.host = host
        self.notes = host.notes(DISCORD)
        self.token = token
        self.guilds = list(guilds)
        self.api, self.gateway = api, gateway
        intents = discord.Intents.none()
        intents.guilds = True  # channels and permissions; no privileged intent is needed
        options: dict[str, Any] = {
            "intents": intents, "allowed_mentions": discord.AllowedMentions.none(),
            "member_cache_flags": discord.MemberCacheFlags.none(), "chunk_guilds_at_startup": False,
            "max_messages": None, "http_trace": measured_http(), **client_options,
        }
        self.client: discord.Client
        # The bot has no voice: no warning at every start that voice libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        if shard_count is not None or shard_ids:
            # 0 shards: as many as Discord recommends (GET /gateway/bot).
            ids = list(shard_ids) if shard_ids else None
            # discord.py reads shard_ids=None as every shard; its annotation says a list
            self.client = discord.AutoShardedClient(shard_count=shard_count or None, shard_ids=ids, **options)  # type: ignore[arg-type]
        else:
            self.client = discord.Client(**options)
        self.tree = app_commands.CommandTree(self.client)
        self.tree.on_error = self._command_failed  # type: ignore[method-assign]
        Commands(self.tree, host.games, host.tr, self._command, self._suggest_moves).build()
        self.client.setup_hook = self._setup_hook  # type: ignore[method-assign]
        self.client.event(self.on_interaction)
        self.client.event(self.on_ready)
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.synced: list[str] = []  # where the commands went: "global" or guild ids
        self._recent: dict[tuple[str, str], tuple[float, _Answer]] = {}  # (channel, user) -> latest answer
        self.channels = Channels(self.client, self.notes)  # what is posted to everyone, and tidied
        host.attach(DISCORD, self.deliver, self.publish, self.channels.open_place)

    @classmethod
    def from_settings(cls, host: Host, settings: Any) -> DiscordBot:
        return cls(host, settings.discord_token, guilds=settings.discord_guilds, api=settings.discord_api_url,
                   gateway=settings.discord_gateway_url, shard_count=settings.discord_shard_count,
                   shard_ids=settings.discord_shard_ids)

    # --- life cycle ---------------------------------------------------------------------
    name = DISCORD

    def connected(self) -> bool:
        """Logged in and every shard's gateway connection open (readiness)."""
        client = self.client
        if client.is_closed() or not client.is_ready():
            return False
        if isinstance(client, discord.AutoShardedClient):
            return bool(client.shards) and all(not shard.is_closed() for shard in client.shards.values())
        return client.ws is not None and client.ws.open

    def readiness(self) -> bool:
        """For /readyz: `connected`."""
        return self.connected()

    async def start(self) -> None:
        """Log in, sync the commands, and connect in the background. A token Discord refuses, or
        a Discord it cannot reach (that may come back: `transient`), raises StartFailed."""
        use_endpoints(self.api, self.gateway)
        try:
            await self.client.login(self.token)
        except discord.LoginFailure:
            raise StartFailed("Discord refused the token (DISCORD_TOKEN)", transient=False) from None
        except (TimeoutError, OSError, aiohttp.ClientError, discord.DiscordServerError) as error:
            await self.client.http.close()  # the next try opens a new session
            self.client.http.connector = discord.utils.MISSING
            raise StartFailed(f"cannot reach Discord: {error}", transient=True) from None
        except discord.HTTPException as error:
            raise StartFailed(f"Discord refused to log in: {error}", transient=False) from None
        self._task = asyncio.create_task(self.client.connect())
        self._task.add_done_callback(_log_end)

    async def stop(self) -> None:
        if not self.client.is_closed():
            await self.client.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator(self.host.tr.language, self.host.vocabulary.name_in))
        try:
            if self.guilds:
                for guild_id in self.guilds:
                    guild = discord.Object(guild_id)
                    self.tree.copy_global_to(guild=guild)
                    await self.tree.sync(guild=guild)
                    self.synced.append(str(guild_id))
            else:
                await self.tree.sync()
                self.synced.append("global")
        except discord.HTTPException:
            log.exception("syncing the slash commands failed (does the invite have the applications.commands scope?)")

    async def on_ready(self) -> None:
        log.info("Discord: logged in as %s", self.client.user)
        self.ready.set()

    # --- interactions in ------------------------------------------------------------------
    async def _command(self, interaction: discord.Interaction, text: str, mentioned: dict[str, Any]) -> None:
        if not await defer(interaction, thinking=True):
            return
        mentions = {token: user_of(u) for token, u in mentioned.items()}
        await self._answer(interaction, Event(channel_key(interaction.channel_id or 0), self._user(interaction),
                                              text, mentions=mentions, locale=interaction.locale.value,
                                              place=place_of(interaction)), command=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Button clicks, read raw: they work for any message, sent before a restart or not."""
        if interaction.type is not discord.InteractionType.component:
            return  # slash commands and their autocompletion go through the command tree
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        custom_id = str(data.get("custom_id", ""))
        if not await defer(interaction, thinking=False):
            return
        event = Event(channel_key(interaction.channel_id or 0), self._user(interaction), button=custom_id,
                      locale=interaction.locale.value, place=place_of(interaction))
        await self._answer(interaction, event, command=False)

    def _user(self, interaction: discord.Interaction) -> User:
        # Moderators: whoever may manage messages in this channel (the interaction says so).
        moderator = interaction.guild_id is not None and interaction.permissions.manage_messages
        return user_of(interaction.user, moderator)

    async def _answer(self, interaction: discord.Interaction, event: Event, *, command: bool) -> None:
        answer = _Answer(self, interaction, event, command)
        self._remember(event, answer)
        try:
            await self.host.handle(event, answer.show)
        except Exception:
            log.exception("answering %s in %s failed", metrics.command_word(self.host, event), event.channel)
            with contextlib.suppress(discord.HTTPException):
                await answer.privately(await self._sorry(interaction, "discord.failed"))
        finally:
            await answer.finish()

    def _remember(self, event: Event, answer: _Answer) -> None:
        """Keep the user's latest interaction here, for private replies that come later."""
        now = asyncio.get_running_loop().time()
        self._recent[(event.channel, event.user.id)] = (now, answer)
        if len(self._recent) > 1000:
            self._recent = {k: v for k, v in self._recent.items() if now - v[0] <= FRESH_INTERACTION}

    async def _command_failed(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """A command the tree could not run (e.g. one Discord still lists from an older version)."""
        metrics.platform_error(DISCORD, "command")
        # Its name, not its options: what was typed (a move, a link code).
        log.warning("slash command %s failed: %s", getattr(interaction.command, "qualified_name", "?"),
                    type(error).__name__)
        if not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                sorry = await self._sorry(interaction, "discord.failed")
                await interaction.response.send_message(literal(sorry.text), ephemeral=True)

    async def _sorry(self, interaction: discord.Interaction, key: str) -> Reply:
        """What the bot itself says to the user of `interaction`, in their language."""
        tr = await self.host.reader(f"{DISCORD}:{interaction.user.id}", interaction.locale.value)
        return Reply(tr(msg(key)), language=tr.language, audience=NotSecret(f"{DISCORD}:{interaction.user.id}"))

    async def _suggest_moves(self, interaction: discord.Interaction, prefix: str,
                             current: str) -> list[tuple[str, str]]:
        """Legal moves of the user's seat for /move and the games' move words, matching what is typed:
        (as they read it, in their language; what is sent)."""
        channel, user_id = channel_key(interaction.channel_id or 0), f"{DISCORD}:{interaction.user.id}"
        try:
            plays = await asyncio.wait_for(self.host.plays(channel, user_id, interaction.locale.value), 2.0)
        except TimeoutError:
            return []
        found = []
        for play in plays:
            if not play.text.startswith(prefix):
                continue
            value = play.text[len(prefix) :].strip()  # /bid takes "2" of "bid 2"
            name = value if play.name == play.text else play.name  # words read in the reader's language
            if value and any(w.lower().startswith(current.strip().lower()) for w in (value, name)):
                found.append((name, value))
        return found

    # --- replies out ------------------------------------------------------------------------
    async def deliver(self, channel: str, replies: list[Reply]) -> None:
        """Replies nobody asked for right now (the AI's moves, timeouts)."""
        for reply in replies:
            if isinstance(reply.audience, Everyone):
                await self.post(channel, Public(reply))
            else:
                await self.to_player(channel, reply)

    async def to_player(self, channel: str, reply: Reply) -> None:
        """A reply for one person who is not acting now: an ephemeral follow-up to their own
        latest interaction here if Discord still takes one, else nothing (never the channel)."""
        recent = self._recent.get((channel, reply.reader or ""))
        if recent is None or asyncio.get_running_loop().time() - recent[0] > FRESH_INTERACTION:
            log.debug("no recent interaction of %s in %s; their hand waits for the My hand button", reply.reader,
                      channel)
            return
        try:
            await recent[1].privately(reply)  # replaces its "thinking…" if it is still being answered
        except discord.HTTPException:
            log.info("could not show %s their private reply; it waits for the My hand button", reply.reader)

    async def post(self, channel: str, public: Public) -> None:
        """A reply for everyone in the channel (a `Public`: never a Private one)."""
        await self.channels.post(channel, public)

    async def publish(self, channel: str, reply: Reply, ids: list[str], key: str) -> None:
        """A reply for everyone in the channel, from the host's outbox (`Channels.publish`)."""
        await self.channels.publish(channel, reply, ids, key)


class _Answer:
    """The replies to one interaction, in order: the channel's to the channel, the acting user's
    to them alone."""

    def __init__(self, bot: DiscordBot, interaction: discord.Interaction, event: Event, command: bool) -> None:
        self.bot = bot
        self.interaction = interaction
        self.event = event
        self.thinking = command  # the deferred "thinking…" is there to be replaced
        self.posted = False

    async def show(self, replies: list[Reply]) -> None:
        for reply in replies:
            if isinstance(reply.audience, Everyone):
                try:
                    await self.bot.post(self.event.channel, Public(reply))
                except discord.Forbidden:
                    log.warning("no permission to post in %s", self.event.channel)
                    await self.privately(await self.bot._sorry(self.interaction, "discord.cannot_post"))
            elif reply.reader == self.event.user.id:  # Private or NotSecret: theirs alone, ephemeral
                await self.privately(reply)
            else:  # for someone else (the next player's hand)
                await self.bot.to_player(self.event.channel, reply)

    async def privately(self, reply: Reply) -> None:
        if self.thinking:
            self.thinking = False
            text, *more = chunks(literal(reply.text))
            file = attached(reply)
            await self.interaction.edit_original_response(
                content=text or None, attachments=[file] if file else [],
                view=Buttons(reply) if reply.buttons and not more else None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            if more:
                await followup(self.interaction, replace(reply, image=None, document=None), more)
        else:
            await followup(self.interaction, reply)

    async def finish(self) -> None:
        if self.thinking:
            self.thinking = False
            with contextlib.suppress(discord.HTTPException):
                await self.interaction.delete_original_response()


def _log_end(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("the Discord connection ended: %r", error, exc_info=error)


