"""The offline transcript tool (``python -m tests.e2e.transcript``): a bad argument, or a table the bot refuses,
prints what is wrong (the bot's own answer, when the bot is the one saying no) and exits with 2, no traceback."""

from __future__ import annotations

import asyncio
import os
import sys

from tests.double.bot_process import ROOT


async def transcript(*argv: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.e2e.transcript",
        *argv,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_a_table_the_bot_refuses_prints_its_answer() -> None:
    code, out, err = await transcript("ninety-nine", "--players", "9")
    assert code == 2, err
    assert "Ninety-Nine cannot be played at a table of 9; the player counts it allows: 2, 3, 4." in err
    assert "Traceback" not in err and "AssertionError" not in err
    assert out == ""  # no transcript of a table that never was


async def test_an_unknown_computer_level_is_a_bad_argument() -> None:
    code, out, err = await transcript("just-make", "--computers", "easy,hard")
    assert code == 2
    assert "no computer level hard; the levels are easy, strong" in err
    assert "Traceback" not in err and out == ""


async def test_a_duplicate_night_prints_each_deal_compared_the_standings_and_the_podium() -> None:
    code, out, err = await transcript("oh-hell", "--duplicate", "2", "--people", "7", "--compare", "deal")
    assert code == 0, err[-4000:]
    # the sign-up, and each table in a private thread of its own, its people only
    assert "Duplicate night, tables of 4: every table plays the same deals, each in a private thread" in out
    assert "🔒 #Tournament 1 · round 1 · table 1 (private: " in out
    assert "Entrants (7)" in out and "@Alice" in out and "<@" not in out  # people by name, as Discord shows them
    assert "Tournament 1, round 1, table 2: " in out and "🤖" in out  # a computer took the eighth seat
    for deal in (1, 2, 3):  # start_cards=3: deals of 3, 2 and 1 cards, each compared seat by seat
        comparison = out.split(f"Tournament 1, round 1, deal {deal}: the same deal at every table")[1]
        seats = [line for line in comparison.split("\n\n")[0].splitlines() if line.startswith("Seat ")]
        assert [line.split(":")[0] for line in seats] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"], comparison
        assert all(" T1 " in line and " T2 " in line and " mp)" in line for line in seats), comparison
    assert out.index("deal 3: the same deal") < out.index("standings after round 1") < out.index("the podium")
    assert "🥇" in out and "🥈" in out and "🥉" in out
    assert out.count("Final standings") == 2  # each table once, in its final state
    assert "Alice only" not in out  # no hands by default


async def test_a_duplicate_night_in_japanese() -> None:
    code, out, err = await transcript("oh-hell", "--duplicate", "2", "--locale", "ja")
    assert code == 0, err[-4000:]
    assert "デュプリケートナイト、4人卓" in out and "参加者（8）" in out and "@たろう" in out
    assert "トーナメント1、ラウンド1：全テーブルの同じディール" in out  # all the round's deals, compared at its end
    assert "席1：T1 @" in out and "T2 @" in out
    assert "トーナメント1：ラウンド1後の順位" in out and "表彰台" in out and "🥇" in out
    assert "Tournament" not in out and "the podium" not in out


async def test_duplicate_night_options_without_a_duplicate_night_are_a_bad_argument() -> None:
    code, out, err = await transcript("oh-hell", "--compare", "deal")
    assert code == 2 and "--compare: only with --duplicate TABLES" in err and out == ""
    code, out, err = await transcript("oh-hell", "--duplicate", "2", "--people", "9")
    assert code == 2 and "--people: from 1 to the 8 seats of 2 tables" in err and out == ""
