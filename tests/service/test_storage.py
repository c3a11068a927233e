"""The database layer: migrations agree with the models, SQLite settings, the group-commit writer."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import repository as repo
from bot.storage.database import BatchRollback, Database, normalise_url
from bot.storage.migrate import pending_changes
from bot.storage.models import Guild


async def test_models_and_migrations_agree(database: Database) -> None:
    assert await pending_changes(database.engine) == []


async def test_upgrade_twice_is_harmless(database: Database) -> None:
    await database.upgrade()
    assert await pending_changes(database.engine) == []


async def test_sqlite_runs_in_wal_with_foreign_keys(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'nested' / 'folder' / 'bot.db'}")
    try:
        async with database.engine.connect() as connection:
            assert (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
        assert (tmp_path / "nested" / "folder").is_dir()  # the folder is created if missing
    finally:
        await database.close()


def test_urls_people_write_get_the_async_drivers() -> None:
    assert normalise_url("postgresql://u@h:5432/d") == "postgresql+asyncpg://u@h:5432/d"
    assert normalise_url("sqlite:///data/x.db") == "sqlite+aiosqlite:///data/x.db"
    assert normalise_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"


async def test_foreign_keys_are_enforced(database: Database) -> None:
    async def orphan_seat(connection: AsyncConnection) -> None:
        await repo.insert_seat(connection, 999_999, None, datetime.now(UTC))

    with pytest.raises(Exception, match=r"(?i)foreign key"):
        await database.write(orphan_seat)


async def test_times_come_back_aware_and_in_utc(database: Database) -> None:
    moment = datetime(2026, 11, 21, 21, 30, 15, tzinfo=UTC)

    async def add(connection: AsyncConnection) -> None:
        await repo.ensure_guild(connection, 7)
        await connection.execute(repo.GUILDS.update().values(created_at=moment))

    await database.write(add)
    async with database.engine.connect() as connection:
        stored = (await connection.execute(select(Guild.created_at))).scalar_one()
    assert stored == moment and stored.tzinfo is not None


async def test_concurrent_writes_share_commits_and_a_failing_one_fails_alone(database: Database) -> None:
    async def add(guild: int) -> int:
        async def work(connection: AsyncConnection) -> int:
            if guild == 13:
                raise BatchRollback(ValueError("unlucky"))
            await repo.ensure_guild(connection, guild)
            return guild

        return await database.write(work)

    results = await asyncio.gather(*(add(guild) for guild in range(1, 41)), return_exceptions=True)
    assert [r for r in results if isinstance(r, Exception)] == [results[12]]
    assert isinstance(results[12], ValueError)
    assert database.batches < 40  # some writes were committed together
    async with database.engine.connect() as connection:
        stored = {row[0] for row in await connection.execute(text("SELECT id FROM guilds"))}
    assert stored == set(range(1, 41)) - {13}


async def test_a_stale_move_in_a_merged_batch_fails_alone(database: Database) -> None:
    now = datetime.now(UTC)

    async def setup(connection: AsyncConnection) -> list[int]:
        await repo.ensure_guild(connection, 1)
        await repo.remember_player(connection, 5, "Ann")
        ids = []
        for channel in range(3):
            ids.append(
                await repo.insert_table(
                    connection,
                    guild_id=1,
                    channel_id=channel,
                    game="ninety-nine",
                    options={},
                    seed=1,
                    status="playing",
                    host_id=5,
                    created_at=now,
                    version=4,
                    action_count=0,
                )
            )
        return ids

    ids = await database.write(setup)
    moves = [
        repo.MoveWrite(table_id, 4 if table_id != ids[1] else 3, 1, [_row(table_id, now)], now, now) for table_id in ids
    ]
    results = await asyncio.gather(*(database.write(move) for move in moves), return_exceptions=True)
    assert isinstance(results[1], repo.StaleWrite)
    assert results[0] is None and results[2] is None
    async with database.engine.connect() as connection:
        versions = dict((await connection.execute(text("SELECT id, version FROM tables"))).all())
        logged = {row[0] for row in await connection.execute(text("SELECT table_id FROM actions"))}
    assert versions == {ids[0]: 5, ids[1]: 4, ids[2]: 5}
    assert logged == {ids[0], ids[2]}


def _row(table_id: int, now: datetime) -> dict[str, object]:
    return {"table_id": table_id, "seq": 0, "seat": 0, "action": "pass", "source": "player", "created_at": now}
