from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.double import BotProcess, DiscordDouble, User


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    server = DiscordDouble()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/bot.db"


@pytest.fixture
async def bot(double: DiscordDouble, database_url: str, tmp_path: Path) -> AsyncIterator[BotProcess]:
    # The strong computer thinks 300 ms a move here (a second by default): real searches, quicker matches.
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="300")
    await process.start()
    yield process
    await process.stop()
    log = process.log()
    assert "Traceback" not in log, log[-5000:]
    assert "no text for" not in log, [line for line in log.splitlines() if "no text for" in line]


def people(count: int, *, locale: str = "en-US") -> list[User]:
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan"]
    return [User(1000 + index, names[index], locale) for index in range(count)]
