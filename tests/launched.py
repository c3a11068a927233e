"""The launcher's bot made for a test, never connected: its database on a file under the test's directory."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Settings

if TYPE_CHECKING:
    from bot.launcher import TrickBot


@contextlib.asynccontextmanager
async def trick_bot(tmp_path: Path, *, upgraded: bool = False) -> AsyncIterator[TrickBot]:
    """A ``TrickBot`` (one shard, as Discord says at the first connection), closed after: its database and its
    REST budget. ``upgraded``: its tables made first."""
    from bot.launcher import TrickBot

    bot = TrickBot(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/bot.db"))
    try:
        if upgraded:
            await bot.database.upgrade()
        bot.shard_count = 1
        yield bot
    finally:
        await bot.database.close()
        assert bot.budget is not None
        await bot.budget.close()


def hold_new_sessions(bot: TrickBot, held: int = 1) -> tuple[list[int], asyncio.Event]:
    """The bot's new-session checks held: each notes its shard in the list as it begins, and the first ``held``
    of them wait until the event is set before they go on."""
    begun: list[int] = []
    go_on = asyncio.Event()
    servers_left = bot._servers_left

    async def held_check(shard_id: int) -> None:
        begun.append(shard_id)
        if len(begun) <= held:
            await go_on.wait()
        await servers_left(shard_id)

    bot._servers_left = held_check  # type: ignore[method-assign]
    return begun, go_on


async def begun(checks: list[int], count: int = 1) -> None:
    """Wait until ``count`` held checks have begun."""
    async with asyncio.timeout(5):
        while len(checks) < count:
            await asyncio.sleep(0.01)
