"""Configuration from the environment and ``.env`` (pydantic-settings)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.database import DEFAULT_URL


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
    # Only the tests set this: the address of the local Discord double that stands in for Discord.
    discord_api_base: str | None = Field(default=None, description="test only: a stand-in for https://discord.com")
