"""Shared moves for the service tests."""

from __future__ import annotations

import random
from typing import Any

from bot.tables import Outcome, TableInfo, TableService

GUILD, CHANNEL = 1, 500
HOST = 100


def user(seat: int) -> int:
    return HOST + seat


async def seated(
    service: TableService,
    game: str = "ninety-nine",
    players: int = 3,
    options: dict[str, Any] | None = None,
    *,
    channel: int = CHANNEL,
    guild: int = GUILD,
    first_user: int = HOST,
    turn_seconds: int | None = None,
) -> TableInfo:
    """An open lobby with ``players`` people seated (users first_user, first_user+1, …)."""
    info = await service.open_table(
        guild, channel, first_user, f"Player {first_user}", game, options, turn_seconds=turn_seconds
    )
    for n in range(1, players):
        info = await service.join(info.id, first_user + n, f"Player {first_user + n}")
    return info


async def started(service: TableService, *args: Any, **kwargs: Any) -> Outcome:
    info = await seated(service, *args, **kwargs)
    return await service.start(info.id, info.host_id)


async def play_one(service: TableService, info: TableInfo, rng: random.Random) -> Outcome:
    """One random legal action by a seated person whose turn it is."""
    seat = rng.choice([s for s in info.to_act if info.seats[s].user_id is not None])
    who = info.seats[seat].user_id
    assert who is not None
    legal = await service.legal(info.id, who)
    return await service.act(info.id, who, rng.choice(legal))


async def play_to_end(service: TableService, info: TableInfo, seed: int = 0, limit: int = 100_000) -> list[Outcome]:
    rng = random.Random(seed)
    outcomes = []
    while info.status == "playing" and len(outcomes) < limit:
        outcome = await play_one(service, info, rng)
        outcomes.append(outcome)
        info = outcome.table
    return outcomes
