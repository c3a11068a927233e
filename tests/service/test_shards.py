"""Shards that own their tables: a process loads, times and drives the tables of the servers on its
shards; a click routed to the other process still applies; due reminders are claimed in batches."""

from __future__ import annotations

import asyncio

import pytest

from bot.shards import Shards, ShardSpecError, describe, parse_ids, shard_of
from bot.storage.database import Database
from bot.tables import TableService, play

from .conftest import Clock
from .helpers import heard, make_service, seated

# Discord's rule: a server's shard is (guild_id >> 22) % shard_count.
EVEN_GUILD = 6 << 22  # shard 0 of 2
ODD_GUILD = 7 << 22  # shard 1 of 2


def test_a_servers_shard_is_discords_rule() -> None:
    assert shard_of(EVEN_GUILD, 2) == 0 and shard_of(ODD_GUILD, 2) == 1
    assert shard_of(81384788765712384, 5) == (81384788765712384 >> 22) % 5
    half = Shards.of(2, [0])
    assert half.owns(EVEN_GUILD) and not half.owns(ODD_GUILD) and not half.all
    assert Shards.of(2).all and Shards.everything().owns(ODD_GUILD)
    assert str(Shards.of(8, [0, 1, 2, 5])) == "shards 0-2,5 of 8"


def test_shard_settings_are_read_strictly() -> None:
    assert parse_ids("0-3, 8") == [0, 1, 2, 3, 8]
    assert parse_ids("5,1,1") == [1, 5]
    assert describe([0, 1, 2, 3, 8]) == "0-3,8"
    for bad in ("", "a", "3-1", "-1", "1-", "0-99999"):
        with pytest.raises(ShardSpecError):
            parse_ids(bad)
    for count, ids in ((0, None), (2, [2]), (2, [])):
        with pytest.raises(ShardSpecError):
            Shards.of(count, ids)


async def _two(database: Database, clock: Clock) -> tuple[TableService, TableService]:
    return (
        make_service(database, clock, shards=Shards.of(2, [0])),
        make_service(database, clock, shards=Shards.of(2, [1])),
    )


async def test_each_process_loads_and_times_only_its_servers_tables(database: Database, clock: Clock) -> None:
    opener = make_service(database, clock)
    even = odd = None
    try:
        for guild in (EVEN_GUILD, ODD_GUILD):
            await opener.update_guild_settings(guild, turn_seconds=60, grace_seconds=30)
        even = await seated(opener, "oh-hell", 3, {"start_cards": 3}, guild=EVEN_GUILD, channel=10)
        odd = await seated(opener, "oh-hell", 3, {"start_cards": 3}, guild=ODD_GUILD, channel=11, first_user=200)
        for info in (even, odd):
            await opener.start(info.id, info.host_id, message_id=info.id)
    finally:
        await opener.close()
    first, second = await _two(database, clock)
    try:
        assert await first.load_open_tables() == 1 and set(first._live) == {even.id}
        assert await second.load_open_tables() == 1 and set(second._live) == {odd.id}
        clock.advance(61)
        reminded = await asyncio.gather(first.run_timers(), second.run_timers())
        assert [[o.table.id for o in outcomes] for outcomes in reminded] == [[even.id], [odd.id]]
        clock.advance(30)  # past the grace: each process's computer plays for its own table's late seat
        assert await asyncio.gather(first.run_timers(), second.run_timers()) == [[], []]
        await asyncio.gather(first.settle(), second.settle())
        timed_out = [[o.table.id for o in heard(s).take() if "timeout" in o.kinds()] for s in (first, second)]
        assert timed_out == [[even.id], [odd.id]]
    finally:
        await first.close()
        await second.close()


async def test_a_click_routed_to_the_other_process_applies(database: Database, clock: Clock) -> None:
    first, second = await _two(database, clock)
    try:
        info = await seated(first, "oh-hell", 3, {"start_cards": 3}, guild=EVEN_GUILD)
        info = (await first.start(info.id, info.host_id, message_id=1)).table
        reader = first
        for turn in range(6):  # alternately through the owner and through the other process
            through = (second, first)[turn % 2]
            seat = info.to_act[0]
            who = info.seats[seat].user_id
            assert who is not None
            legal = await reader.legal(info.id, who)  # what the person was shown, by the last to write
            info = (await through.act(info.id, who, legal[0])).table  # the owner's copy may be behind
            reader = through
        assert info.status == "playing" and (await second.table(info.id)).version == info.version
    finally:
        await first.close()
        await second.close()


async def test_the_owner_plays_its_computers_after_a_click_routed_elsewhere(database: Database, clock: Clock) -> None:
    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process, which owns every server: nothing is routed elsewhere")
    first, second = await _two(database, clock)
    try:
        await first.follow_others(_ignore)
        info = await seated(first, "oh-hell", 2, {"start_cards": 3}, guild=EVEN_GUILD)
        info = await first.add_computer(info.id, info.host_id, "easy")
        info = (await first.start(info.id, info.host_id, message_id=1)).table
        await first.settle()
        while info.status == "playing" and any(info.seats[s].user_id is not None for s in info.to_act):
            seat = next(s for s in info.to_act if info.seats[s].user_id is not None)
            who = info.seats[seat].user_id
            assert who is not None
            # Every click goes to the process that does not own the server.
            info = (await second.act(info.id, who, (await second.legal(info.id, who))[0])).table
            assert not second._drivers.running(info.id)  # it never drives another shard's computers
            for _ in range(3000):  # the owner hears of it and its computer plays on (up to a minute: a busy machine)
                info = await second.table(info.id)
                if info.status != "playing" or any(info.seats[s].user_id is not None for s in info.to_act):
                    break
                await asyncio.sleep(0.02)
            assert info.status != "playing" or any(info.seats[s].user_id is not None for s in info.to_act)
        moved = [o for o in heard(first).take() if o.actor is None]
        assert moved and all(o.table.id == info.id for o in moved)  # the owner's computer made those moves
    finally:
        await first.close()
        await second.close()


async def _ignore(_settings: object) -> None:
    return None


async def test_due_reminders_after_an_outage_are_claimed_together_and_once(
    database: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play, "DUE_PAGE", 5)  # 12 tables: three pages of deadlines
    opener = make_service(database, clock)
    tables = []
    try:
        await opener.update_guild_settings(EVEN_GUILD, turn_seconds=60, grace_seconds=600)
        for number in range(12):
            info = await seated(
                opener,
                "oh-hell",
                3,
                {"start_cards": 2},
                guild=EVEN_GUILD,
                channel=100 + number,
                first_user=1_000 + 10 * number,
            )
            tables.append((await opener.start(info.id, info.host_id, message_id=info.id)).table.id)
    finally:
        await opener.close()
    clock.advance(120)  # the bot was away: every table's reminder is due
    owner, again = make_service(database, clock, shards=Shards.of(2, [0])), make_service(database, clock)
    writes: list[int] = []
    real_write = database.write

    async def counted(work, *args, **kwargs):  # type: ignore[no-untyped-def]
        writes.append(1)
        return await real_write(work, *args, **kwargs)

    database.write = counted  # type: ignore[method-assign]
    try:
        first, second = await asyncio.gather(owner.run_timers(), again.run_timers())
        reminded = sorted(o.table.id for o in [*first, *second])
        assert reminded == sorted(tables)  # each table reminded, by exactly one process
        assert len(writes) <= 2 * 3  # one claim per page and process, not one commit per table
        assert await owner.run_timers() == [] and await again.run_timers() == []
    finally:
        database.write = real_write  # type: ignore[method-assign]
        await owner.close()
        await again.close()


async def test_lobby_clicks_on_either_process_see_each_other(database: Database, clock: Clock) -> None:
    first, second = await _two(database, clock)
    try:
        info = await seated(first, "oh-hell", 2, {"start_cards": 3}, guild=EVEN_GUILD)
        await first.table(info.id)  # the owner holds the lobby in memory
        await second.join(info.id, 777, "Late")  # a Join routed to the other process
        info = await first.leave(info.id, 777)  # the owner's copy is behind: it reads the table again
        assert [seat.user_id for seat in info.seats] == [100, 101]
        await second.add_computer(info.id, info.host_id, "easy")
        outcome = await first.start(info.id, info.host_id, message_id=1)  # three seats, as the database has
        assert len(outcome.table.seats) == 3 and outcome.table.status == "playing"
    finally:
        await first.close()
        await second.close()


async def test_every_overdue_turn_is_played_however_many_pages_they_fill(
    service: TableService, database: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play, "DUE_PAGE", 4)  # a timeout's deadline stays due until its move: pages move on by key
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    tables = []
    for number in range(10):
        info = await seated(
            service, "oh-hell", 3, {"start_cards": 2}, channel=300 + number, first_user=5_000 + 10 * number
        )
        tables.append((await service.start(info.id, info.host_id, message_id=info.id)).table.id)
    clock.advance(120)  # past the reminder and the grace everywhere
    assert await service.run_timers() == []
    await service.settle()
    timed_out = {o.table.id for o in heard(service).take() if "timeout" in o.kinds()}
    assert timed_out == set(tables)
