"""The bot in local mode as its own process (``python -m bot --local``), and Debian's Chromium driven by Playwright.

No test here skips: CI installs Chromium (``.ci/run``) and builds the page; without them the tests fail.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from playwright.async_api import Browser, async_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PAGE = ROOT / "activity" / "page" / "dist" / "index.html"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalBot:
    def __init__(self, port: int, database_url: str, log: Path) -> None:
        self.port, self.database_url, self.log = port, database_url, log
        self.base = f"http://127.0.0.1:{port}"


@pytest.fixture
async def local_bot(tmp_path: Path) -> AsyncIterator[LocalBot]:
    assert PAGE.exists(), "build the page first: cd activity/page && npm ci && npm run build"
    port = free_port()
    bot = LocalBot(port, f"sqlite+aiosqlite:///{tmp_path / 'local.db'}", tmp_path / "bot.log")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "",
        "DATABASE_URL": bot.database_url,
        "ACTIVITY_PORT": str(port),
        "COMPUTER_WORKERS": "1",
        "COMPUTER_BUDGET_MS": "50",
    }
    with bot.log.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--local", cwd=tmp_path, env=env, stdout=log, stderr=log
        )
    try:
        async with aiohttp.ClientSession() as client:
            # Up to 60 s, as a bot against the Discord double is given to start (BotProcess.start): on a loaded
            # machine a fresh interpreter's imports and the database's migrations take seconds; only a failure
            # waits that long (300 tries of 0.1 s gave it about half of that).
            deadline = asyncio.get_running_loop().time() + 60
            while asyncio.get_running_loop().time() < deadline:
                try:
                    async with client.get(bot.base + "/api/mode") as reply:
                        if reply.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                if process.returncode is not None:
                    raise AssertionError(bot.log.read_text())
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the local table did not open:\n" + bot.log.read_text())
        yield bot
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:  # its own last resort ends it after 9.5 s: say what it was doing
                process.kill()
                await process.wait()
                raise AssertionError("the local table did not stop:\n" + bot.log.read_text()[-5000:]) from None
    assert "Traceback" not in bot.log.read_text(), bot.log.read_text()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: apt-get install -y chromium (.ci/run does)"
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()
