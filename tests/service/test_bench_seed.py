"""``bench start``'s fast seeder writes the rows the service itself writes, and the service plays on from them."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from bench.start import (
    GAME,
    GRACE_SECONDS,
    OPTIONS,
    PLAYERS,
    TURN_SECONDS,
    guild_of,
    host_of,
    random_moves,
    seed_tables,
)
from bot.storage import repository as repo
from bot.storage.database import Database
from bot.tables import TableService

MOVES = 25


async def stored(database: Database, table_id: int) -> dict[str, Any]:
    """A table's rows with what differs between two tables by design (ids, places, clock times) taken out;
    the deadline as offsets from the last move."""
    async with database.engine.connect() as connection:
        table = (await connection.execute(select(repo.TABLES).where(repo.TABLES.c.id == table_id))).one()
        seats = (await connection.execute(select(repo.SEATS).where(repo.SEATS.c.table_id == table_id))).all()
        log = (
            await connection.execute(
                select(repo.ACTIONS).where(repo.ACTIONS.c.table_id == table_id).order_by(repo.ACTIONS.c.seq)
            )
        ).all()
        deadline = (await connection.execute(select(repo.DEADLINES).where(repo.DEADLINES.c.table_id == table_id))).one()
        here = repo.GUILD_PLAYERS.c.guild_id == table.guild_id
        users = [seat.user_id for seat in seats]
        named = (
            await connection.execute(
                select(repo.GUILD_PLAYERS.c.user_id, repo.GUILD_PLAYERS.c.display_name).where(
                    here, repo.GUILD_PLAYERS.c.user_id.in_(users)
                )
            )
        ).all()
    row = table._asdict()
    number = row["channel_id"] - 10_000
    assert (row["thread_id"], row["message_id"], row["host_id"]) == (number + 1, number + 1, host_of(number))
    for key in ("id", "channel_id", "thread_id", "message_id", "host_id", "created_at", "started_at"):
        row.pop(key)
    last = log[-1].created_at
    return {
        "table": row,
        "seats": sorted(
            (
                seat.position,
                seat.user_id - host_of(number),
                seat.computer_level,
                seat.left_at,
                seat.absent,
                seat.resigned,
            )
            for seat in seats
        ),
        "names": sorted((user - host_of(number), name == f"p{user}") for user, name in named),
        "log": [(entry.seq, entry.seat, entry.action, entry.source) for entry in log],
        "deadline": (
            deadline.version,
            deadline.remind_at - last,
            deadline.act_at - last,
            deadline.due_at - last,
        ),
    }


async def test_seeded_rows_are_the_services_and_play_goes_on(database: Database) -> None:
    seeded = await seed_tables(database, [0, 1, 2], MOVES)
    assert [entry.actions for entry in seeded] == [MOVES] * 3

    # Table 3 through the service, one call at a time, with the moves the seeder would make for its seed.
    service = TableService(database)
    number, host = 3, host_of(3)
    info = await service.open_table(
        guild_of(number), 10_000 + number, host, f"p{host}", GAME, dict(OPTIONS), thread_id=number + 1
    )
    for seat in range(1, PLAYERS):
        await service.join(info.id, host + seat, f"p{host + seat}")
    await service.set_location(info.id, message_id=number + 1)
    async with database.engine.connect() as connection:
        seed = int(await connection.scalar(select(repo.TABLES.c.seed).where(repo.TABLES.c.id == info.id)))
    await service.start(info.id, host)
    for seat, action in random_moves(seed, MOVES, random.Random(11)):
        await service.act(info.id, host + seat, action)
    await service.close()
    [copy] = await seed_tables(database, [4], MOVES, seeds=[seed], rng=random.Random(11), due=False)

    by_service, by_seeder = await stored(database, info.id), await stored(database, copy.table_id)
    assert by_seeder == by_service
    assert by_seeder["names"] == [(seat, True) for seat in range(PLAYERS)]  # each named on its server
    assert by_seeder["table"]["status"] == "playing" and by_seeder["table"]["version"] == PLAYERS + 1 + MOVES
    turn, grace = timedelta(seconds=TURN_SECONDS), timedelta(seconds=GRACE_SECONDS)
    assert by_seeder["deadline"][1:] == (turn, turn + grace, turn)

    # A fresh service loads them all; both copies of one match look alike; a person acts at each.
    fresh = TableService(database)
    assert await fresh.load_open_tables() == 5
    one, other = await fresh.table(info.id), await fresh.table(copy.table_id)
    assert (one.version, one.actions, one.to_act) == (other.version, other.actions, other.to_act)
    mover = one.to_act[0]
    mine = await fresh.hand(info.id, host + mover)
    theirs = await fresh.hand(copy.table_id, host_of(4) + mover)
    assert (mine.view, mine.legal) == (theirs.view, theirs.legal)
    reminders = await fresh.run_timers()  # the seeded tables' reminders are due (their last move is long past)
    assert sorted(outcome.table.id for outcome in reminders) == sorted(entry.table_id for entry in seeded)
    rng = random.Random(3)
    for table_id in [entry.table_id for entry in seeded] + [info.id, copy.table_id]:
        table = await fresh.table(table_id)
        seat = rng.choice(table.to_act)
        user = table.seats[seat].user_id
        assert user is not None
        outcome = await fresh.act(table_id, user, rng.choice(await fresh.legal(table_id, user)))
        assert (outcome.table.version, outcome.table.actions) == (table.version + 1, table.actions + 1)
    await fresh.close()
