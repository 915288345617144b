"""Settings: from the command line, then GAMEHOST_* environment variables, then defaults."""

from __future__ import annotations

import os
from typing import Annotated, Any

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, CliApp, NoDecode, SettingsConfigDict

from bot.i18n import LANGUAGES
from bot.logs import FORMATS, url_password


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="GAMEHOST_", cli_prog_name="gamehost", cli_kebab_case=True, cli_implicit_flags=True,
        extra="ignore",
    )

    db: str = Field(
        "gamehost.db", validation_alias=AliasChoices("db", "gamehost_db", "database_url"),
        description="where every game is kept: a SQLite file, or a postgresql:// URL that several processes may share"
                    " (also DATABASE_URL)",
    )
    db_pool: int = Field(10, ge=1, description="PostgreSQL: connections this process opens at most")
    lease_seconds: float = Field(
        5.0, ge=1, description="how long a process holds a timer or a bot's turn without renewing it: the time in"
                               " which another process takes over the work of one that died",
    )
    images: str = Field("gamehost-images", description="where the console bot writes its pictures")
    turn_seconds: int = Field(300, ge=10, description="time per move before a player times out")
    lobby_seconds: int = Field(900, ge=10, description="how long an open table waits for players")
    ai_workers: int = Field(os.cpu_count() or 1, ge=0, description="AI worker processes (0: a thread)")
    render_workers: int = Field(os.cpu_count() or 1, ge=0, description="picture worker processes (0: threads)")
    language: str = Field("en", description="en or zh: the console's language, and of channels that chose none")
    console: bool = Field(False, description="run the console bot even when a platform token is set")
    name: str = Field("alice", description="who types first in the console bot")
    log_level: str = Field("WARNING", description="DEBUG, INFO, WARNING or ERROR")
    log_format: str = Field("text", description="text, or json: one JSON object per line (no secret in either)")
    metrics_port: int | None = Field(
        None, ge=0, le=65535, description="serve /healthz, /readyz and /metrics (Prometheus) on this port (unset: off)"
    )
    metrics_listen: str = Field("127.0.0.1", description="address the /healthz, /readyz and /metrics server listens on")
    web_port: int | None = Field(
        None, ge=0, le=65535, description="serve the read-only web site (leaderboards, players, replays) on this port"
                                          " (unset: off); never /metrics",
    )
    web_listen: str = Field("127.0.0.1", description="address the web site listens on (a reverse proxy publishes it)")
    web_url: str | None = Field(None, description="the web site's public URL; set: chat messages link to its pages")
    start_attempts: int = Field(8, ge=1, description="tries to reach a platform at start (1 s, 2 s, 4 s … apart)")
    rebuild_ratings: bool = Field(False, description="rebuild every rating from the results table, then exit")

    # Telegram: on when a token is set (TELEGRAM_TOKEN or GAMEHOST_TELEGRAM_TOKEN).
    telegram_token: str | None = Field(
        None, validation_alias=AliasChoices("telegram_token", "gamehost_telegram_token"),
        description="the bot token from @BotFather; starts the Telegram bot",
    )
    telegram_api_url: str = Field("https://api.telegram.org", description="Bot API server, or a local one")
    telegram_local_mode: bool = Field(False, description="the Bot API server runs with --local")
    telegram_webhook_url: str | None = Field(None, description="public HTTPS URL for webhooks (unset: polling)")
    telegram_webhook_secret: str | None = Field(None, description="secret token Telegram sends with each webhook call")
    telegram_webhook_listen: str = Field("0.0.0.0", description="address the webhook server listens on")
    telegram_webhook_port: int = Field(8443, description="port the webhook server listens on")
    telegram_webhook_register: bool = Field(
        True, description="this process registers the webhook with Telegram (setWebhook); false: it only serves it,"
                          " behind the same URL as the one process that registers (same secret)",
    )

    # Discord: on when a token is set (DISCORD_TOKEN or GAMEHOST_DISCORD_TOKEN).
    discord_token: str | None = Field(
        None, validation_alias=AliasChoices("discord_token", "gamehost_discord_token"),
        description="the bot token from the Discord developer portal; starts the Discord bot",
    )
    discord_guilds: Annotated[list[int], NoDecode] = Field(
        [], description="guild ids to sync the slash commands to at once, e.g. 123,456 (empty: globally)"
    )
    discord_api_url: str | None = Field(None, description="REST base URL, e.g. a REST proxy (unset: Discord's)")
    discord_gateway_url: str | None = Field(None, description="gateway websocket URL (unset: Discord's)")
    discord_shard_count: int | None = Field(
        None, ge=0, description="run sharded with this many shards in all (0: as many as Discord recommends)"
    )
    discord_shard_ids: Annotated[list[int], NoDecode] = Field(
        [], description="the shards this process runs, e.g. 0,1 (empty: all; needs discord_shard_count)"
    )

    @field_validator("discord_guilds", "discord_shard_ids", mode="before")
    @classmethod
    def _id_list(cls, value: Any) -> Any:
        # "123,456", "123 456" or "[123, 456]" from the environment or the command line.
        if isinstance(value, str):
            return [int(v) for v in value.replace("[", " ").replace("]", " ").replace(",", " ").split()]
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
            return cls._id_list(value[0])
        return value

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"there are catalogs for {', '.join(LANGUAGES)}, not {value!r}")
        return value

    @field_validator("log_level")
    @classmethod
    def _log_level(cls, value: str) -> str:
        if value.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError(f"one of DEBUG, INFO, WARNING, ERROR, not {value!r}")
        return value.upper()

    @field_validator("log_format")
    @classmethod
    def _log_format(cls, value: str) -> str:
        if value.lower() not in FORMATS:
            raise ValueError(f"one of {', '.join(FORMATS)}, not {value!r}")
        return value.lower()

    @property
    def secrets(self) -> list[str]:
        """What must never reach a log: the tokens, the webhook secret, the database's password."""
        found = [self.telegram_token, self.discord_token, self.telegram_webhook_secret, url_password(self.db)]
        return [s for s in found if s]

    @model_validator(mode="after")
    def _webhook_workers(self) -> Settings:
        if not self.telegram_webhook_register and not (self.telegram_webhook_url and self.telegram_webhook_secret):
            raise ValueError("telegram_webhook_register=false (serve a webhook another process registers) needs"
                             " telegram_webhook_url and the registering process's telegram_webhook_secret")
        return self

    @model_validator(mode="after")
    def _shards(self) -> Settings:
        if self.discord_shard_ids and not self.discord_shard_count:
            raise ValueError("discord_shard_ids needs discord_shard_count (the total number of shards)")
        if any(not 0 <= i < (self.discord_shard_count or 0) for i in self.discord_shard_ids):
            raise ValueError("every id in discord_shard_ids must be below discord_shard_count")
        return self

    @property
    def wants_console(self) -> bool:
        return self.console or not (self.telegram_token or self.discord_token)


def load(args: list[str] | None = None) -> Settings:
    return CliApp.run(Settings, cli_args=args if args is not None else [])
