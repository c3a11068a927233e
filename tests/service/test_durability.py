"""Crash safety: a real bot process killed with SIGKILL mid-play loses no acknowledged action."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.tables import TableService

from .conftest import BACKENDS, POSTGRES_URL, drop_schema, fresh_database
from .helpers import started

ROOT = Path(__file__).resolve().parents[2]
TABLES = [("ninety-nine", 3, {"format": "nine-deals"}), ("five-hundred", 4, {}), ("just-make", 5, {"target": 6})]


async def _run_worker(
    url: str, schema: str | None, kill_after: int | None, rng: random.Random
) -> tuple[list[str], bool]:
    """Run the worker; SIGKILL it a moment after its ``kill_after``-th acknowledgement (None: let it finish)."""
    args = [sys.executable, "-m", "tests.service.durability_worker", url] + ([schema] if schema else [])
    process = await asyncio.create_subprocess_exec(
        *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    lines: list[str] = []
    assert process.stdout is not None and process.stderr is not None
    async for raw in process.stdout:
        lines.append(raw.decode().strip())
        if kill_after is not None and sum(line.startswith("ACK") for line in lines) >= kill_after:
            await asyncio.sleep(rng.uniform(0, 0.004))  # mid-way through other tables' writes
            os.kill(process.pid, signal.SIGKILL)
            break
    lines.extend(raw.decode().strip() for raw in (await process.stdout.read()).splitlines())
    await asyncio.wait_for(process.wait(), timeout=300)
    errors = (await process.stderr.read()).decode()
    if process.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(f"worker failed ({process.returncode}):\n{errors}")
    return lines, "DONE" in lines


async def _check(database: Database, acknowledged: dict[tuple[int, int], tuple[int, str]]) -> None:
    async with database.engine.connect() as connection:
        logged = {
            (row.table_id, row.seq): (row.seat, row.action)
            for row in await connection.execute(text("SELECT table_id, seq, seat, action FROM actions"))
        }
        tables = list(await connection.execute(text("SELECT id, status, version, action_count FROM tables")))
        deadlines = dict((await connection.execute(text("SELECT table_id, version FROM deadlines"))).all())
        matches = [row[0] for row in await connection.execute(text("SELECT table_id FROM matches"))]
    for key, value in acknowledged.items():
        assert logged.get(key) == value, f"acknowledged action {key} {value} is not in the log"
    for table in tables:
        seqs = sorted(seq for table_id, seq in logged if table_id == table.id)
        assert seqs == list(range(table.action_count)), "the log and the table's count disagree"
        if table.status == "playing":
            assert deadlines[table.id] == table.version, "the turn timer belongs to another version"
        else:
            assert table.id not in deadlines
        assert matches.count(table.id) == (1 if table.status == "finished" else 0)
    # The log replays: a fresh process loads every table from it without complaint.
    assert await TableService(database).load_open_tables() == sum(t.status == "playing" for t in tables)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_at_random_moments_loses_nothing_acknowledged(backend: str, tmp_path: Path) -> None:
    database, schema = await fresh_database(backend, tmp_path)
    url = f"sqlite:///{tmp_path / 'test.db'}" if backend == "sqlite" else str(POSTGRES_URL)
    try:
        service = TableService(database)
        for number, (game, players, options) in enumerate(TABLES):
            await started(service, game, players=players, options=options, channel=800 + number)
        rng = random.Random(20261121)
        acknowledged: dict[tuple[int, int], tuple[int, str]] = {}
        kills = 0
        for _ in range(40):
            finish = kills >= 6
            lines, done = await _run_worker(url, schema, None if finish else rng.randint(5, 60), rng)
            for line in lines:
                if line.startswith("ACK "):
                    _, table_id, seq, seat, action = line.split(" ", 4)
                    acknowledged[(int(table_id), int(seq))] = (int(seat), action)
            await _check(database, acknowledged)
            if done:
                break
            kills += 1
        assert kills >= 6 and done
        async with database.engine.connect() as connection:
            statuses = [row[0] for row in await connection.execute(text("SELECT status FROM tables"))]
            assert statuses == ["finished"] * len(TABLES)
            assert (await connection.execute(text("SELECT count(*) FROM matches"))).scalar() == len(TABLES)
    finally:
        await database.close()
        await drop_schema(schema)
