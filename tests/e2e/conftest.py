from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.database import normalise_url
from tests.double import BotProcess, DiscordDouble, User
from tests.double.limits import INVALID_LIMIT


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    server = DiscordDouble()
    await server.start()
    yield server
    await server.stop()
    # Every call the bot made (every process of the test) is one Discord's spec allows, with no field the
    # spec does not know, and the bot stayed far from the invalid-request ban (401, 403 and 429 answers).
    assert server.spec_violations == [], server.spec_violations[:20]
    assert sorted(set(server.unknown_fields)) == [], sorted(set(server.unknown_fields))
    assert server.limits.invalid_peak < INVALID_LIMIT // 100, server.limits.limited[:20]


POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Every end-to-end test runs on SQLite and, when ``TEST_POSTGRES_URL`` is set, on a fresh
    PostgreSQL database of its own (created here, dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/bot.db"
        return
    if POSTGRES_URL is None:
        pytest.skip("PostgreSQL: TEST_POSTGRES_URL is not set")
    name = f"e2e_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(normalise_url(POSTGRES_URL), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield make_url(normalise_url(POSTGRES_URL)).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as connection:
            await connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.dispose()


@pytest.fixture
async def bot(double: DiscordDouble, database_url: str, tmp_path: Path) -> AsyncIterator[BotProcess]:
    # The strong computer thinks 100 ms a move here (a second by default): real searches, quicker matches.
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="100")
    await process.start()
    yield process
    await process.stop()
    log = process.log()
    assert "Traceback" not in log, log[-5000:]
    assert "no text for" not in log, [line for line in log.splitlines() if "no text for" in line]


def people(count: int, *, locale: str = "en-US") -> list[User]:
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan"]
    return [User(1000 + index, names[index], locale) for index in range(count)]
