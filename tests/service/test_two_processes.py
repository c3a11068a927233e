"""Two processes on one database (two services, each with its own live copies): a click routed to either
applies, and a turn deadline due while both run reminds once."""

from __future__ import annotations

import asyncio
import contextlib
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.shards import Shards
from bot.storage import repository
from bot.storage.database import Database
from bot.tables import GuildSettings, TableService

from .conftest import POSTGRES_URL, Clock, drop_schema, fresh_database
from .helpers import GUILD, HOST, heard, make_service, seated

EVEN_GUILD = 6 << 22  # shard 0 of 2


async def test_moves_routed_to_either_process_all_apply(database: Database, clock: Clock) -> None:
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        info = await seated(first, "oh-hell", players=3, options={"start_cards": 3})
        info = (await first.start(info.id, info.host_id, message_id=1)).table
        rng = random.Random(4)
        services: tuple[TableService, TableService] = (first, second)
        moves = 0
        while info.status == "playing":
            reader, writer = services[moves % 2], services[(moves + 1) % 2]  # seen on one, clicked on the other
            info = await reader.table(info.id)
            seat = info.to_act[0]
            who = info.seats[seat].user_id
            assert who is not None
            legal = await reader.legal(info.id, who)
            outcome = await writer.act(info.id, who, rng.choice(legal))  # the other's copy may be behind
            info = outcome.table
            moves += 1
        assert info.status == "finished" and moves == 3 * 3 + (3 + 2 + 1) * 3  # three deals: every bid and every card
    finally:
        await first.close()
        await second.close()


async def test_a_deadline_due_in_both_processes_reminds_once(database: Database, clock: Clock) -> None:
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        info = await seated(first, "oh-hell", players=3, options={"start_cards": 3}, turn_seconds=60)
        await first.start(info.id, info.host_id, message_id=1)
        await second.table(info.id)  # both hold the table
        clock.advance(61)
        reminders = [*await first.run_timers(), *await second.run_timers()]
        assert len(reminders) == 1 and reminders[0].kinds() == ["reminder"]
        assert heard(first).events("reminder") == [] and heard(second).events("reminder") == []  # returned, not sent
    finally:
        await first.close()
        await second.close()


async def test_a_bid_in_the_other_process_as_the_reminder_is_claimed_leaves_the_others_reminded(
    database: Database, clock: Clock
) -> None:
    """Ninety-Nine's bids are made at once. The first process claimed the reminder with the table's lock let go;
    the news of a bid served by the other process right then (which carried the claimed deadline on) read the
    table again before the reminder was told, and the reminder, finding the table moved on, was dropped: the
    seats still to bid were never reminded, and the computer played for them with no warning."""
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        await first.update_guild_settings(GUILD, turn_seconds=60, grace_seconds=30)
        info = await seated(first, "ninety-nine", players=3)
        info = (await first.start(info.id, info.host_id, message_id=1)).table
        bid = (await second.legal(info.id, HOST))[0]
        live = first.store.live[info.id]
        original = database.write
        news: list[asyncio.Task[None]] = []

        async def write(work: Any, *args: Any, **kwargs: Any) -> Any:
            result = await original(work, *args, **kwargs)
            if getattr(work, "__name__", "") == "claim" and not news:
                moved = await second.act(info.id, HOST, bid)  # a click routed to the other process
                heard_now = first.store.moved_elsewhere(info.id, GUILD, moved.table.version)  # and its news
                news.append(asyncio.create_task(heard_now))
                if not live.lock.locked():
                    await news[0]  # nothing holds the table here: the news is read at once
            return result

        database.write = write  # type: ignore[method-assign]
        clock.advance(60)
        try:
            reminders = await first.run_timers()
        finally:
            database.write = original  # type: ignore[method-assign]
        await news[0]
        [reminder] = reminders
        assert {1, 2} <= set(reminder.events[0]["seats"])  # those still to bid are reminded
        act_at = info.turn_ends + timedelta(seconds=30) if info.turn_ends else None
        assert reminder.events[0]["act_at"] == (act_at.isoformat() if act_at else None)
        assert (await first.table(info.id)).turn_ends == act_at  # the copy read again counts to the grace's end
        clock.advance(30)
        assert await first.run_timers() == []
        await first.settle()
        assert sorted(event["seat"] for event in heard(first).events("timeout")) == [1, 2]
    finally:
        await first.close()
        await second.close()


async def test_a_copy_that_bid_as_the_reminder_was_claimed_elsewhere_counts_to_the_grace_end(
    database: Database, clock: Clock
) -> None:
    """The timers' process claimed a reminder; a bid served by another process right then (its copy, of another
    shard's table) carried the claimed deadline on. The news of the reminder, for the version before the bid, was
    ignored there: that copy (its screens, its reads) counted to the reminder's moment, which had passed."""
    owner = make_service(database, clock, shards=Shards.of(2, [0]))
    other = make_service(database, clock, shards=Shards.of(2, [1]))
    try:
        await owner.update_guild_settings(EVEN_GUILD, turn_seconds=60, grace_seconds=30)
        info = await seated(owner, "ninety-nine", players=3, guild=EVEN_GUILD)
        info = (await owner.start(info.id, info.host_id, message_id=1)).table
        bid = (await other.legal(info.id, HOST))[0]  # the other process holds a copy
        original = database.write
        claimed: list[int] = []

        async def write(work: Any, *args: Any, **kwargs: Any) -> Any:
            result = await original(work, *args, **kwargs)
            if getattr(work, "__name__", "") == "claim" and not claimed:
                claimed.append((await other.act(info.id, HOST, bid)).table.version)  # a click routed there
            return result

        database.write = write  # type: ignore[method-assign]
        clock.advance(60)
        try:
            [reminder] = await owner.run_timers()
        finally:
            database.write = original  # type: ignore[method-assign]
        assert claimed == [info.version + 1]
        act_at = reminder.table.turn_ends
        await other.store.reminded_elsewhere(info.id, EVEN_GUILD, info.version, act_at)  # its news, heard there
        assert act_at is not None and (await other.table(info.id)).turn_ends == act_at
        await owner.act(info.id, HOST + 1, (await owner.legal(info.id, HOST + 1))[0])  # moves on at the owner too
        held = owner.store.peek(info.id)
        await owner.store.reminded_elsewhere(info.id, EVEN_GUILD, info.version, act_at)  # its own news, heard late
        assert owner.store.peek(info.id) is held and held is not None and held.turn_ends == act_at  # kept as it is
    finally:
        await owner.close()
        await other.close()


async def test_settings_changed_in_one_process_reach_the_other(database: Database, clock: Clock) -> None:
    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process: a change applies where it is made, nothing to hear")
    first, second = make_service(database, clock), make_service(database, clock)
    heard_settings: list[GuildSettings] = []

    async def changed(settings: GuildSettings) -> None:
        heard_settings.append(settings)

    try:
        info = await seated(second, "oh-hell", players=3, options={"start_cards": 3})
        await second.start(info.id, info.host_id, message_id=1)
        await second.follow_others(changed)
        await first.update_guild_settings(info.guild_id, turn_seconds=120, language="ja", computer_pace_ms=0)
        for _ in range(1200):  # the notification arrives at commit: waited for up to a minute (a busy machine)
            if heard_settings:
                break
            await asyncio.sleep(0.05)
        assert heard_settings and heard_settings[-1].language == "ja" and heard_settings[-1].turn_seconds == 120
        live = second._live[info.id]  # the other process's open table times its next turn with the new setting
        assert live.guild_turn == 120 and live.guild_pace_ms == 0
    finally:
        await first.close()
        await second.close()


async def test_a_bot_in_another_schema_of_the_database_is_never_heard(
    database: Database, clock: Clock, tmp_path: Path
) -> None:
    """Two bots whose tables are in two schemas of one PostgreSQL database (the same server ids, the same table
    ids): each hears only the processes of its own schema."""
    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process: a change applies where it is made, nothing to hear")
    elsewhere, schema = await fresh_database("postgresql", tmp_path)
    ours, theirs = make_service(database, clock), make_service(elsewhere, clock)
    listening, heard_settings = make_service(database, clock), []

    async def changed(settings: GuildSettings) -> None:
        heard_settings.append(settings)

    try:
        await listening.follow_others(changed)
        await theirs.update_guild_settings(7, language="ja")  # the other bot's server 7: committed first
        await ours.update_guild_settings(7, language="en", turn_seconds=90)
        for _ in range(1200):  # notifications arrive in the order of their commits: up to a minute (a busy machine)
            if heard_settings:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # and anything heard with it
        assert [(s.language, s.turn_seconds) for s in heard_settings] == [("en", 90)]
    finally:
        for service in (ours, theirs, listening):
            await service.close()
        await elsewhere.close()
        await drop_schema(schema)


async def test_two_first_matches_finishing_at_once_in_two_processes_both_count(
    database: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same three people finish two matches of one server's game at the same moment, one in each process.
    Their first ratings had no row to lock: both writes started from the initial rating and one match was lost
    (ratings.matches 1 where two were played). Now both count, in the server's ratings and its season's. Each
    write, once it has read the ratings, waits (a second at most) for the other to have read them too: without
    the lock both read none, as in the race."""
    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process: two matches never finish at once in two of them")
    read = repository.ratings_for
    arrived: list[asyncio.Event] = [asyncio.Event(), asyncio.Event()]

    async def ratings_for_then_wait(*args: Any, **kwargs: Any) -> Any:
        rows = await read(*args, **kwargs)
        mine = 0 if not arrived[0].is_set() else 1
        arrived[mine].set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(arrived[1 - mine].wait(), 1.0)
        return rows

    monkeypatch.setattr(repository, "ratings_for", ratings_for_then_wait)
    async with database.engine.connect() as connection:
        schema = (await connection.exec_driver_sql("SELECT current_schema()")).scalar_one()
    assert POSTGRES_URL is not None
    elsewhere = Database(POSTGRES_URL, connect_args={"server_settings": {"search_path": schema}})  # its own pool
    first, second = make_service(database, clock), make_service(elsewhere, clock)
    try:
        await first.seasons.turn_on(GUILD, "oh-hell", by_user=1, can_manage=True, length="month", channel_id=42)
        last_moves = []
        for service, channel in ((first, 1000), (second, 1001)):
            info = await seated(service, "oh-hell", 3, {"start_cards": 1}, channel=channel)
            info = (await service.start(info.id, info.host_id, message_id=channel)).table
            while True:  # every move but the one that ends the match
                seat = info.to_act[0]
                who = info.seats[seat].user_id
                assert who is not None
                action = (await service.legal(info.id, who))[0]
                after = await service.table(info.id)
                if after.actions + 1 == 3 + 3:  # three bids and three cards: this one ends it
                    last_moves.append((service, info.id, who, action))
                    break
                info = (await service.act(info.id, who, action)).table
        ended = await asyncio.gather(*(service.act(table, who, action) for service, table, who, action in last_moves))
        assert all(outcome.table.status == "finished" for outcome in ended)
        async with database.engine.connect() as connection:
            rated = (await connection.exec_driver_sql("SELECT user_id, matches FROM ratings ORDER BY user_id")).all()
            season = (await connection.exec_driver_sql("SELECT matches FROM season_ratings")).scalars().all()
        assert [tuple(row) for row in rated] == [(HOST + n, 2) for n in range(3)] and list(season) == [2, 2, 2]
    finally:
        await first.close()
        await second.close()
        await elsewhere.close()


async def test_a_leave_while_another_process_opens_the_next_round_is_one_or_the_other(
    database: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Process A opens round 2 (its entrants read) as process B answers someone's Leave: the Leave was told it
    worked and the person was seated in round 2 all the same (found by a helper's audit). Either the Leave lands
    first and they are not seated, or it finds the round moved on."""
    import sys

    from bot.storage import tournaments as trepo
    from bot.tables import TableError

    from .test_tournaments import play_round, signed_up

    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process: its writes take turns, nothing races")
    async with database.engine.connect() as connection:
        schema = (await connection.exec_driver_sql("SELECT current_schema()")).scalar_one()
    assert POSTGRES_URL is not None
    elsewhere = Database(POSTGRES_URL, connect_args={"server_settings": {"search_path": schema}})  # its own pool
    first, second = make_service(database, clock), make_service(elsewhere, clock)
    try:
        info = await signed_up(first, 8, rounds=2)
        await first.tournaments.start(info.id, HOST)
        leaver = HOST + 3
        real, leaving = trepo.entrants, []

        async def racing(connection: Any, tournament_id: int) -> Any:
            rows = await real(connection, tournament_id)
            if not leaving and sys._getframe(1).f_code.co_qualname.startswith("Tournaments._open_round"):
                leaving.append(asyncio.ensure_future(second.tournaments.leave(tournament_id, leaver)))
                await asyncio.sleep(0.5)  # the Leave reaches the database meanwhile
            return rows

        monkeypatch.setattr(trepo, "entrants", racing)
        await play_round(first, info.id)
        assert leaving
        with contextlib.suppress(TableError):
            await leaving[0]
        now = await first.tournaments.tournament(info.id)
        assert now.round == 2
        entrant = next(e for e in now.entrants if e.user_id == leaver)
        seated_again = any(entrant.id in table.seats for table in await first.tournaments.round_tables(info.id, 2))
        assert entrant.withdrawn != seated_again, (entrant, seated_again)
    finally:
        await first.close()
        await second.close()
        await elsewhere.close()
