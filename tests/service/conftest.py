"""Fixtures for the storage and service tests: a fresh database on every backend.

SQLite always; PostgreSQL too when ``TEST_POSTGRES_URL`` is set (``.ci/run``
sets it), each test in its own new schema, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage.database import Database
from bot.storage.migrate import upgrade
from bot.tables import TableService

from .helpers import make_service

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])


async def fresh_database(
    backend: str, tmp_path: Path, revision: str = "head", **kwargs: object
) -> tuple[Database, str | None]:
    """An empty database migrated to ``revision``; for PostgreSQL also the schema to drop afterwards."""
    if backend == "sqlite":
        database = Database(f"sqlite:///{tmp_path / 'test.db'}", **kwargs)  # type: ignore[arg-type]
        await upgrade(database.engine, revision)
        return database, None
    assert POSTGRES_URL is not None
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = Database(POSTGRES_URL)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    await admin.close()
    database = Database(
        POSTGRES_URL,
        connect_args={"server_settings": {"search_path": schema}},
        **kwargs,  # type: ignore[arg-type]
    )
    await upgrade(database.engine, revision)
    return database, schema


async def drop_schema(schema: str | None) -> None:
    if schema is None or POSTGRES_URL is None:
        return
    admin = Database(POSTGRES_URL)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
    await admin.close()


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    database, schema = await fresh_database(request.param, tmp_path)
    try:
        yield database
    finally:
        await database.close()
        await drop_schema(schema)


class Clock:
    """A clock the tests move by hand, for turn deadlines."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(database: Database, clock: Clock) -> AsyncIterator[TableService]:
    service = make_service(database, clock)
    yield service
    await service.close()
