"""A channel not listed with its server at a new session is closed only if Discord, asked once, says it is gone."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot.config import Settings


def _refusal(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return kind(response, {"code": code, "message": "refused"})  # type: ignore[arg-type]


ANSWERS: list[tuple[Any, bool]] = [
    (_refusal(discord.NotFound, 404, 10003), True),  # Unknown Channel: gone
    (_refusal(discord.NotFound, 404, 10004), False),  # another 404 says nothing of the channel
    (_refusal(discord.Forbidden, 403, 50001), False),  # there, hidden from the bot
    (_refusal(discord.DiscordServerError, 503, 0), False),  # Discord cannot say now
    (aiohttp.ClientConnectionError("reset"), False),
    (TimeoutError(), False),
    ({"id": "5", "type": 99, "guild_id": "1"}, False),  # there, of a kind discord.py does not know
]


@pytest.mark.parametrize(("answer", "gone"), ANSWERS)
async def test_only_unknown_channel_says_a_channel_is_gone(tmp_path: Path, answer: Any, gone: bool) -> None:
    from bot.launcher import TrickBot

    bot = TrickBot(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/bot.db"))
    asked: list[int] = []

    async def get_channel(channel_id: int) -> Any:
        asked.append(channel_id)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    bot.http.get_channel = get_channel  # type: ignore[method-assign,assignment]
    try:
        assert await bot._deleted(5) is gone
        assert asked == [5]
    finally:
        await bot.database.close()
        assert bot.budget is not None
        await bot.budget.close()
