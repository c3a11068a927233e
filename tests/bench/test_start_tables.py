"""``bench start`` and ``bench tables`` on tiny runs: the fields they print, never how fast (PostgreSQL runs
when ``TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from bench.__main__ import main as bench_main
from bench.tables import TABLES_PER_SERVER, guild_for
from bot.shards import shard_of

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")
needs_postgres = pytest.mark.skipif(
    POSTGRES_URL is None, reason="TEST_POSTGRES_URL is not set (several processes need PostgreSQL)"
)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=needs_postgres)]


def fields(line: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in line.split() if "=" in part)


def number(text: str) -> float:
    value = float(text)
    assert value >= 0
    return value


@pytest.mark.parametrize("backend", BACKENDS)
def test_bench_start_prints_ready_click_timers_resume_and_memory(
    backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    database = [] if backend == "sqlite" else ["--database", str(POSTGRES_URL)]
    assert bench_main(["start", "--tables", "30", "--actions", "20", *database]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    seeded, started, resumed = (fields(line) for line in lines)
    assert seeded["tables"] == "30" and seeded["actions_each"] == "20" and seeded["backend"] == backend
    assert int(seeded["actions"]) == 30 * 20  # 20 moves never end a nine-deal match
    number(seeded["seeded_in_s"])
    for key in ("ready_s", "first_click_cold_ms", "first_timer_pass_s", "all_reminders_s"):
        number(started[key])
    assert started["reminders"] == "30"  # every seeded table's reminder was due, and each is sent once
    assert 1 <= int(started["reminders_first_pass"]) <= 30 and int(started["timer_passes"]) >= 1
    assert resumed["resumed"] == "30"
    number(resumed["background_resume_s"])
    number(resumed["click_during_resume_ms"])
    assert number(resumed["kB_per_live_table"]) > 0


def check_tables_line(line: str, processes: int, tables: int, backend: str) -> None:
    values = fields(line)
    assert list(values) == [
        "processes",
        "tables",
        "actions",
        "seconds",
        "actions/s",
        "p50_ms",
        "p99_ms",
        "max_ms",
        "cpu_ms/action",
        "think_ms",
        "backend",
    ]
    assert (values["processes"], values["tables"], values["think_ms"], values["backend"]) == (
        str(processes),
        str(tables),
        "0",
        backend,
    )
    assert int(values["actions"]) > tables * 9 * 3  # nine deals played to the end at every table
    assert number(values["p50_ms"]) <= number(values["p99_ms"]) <= number(values["max_ms"])
    number(values["seconds"])
    number(values["actions/s"])
    number(values["cpu_ms/action"])  # the bot processes' CPU per action (not the database's)


def test_bench_tables_in_one_process_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["tables", "--tables", "3", "--think-ms", "0"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    check_tables_line(line, 1, 3, "sqlite")


@needs_postgres
def test_bench_tables_in_one_and_two_processes_on_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    url = str(POSTGRES_URL)
    assert bench_main(["tables", "--tables", "6", "--processes", "2", "--think-ms", "0", "--database", url]) == 0
    one, two = capsys.readouterr().out.splitlines()
    check_tables_line(one, 1, 6, "postgresql")
    check_tables_line(two, 2, 6, "postgresql")


def test_bench_tables_refuses_several_processes_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["tables", "--tables", "6", "--processes", "2"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert len(out.err.splitlines()) == 1 and "PostgreSQL" in out.err


@pytest.mark.parametrize(("tables", "processes"), [(200, 1), (200, 2), (6, 2), (45, 2), (100, 3)])
def test_tables_spread_evenly_over_shards_within_a_servers_limit(tables: int, processes: int) -> None:
    guilds = [guild_for(number, tables, processes) for number in range(tables)]
    assert max(Counter(guilds).values()) <= TABLES_PER_SERVER
    shards = Counter(shard_of(guild, processes) for guild in guilds)
    assert set(shards) == set(range(processes))
    assert max(shards.values()) - min(shards.values()) <= 1
