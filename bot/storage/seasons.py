"""Seasons and game nights: their rows, read and written as Core statements on a connection."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Row, and_, delete, func, or_, select, update
from sqlalchemy import Table as SATable
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import ColumnElement

from bot.shards import Shards

from .models import GameNight, Season, SeasonPlan, SeasonRating
from .record_rows import BoardRow
from .repository import _insert, _lock_key, name_on, owned

PLANS = cast(SATable, SeasonPlan.__table__)
SEASONS = cast(SATable, Season.__table__)
SEASON_RATINGS = cast(SATable, SeasonRating.__table__)
NIGHTS = cast(SATable, GameNight.__table__)


# ---------------------------------------------------------------- plans and seasons


async def plan(connection: AsyncConnection, guild_id: int, game: str) -> Row[Any] | None:
    statement = select(PLANS).where(PLANS.c.guild_id == guild_id, PLANS.c.game == game)
    return (await connection.execute(statement)).first()


async def claim_plan(connection: AsyncConnection, **values: Any) -> bool:
    """Turn a game's seasons on with this plan, unless they are on already: False then, nothing written. One
    conditional write, the transaction's first (two /season start at once, in one process or two: one wins)."""
    statement = _insert(connection, PLANS).values(**values, active=True)
    keep = {key: value for key, value in values.items() if key not in ("guild_id", "game")}
    statement = statement.on_conflict_do_update(
        index_elements=["guild_id", "game"], set_={**keep, "active": True}, where=PLANS.c.active.is_(False)
    )
    return (await connection.execute(statement.returning(PLANS.c.guild_id))).first() is not None


async def hold_plan(connection: AsyncConnection, guild_id: int, game: str, **values: Any) -> Row[Any] | None:
    """A game's plan while its seasons are on, held for this transaction by a write of ``values`` (who changes
    it, when): None, nothing written, if they are not on. The transaction's first write, as
    :func:`claim_plan`'s, so that two /season stop at once find it on only once."""
    statement = (
        update(PLANS)
        .where(PLANS.c.guild_id == guild_id, PLANS.c.game == game, PLANS.c.active.is_(True))
        .values(**values)
        .returning(*PLANS.c)
    )
    return (await connection.execute(statement)).first()


async def save_plan(connection: AsyncConnection, **values: Any) -> None:
    statement = _insert(connection, PLANS).values(**values)
    keep = {key: value for key, value in values.items() if key not in ("guild_id", "game")}
    await connection.execute(statement.on_conflict_do_update(index_elements=["guild_id", "game"], set_=keep))


async def plans_due(connection: AsyncConnection, now: datetime) -> list[Row[Any]]:
    """The games whose seasons are on and whose latest season has ended by ``now``: the next one is due. One
    query, however many servers have seasons on."""
    latest = (
        select(SEASONS.c.guild_id, SEASONS.c.game, func.max(SEASONS.c.ends_at).label("last_end"))
        .group_by(SEASONS.c.guild_id, SEASONS.c.game)
        .subquery()
    )
    statement = (
        select(PLANS.c.guild_id, PLANS.c.game)
        .join(latest, and_(latest.c.guild_id == PLANS.c.guild_id, latest.c.game == PLANS.c.game))
        .where(PLANS.c.active.is_(True), latest.c.last_end <= now)
    )
    return list(await connection.execute(statement))


async def latest_season(connection: AsyncConnection, guild_id: int, game: str) -> Row[Any] | None:
    statement = (
        select(SEASONS)
        .where(SEASONS.c.guild_id == guild_id, SEASONS.c.game == game)
        .order_by(SEASONS.c.number.desc())
        .limit(1)
    )
    return (await connection.execute(statement)).first()


async def season_at(connection: AsyncConnection, guild_id: int, game: str, at: datetime) -> Row[Any] | None:
    """The season of a game that ``at`` falls in, if one was created."""
    statement = select(SEASONS).where(
        SEASONS.c.guild_id == guild_id, SEASONS.c.game == game, SEASONS.c.starts_at <= at, SEASONS.c.ends_at > at
    )
    return (await connection.execute(statement)).first()


async def season_named(connection: AsyncConnection, guild_id: int, game: str, name: str) -> Row[Any] | None:
    statement = select(SEASONS).where(SEASONS.c.guild_id == guild_id, SEASONS.c.game == game, SEASONS.c.name == name)
    return (await connection.execute(statement)).first()


async def season_numbered(connection: AsyncConnection, guild_id: int, game: str, number: int) -> Row[Any] | None:
    statement = select(SEASONS).where(
        SEASONS.c.guild_id == guild_id, SEASONS.c.game == game, SEASONS.c.number == number
    )
    return (await connection.execute(statement)).first()


async def season_by_id(connection: AsyncConnection, season_id: int) -> Row[Any] | None:
    return (await connection.execute(select(SEASONS).where(SEASONS.c.id == season_id))).first()


async def seasons_of(
    connection: AsyncConnection, guild_id: int, game: str | None, limit: int = 25, starting: str = ""
) -> list[Row[Any]]:
    """A server's seasons (of one game, or all), newest first; with ``starting``, those whose name starts so
    (chosen before the limit, so that an old season is found by what is typed)."""
    statement = select(SEASONS).where(SEASONS.c.guild_id == guild_id)
    if game is not None:
        statement = statement.where(SEASONS.c.game == game)
    if starting:
        statement = statement.where(SEASONS.c.name.startswith(starting, autoescape=True))
    statement = statement.order_by(SEASONS.c.starts_at.desc(), SEASONS.c.id.desc()).limit(limit)
    return list(await connection.execute(statement))


async def name_taken(connection: AsyncConnection, guild_id: int, game: str, name: str) -> bool:
    return await season_named(connection, guild_id, game, name) is not None


async def add_season(connection: AsyncConnection, **values: Any) -> None:
    """Insert a season unless another process already did (its number, or its name, is taken)."""
    await connection.execute(_insert(connection, SEASONS).values(**values).on_conflict_do_nothing())


async def end_season(connection: AsyncConnection, season_id: int, at: datetime) -> None:
    await connection.execute(update(SEASONS).where(SEASONS.c.id == season_id).values(ends_at=at))


async def drop_season(connection: AsyncConnection, season_id: int) -> None:
    await connection.execute(delete(SEASONS).where(SEASONS.c.id == season_id))


async def claim_announcements(
    connection: AsyncConnection,
    now: datetime,
    stale_before: datetime,
    *,
    ended_by: datetime,
    limit: int,
    shards: Shards | None = None,
) -> list[int]:
    """Claim up to ``limit`` seasons ended by ``ended_by``, of the servers on ``shards``, whose standings nobody
    posted yet (nor is posting: a claim older than ``stale_before`` was a process that died): the ids this caller
    claimed, so one process posts each. A few at a time, so a process posts what it claimed well within the lease (every
    server's monthly seasons end at the same midnight)."""
    due = and_(
        SEASONS.c.ends_at <= ended_by,
        SEASONS.c.announced_message_id.is_(None),
        or_(SEASONS.c.announce_claimed_at.is_(None), SEASONS.c.announce_claimed_at < stale_before),
    )
    mine = owned(SEASONS.c.guild_id, shards)
    chosen = select(SEASONS.c.id).where(due if mine is None else and_(due, mine))
    chosen = chosen.order_by(SEASONS.c.ends_at, SEASONS.c.id).limit(limit)
    if connection.dialect.name == "postgresql":
        chosen = chosen.with_for_update(skip_locked=True)  # two processes claiming at once take different ones
    # A WITH query, run once: as ``id IN (subquery)`` PostgreSQL may run the subquery again for each row it
    # updates, and each run skips the rows this statement already updated, so every due season was claimed.
    picked = chosen.cte("picked")
    statement = (
        update(SEASONS).where(SEASONS.c.id == picked.c.id).values(announce_claimed_at=now).returning(SEASONS.c.id)
    )
    return sorted(int(row.id) for row in await connection.execute(statement))


async def renew_announcement(connection: AsyncConnection, season_id: int, claimed_at: datetime, now: datetime) -> bool:
    """Just before posting: the claim made at ``claimed_at`` is still this caller's (renewed to ``now``);
    False: the lease ran out and another process claimed it, or it was posted."""
    statement = (
        update(SEASONS)
        .where(
            SEASONS.c.id == season_id,
            SEASONS.c.announce_claimed_at == claimed_at,
            SEASONS.c.announced_message_id.is_(None),
        )
        .values(announce_claimed_at=now)
        .returning(SEASONS.c.id)
    )
    return (await connection.execute(statement)).first() is not None


async def announced(connection: AsyncConnection, season_id: int, message_id: int) -> None:
    await connection.execute(update(SEASONS).where(SEASONS.c.id == season_id).values(announced_message_id=message_id))


# ---------------------------------------------------------------- season ratings


async def season_ratings_for(connection: AsyncConnection, season_id: int, users: Iterable[int]) -> dict[int, Row[Any]]:
    wanted = list(users)
    if not wanted:
        return {}
    statement = select(SEASON_RATINGS).where(
        SEASON_RATINGS.c.season_id == season_id, SEASON_RATINGS.c.user_id.in_(wanted)
    )
    if connection.dialect.name == "postgresql":  # the server's game's ratings lock (ratings_for) serializes them too
        statement = statement.with_for_update()
    return {int(row.user_id): row for row in await connection.execute(statement)}


async def save_season_rating(connection: AsyncConnection, **values: Any) -> None:
    statement = _insert(connection, SEASON_RATINGS).values(**values)
    keep = {key: value for key, value in values.items() if key not in ("season_id", "user_id")}
    await connection.execute(statement.on_conflict_do_update(index_elements=["season_id", "user_id"], set_=keep))


async def season_top(connection: AsyncConnection, season_id: int, limit: int = 10, offset: int = 0) -> list[BoardRow]:
    statement = (
        select(SEASON_RATINGS, name_on(SEASONS.c.guild_id, SEASON_RATINGS.c.user_id))
        .join(SEASONS, SEASONS.c.id == SEASON_RATINGS.c.season_id)
        .where(SEASON_RATINGS.c.season_id == season_id)
        .order_by(SEASON_RATINGS.c.ordinal.desc(), SEASON_RATINGS.c.user_id)
        .limit(limit)
        .offset(offset)
    )
    return [
        {
            "rank": offset + index + 1,
            "user_id": row.user_id,
            "name": row.display_name,
            "rating": round(row.ordinal, 2),
            "matches": row.matches,
            "wins": row.wins,
            "win_rate": row.wins / row.matches if row.matches else 0.0,
        }
        for index, row in enumerate(await connection.execute(statement))
    ]


async def season_size(connection: AsyncConnection, season_id: int) -> int:
    statement = select(func.count()).where(SEASON_RATINGS.c.season_id == season_id)
    return int((await connection.execute(statement)).scalar_one())


async def season_rank(connection: AsyncConnection, season_id: int, user_id: int) -> int | None:
    r = SEASON_RATINGS
    mine = await connection.scalar(select(r.c.ordinal).where(r.c.season_id == season_id, r.c.user_id == user_id))
    if mine is None:
        return None
    above = select(func.count()).where(
        r.c.season_id == season_id,
        or_(r.c.ordinal > mine, and_(r.c.ordinal == mine, r.c.user_id < user_id)),
    )
    return int((await connection.execute(above)).scalar_one()) + 1


async def player_seasons(connection: AsyncConnection, guild_id: int, game: str, user_id: int) -> list[Row[Any]]:
    """The seasons of a game a player was rated in, newest first, with their season rating."""
    statement = (
        select(SEASONS, SEASON_RATINGS.c.ordinal, SEASON_RATINGS.c.matches, SEASON_RATINGS.c.wins)
        .join(SEASON_RATINGS, SEASON_RATINGS.c.season_id == SEASONS.c.id)
        .where(SEASONS.c.guild_id == guild_id, SEASONS.c.game == game, SEASON_RATINGS.c.user_id == user_id)
        .order_by(SEASONS.c.starts_at.desc())
        .limit(5)
    )
    return list(await connection.execute(statement))


# ---------------------------------------------------------------- game nights


async def insert_night(connection: AsyncConnection, **values: Any) -> int:
    result = await connection.execute(NIGHTS.insert().values(**values).returning(NIGHTS.c.id))
    return int(result.scalar_one())


async def night(connection: AsyncConnection, night_id: int) -> Row[Any] | None:
    return (await connection.execute(select(NIGHTS).where(NIGHTS.c.id == night_id))).first()


async def night_of_event(connection: AsyncConnection, event_id: int) -> Row[Any] | None:
    return (await connection.execute(select(NIGHTS).where(NIGHTS.c.event_id == event_id))).first()


async def update_night(connection: AsyncConnection, night_id: int, **values: Any) -> None:
    await connection.execute(update(NIGHTS).where(NIGHTS.c.id == night_id).values(**values))


async def claim_nights(
    connection: AsyncConnection,
    due_before: datetime,
    not_before: datetime,
    column: str,
    now: datetime,
    *,
    stale_before: datetime | None = None,
    stale_if: Iterable[Any] = (),
    shards: Shards | None = None,
) -> list[Row[Any]]:
    """Claim the scheduled nights starting from ``not_before`` to ``due_before`` whose ``column`` (pinged_at,
    opened_at) is not set: set it to ``now`` in one statement, so one process pings or opens each.
    ``stale_before``: a claim older than this, of a night still scheduled, is taken again (its process stopped
    before it was done; a night opened is no longer scheduled), where ``stale_if`` holds too (a ping not sent,
    its night still ahead). ``shards``: only the nights of the servers on them (the process that drives a
    server's tables opens its nights)."""
    target = NIGHTS.c[column]
    free: ColumnElement[bool] = target.is_(None)
    if stale_before is not None:
        free = or_(free, and_(target < stale_before, *stale_if))
    mine = owned(NIGHTS.c.guild_id, shards)
    statement = (
        update(NIGHTS)
        .where(
            NIGHTS.c.status == "scheduled",
            NIGHTS.c.starts_at <= due_before,
            NIGHTS.c.starts_at >= not_before,
            free,
            *([] if mine is None else [mine]),
        )
        .values({column: now})
        .returning(*NIGHTS.c)
    )
    return sorted(await connection.execute(statement), key=lambda row: (row.starts_at, row.id))


async def cancel_night(
    connection: AsyncConnection,
    night_id: int,
    *,
    stale_before: datetime | None = None,
    claim: datetime | None = None,
) -> Row[Any] | None:
    """Cancel one night still waiting for its start (a conditional update: a night that opened meanwhile is left
    as it is). ``stale_before``: only if its opening was not claimed since then (None: whether or not it was),
    or its claim is ``claim`` (the caller's own, which reads the event before it opens the night). The night as
    cancelled, or None."""
    where = [NIGHTS.c.id == night_id, NIGHTS.c.status == "scheduled"]
    if stale_before is not None:
        free = [NIGHTS.c.opened_at.is_(None), NIGHTS.c.opened_at < stale_before]
        if claim is not None:
            free.append(NIGHTS.c.opened_at == claim)
        where.append(or_(*free))
    statement = update(NIGHTS).where(*where).values(status="cancelled").returning(*NIGHTS.c)
    return (await connection.execute(statement)).first()


async def renew_claim(connection: AsyncConnection, night_id: int, claimed: datetime, now: datetime) -> bool:
    """The opening of a night claimed at ``claimed`` is still this claim's (nobody took it again since, and the
    night still waits): its claim renewed to ``now``. False: it is no longer this claim's to open."""
    statement = (
        update(NIGHTS)
        .where(NIGHTS.c.id == night_id, NIGHTS.c.status == "scheduled", NIGHTS.c.opened_at == claimed)
        .values(opened_at=now)
    )
    return bool((await connection.execute(statement)).rowcount)


async def renew_ping(connection: AsyncConnection, night_id: int, claimed: datetime, now: datetime) -> bool:
    """The ping of a night claimed at ``claimed`` is still this claim's and not sent: its claim renewed to
    ``now``. False: it is not this claim's to send (taken again, moved, cancelled, or sent)."""
    statement = (
        update(NIGHTS)
        .where(
            NIGHTS.c.id == night_id,
            NIGHTS.c.status == "scheduled",
            NIGHTS.c.pinged_at == claimed,
            NIGHTS.c.ping_sent.is_(False),
        )
        .values(pinged_at=now)
    )
    return bool((await connection.execute(statement)).rowcount)


async def ping_sent(connection: AsyncConnection, night_id: int, claimed: datetime) -> bool:
    """The ping of a night claimed at ``claimed`` went out: never claimed again (unless the night is moved, which
    clears its claim). False: the claim was no longer this one (taken again, or the night moved meanwhile)."""
    statement = (
        update(NIGHTS)
        .where(NIGHTS.c.id == night_id, NIGHTS.c.status == "scheduled", NIGHTS.c.pinged_at == claimed)
        .values(ping_sent=True)
    )
    return bool((await connection.execute(statement)).rowcount)


def _as_left(value: datetime | None, column: Any) -> Any:
    return column.is_(None) if value is None else column == value


async def change_night(
    connection: AsyncConnection,
    night_id: int,
    *,
    starts_at: datetime,
    opened_at: datetime | None,
    values: dict[str, Any],
    pinged: tuple[datetime | None, bool] | None = None,
) -> bool:
    """A night still waiting changed to ``values`` only where it is still as it was read (its start, and its
    opening's claim: none taken, renewed or cleared since; ``pinged``: its ping's claim and mark too): False if
    anything moved it meanwhile."""
    where = [
        NIGHTS.c.id == night_id,
        NIGHTS.c.status == "scheduled",
        NIGHTS.c.starts_at == starts_at,
        _as_left(opened_at, NIGHTS.c.opened_at),
    ]
    if pinged is not None:
        where += [_as_left(pinged[0], NIGHTS.c.pinged_at), NIGHTS.c.ping_sent.is_(pinged[1])]
    statement = update(NIGHTS).where(*where).values(**values)
    return bool((await connection.execute(statement)).rowcount)


async def finish_night(connection: AsyncConnection, night_id: int, **values: Any) -> bool:
    """A night still waiting changed (marked opened or failed, or put back as it was): never one cancelled, or
    already marked, meanwhile."""
    statement = update(NIGHTS).where(NIGHTS.c.id == night_id, NIGHTS.c.status == "scheduled").values(**values)
    return bool((await connection.execute(statement)).rowcount)


async def hold_server_nights(connection: AsyncConnection, guild_id: int) -> None:
    """On PostgreSQL, the server's nights to come held for this transaction (two schedules at once take turns to
    count them); SQLite's writes take turns anyway, from the transaction's first write."""
    if connection.dialect.name == "postgresql":
        await connection.execute(select(func.pg_advisory_xact_lock(_lock_key("nights", guild_id))))


async def nights_waiting(connection: AsyncConnection, guild_id: int) -> int:
    """How many nights of the server still wait for their start."""
    statement = (
        select(func.count()).select_from(NIGHTS).where(NIGHTS.c.guild_id == guild_id, NIGHTS.c.status == "scheduled")
    )
    return int((await connection.execute(statement)).scalar_one())


async def nights_in(connection: AsyncConnection, guild_id: int, limit: int = 10) -> list[Row[Any]]:
    statement = (
        select(NIGHTS)
        .where(NIGHTS.c.guild_id == guild_id, NIGHTS.c.status == "scheduled")
        .order_by(NIGHTS.c.starts_at)
        .limit(limit)
    )
    return list(await connection.execute(statement))


async def release_announcement(connection: AsyncConnection, season_id: int) -> None:
    await connection.execute(
        update(SEASONS)
        .where(SEASONS.c.id == season_id, SEASONS.c.announced_message_id.is_(None))
        .values(announce_claimed_at=None)
    )


async def night_places(connection: AsyncConnection) -> set[tuple[int, int]]:
    """Where the nights still waiting for their start open their lobbies: each (server, channel) with one."""
    statement = select(NIGHTS.c.guild_id, NIGHTS.c.channel_id).where(NIGHTS.c.status == "scheduled").distinct()
    return {(int(row.guild_id), int(row.channel_id)) for row in await connection.execute(statement)}


async def season_places(connection: AsyncConnection) -> set[tuple[int, int]]:
    """Where the seasons turned on post their final standings: each (server, channel) with one."""
    statement = select(PLANS.c.guild_id, PLANS.c.channel_id).where(PLANS.c.active.is_(True)).distinct()
    return {(int(row.guild_id), int(row.channel_id)) for row in await connection.execute(statement)}


async def guilds_with_seasons(connection: AsyncConnection) -> set[int]:
    """The servers with seasons turned on, or a season whose standings are still to be posted."""
    plans = select(PLANS.c.guild_id).where(PLANS.c.active.is_(True)).distinct()
    unposted = select(SEASONS.c.guild_id).where(SEASONS.c.announced_message_id.is_(None)).distinct()
    rows = [*await connection.execute(plans), *await connection.execute(unposted)]
    return {int(row.guild_id) for row in rows}


async def cancel_nights_in(
    connection: AsyncConnection, *, guild_id: int | None = None, channel_id: int | None = None
) -> list[Row[Any]]:
    """Cancel every night of server ``guild_id`` (the bot was removed from it) or of channel ``channel_id`` (it was
    deleted) still waiting for its start: the nights so cancelled, by id."""
    where = NIGHTS.c.guild_id == guild_id if guild_id is not None else NIGHTS.c.channel_id == channel_id
    statement = update(NIGHTS).where(where, NIGHTS.c.status == "scheduled").values(status="cancelled")
    return sorted(await connection.execute(statement.returning(*NIGHTS.c)), key=lambda row: int(row.id))


async def miss_nights(connection: AsyncConnection, started_before: datetime) -> int:
    """Nights still waiting whose start is long past (the bot was away): missed, never opened late."""
    statement = (
        update(NIGHTS)
        .where(NIGHTS.c.status == "scheduled", NIGHTS.c.starts_at < started_before)
        .values(status="missed")
    )
    return int((await connection.execute(statement)).rowcount or 0)
