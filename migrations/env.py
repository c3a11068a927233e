"""Alembic environment (async template): models from bot.storage, batch mode for SQLite."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import Connection

from bot.storage.database import DEFAULT_URL, create_engine
from bot.storage.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(**kwargs: object) -> None:
    context.configure(target_metadata=target_metadata, render_as_batch=True, compare_type=True, **kwargs)


def run_offline() -> None:
    _configure(
        url=config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL", DEFAULT_URL), literal_binds=True
    )
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL", DEFAULT_URL)
    engine = create_engine(url)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    run_offline()
elif (shared := config.attributes.get("connection")) is not None:
    _run(shared)  # bot.storage.migrate passes its own connection
else:
    asyncio.run(_run_async())
