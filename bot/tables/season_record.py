"""A finished match in its season: the season of the instant it finished (created if it is due), and the
season ratings of its people, from scratch at each season's start. Written in the match's own transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import seasons as stored

from .season_calendar import season_end, season_label
from .standings import SkillRating, rate

MAX_CATCH_UP = 400  # seasons created in one go after a long sleep (a month's seasons: 33 years)


async def add_season(
    connection: AsyncConnection,
    guild_id: int,
    game: str,
    number: int,
    start: datetime,
    length: str,
    span_days: int | None,
    ends: datetime | None = None,
) -> None:
    """Add season ``number`` of a game, from ``start`` for its ``length`` (or to ``ends``), named by its dates
    (with its number after a ``#`` where a season of that name exists already)."""
    name = season_label(length, start)
    if await stored.name_taken(connection, guild_id, game, name):
        name = f"{name}#{number}"
    await stored.add_season(
        connection,
        guild_id=guild_id,
        game=game,
        number=number,
        name=name,
        starts_at=start,
        ends_at=ends if ends is not None else season_end(length, start, span_days),
    )


async def ensure_season(connection: AsyncConnection, guild_id: int, game: str, at: datetime) -> Row[Any] | None:
    """The season of a game that ``at`` falls in. While seasons are on, the seasons that follow the latest
    one are created up to ``at``, each starting when the one before ends, so every process (and a process
    started long after a boundary) agrees on them: an insert another process made first is kept."""
    latest = await stored.latest_season(connection, guild_id, game)
    if latest is None:
        return None
    plan = await stored.plan(connection, guild_id, game)
    for _ in range(MAX_CATCH_UP):
        if plan is None or not plan.active or latest.ends_at > at:
            break
        await add_season(connection, guild_id, game, latest.number + 1, latest.ends_at, plan.length, plan.span_days)
        found = await stored.latest_season(connection, guild_id, game)
        assert found is not None
        latest = found
    if latest.starts_at <= at < latest.ends_at:
        return latest
    return await stored.season_at(connection, guild_id, game, at)


async def rate_in_season(
    connection: AsyncConnection,
    guild_id: int,
    game: str,
    at: datetime,
    teams: Sequence[Sequence[int | None]],
    places: Sequence[int],
    won: Mapping[int, bool],
) -> dict[str, Any] | None:
    """Rate a match's people in the season it finished in (``at``); None when the game has no season then.
    Returns the season's name and each person's season rating before and after."""
    season = await ensure_season(connection, guild_id, game, at)
    if season is None:
        return None
    users = [user for team in teams for user in team if user is not None]
    stored_ratings = await stored.season_ratings_for(connection, season.id, users)
    current = {
        user: SkillRating(stored_ratings[user].mu, stored_ratings[user].sigma)
        if user in stored_ratings
        else SkillRating.initial()
        for user in users
    }
    updated = rate(teams, places, current)
    changes: dict[str, dict[str, float]] = {}
    for user, rating in updated.items():
        old = stored_ratings.get(user)
        await stored.save_season_rating(
            connection,
            season_id=season.id,
            user_id=user,
            mu=rating.mu,
            sigma=rating.sigma,
            ordinal=rating.ordinal,
            matches=(old.matches if old else 0) + 1,
            wins=(old.wins if old else 0) + int(won.get(user, False)),
            updated_at=at,
        )
        changes[str(user)] = {"before": round(current[user].ordinal, 2), "after": round(rating.ordinal, 2)}
    return {"season": season.name, "ratings": changes}
