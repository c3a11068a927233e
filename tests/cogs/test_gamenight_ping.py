"""A night's ping is marked sent once it went out, or where it never can (Discord refused it); not where Discord
failed (a 5xx, the network), so that another try claims it again after its lease while the night is ahead."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from cogs.gamenights.cog import GameNights

NIGHT = SimpleNamespace(id=7)


def refusal(status: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="x"), {"code": 0, "message": "x"})  # type: ignore[arg-type]


def cog_whose_ping(outcome: BaseException | None) -> tuple[Any, list[object]]:
    marked: list[object] = []

    async def ping(night: object) -> None:
        if outcome is not None:
            raise outcome

    async def pinged(night: object) -> bool:
        marked.append(night)
        return True

    cog = SimpleNamespace(_ping=ping, service=SimpleNamespace(game_nights=SimpleNamespace(pinged=pinged)))
    return cog, marked


@pytest.mark.parametrize(
    ("outcome", "sent"),
    [
        (None, True),  # it went out
        (refusal(403), True),  # Missing Access: never will, so not tried again each lease
        (refusal(404), True),  # the channel is gone
        (TypeError("a channel that takes no messages"), True),
        (refusal(500), False),  # Discord failed: tried again after the lease
        (refusal(503), False),
        (aiohttp.ClientConnectionError("reset"), False),
    ],
)
async def test_a_ping_is_marked_sent_unless_discord_failed(outcome: BaseException | None, sent: bool) -> None:
    cog, marked = cog_whose_ping(outcome)
    if outcome is None:
        await GameNights.ping(cog, NIGHT)  # type: ignore[arg-type]
    else:
        with pytest.raises(type(outcome)):
            await GameNights.ping(cog, NIGHT)  # type: ignore[arg-type]
    assert marked == ([NIGHT] if sent else [])
