"""The service's reads and writes, as SQLAlchemy Core statements on a connection.

Core rather than ORM sessions: the hot path (one action) is a handful of
statements, and the service keeps the live state in memory anyway.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    Integer,
    Row,
    any_,
    bindparam,
    column,
    delete,
    exists,
    func,
    insert,
    literal_column,
    select,
    tuple_,
    update,
    values,
)
from sqlalchemy import Table as SATable
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import ColumnElement

from bot.shards import Shards

from . import notify
from .models import (
    ABANDONED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    SLOTS_FREED,
    Action,
    Deadline,
    Guild,
    GuildPlayer,
    Match,
    MatchPlayer,
    Player,
    Rating,
    Seat,
    Table,
    TournamentTable,
    utcnow,
)

TABLES = cast(SATable, Table.__table__)
SEATS = cast(SATable, Seat.__table__)
ACTIONS = cast(SATable, Action.__table__)
DEADLINES = cast(SATable, Deadline.__table__)
GUILDS = cast(SATable, Guild.__table__)
PLAYERS = cast(SATable, Player.__table__)
GUILD_PLAYERS = cast(SATable, GuildPlayer.__table__)
MATCHES = cast(SATable, Match.__table__)
MATCH_PLAYERS = cast(SATable, MatchPlayer.__table__)
RATINGS = cast(SATable, Rating.__table__)
EVENT_TABLES = cast(SATable, TournamentTable.__table__)


def _insert(connection: AsyncConnection, table: Any) -> Any:
    """An INSERT that can say ON CONFLICT on both backends."""
    return (postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert)(table)


async def ensure_guild(connection: AsyncConnection, guild_id: int) -> None:
    statement = _insert(connection, GUILDS).values(id=guild_id, default_options={}, created_at=utcnow())
    await connection.execute(statement.on_conflict_do_nothing(index_elements=["id"]))


async def guild_settings(connection: AsyncConnection, guild_id: int) -> Row[Any] | None:
    return (await connection.execute(select(GUILDS).where(GUILDS.c.id == guild_id))).first()


async def update_guild(connection: AsyncConnection, guild_id: int, **values: Any) -> None:
    await ensure_guild(connection, guild_id)
    await connection.execute(update(GUILDS).where(GUILDS.c.id == guild_id).values(**values))


async def remember_player(
    connection: AsyncConnection, guild_id: int, user_id: int, name: str, *, replace: bool = True
) -> None:
    """Keep the name ``user_id`` goes by on server ``guild_id`` (their nickname there). A name is kept per
    server: what they are called on one server is never shown on another. ``replace`` False: ``name`` may be
    older than the one kept (a game night's host, named when it was scheduled), kept only where none is."""
    now = utcnow()
    player = _insert(connection, PLAYERS).values(id=user_id, display_name=name[:100], updated_at=now)
    await connection.execute(player.on_conflict_do_update(index_elements=["id"], set_={"updated_at": now}))
    here = _insert(connection, GUILD_PLAYERS).values(
        guild_id=guild_id, user_id=user_id, display_name=name[:100], updated_at=now
    )
    if not replace:
        await connection.execute(here.on_conflict_do_nothing(index_elements=["guild_id", "user_id"]))
        return
    await connection.execute(
        here.on_conflict_do_update(
            index_elements=["guild_id", "user_id"], set_={"display_name": name[:100], "updated_at": now}
        )
    )


def name_on(guild_id: Any, user_id: Any) -> ColumnElement[str | None]:
    """The name of the player ``user_id`` on server ``guild_id`` (each a column or a value), as a column
    labelled ``display_name``: what they go by there, else, for a row kept before names were kept per
    server, the name they were first seen by."""
    here = (
        select(GUILD_PLAYERS.c.display_name)
        .where(GUILD_PLAYERS.c.guild_id == guild_id, GUILD_PLAYERS.c.user_id == user_id)
        .scalar_subquery()
    )
    seen = PLAYERS.alias("seen")  # its own name: a query over ``players`` (load_table's) must not correlate it
    first = select(seen.c.display_name).where(seen.c.id == user_id).scalar_subquery()
    return func.coalesce(here, first).label("display_name")


async def insert_table(connection: AsyncConnection, **values: Any) -> int:
    result = await connection.execute(insert(TABLES).values(**values).returning(TABLES.c.id))
    return int(result.scalar_one())


async def claim_version(connection: AsyncConnection, table_id: int, version: int, **values: Any) -> bool:
    """Bump the table's version from ``version``: False when someone else already has (optimistic lock)."""
    statement = (
        update(TABLES).where(TABLES.c.id == table_id, TABLES.c.version == version).values(version=version + 1, **values)
    )
    result = await connection.execute(statement)
    return bool(result.rowcount == 1)


async def insert_seat(
    connection: AsyncConnection, table_id: int, user_id: int | None, joined_at: datetime, level: str | None = None
) -> int:
    """A person's seat (``user_id``), or a computer's of ``level`` (``user_id`` None)."""
    values = {"table_id": table_id, "user_id": user_id, "joined_at": joined_at, "computer_level": level}
    statement = insert(SEATS).values(**values).returning(SEATS.c.id)
    return int((await connection.execute(statement)).scalar_one())


async def update_seat(connection: AsyncConnection, seat_id: int, **values: Any) -> None:
    await connection.execute(update(SEATS).where(SEATS.c.id == seat_id).values(**values))


async def append_actions(connection: AsyncConnection, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        await connection.execute(insert(ACTIONS), list(rows))


async def set_deadline(
    connection: AsyncConnection, table_id: int, version: int, remind_at: datetime | None, act_at: datetime | None
) -> None:
    """Replace the table's turn timer (``act_at`` None: no timer)."""
    await connection.execute(delete(DEADLINES).where(DEADLINES.c.table_id == table_id))
    if act_at is not None:
        values = {"table_id": table_id, "version": version, "remind_at": remind_at, "act_at": act_at}
        await connection.execute(insert(DEADLINES).values(due_at=remind_at or act_at, **values))


# A deadline's next moment still pending: the reminder, or once it is sent (or never to be) the computer's move.
_PENDING = func.coalesce(DEADLINES.c.remind_at, DEADLINES.c.act_at)


async def carry_deadline(connection: AsyncConnection, table_id: int, version: int) -> None:
    """Keep the table's turn timer, its moments unchanged, for the table's new ``version`` (a write that is no
    move of play, or a move that leaves the seats to act waiting on their clock): a deadline whose version is
    not the table's is taken for one an action replaced, and never fires. It is due at its own next moment again
    (a table set aside at its timer and written since is well)."""
    statement = update(DEADLINES).where(DEADLINES.c.table_id == table_id)
    await connection.execute(statement.values(version=version, due_at=_PENDING))


async def postpone_deadline(connection: AsyncConnection, table_id: int, version: int, due_at: datetime) -> None:
    """Leave the deadline ``(table_id, version)`` alone until ``due_at`` (a table that failed at its timer)."""
    statement = update(DEADLINES).where(DEADLINES.c.table_id == table_id, DEADLINES.c.version == version)
    await connection.execute(statement.values(due_at=due_at))


async def guilds_of(connection: AsyncConnection, table_ids: Sequence[int]) -> dict[int, int]:
    """The server of each of ``table_ids``."""
    statement = select(TABLES.c.id, TABLES.c.guild_id).where(TABLES.c.id.in_(list(table_ids)))
    return {int(row.id): int(row.guild_id) for row in await connection.execute(statement)}


async def claim_reminders(connection: AsyncConnection, due: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """Claim the reminders of the deadlines ``(table_id, version)`` in one statement: the pairs this
    caller claimed, so processes sharing the database never both remind."""
    if not due:
        return set()
    statement = (
        update(DEADLINES)
        .where(tuple_(DEADLINES.c.table_id, DEADLINES.c.version).in_(list(due)), DEADLINES.c.remind_at.is_not(None))
        .values(remind_at=None, due_at=DEADLINES.c.act_at)
        .returning(DEADLINES.c.table_id, DEADLINES.c.version)
    )
    return {(int(row.table_id), int(row.version)) for row in await connection.execute(statement)}


async def table_version(connection: AsyncConnection, table_id: int) -> int | None:
    """The table's version as committed (None: no such table)."""
    version = await connection.scalar(select(TABLES.c.version).where(TABLES.c.id == table_id))
    return None if version is None else int(version)


async def versions_to_check(
    connection: AsyncConnection, loaded: Sequence[int], shards: Shards | None
) -> list[tuple[int, int, int]]:
    """In one statement, the (id, server, committed version) of the tables ``loaded`` and of every open table
    of the servers on ``shards``: what a process compares with its copies when it may have missed news."""
    condition: ColumnElement[bool] = TABLES.c.status.in_(OPEN_STATUSES)
    mine = owned(TABLES.c.guild_id, shards)
    if mine is not None:
        condition = condition & mine
    if loaded:
        ids = list(loaded)
        if connection.dialect.name == "postgresql":  # one array parameter, however many tables are loaded
            condition = condition | (TABLES.c.id == any_(bindparam("loaded", ids, type_=postgresql.ARRAY(Integer))))
        else:
            condition = condition | TABLES.c.id.in_(ids)
    statement = select(TABLES.c.id, TABLES.c.guild_id, TABLES.c.version).where(condition).order_by(TABLES.c.id)
    return [(int(row.id), int(row.guild_id), int(row.version)) for row in await connection.execute(statement)]


async def guilds_on(connection: AsyncConnection, shards: Shards | None) -> list[Row[Any]]:
    """The settings rows of the servers on ``shards`` (every server's when None or all)."""
    statement = select(GUILDS)
    mine = owned(GUILDS.c.id, shards)
    if mine is not None:
        statement = statement.where(mine)
    return list((await connection.execute(statement.order_by(GUILDS.c.id))).all())


def owned(guild_id: Any, shards: Shards | None) -> ColumnElement[bool] | None:
    """The servers on ``shards`` (Discord's rule, computed by the database); None: every server."""
    if shards is None or shards.all or shards.count is None:
        return None
    shard = guild_id.op(">>")(literal_column("22")) % literal_column(str(int(shards.count)))
    return cast(ColumnElement[bool], shard.in_(sorted(shards.ids)))


async def due_deadlines(
    connection: AsyncConnection,
    now: datetime,
    limit: int = 500,
    shards: Shards | None = None,
    after: tuple[datetime, int] | None = None,
    paused: Shards | None = None,
    servers_out: Collection[int] = (),
) -> list[Row[Any]]:
    """The turn deadlines due by ``now`` of the tables of servers on ``shards``, not on ``paused`` and not among
    ``servers_out`` (whose clocks are stopped), earliest first (then by table), a page of ``limit`` at most;
    ``after`` is the (due_at, table_id) of the previous page's last."""
    if paused is not None and paused.all:
        return []  # every clock stopped
    statement = select(DEADLINES).where(DEADLINES.c.due_at <= now)
    mine = owned(TABLES.c.guild_id, shards)
    stopped = owned(TABLES.c.guild_id, paused) if paused is not None else None
    if mine is not None or stopped is not None or servers_out:
        statement = statement.join(TABLES, TABLES.c.id == DEADLINES.c.table_id)
    if mine is not None:
        statement = statement.where(mine)
    if stopped is not None:
        statement = statement.where(~stopped)
    if servers_out:
        statement = statement.where(TABLES.c.guild_id.not_in(sorted(servers_out)))
    if after is not None:
        statement = statement.where(tuple_(DEADLINES.c.due_at, DEADLINES.c.table_id) > tuple_(*after))
    statement = statement.order_by(DEADLINES.c.due_at, DEADLINES.c.table_id).limit(limit)
    return list((await connection.execute(statement)).all())


async def deadlines_on(connection: AsyncConnection, shards: Shards, without: Collection[int] = ()) -> list[Row[Any]]:
    """Every turn deadline row of the tables of servers on ``shards``, but those of the servers ``without``."""
    statement = select(DEADLINES)
    on = owned(TABLES.c.guild_id, shards)
    if on is not None or without:
        statement = statement.join(TABLES, TABLES.c.id == DEADLINES.c.table_id)
    if on is not None:
        statement = statement.where(on)
    if without:
        statement = statement.where(TABLES.c.guild_id.not_in(sorted(without)))
    return list((await connection.execute(statement.order_by(DEADLINES.c.table_id))).all())


async def deadlines_of_server(connection: AsyncConnection, guild_id: int) -> list[Row[Any]]:
    """Every turn deadline row of the server's tables."""
    statement = (
        select(DEADLINES)
        .join(TABLES, TABLES.c.id == DEADLINES.c.table_id)
        .where(TABLES.c.guild_id == guild_id)
        .order_by(DEADLINES.c.table_id)
    )
    return list((await connection.execute(statement)).all())


async def deadline_of(connection: AsyncConnection, table_id: int) -> Row[Any] | None:
    """The table's turn deadline row (None: no clock)."""
    return (await connection.execute(select(DEADLINES).where(DEADLINES.c.table_id == table_id))).first()


@dataclass
class StoredTable:
    table: Row[Any]
    seats: list[Any]
    actions: list[Any]
    names: dict[int, str]
    guild: Row[Any]
    deadline: Row[Any] | None = None  # the table's turn timer, if it has one


async def load_table(connection: AsyncConnection, table_id: int, with_actions: bool = True) -> StoredTable | None:
    table = (await connection.execute(select(TABLES).where(TABLES.c.id == table_id))).first()
    if table is None:
        return None
    statement = select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.id)
    seats: list[Any] = list((await connection.execute(statement)).all())
    actions: list[Any] = []
    if with_actions:
        statement = select(ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.source).where(ACTIONS.c.table_id == table_id)
        actions = list((await connection.execute(statement.order_by(ACTIONS.c.seq))).all())
    users = [seat.user_id for seat in seats if seat.user_id is not None] + [table.host_id]
    rows = await connection.execute(
        select(PLAYERS.c.id, name_on(table.guild_id, PLAYERS.c.id)).where(PLAYERS.c.id.in_(users))
    )
    names = {row.id: row.display_name for row in rows}
    guild = (await connection.execute(select(GUILDS).where(GUILDS.c.id == table.guild_id))).one()
    deadline = (await connection.execute(select(DEADLINES).where(DEADLINES.c.table_id == table_id))).first()
    return StoredTable(table, seats, actions, names, guild, deadline)


async def in_play_table_ids(
    connection: AsyncConnection, guild_id: int, statuses: tuple[str, ...] = (PLAYING,)
) -> list[int]:
    """The tables of server ``guild_id`` whose match is in play (or of the ``statuses`` given)."""
    statement = select(TABLES.c.id).where(TABLES.c.guild_id == guild_id, TABLES.c.status.in_(statuses))
    return [row.id for row in await connection.execute(statement.order_by(TABLES.c.id))]


async def open_table_ids(
    connection: AsyncConnection, shards: Shards | None = None, *, private: bool = False
) -> list[int]:
    """The open tables (lobbies and matches in play) of the servers on ``shards`` (``private``: only those)."""
    statement = select(TABLES.c.id).where(TABLES.c.status.in_(OPEN_STATUSES))
    if private:
        statement = statement.where(TABLES.c.private.is_(True))
    mine = owned(TABLES.c.guild_id, shards)
    if mine is not None:
        statement = statement.where(mine)
    return [row.id for row in await connection.execute(statement.order_by(TABLES.c.id))]


async def open_table_ids_at(
    connection: AsyncConnection,
    *,
    guild_id: int | None = None,
    channel_id: int | None = None,
    thread_id: int | None = None,
) -> list[int]:
    """The open tables (lobbies and matches in play) of a server, of a channel (posted in it, in a thread of their
    own or not), or of a thread: whichever are given, oldest first."""
    statement = select(TABLES.c.id).where(TABLES.c.status.in_(OPEN_STATUSES))
    if guild_id is not None:
        statement = statement.where(TABLES.c.guild_id == guild_id)
    if channel_id is not None:
        statement = statement.where(TABLES.c.channel_id == channel_id)
    if thread_id is not None:
        statement = statement.where(TABLES.c.thread_id == thread_id)
    return [int(row.id) for row in await connection.execute(statement.order_by(TABLES.c.id))]


async def open_table_places(connection: AsyncConnection) -> set[tuple[int, int]]:
    """Where the open tables (lobbies and matches in play) are: each (server, channel) with one."""
    statement = select(TABLES.c.guild_id, TABLES.c.channel_id).where(TABLES.c.status.in_(OPEN_STATUSES)).distinct()
    return {(int(row.guild_id), int(row.channel_id)) for row in await connection.execute(statement)}


async def claim_channel(connection: AsyncConnection, table_id: int, channel_id: int) -> None:
    """Make the channel the table's own (its one open table): IntegrityError if it has one already."""
    await connection.execute(update(TABLES).where(TABLES.c.id == table_id).values(channel_slot=channel_id))


async def close_unshown_lobbies(
    connection: AsyncConnection, before: datetime, now: datetime, shards: Shards | None = None
) -> list[int]:
    """Abandon the lobbies of the servers on ``shards`` opened before ``before`` that were never shown
    (no message): what a crash between opening a table and posting it leaves. Their ids."""
    mine = owned(TABLES.c.guild_id, shards)
    statement = (
        update(TABLES)
        .where(TABLES.c.status == LOBBY, TABLES.c.message_id.is_(None), TABLES.c.created_at < before)
        .where(*([] if mine is None else [mine]))
        .where(~exists().where(EVENT_TABLES.c.table_id == TABLES.c.id))  # a tournament's: started at its re-check
        .values(status=ABANDONED, finished_at=now, **SLOTS_FREED, version=TABLES.c.version + 1)
        .returning(TABLES.c.id)
    )
    return sorted(int(row.id) for row in await connection.execute(statement))


async def close_unreadable(connection: AsyncConnection, table_id: int, now: datetime) -> bool:
    """Abandon an open table by its row alone (its log no longer replays, so no move can be made and nothing of
    the game read): its places freed, its turn timer gone. Whether it was open."""
    statement = (
        update(TABLES)
        .where(TABLES.c.id == table_id, TABLES.c.status.in_(OPEN_STATUSES))
        .values(status=ABANDONED, finished_at=now, **SLOTS_FREED, version=TABLES.c.version + 1)
        .returning(TABLES.c.id)
    )
    closed = (await connection.execute(statement)).first() is not None
    await connection.execute(delete(DEADLINES).where(DEADLINES.c.table_id == table_id))
    return closed


async def table_in_channel(connection: AsyncConnection, channel_id: int, thread_id: int | None) -> int | None:
    """The open table of a channel (without a thread) or of a thread."""
    statement = select(TABLES.c.id).where(TABLES.c.status.in_(OPEN_STATUSES))
    if thread_id is None:
        statement = statement.where(TABLES.c.channel_slot == channel_id)
    else:
        statement = statement.where(TABLES.c.thread_id == thread_id)
    return (await connection.execute(statement.order_by(TABLES.c.id.desc()).limit(1))).scalar()


async def is_table_thread(connection: AsyncConnection, channel_id: int) -> bool:
    """Whether ``channel_id`` is the thread of some table, open or over (index ix_tables_thread_id)."""
    statement = select(TABLES.c.id).where(TABLES.c.thread_id == channel_id).limit(1)
    return (await connection.execute(statement)).scalar() is not None


async def open_rematch(connection: AsyncConnection, table_id: int) -> int | None:
    """The open table that is the rematch of ``table_id``, if there is one."""
    statement = select(TABLES.c.id).where(TABLES.c.rematch_slot == table_id, TABLES.c.status.in_(OPEN_STATUSES))
    return (await connection.execute(statement.limit(1))).scalar()


async def open_tables_in_channel(connection: AsyncConnection, channel_id: int, limit: int = 25) -> list[int]:
    """The open tables of a channel, in it or in threads of their own, and of a thread: newest first."""
    statement = (
        select(TABLES.c.id)
        .where(TABLES.c.status.in_(OPEN_STATUSES))
        .where((TABLES.c.channel_id == channel_id) | (TABLES.c.thread_id == channel_id))
        .order_by(TABLES.c.id.desc())
        .limit(limit)
    )
    return list((await connection.execute(statement)).scalars())


async def opening_limits(connection: AsyncConnection, guild_id: int, host_id: int) -> tuple[int, int, datetime | None]:
    """For a new table: the server's open tables, the lobbies ``host_id`` hosts there, and when they
    last opened one there that did not end in a finished match (None: never). A match played to its
    end is no spam, however quick, so the cooldown does not hold up the next one."""
    here = TABLES.c.guild_id == guild_id
    open_tables = select(func.count()).where(here, TABLES.c.status.in_(OPEN_STATUSES))
    hosted = select(func.count()).where(here, TABLES.c.status == LOBBY, TABLES.c.host_id == host_id)
    # The column itself (not max()), so its type turns the stored value back into a datetime.
    last = (
        select(TABLES.c.created_at)
        .where(here, TABLES.c.host_id == host_id, TABLES.c.status != FINISHED)
        .order_by(TABLES.c.created_at.desc())
    )
    return (
        int((await connection.execute(open_tables)).scalar_one()),
        int((await connection.execute(hosted)).scalar_one()),
        (await connection.execute(last.limit(1))).scalar(),
    )


async def ratings_for(
    connection: AsyncConnection, guild_id: int, game: str, users: Iterable[int]
) -> dict[int, Row[Any]]:
    """The stored ratings of ``users`` in a server's game, for this transaction to update. On PostgreSQL two
    matches of the server's game finishing at once in two processes take turns: a lock on the rows alone
    would not do, since a player's first rating has no row yet to lock (both read none, both start from the
    initial rating, and the later write loses the earlier match)."""
    if connection.dialect.name == "postgresql":
        await connection.execute(select(func.pg_advisory_xact_lock(_lock_key("ratings", guild_id, game))))
    statement = select(RATINGS).where(
        RATINGS.c.guild_id == guild_id, RATINGS.c.game == game, RATINGS.c.user_id.in_(list(users))
    )
    if connection.dialect.name == "postgresql":
        statement = statement.with_for_update()
    return {row.user_id: row for row in await connection.execute(statement)}


def _lock_key(*parts: object) -> int:
    """A transaction lock's key (PostgreSQL's advisory locks take one signed 64-bit number) for ``parts``."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def save_rating(connection: AsyncConnection, **values: Any) -> None:
    statement = _insert(connection, RATINGS).values(**values)
    keys = ("guild_id", "game", "user_id")
    statement = statement.on_conflict_do_update(
        index_elements=list(keys), set_={k: v for k, v in values.items() if k not in keys}
    )
    await connection.execute(statement)


async def insert_match(connection: AsyncConnection, seat_rows: Sequence[dict[str, Any]], **values: Any) -> int:
    match_id = int((await connection.execute(insert(MATCHES).values(**values).returning(MATCHES.c.id))).scalar_one())
    await connection.execute(insert(MATCH_PLAYERS), [{"match_id": match_id, **row} for row in seat_rows])
    return match_id


async def count_rows(connection: AsyncConnection, table: Any, **where: Any) -> int:
    statement = select(func.count()).select_from(table)
    for key, value in where.items():
        statement = statement.where(table.c[key] == value)
    return int((await connection.execute(statement)).scalar_one())


@dataclass
class MoveWrite:
    """The common write of play: actions appended, the version bumped, the turn timer replaced.

    Committed alone it checks the version with one UPDATE; merged with others
    (:meth:`run_many`) a whole batch of tables costs four statements (five when some are told to the
    other processes).
    """

    table_id: int
    version: int  # expected: the version the live state was built on
    action_count: int  # after these actions
    actions: list[dict[str, Any]]
    remind_at: datetime | None
    act_at: datetime | None  # None: no timer
    # The table's server when the other processes are to hear of the move (PostgreSQL): told in this
    # transaction, so the news leaves with the commit, whatever becomes of this process right after.
    told_guild: int | None = None
    keep_timer: bool = False  # the seats to act were waiting already: their timer runs on, its moments unchanged

    async def __call__(self, connection: AsyncConnection) -> None:
        from .database import BatchRollback

        if not await claim_version(connection, self.table_id, self.version, action_count=self.action_count):
            raise BatchRollback(StaleWrite(self.table_id))
        await append_actions(connection, self.actions)
        if self.keep_timer:
            await carry_deadline(connection, self.table_id, self.version + 1)
        else:
            await set_deadline(connection, self.table_id, self.version + 1, self.remind_at, self.act_at)
        if self.told_guild is not None:
            await notify.announce_table(connection, self.table_id, self.told_guild, self.version + 1)

    @classmethod
    async def run_many(cls, connection: AsyncConnection, items: list[MoveWrite]) -> list[None]:
        from .database import MergeConflict

        if connection.dialect.name == "postgresql":
            rows = values(column("id", Integer), column("old", Integer), column("count", Integer), name="moves").data(
                [(item.table_id, item.version, item.action_count) for item in items]
            )
            statement = (
                update(TABLES)
                .where(TABLES.c.id == rows.c.id, TABLES.c.version == rows.c.old)
                .values(version=TABLES.c.version + 1, action_count=rows.c.count)
                .returning(TABLES.c.id)
            )
            claimed = len((await connection.execute(statement)).all())
        else:
            each = (
                update(TABLES)
                .where(TABLES.c.id == bindparam("tid"), TABLES.c.version == bindparam("old"))
                .values(version=bindparam("new"), action_count=bindparam("count"))
            )
            params = [
                {"tid": item.table_id, "old": item.version, "new": item.version + 1, "count": item.action_count}
                for item in items
            ]
            claimed = (await connection.execute(each, params)).rowcount
        if claimed != len(items):
            raise MergeConflict
        await append_actions(connection, [row for item in items for row in item.actions])
        await _carry_deadlines(connection, [item for item in items if item.keep_timer])
        timed = [item for item in items if not item.keep_timer]
        await connection.execute(delete(DEADLINES).where(DEADLINES.c.table_id.in_([item.table_id for item in timed])))
        timers = [
            {
                "table_id": item.table_id,
                "version": item.version + 1,
                "remind_at": item.remind_at,
                "act_at": item.act_at,
                "due_at": item.remind_at or item.act_at,
            }
            for item in timed
            if item.act_at is not None
        ]
        if timers:
            await connection.execute(insert(DEADLINES), timers)
        news = [(item.table_id, item.told_guild, item.version + 1) for item in items if item.told_guild is not None]
        await notify.announce_tables(connection, news)  # with the batch's commit: all of them, or none
        return [None] * len(items)


async def _carry_deadlines(connection: AsyncConnection, items: list[MoveWrite]) -> None:
    """:func:`carry_deadline` for each of ``items``, in one statement."""
    if items:
        each = (
            update(DEADLINES)
            .where(DEADLINES.c.table_id == bindparam("tid"))
            .values(version=bindparam("new"), due_at=_PENDING)
        )
        await connection.execute(each, [{"tid": item.table_id, "new": item.version + 1} for item in items])


class StaleWrite(Exception):
    """The table's version moved on in the database (another process, or a lost race)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} moved on")
        self.table_id = table_id
