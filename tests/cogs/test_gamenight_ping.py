"""A night's ping is marked sent once any of it went out (whatever happens then: a later message failing, the
process stopping), or where it never can (Discord refused it); not where nothing went out and Discord failed (a
5xx, a 429, the network), so that another try claims it again after its lease while the night is ahead; nor
where its claim was taken by another process before it was sent."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from cogs.gamenights.cog import GameNights, PingProgress

NIGHT = SimpleNamespace(id=7)
RENEWED = SimpleNamespace(id=7, renewed=True)


def refusal(status: int) -> discord.HTTPException:
    answer = SimpleNamespace(status=status, reason="x")
    return discord.HTTPException(answer, {"code": 0, "message": "x"})  # type: ignore[arg-type]


def cog_whose_ping(outcome: BaseException | None, *, sent: bool, taken: bool = False) -> tuple[Any, list[object]]:
    """A cog whose sending goes as told: its claim renewed (or ``taken`` by another process), ``sent`` a first
    message or not, then ``outcome`` raised (None: done)."""
    marked: list[object] = []

    async def ping(progress: PingProgress) -> None:
        progress.claim = None if taken else RENEWED  # type: ignore[assignment]
        progress.sent = sent
        if outcome is not None:
            raise outcome

    async def pinged(night: object) -> bool:
        marked.append(night)
        return True

    cog = SimpleNamespace(_ping=ping, service=SimpleNamespace(game_nights=SimpleNamespace(pinged=pinged)))
    return cog, marked


@pytest.mark.parametrize(
    ("outcome", "sent", "marked"),
    [
        (None, True, True),  # it went out
        (refusal(403), False, True),  # Missing Access: never will, so not tried again each lease
        (refusal(404), False, True),  # the channel is gone
        (TypeError("a channel that takes no messages"), False, True),
        (refusal(500), False, False),  # Discord failed before anything went out: tried again after the lease
        (refusal(503), False, False),
        (refusal(429), False, False),  # rate limited past discord.py's retries: a failure, not a refusal
        (aiohttp.ClientConnectionError("reset"), False, False),
        (refusal(500), True, True),  # its first message went out, the second failed: not all of it again
        (asyncio.CancelledError(), True, True),  # the process stopping between sending and marking
        (asyncio.CancelledError(), False, False),
    ],
)
async def test_a_ping_is_marked_sent_once_any_of_it_went_out_or_discord_refused_it(
    outcome: BaseException | None, sent: bool, marked: bool
) -> None:
    cog, done = cog_whose_ping(outcome, sent=sent)
    if outcome is None:
        await GameNights.ping(cog, NIGHT)  # type: ignore[arg-type]
    else:
        with pytest.raises(type(outcome)):
            await GameNights.ping(cog, NIGHT)  # type: ignore[arg-type]
    assert done == ([RENEWED] if marked else [])  # under its renewed claim


async def test_a_ping_taken_by_another_process_is_neither_sent_nor_marked_here() -> None:
    cog, done = cog_whose_ping(None, sent=False, taken=True)
    await GameNights.ping(cog, NIGHT)  # type: ignore[arg-type]
    assert done == []
