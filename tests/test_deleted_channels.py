"""A channel not listed with its server at a new session is closed only if Discord, asked once, says it is gone."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from tests.launched import trick_bot


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
    async with trick_bot(tmp_path) as bot:
        asked: list[int] = []

        async def get_channel(channel_id: int) -> Any:
            asked.append(channel_id)
            if isinstance(answer, BaseException):
                raise answer
            return answer

        bot.http.get_channel = get_channel  # type: ignore[method-assign,assignment]
        assert await bot._deleted(5) is gone
        assert asked == [5]


def _server(guild_id: int, channels: list[int], *, threads: Sequence[int] = (), unavailable: bool = False) -> Any:
    """What the check reads of a discord.py server: its id, shard, channels, active threads, whether it is out."""
    listed = [SimpleNamespace(id=channel) for channel in channels]
    active = [SimpleNamespace(id=thread) for thread in threads]
    return SimpleNamespace(id=guild_id, shard_id=0, channels=listed, threads=active, unavailable=unavailable)


async def test_a_channel_is_asked_about_once_and_an_active_thread_never(tmp_path: Path) -> None:
    """A season's channel deleted stays its channel (its standings are kept, posted nowhere): Discord is asked
    about it at one new session, not at every one after; a tournament shown in an active thread is listed."""
    async with trick_bot(tmp_path) as bot:
        places = {(1, 9), (1, 11), (1, 10)}  # a season's channel (deleted), a tournament's thread, a table's channel
        asked: list[int] = []
        closed: list[int] = []

        async def channels_missing(listed: dict[int, set[int]]) -> list[int]:
            return sorted(channel for guild, channel in places if guild in listed and channel not in listed[guild])

        async def get_channel(channel_id: int) -> Any:
            asked.append(channel_id)
            raise _refusal(discord.NotFound, 404, 10003)

        async def channel_deleted(channel_id: int) -> list[int]:
            closed.append(channel_id)
            return []

        bot.service.channels_missing = channels_missing  # type: ignore[assignment]
        bot.service.channel_deleted = channel_deleted
        bot.http.get_channel = get_channel  # type: ignore[method-assign,assignment]
        for _session in range(3):
            assert await bot._channels_deleted(0, [_server(1, [10], threads=[11])])
        assert asked == [9] and closed == [9]


async def test_servers_that_come_in_late_are_checked_together_and_again_if_the_database_was_away(
    tmp_path: Path,
) -> None:
    """Servers still out at their session's check are checked as they come in: those come in meanwhile in one
    query, one check at a time; a check the database could not answer is made when the server next comes in."""
    from sqlalchemy.exc import OperationalError

    async with trick_bot(tmp_path) as bot:
        queries: list[dict[int, set[int]]] = []
        asked: list[int] = []
        answering = asyncio.Event()
        away = [True]

        async def channels_missing(listed: dict[int, set[int]]) -> list[int]:
            queries.append({guild: set(channels) for guild, channels in listed.items()})
            await answering.wait()
            if away[0]:
                raise OperationalError("SELECT", {}, ConnectionRefusedError("refused"))
            return [9]

        async def get_channel(channel_id: int) -> Any:
            asked.append(channel_id)
            return {"id": str(channel_id), "type": 0, "guild_id": "1"}  # still there: nothing closes

        bot.service.channels_missing = channels_missing  # type: ignore[assignment]
        bot.http.get_channel = get_channel  # type: ignore[method-assign,assignment]
        await bot._channels_deleted(0, [_server(1, [], unavailable=True), _server(2, [], unavailable=True)])
        assert bot._unchecked == {1, 2} and queries == []
        first, second = _server(1, [10]), _server(2, [20])
        await bot.on_guild_available(first)
        await bot.on_guild_available(second)
        await bot.on_guild_available(_server(3, [30]))  # never out: not checked here
        assert bot._checking is not None
        answering.set()
        await bot._checking
        assert queries == [{1: {10}, 2: {20}}], "the two servers come in together are checked in one query"
        assert bot._unchecked == {1, 2}, "the database was away: checked the next time they come in"
        away[0] = False
        await bot.on_guild_available(first)
        await bot._checking
        assert queries[1:] == [{1: {10}}] and asked == [9] and bot._unchecked == {2}
