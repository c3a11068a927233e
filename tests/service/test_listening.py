"""Processes sharing PostgreSQL keep hearing one another: a lost listening session is opened again and what
was told meanwhile caught up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.shards import Shards
from bot.storage import notify
from bot.storage.database import Database
from bot.tables import GuildSettings, TableInfo, TableService

from .conftest import POSTGRES_URL, Clock, drop_schema, fresh_database
from .helpers import make_service, seated

NEEDS_POSTGRES = "several processes share PostgreSQL only (LISTEN/NOTIFY): set TEST_POSTGRES_URL to run this"
EVEN_GUILD = 6 << 22  # shard 0 of 2: the first process's
WAIT = 60.0  # seconds a bounded wait allows (a busy machine); a healthy run takes a fraction of one


@pytest.fixture
async def postgres(tmp_path: Path) -> AsyncIterator[tuple[Database, str]]:
    if POSTGRES_URL is None:
        pytest.skip(NEEDS_POSTGRES)
    database, schema = await fresh_database("postgresql", tmp_path)
    assert schema is not None
    try:
        yield database, schema
    finally:
        await database.close()
        await drop_schema(schema)


async def until(condition: Callable[[], Awaitable[bool]], what: str, within: float = WAIT) -> None:
    """Poll ``condition`` until it holds, for ``within`` seconds at most (then fail, saying ``what``)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + within
    while not await condition():
        assert loop.time() < ends, f"not within {within} s: {what}"
        await asyncio.sleep(0.02)


async def computers_turn_next(owner: TableService) -> tuple[TableInfo, int, str]:
    """A table of the owner's server (two people and a computer) played by the owner up to a person's click that
    hands the turn to the computer: the table, that person and that action (not made)."""
    info = await seated(owner, "oh-hell", 2, {"start_cards": 3}, guild=EVEN_GUILD)
    info = await owner.add_computer(info.id, info.host_id, "easy")
    await owner.start(info.id, info.host_id, message_id=1)
    while True:
        await owner.settle()
        info = await owner.table(info.id)
        assert info.status == "playing", "the match ended before a person's move handed the turn to the computer"
        seat = next(s for s in info.to_act if info.seats[s].user_id is not None)
        who = info.seats[seat].user_id
        assert who is not None
        state = owner._live[info.id].state
        assert state is not None
        for action in state.legal(seat):
            trial = state.clone()
            trial.act(seat, action)
            if trial.to_act() and all(info.seats[s].user_id is None for s in trial.to_act()):
                return info, who, action
        await owner.act(info.id, who, state.legal(seat)[0])


def computer_played(reader: TableService, table_id: int, after: int) -> Callable[[], Awaitable[bool]]:
    """Whether the table moved past version ``after`` and no computer is left to act (read as committed)."""

    async def check() -> bool:
        info = await reader.table(table_id)  # another shard's table: its version is checked at every read
        people_to_act = any(info.seats[s].user_id is not None for s in info.to_act)
        return info.version > after and (info.status != "playing" or people_to_act)

    return check


async def terminate(database: Database, pid: int) -> None:
    """End a session the way a PostgreSQL restart, a failover or an idle-session kill does, for that session."""
    async with database.engine.connect() as connection:
        assert (await connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})).scalar_one()


async def test_a_lost_listening_session_is_opened_again_and_what_was_told_meanwhile_caught_up(
    postgres: tuple[Database, str], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    database, _ = postgres
    first = make_service(database, clock, shards=Shards.of(2, [0]))  # owns EVEN_GUILD
    second = make_service(database, clock, shards=Shards.of(2, [1]))
    heard: list[GuildSettings] = []

    async def changed(settings: GuildSettings) -> None:
        heard.append(settings)

    trying, let_through = asyncio.Event(), asyncio.Event()
    real = notify.listening_connection

    async def held_back(dsn: str) -> Any:  # the new session waits until the test has moved on without it
        trying.set()
        await let_through.wait()
        return await real(dsn)

    try:
        await first.follow_others(changed)
        info, who, action = await computers_turn_next(first)
        listener = first.settings._others
        assert listener is not None and listener.reconnections == 0
        monkeypatch.setattr(notify, "listening_connection", held_back)
        await terminate(database, listener._connection.get_server_pid())
        await asyncio.wait_for(trying.wait(), WAIT)  # it noticed, and is listening again: held back

        # Told while nobody listens: a click routed to the other process hands the turn to the computer
        # (which has no deadline to wake it), and the server's settings change.
        clicked = (await second.act(info.id, who, action)).table
        assert all(clicked.seats[s].user_id is None for s in clicked.to_act)
        await second.update_guild_settings(EVEN_GUILD, turn_seconds=90, language="ja")
        let_through.set()

        await until(computer_played(second, info.id, clicked.version), "the owner's computer played on")
        assert listener.reconnections == 1
        assert any(s.guild_id == EVEN_GUILD and s.language == "ja" for s in heard)  # the settings, read again
        assert first._live[info.id].guild_turn == 90
    finally:
        await first.close()
        await second.close()
