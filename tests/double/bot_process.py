"""The real bot, run as its own process (``python -m bot``) against the Discord double."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.shards import parse_ids

from .server import DiscordDouble

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    def __init__(self, double: DiscordDouble, database_url: str, log_path: Path, **env: str) -> None:
        self.double = double
        self.database_url = database_url
        self.log_path = log_path
        self.env = env
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, timeout: float = 60.0) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": "double-token",
            "DISCORD_API_BASE": self.double.base,
            "DATABASE_URL": self.database_url,
            "DEV_GUILD_ID": "",
            "LOG_LEVEL": "INFO",
            **self.env,
        }
        shards = self.shards()
        self.double.expect_connection(shards)
        log = self.log_path.open("ab")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=env, stdout=log, stderr=log
        )
        log.close()
        self.double.bot_processes.append(self.process)
        waiting = asyncio.ensure_future(self.double.wait_connected(timeout, shards))
        exited = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiting.cancel()
            raise RuntimeError(f"the bot exited with {self.process.returncode}:\n{self.log()}")
        exited.cancel()
        waiting.result()

    def shards(self) -> list[int] | None:
        """The shards this process runs (its SHARD_IDS), or None: all of them."""
        ids = self.env.get("SHARD_IDS")
        return None if not ids else parse_ids(ids)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def stop(self, *, kill: bool = False) -> int | None:
        if self.process is None or self.process.returncode is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), 20)
        except TimeoutError:
            self.process.kill()
            return await self.process.wait()
