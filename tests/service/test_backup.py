"""``python -m bot db backup PATH``: a consistent SQLite copy taken while tables are being played."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage.backup import BackupRefused, backup
from bot.storage.database import Database
from bot.storage.migrate import upgrade
from bot.tables import TableService

from .helpers import make_service, play_one, started

ROOT = Path(__file__).resolve().parents[2]


async def test_a_backup_taken_during_play_is_a_committed_moment(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    database = Database(url)
    await upgrade(database.engine)
    service: TableService = make_service(database)
    try:
        outcomes = [await started(service, "oh-hell", players=4, channel=100 + n) for n in range(3)]
        rng = random.Random(1)
        stop = asyncio.Event()

        async def keep_playing() -> int:
            moves = 0
            while not stop.is_set():
                for index, outcome in enumerate(outcomes):
                    outcomes[index] = await play_one(service, (await service.table(outcome.table.id)), rng)
                    moves += 1
            return moves

        playing = asyncio.create_task(keep_playing())
        await asyncio.sleep(0.05)
        copies = []
        for n in range(3):  # several copies while the moves go on
            target = tmp_path / f"copy{n}.db"
            pages = await asyncio.to_thread(backup, url, target)
            assert pages > 0
            copies.append(target)
            await asyncio.sleep(0.02)
        stop.set()
        assert await playing > 0
    finally:
        await service.close()
        await database.close()
    for target in copies:
        with sqlite3.connect(target) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            logged = dict(copy.execute("SELECT table_id, count(*) FROM actions GROUP BY table_id").fetchall())
            counted = dict(copy.execute("SELECT id, action_count FROM tables").fetchall())
            # every table's own count of its actions matches the log in the copy: nothing half-written
            assert all(logged.get(table_id, 0) == count for table_id, count in counted.items()), (logged, counted)


def test_a_backup_refuses_what_it_cannot_copy(tmp_path: Path) -> None:
    with pytest.raises(BackupRefused, match="pg_dump"):
        backup("postgresql://postgres@127.0.0.1/test", tmp_path / "x.db")
    with pytest.raises(BackupRefused, match="no database"):
        backup(f"sqlite:///{tmp_path / 'missing.db'}", tmp_path / "x.db")
    existing = tmp_path / "here.db"
    sqlite3.connect(existing).close()
    with pytest.raises(BackupRefused, match="exists already"):
        backup(f"sqlite:///{existing}", existing)


def test_the_command_line_backs_up_and_says_why_not(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    with sqlite3.connect(source) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.execute("INSERT INTO t VALUES (1)")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{source}"}
    command = [sys.executable, "-m", "bot", "db", "backup", str(tmp_path / "out.db")]
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "backed up" in done.stdout, done.stderr
    with sqlite3.connect(tmp_path / "out.db") as copy:
        assert copy.execute("SELECT x FROM t").fetchall() == [(1,)]
    again = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 2 and "exists already" in again.stderr and "Traceback" not in again.stderr
