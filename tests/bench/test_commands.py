"""Every benchmark runs with tiny parameters and prints its figures (never how fast: the fields only), and the
former spelling ``python -m bot bench ...`` still runs them from a clone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import main as bench_main
from bot.games import GAMES

ROOT = Path(__file__).resolve().parents[2]


def fields(line: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in line.split() if "=" in part)


def test_engine_prints_deals_for_each_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["engine", "--game", "just-make", "--seconds", "0.01"]) == 0
    first, *rows = capsys.readouterr().out.splitlines()
    assert first in ("engines: pure Python", "engines: compiled by mypyc")
    assert [fields(row)["players"] for row in rows] == [str(n) for n in GAMES["just-make"].players]
    for row in rows:
        assert row.startswith("just-make ") and int(fields(row)["deals"]) > 0


def test_picture_prints_each_games_chart_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["picture", "--repeat", "1", "--samples", "3", "--save", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    charts, tables = lines[: len(GAMES)], lines[len(GAMES) :]
    assert [line.split()[0] for line in charts] == list(GAMES) == [line.split()[0] for line in tables]
    assert all(int(fields(line)["png_bytes"]) > 0 for line in charts)
    assert all(fields(line)["pictures"] == "3" for line in tables)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        f"{game}-{n}.png" for game in GAMES for n in (1, 2)
    )


@pytest.mark.parametrize(
    ("former", "kind"), [(["chart", "--repeat", "1"], "ms/chart"), (["table-image", "--samples", "2"], "pictures")]
)
def test_the_picture_benchmarks_former_names_run_one_of_them(
    former: list[str], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench_main(former) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(GAMES) and all(kind in fields(line) for line in lines)


def test_python_m_bot_bench_runs_the_benchmarks() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "bench", "engine", "--game", "oh-hell", "--seconds", "0.01"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]] == ["oh-hell"] * len(GAMES["oh-hell"].players)
    wrong = subprocess.run(
        [sys.executable, "-m", "bot", "bench", "nonsense"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert wrong.returncode == 2 and "invalid choice" in wrong.stderr


def test_engine_against_openspiel_prints_both_sides_or_how_to_install(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["engine", "--against", "openspiel", "--seconds", "0.01", "--rounds", "1"]) == 0
    _, other, shape, *rows = capsys.readouterr().out.splitlines()
    assert other.startswith("openspiel: ") and shape.startswith("shape: 3 players, 9 tricks")
    ours = [fields(row) for row in rows if fields(row)["side"] == "ours"]
    assert {(row["game"], row["driver"]) for row in ours} == {
        (game, driver) for game in ("oh-hell", "ninety-nine") for driver in ("per-move", "in-engine", "contract")
    } | {("oh-hell", "in-engine-compact"), ("ninety-nine", "in-engine-compact")}
    assert all(int(row["deals"]) > 0 for row in ours)
    if "not installed" not in other:
        assert all("ratio" in row for row in ours if row["driver"] != "contract")


def test_events_prints_each_round_change(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["events", "--entrants", "8", "--rounds", "2"]) == 0
    first, change, shown, rest = capsys.readouterr().out.splitlines()
    assert first.startswith("bench events: 8 entrants, Swiss, 2 tables of 4") and first.endswith("finished")
    assert change.startswith("round change") and change.count(" ms") == 2
    assert shown.startswith("round change shown in chat") and "each answered in 0 ms): " in shown
    assert shown.count(" ms") == 3
    # what the /tournament cog sent for the change, counted: the standings, and per table its message, a
    # thread, the ping; the sign-up message's edit (a table's message, posted as drawn, is not edited again)
    assert rest.startswith("REST calls per round change: 8 ")
    assert "edits (the sign-up message; each table's message): 1" in rest
    assert "posts (the standings, each table's message, each ping): 5" in rest and "threads (one a table): 2" in rest


def test_activity_counts_the_chat_tables_calls_beside_the_screens(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["activity", "--tables", "2", "--moves", "3", "--pause", "0.05", "--discord"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("SQLite: 2 tables of 4 screens, 6 actions")
    # Moves made on screens: the table message's coalesced edits, no turn ping (everyone sees their turn).
    assert "at most 1 for one table in any one second" in line and "POST" not in line and "DELETE" not in line


def test_search_prints_the_deals_a_decision_tries(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["search", "--deals", "1", "--budget-ms", "20", "--samples", "4"]) == 0
    title, searched, wall, cpu = capsys.readouterr().out.splitlines()
    assert title.startswith("bench search: oh-hell, 1 deals, strong at 20 ms a decision")
    decisions = int(searched.split()[2])
    assert decisions > 0 and "deals tried a decision median" in searched and "drawn median" in searched
    assert wall.startswith("wall ms a decision p50") and cpu.startswith("CPU ms a decision of 4 deals")


def test_rest_budget_prints_each_kind_of_call_near_and_far(capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from tests.redis_service import REDIS_URL, redis_answers

    if not asyncio.run(redis_answers()):
        pytest.skip(f"Redis: nothing answers at {REDIS_URL} (set TEST_REDIS_URL)")
    given = ["rest-budget", "--redis", REDIS_URL, "--latency", "0", "--latency", "50", "--seconds", "0.2"]
    assert bench_main([*given, "--callers", "10"]) == 0
    first, *lines = capsys.readouterr().out.splitlines()
    assert first.startswith("REST budget of 45 calls a second through Redis") and "10 callers" in first
    assert len(lines) == 8
    assert [line.split(",")[1].split(":")[0].strip() for line in lines] == ["answers", "pings", "edits", "mixed"] * 2
    assert all("calls/s" in line and "round trips a call (redis)" in line for line in lines)
    assert "50 ms away" in lines[-1]
