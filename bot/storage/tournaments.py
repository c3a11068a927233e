"""The tournaments' reads and writes, as SQLAlchemy Core statements on a connection (like ``repository``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Row, delete, func, insert, select, update
from sqlalchemy import Table as SATable
from sqlalchemy.ext.asyncio import AsyncConnection

from .models import (
    OPEN_STATUSES,
    Match,
    MatchPlayer,
    Table,
    TableStatus,
    Tournament,
    TournamentDeal,
    TournamentEntrant,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
)
from .repository import SEATS, name_on

TOURNAMENTS = cast(SATable, Tournament.__table__)
ENTRANTS = cast(SATable, TournamentEntrant.__table__)
ROUNDS = cast(SATable, TournamentRound.__table__)
EVENT_TABLES = cast(SATable, TournamentTable.__table__)
DEALS = cast(SATable, TournamentDeal.__table__)
TABLES = cast(SATable, Table.__table__)
MATCHES = cast(SATable, Match.__table__)
MATCH_PLAYERS = cast(SATable, MatchPlayer.__table__)
OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)


async def insert_tournament(connection: AsyncConnection, **values: Any) -> int:
    result = await connection.execute(insert(TOURNAMENTS).values(**values).returning(TOURNAMENTS.c.id))
    return int(result.scalar_one())


async def tournament(connection: AsyncConnection, tournament_id: int) -> Row[Any] | None:
    return (await connection.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id))).first()


async def open_in_guild(connection: AsyncConnection, guild_id: int) -> int:
    statement = select(func.count()).where(TOURNAMENTS.c.guild_id == guild_id, TOURNAMENTS.c.status.in_(OPEN))
    return int((await connection.execute(statement)).scalar_one())


async def open_ids_in_guild(connection: AsyncConnection, guild_id: int) -> list[tuple[int, int]]:
    """(id, round) of each tournament of the server in sign-up or under way."""
    statement = select(TOURNAMENTS.c.id, TOURNAMENTS.c.round).where(
        TOURNAMENTS.c.guild_id == guild_id, TOURNAMENTS.c.status.in_(OPEN)
    )
    return [(int(row.id), int(row.round)) for row in await connection.execute(statement.order_by(TOURNAMENTS.c.id))]


async def open_places(connection: AsyncConnection) -> set[tuple[int, int]]:
    """Where the tournaments in sign-up or under way are shown: each (server, channel) with one."""
    statement = select(TOURNAMENTS.c.guild_id, TOURNAMENTS.c.channel_id).where(TOURNAMENTS.c.status.in_(OPEN))
    return {(int(row.guild_id), int(row.channel_id)) for row in await connection.execute(statement.distinct())}


async def open_ids_in_channel(connection: AsyncConnection, channel_id: int) -> list[int]:
    """The tournaments in sign-up or under way shown in channel ``channel_id``."""
    statement = select(TOURNAMENTS.c.id).where(TOURNAMENTS.c.channel_id == channel_id, TOURNAMENTS.c.status.in_(OPEN))
    return [int(row.id) for row in await connection.execute(statement.order_by(TOURNAMENTS.c.id))]


async def running(connection: AsyncConnection) -> list[Row[Any]]:
    """Every tournament whose rounds are under way, and every sign-up with a start time."""
    statement = select(TOURNAMENTS).where(
        (TOURNAMENTS.c.status == TournamentStatus.RUNNING)
        | ((TOURNAMENTS.c.status == TournamentStatus.SIGNUP) & TOURNAMENTS.c.starts_at.is_not(None))
    )
    return list((await connection.execute(statement.order_by(TOURNAMENTS.c.id))).all())


async def update_tournament(
    connection: AsyncConnection, tournament_id: int, when: dict[str, Any], **values: Any
) -> bool:
    """Change the tournament if its columns still hold ``when`` (a compare-and-set): False otherwise."""
    statement = update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)
    for name, value in when.items():
        column = TOURNAMENTS.c[name]
        statement = statement.where(column.in_(value) if isinstance(value, tuple) else column == value)
    if not values:  # only the check (and a lock on the row until the transaction ends)
        values = {"status": TOURNAMENTS.c.status}
    return bool((await connection.execute(statement.values(**values))).rowcount == 1)


@dataclass(frozen=True)
class EntrantRow:
    id: int
    user_id: int | None
    name: str
    withdrawn: bool


async def entrants(connection: AsyncConnection, tournament_id: int) -> list[EntrantRow]:
    """The entrants in sign-up order, with their names."""
    statement = (
        select(
            ENTRANTS.c.id,
            ENTRANTS.c.user_id,
            ENTRANTS.c.withdrawn_at,
            name_on(TOURNAMENTS.c.guild_id, ENTRANTS.c.user_id),
        )
        .join(TOURNAMENTS, TOURNAMENTS.c.id == ENTRANTS.c.tournament_id)
        .where(ENTRANTS.c.tournament_id == tournament_id)
        .order_by(ENTRANTS.c.id)
    )
    return [
        EntrantRow(row.id, row.user_id, row.display_name or "", row.withdrawn_at is not None)
        for row in (await connection.execute(statement)).all()
    ]


async def insert_entrant(connection: AsyncConnection, tournament_id: int, user_id: int | None, now: datetime) -> int:
    values = {"tournament_id": tournament_id, "user_id": user_id, "joined_at": now}
    return int((await connection.execute(insert(ENTRANTS).values(**values).returning(ENTRANTS.c.id))).scalar_one())


async def delete_entrant(connection: AsyncConnection, entrant_id: int) -> None:
    await connection.execute(delete(ENTRANTS).where(ENTRANTS.c.id == entrant_id))


async def replace_entrant(connection: AsyncConnection, entrant_id: int, user_id: int) -> None:
    await connection.execute(update(ENTRANTS).where(ENTRANTS.c.id == entrant_id).values(user_id=user_id))


async def withdraw_entrant(connection: AsyncConnection, entrant_id: int, now: datetime) -> None:
    await connection.execute(update(ENTRANTS).where(ENTRANTS.c.id == entrant_id).values(withdrawn_at=now))


async def insert_round(
    connection: AsyncConnection, tournament_id: int, round_no: int, seed: int, byes: Sequence[int], now: datetime
) -> None:
    values = {"tournament_id": tournament_id, "round": round_no, "seed": seed, "byes": list(byes), "created_at": now}
    await connection.execute(insert(ROUNDS).values(**values))


async def rounds(connection: AsyncConnection, tournament_id: int) -> list[Row[Any]]:
    statement = select(ROUNDS).where(ROUNDS.c.tournament_id == tournament_id).order_by(ROUNDS.c.round)
    return list((await connection.execute(statement)).all())


async def insert_event_table(
    connection: AsyncConnection,
    tournament_id: int,
    round_no: int,
    number: int,
    table_id: int,
    seats: Sequence[int | None],
) -> None:
    values = {"tournament_id": tournament_id, "round": round_no, "number": number, "table_id": table_id}
    await connection.execute(insert(EVENT_TABLES).values(**values, seats=list(seats)))


@dataclass(frozen=True)
class EventTableRow:
    """A round's table, where it is in its life, and each seat's place and deal sheets once it finished."""

    round: int
    number: int
    table_id: int
    seats: tuple[int | None, ...]
    status: str
    message_id: int | None
    places: dict[int, int]  # seat position -> place, once the match finished
    sheets: list[Any]  # the match's deal sheets, once it finished
    private: bool = False  # shown only to its players, in a private thread (a duplicate night's)
    # seat positions whose person was away (their time ran out, not back since) when the table was abandoned
    absent: frozenset[int] = frozenset()


async def event_tables(
    connection: AsyncConnection, tournament_id: int, round_no: int | None = None
) -> list[EventTableRow]:
    """The tables of a round (every round with None), in order, with their results."""
    statement = (
        select(
            EVENT_TABLES.c.round,
            EVENT_TABLES.c.number,
            EVENT_TABLES.c.table_id,
            EVENT_TABLES.c.seats,
            TABLES.c.status,
            TABLES.c.message_id,
            TABLES.c.private,
            MATCHES.c.id.label("match_id"),
            MATCHES.c.result,
        )
        .select_from(
            EVENT_TABLES.join(TABLES, TABLES.c.id == EVENT_TABLES.c.table_id).outerjoin(
                MATCHES, MATCHES.c.table_id == EVENT_TABLES.c.table_id
            )
        )
        .where(EVENT_TABLES.c.tournament_id == tournament_id)
        .order_by(EVENT_TABLES.c.round, EVENT_TABLES.c.number)
    )
    if round_no is not None:
        statement = statement.where(EVENT_TABLES.c.round == round_no)
    rows = list((await connection.execute(statement)).all())
    matches = [row.match_id for row in rows if row.match_id is not None]
    places: dict[int, dict[int, int]] = {}
    if matches:
        statement = select(MATCH_PLAYERS.c.match_id, MATCH_PLAYERS.c.seat, MATCH_PLAYERS.c.placement).where(
            MATCH_PLAYERS.c.match_id.in_(matches)
        )
        for found in (await connection.execute(statement)).all():
            places.setdefault(int(found.match_id), {})[int(found.seat)] = int(found.placement)
    away: dict[int, set[int]] = {}
    abandoned = [row.table_id for row in rows if row.status == TableStatus.ABANDONED]
    if abandoned:
        statement = select(SEATS.c.table_id, SEATS.c.position).where(
            SEATS.c.table_id.in_(abandoned), SEATS.c.absent.is_(True), SEATS.c.position.is_not(None)
        )
        for found in (await connection.execute(statement)).all():
            away.setdefault(int(found.table_id), set()).add(int(found.position))
    return [
        EventTableRow(
            row.round,
            row.number,
            row.table_id,
            tuple(row.seats),
            str(row.status),
            row.message_id,
            places.get(row.match_id, {}) if row.match_id is not None else {},
            list((row.result or {}).get("sheets", [])) if row.match_id is not None else [],
            bool(row.private),
            frozenset(away.get(row.table_id, ())),
        )
        for row in rows
    ]


async def tournament_of_table(connection: AsyncConnection, table_id: int) -> int | None:
    statement = select(EVENT_TABLES.c.tournament_id).where(EVENT_TABLES.c.table_id == table_id)
    found = (await connection.execute(statement)).scalar_one_or_none()
    return None if found is None else int(found)


async def matches_of_open_rounds(
    connection: AsyncConnection, guild_id: int, user_id: int, game: str, event_format: str
) -> set[int]:
    """The player's matches in a game played at a table of an ``event_format`` tournament (a duplicate night's)
    whose round another table is still playing, or still to start: the ids."""
    mine, other = EVENT_TABLES.alias("mine"), EVENT_TABLES.alias("other")
    still_open = (
        select(other.c.table_id)
        .join(TABLES, TABLES.c.id == other.c.table_id)
        .where(
            other.c.tournament_id == mine.c.tournament_id,
            other.c.round == mine.c.round,
            other.c.table_id != mine.c.table_id,
            TABLES.c.status.in_(OPEN_STATUSES),
        )
        .exists()
    )
    statement = (
        select(MATCH_PLAYERS.c.match_id)
        .join(MATCHES, MATCHES.c.id == MATCH_PLAYERS.c.match_id)
        .join(mine, mine.c.table_id == MATCHES.c.table_id)
        .join(TOURNAMENTS, TOURNAMENTS.c.id == mine.c.tournament_id)
        .where(
            MATCH_PLAYERS.c.guild_id == guild_id,
            MATCH_PLAYERS.c.game == game,
            MATCH_PLAYERS.c.user_id == user_id,
            TOURNAMENTS.c.format == event_format,
            still_open,
        )
    )
    return {int(match_id) for match_id in (await connection.execute(statement)).scalars()}


async def unposted_deals(connection: AsyncConnection, tournament_id: int, round_no: int) -> list[tuple[int, datetime]]:
    """The deals of a round claimed but not marked posted, with when each was claimed."""
    statement = select(DEALS.c.deal, DEALS.c.created_at).where(
        DEALS.c.tournament_id == tournament_id, DEALS.c.round == round_no, DEALS.c.posted_at.is_(None)
    )
    return [(int(row.deal), row.created_at) for row in (await connection.execute(statement)).all()]


async def unposted_deals_since(
    connection: AsyncConnection, since: datetime
) -> list[tuple[int, int, int, int, datetime, str, int]]:
    """Every deal claimed since ``since`` and not marked posted, of any tournament: (tournament, its guild, round,
    deal, when claimed, the tournament's status, its round under way)."""
    statement = (
        select(
            DEALS.c.tournament_id,
            TOURNAMENTS.c.guild_id,
            DEALS.c.round,
            DEALS.c.deal,
            DEALS.c.created_at,
            TOURNAMENTS.c.status,
            TOURNAMENTS.c.round.label("current"),
        )
        .join(TOURNAMENTS, TOURNAMENTS.c.id == DEALS.c.tournament_id)
        .where(DEALS.c.posted_at.is_(None), DEALS.c.created_at >= since)
        .order_by(DEALS.c.tournament_id, DEALS.c.round, DEALS.c.deal)
    )
    return [
        (int(r.tournament_id), int(r.guild_id), int(r.round), int(r.deal), r.created_at, str(r.status), int(r.current))
        for r in (await connection.execute(statement)).all()
    ]


async def mark_deal_posted(
    connection: AsyncConnection, tournament_id: int, round_no: int, deal: int, now: datetime
) -> None:
    statement = update(DEALS).where(
        DEALS.c.tournament_id == tournament_id, DEALS.c.round == round_no, DEALS.c.deal == deal
    )
    await connection.execute(statement.values(posted_at=now))


async def compared_deals(connection: AsyncConnection, tournament_id: int, round_no: int) -> set[int]:
    """The deals of a duplicate round whose comparison was claimed (posted, or being posted)."""
    statement = select(DEALS.c.deal).where(DEALS.c.tournament_id == tournament_id, DEALS.c.round == round_no)
    return {int(deal) for deal in (await connection.execute(statement)).scalars()}


async def insert_compared_deal(
    connection: AsyncConnection, tournament_id: int, round_no: int, deal: int, now: datetime
) -> None:
    """Claim a deal's comparison (an IntegrityError if another process or call claimed it first)."""
    values = {"tournament_id": tournament_id, "round": round_no, "deal": deal, "created_at": now}
    await connection.execute(insert(DEALS).values(**values))


async def set_places(connection: AsyncConnection, places: dict[int, int]) -> None:
    """Each entrant's place in the final standings (entrant id → rank)."""
    for entrant_id, place in places.items():
        await connection.execute(update(ENTRANTS).where(ENTRANTS.c.id == entrant_id).values(place=place))


@dataclass(frozen=True)
class FinishedRow:
    """A finished tournament of a server, as /history and /stats show it."""

    id: int
    game: str
    format: str
    finished_at: datetime | None
    channel_id: int
    message_id: int | None  # the sign-up message
    podium_message_id: int | None
    entrants: int
    entrant_id: int | None  # the player's entrant, when read for one player
    place: int | None  # the player's place (None: not written, a tournament finished before places were kept)


async def finished(
    connection: AsyncConnection,
    guild_id: int,
    user_id: int | None = None,
    game: str | None = None,
    limit: int | None = None,
) -> list[FinishedRow]:
    """The server's finished tournaments, newest first (those ``user_id`` entered, with their place)."""
    counted = (
        select(ENTRANTS.c.tournament_id, func.count().label("entrants")).group_by(ENTRANTS.c.tournament_id).subquery()
    )
    columns: list[Any] = [TOURNAMENTS, counted.c.entrants]
    source = TOURNAMENTS.join(counted, counted.c.tournament_id == TOURNAMENTS.c.id)
    if user_id is not None:
        columns += [ENTRANTS.c.id.label("entrant_id"), ENTRANTS.c.place]
        source = source.join(ENTRANTS, (ENTRANTS.c.tournament_id == TOURNAMENTS.c.id) & (ENTRANTS.c.user_id == user_id))
    statement = (
        select(*columns)
        .select_from(source)
        .where(TOURNAMENTS.c.guild_id == guild_id, TOURNAMENTS.c.status == TournamentStatus.DONE)
        .order_by(TOURNAMENTS.c.finished_at.desc(), TOURNAMENTS.c.id.desc())
    )
    if game is not None:
        statement = statement.where(TOURNAMENTS.c.game == game)
    if limit is not None:
        statement = statement.limit(limit)
    return [
        FinishedRow(
            row.id,
            row.game,
            row.format,
            row.finished_at,
            row.channel_id,
            row.message_id,
            row.podium_message_id,
            int(row.entrants),
            row.entrant_id if user_id is not None else None,
            row.place if user_id is not None else None,
        )
        for row in (await connection.execute(statement)).all()
    ]


async def winners(connection: AsyncConnection, tournament_ids: Sequence[int]) -> dict[int, list[int | None]]:
    """The entrants placed first (their user ids, None for a computer) of each tournament."""
    if not tournament_ids:
        return {}
    statement = (
        select(ENTRANTS.c.tournament_id, ENTRANTS.c.user_id)
        .where(ENTRANTS.c.tournament_id.in_(tournament_ids), ENTRANTS.c.place == 1)
        .order_by(ENTRANTS.c.id)
    )
    out: dict[int, list[int | None]] = {}
    for row in (await connection.execute(statement)).all():
        out.setdefault(int(row.tournament_id), []).append(row.user_id)
    return out
