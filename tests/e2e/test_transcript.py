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
