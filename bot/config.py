"""Configuration from the environment and ``.env`` (pydantic-settings)."""

from __future__ import annotations

import ipaddress
import string

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.rest_budget import DEFAULT_PER_SECOND, LEAST_PER_SECOND
from bot.shards import MAX_SHARDS, Shards, ShardSpecError, parse_ids
from bot.storage.database import DEFAULT_URL

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
BACKENDS = ("sqlite", "postgresql", "postgres")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = Field(default=None, description="the bot's token from the developer portal")
    database_url: str = Field(default=DEFAULT_URL, description="SQLite file (default) or postgresql://…")
    dev_guild_id: int | None = Field(default=None, description="sync commands to this server only, at once")
    log_level: str = Field(default="INFO")
    computer_workers: int | None = Field(
        default=None, ge=1, le=256, description="processes the computer players think in (default: one per CPU)"
    )
    computer_budget_ms: int = Field(
        default=1000, ge=50, le=30_000, description="the strong computer player's thinking time per move"
    )
    lobby_post_grace_seconds: int = Field(
        default=60,
        ge=0,
        le=3600,
        description="a lobby opened but never posted (the process died in between) is closed after this",
    )
    rest_per_second: float = Field(
        default=DEFAULT_PER_SECOND,
        ge=LEAST_PER_SECOND,
        le=10_000,
        description="the most REST calls the whole bot makes in any one second (Discord's global limit is 50)",
    )
    redis_url: str | None = Field(
        default=None, description="redis://host:6379/0: one REST budget shared by every process (unset: in memory)"
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        le=MAX_SHARDS,
        description="shards of the whole bot, for several processes (unset: Discord's recommended count, all here)",
    )
    shard_ids: str | None = Field(
        default=None, description="the shards this process runs, such as 0-3 or 0,2 (unset: every shard)"
    )
    reconnect_first_seconds: float = Field(
        default=1.0,
        gt=0,
        le=600,
        description="after losing Discord's gateway, the wait before the first attempt to reach it again",
    )
    reconnect_longest_seconds: float = Field(
        default=120.0,
        gt=0,
        le=3600,
        description="the longest wait between attempts (each wait doubles up to this)",
    )
    activity_local: bool = Field(
        default=False,
        description="serve the Activity's page alone on ACTIVITY_HOST:ACTIVITY_PORT with a local sign-in, no Discord",
    )
    activity_host: str = Field(default="127.0.0.1", description="where the Activity's web server listens")
    activity_port: int | None = Field(
        default=None,
        ge=1,
        le=65_535,
        description="the Activity's web server port (unset: no Activity with Discord; 8080 in local mode)",
    )
    activity_client_id: int | None = Field(default=None, description="the application's id (OAuth2 client id)")
    activity_client_secret: SecretStr | None = Field(
        default=None, description="the application's OAuth2 client secret, for the Activity's sign-in"
    )
    activity_trusted_proxies: str | None = Field(
        default=None,
        description="the reverse proxies in front of the Activity (addresses or networks, such as 127.0.0.1): "
        "a request from one of them is counted as from the address its X-Forwarded-For names",
    )
    activity_public_key: str | None = Field(
        default=None,
        description="the application's public key (Developer Portal, General Information): with it, the Activity's "
        "sign-in answers only requests Discord's proxy signed (turn its proxy authentication on)",
    )
    # Only the tests set this: the address of the local Discord double that stands in for Discord.
    discord_api_base: str | None = Field(default=None, description="test only: a stand-in for https://discord.com")

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"{value!r} is not a log level; use one of {', '.join(LOG_LEVELS)}")
        return value.upper()

    @field_validator("redis_url")
    @classmethod
    def _redis(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(  # the URL itself is not repeated: it may hold a password
                "it is not a Redis URL; use redis://host:6379/0 (rediss:// for TLS, unix:///path/to/redis.sock)"
            )
        return value

    @field_validator("activity_trusted_proxies")
    @classmethod
    def _trusted_proxies(cls, value: str | None) -> str | None:
        for part in (value or "").replace(",", " ").split():
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise ValueError(
                    f"{part!r} is not an address or network; list the proxies' addresses, such as 127.0.0.1, 10.0.0.0/8"
                ) from None
        return value

    @field_validator("activity_public_key")
    @classmethod
    def _public_key(cls, value: str | None) -> str | None:
        value = (value or "").strip() or None
        if value is not None and (len(value) != 64 or any(c not in string.hexdigits for c in value)):
            raise ValueError(
                "it is not an application's public key: 64 hexadecimal characters "
                "(the Developer Portal, General Information)"
            )
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        if value is not None:
            parse_ids(value)  # ShardSpecError is a ValueError: its message says how to write them
        return value

    @model_validator(mode="after")
    def _backoff_fits(self) -> Settings:
        if self.reconnect_first_seconds > self.reconnect_longest_seconds:
            raise ValueError(
                f"RECONNECT_FIRST_SECONDS={self.reconnect_first_seconds:g} is longer than "
                f"RECONNECT_LONGEST_SECONDS={self.reconnect_longest_seconds:g}: the first wait cannot be the longest"
            )
        return self

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        try:
            self.shards()
        except ShardSpecError as why:
            raise ValueError(f"SHARD_COUNT={self.shard_count} with SHARD_IDS={self.shard_ids}: {why}") from None
        return self

    @model_validator(mode="after")
    def _one_process_on_sqlite(self) -> Settings:
        """Some of the shards in this process means the others in other processes, all on one database: SQLite
        serves one process (the processes never hear of each other's moves, and a table stalls for good)."""
        if self.shard_ids is None or self.shard_count is None:
            return self
        some = set(parse_ids(self.shard_ids)) != set(range(self.shard_count))
        if some and make_url(self.database_url).get_backend_name() == "sqlite":
            raise ValueError(
                f"SHARD_IDS={self.shard_ids} runs some of the {self.shard_count} shards here and the rest in other "
                "processes, which share one database: SQLite serves one process; use PostgreSQL "
                "(DATABASE_URL=postgresql://user:password@host:5432/database), or run every shard in this process"
            )
        return self

    @model_validator(mode="after")
    def _activity_complete(self) -> Settings:
        signed_in = self.activity_client_id and self.activity_client_secret
        if self.activity_port and not self.activity_local and not signed_in:
            raise ValueError(
                "ACTIVITY_PORT turns the Activity on, which needs ACTIVITY_CLIENT_ID and ACTIVITY_CLIENT_SECRET too "
                "(the application's OAuth2 id and secret, from the Developer Portal's OAuth2 page)"
            )
        return self

    def shards(self) -> Shards:
        """The shards this process runs (every shard, when neither setting is given)."""
        if self.shard_ids is None:
            return Shards.everything() if self.shard_count is None else Shards.of(self.shard_count)
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT too: how many shards the whole bot runs")
        return Shards.of(self.shard_count, parse_ids(self.shard_ids))

    @field_validator("database_url")
    @classmethod
    def _supported_database(cls, value: str) -> str:
        try:
            backend: str | None = make_url(value).get_backend_name()
        except ArgumentError:
            backend = None
        if backend not in BACKENDS:  # the URL itself is not repeated: it may hold a password
            kind = f"a {backend} database" if backend else "not a database URL"
            raise ValueError(
                f"it is {kind}, which this bot cannot use; use sqlite+aiosqlite:///path/to/file.db "
                "(the default) or postgresql://user:password@host:5432/database"
            )
        return value
