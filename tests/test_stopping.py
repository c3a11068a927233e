"""The last resort of a stop: a process whose stop hangs (a thread stuck in a library, a socket that will not
close) ends by itself soon after, in local mode as in Discord mode."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_stop_that_hangs_ends_the_process_at_the_latest() -> None:
    hanging = "from bot.stopping import end_at_the_latest; end_at_the_latest(0.5); import time; time.sleep(60)"
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", hanging], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 30  # not the minute it would have slept
    assert "the stop took longer than 0.5 s" in done.stderr
