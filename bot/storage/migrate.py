"""Alembic, driven from the code: ``python -m bot db upgrade`` and the bot's own start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str | None = None) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _upgrade(connection: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection  # migrations/env.py uses it instead of connecting
    command.upgrade(config, revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade, revision)


def _pending(connection: Connection) -> list[Any]:
    from bot.storage.models import Base

    context = MigrationContext.configure(connection, opts={"compare_type": True, "render_as_batch": True})
    return list(compare_metadata(context, Base.metadata))


async def pending_changes(engine: AsyncEngine) -> list[Any]:
    """What ``alembic revision --autogenerate`` would write now: empty when models and migrations agree."""
    async with engine.connect() as connection:
        return await connection.run_sync(_pending)
