"""Turn clocks stop while a shard has lost Discord's gateway (its players' clicks cannot arrive), and get that
time back when it returns; a process starting waits for its shards to connect, and a clock that ran out while
the bot was down gives the seat its reminder and grace from then."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import pytest

from bot.shards import Shards
from bot.storage import repository as repo
from bot.storage.database import Database
from bot.tables import TableInfo, TableService, outages
from bot.tables.events import TableChanged
from bot.tables.outages import SHORT_OUTAGE, Outage, given_back

from .conftest import Clock
from .helpers import HOST, heard, make_service, play_one, started

EVEN_GUILD = 6 << 22  # shard 0 of 2
ODD_GUILD = 7 << 22  # shard 1 of 2


async def _nothing_fires(service: TableService) -> None:
    assert await service.run_timers() == []
    await service.settle()
    assert heard(service).take() == []


async def _away_500_s_after_10(service: TableService, clock: Clock) -> TableInfo:
    """A table whose first seat has a 60 s clock (then 30 s of grace): 10 s into it, the gateway is lost for 500 s
    (the shard not back yet)."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=4)).table
    clock.advance(10)
    service.gateway.lost(0, 1)
    clock.advance(500)
    return table


async def test_a_clock_stops_while_the_gateway_is_away_and_the_seat_has_the_time_it_had_left(
    service: TableService, clock: Clock
) -> None:
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=4)).table
    redrawn: list[Any] = []
    service.events.subscribe(redrawn.append, (TableChanged,))
    clock.advance(10)
    service.gateway.lost(0, 1)
    clock.advance(500)  # the reminder's moment, and the grace's, pass while Discord is away: nothing fires
    await _nothing_fires(service)
    await service.gateway.back(0, 1)
    info = await service.table(table.id)
    assert info.turn_ends == clock.now + timedelta(seconds=50)  # the 50 s it had left when Discord went
    assert [event.table.turn_ends for event in redrawn] == [info.turn_ends]  # its clock is drawn again
    clock.advance(49)
    await _nothing_fires(service)
    clock.advance(1)
    [reminder] = await service.run_timers()
    assert reminder.kinds() == ["reminder"]
    assert reminder.table.turn_ends == clock.now + timedelta(seconds=30)  # the grace, whole
    await service.gateway.back(0, 1)  # a second "back" for the same return (connected, then resumed): nothing more
    assert (await service.table(table.id)).turn_ends == reminder.table.turn_ends


async def test_only_the_shard_that_lost_the_gateway_stops_its_clocks(database: Database, clock: Clock) -> None:
    service = make_service(database, clock, shards=Shards.of(2))
    try:
        tables = {}
        for guild, channel, first in ((EVEN_GUILD, 10, HOST), (ODD_GUILD, 11, 200)):
            await service.update_guild_settings(guild, turn_seconds=60, grace_seconds=30)
            tables[guild] = (
                await started(service, "oh-hell", 4, guild=guild, channel=channel, first_user=first)
            ).table.id
        service.gateway.lost(1, 2)  # the odd server's shard
        clock.advance(60)
        reminded = await service.run_timers()
        assert [outcome.table.id for outcome in reminded] == [tables[EVEN_GUILD]]
        clock.advance(30)
        await service.run_timers()
        await service.settle()
        assert {o.table.id for o in heard(service).take() if "timeout" in o.kinds()} == {tables[EVEN_GUILD]}
        await service.gateway.back(1, 2)  # 90 s away: the odd table's reminder is 60 s off again
        assert (await service.table(tables[ODD_GUILD])).turn_ends == clock.now + timedelta(seconds=60)
        clock.advance(60)
        assert tables[ODD_GUILD] in [outcome.table.id for outcome in await service.run_timers()]
    finally:
        await service.close()


async def test_a_blip_stops_the_clocks_but_moves_no_deadline(service: TableService, clock: Clock) -> None:
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=4)).table
    clock.advance(59)
    service.gateway.lost(0, 1)
    clock.advance(SHORT_OUTAGE.total_seconds() / 2)
    await _nothing_fires(service)  # the reminder's moment passed in the blip: it waits for the gateway
    await service.gateway.back(0, 1)
    assert (await service.table(table.id)).turn_ends == table.turn_ends  # unmoved, and reminded at once
    [reminder] = await service.run_timers()
    assert reminder.kinds() == ["reminder"]


async def test_a_process_starting_waits_for_its_shards_and_a_clock_that_ran_out_meanwhile_has_its_grace(
    database: Database, clock: Clock
) -> None:
    first = make_service(database, clock)
    try:
        await first.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
        reminding = (await started(first, "oh-hell", players=4, channel=501)).table
        clock.advance(20)
        later = (await started(first, "oh-hell", players=4, channel=502, first_user=300)).table
        clock.advance(50)  # the first table's reminder is sent (the other's is 10 s off); its grace runs
        [reminder] = await first.run_timers()
        assert reminder.table.id == reminding.id
    finally:
        await first.close()
    clock.advance(3600)  # the bot is down an hour: every moment passes with nobody to serve the players
    second = make_service(database, clock)
    try:
        second.gateway.starting()
        clock.advance(40)
        await _nothing_fires(second)  # not connected yet: no clock runs out
        await second.gateway.back(0, 1)
        # reminded already: the time an absent seat has (the grace), from now; not reminded yet: the reminder now
        assert (await second.table(reminding.id)).turn_ends == clock.now + timedelta(seconds=30)
        assert (await second.table(later.id)).turn_ends == clock.now
        [again] = await second.run_timers()
        assert again.table.id == later.id and again.kinds() == ["reminder"]
        assert again.table.turn_ends == clock.now + timedelta(seconds=30)
        clock.advance(29)
        await _nothing_fires(second)
        clock.advance(1)
        assert await second.run_timers() == []
        await second.settle()
        timed_out = {o.table.id for o in heard(second).take() if "timeout" in o.kinds()}
        assert timed_out == {reminding.id, later.id}  # each after its 30 s from the return, not at once
    finally:
        await second.close()


async def test_a_clock_set_during_the_start_gets_the_seconds_before_the_connection_back(
    database: Database, clock: Clock
) -> None:
    service = make_service(database, clock)
    try:
        service.gateway.starting()
        await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
        table = (await started(service, "oh-hell", players=4)).table  # an Activity's table, before Discord answers
        clock.advance(5)
        await service.gateway.back(0, 1)
        assert (await service.table(table.id)).turn_ends == table.turn_ends + timedelta(seconds=5)
    finally:
        await service.close()


def test_the_time_given_back_moves_only_the_moments_still_to_come() -> None:
    start = Clock().now
    grace, absent = timedelta(seconds=30), timedelta(seconds=45)
    at = [start + timedelta(seconds=s) for s in range(0, 400, 10)]
    outage = Outage(at[10], at[30])  # 200 s away
    assert given_back((at[12], at[15]), outage, grace, absent) == (at[32], at[35])
    assert given_back((None, at[15]), outage, grace, absent) == (None, at[35])
    assert given_back((at[9], at[15]), outage, grace, absent) == (at[9], at[35])  # its reminder was due already
    assert given_back((None, at[9]), outage, grace, absent) == (None, at[9])  # its timeout was due already
    blip = Outage(at[10], at[10] + SHORT_OUTAGE / 2)
    assert given_back((at[12], at[15]), blip, grace, absent) == (at[12], at[15])
    down = Outage(at[10], at[30], from_start=True)  # the process started at at[10], connected at at[30]
    assert given_back((at[12], at[15]), down, grace, absent) == (at[32], at[35])
    assert given_back((at[5], at[15]), down, grace, absent) == (at[30], at[30] + grace)
    assert given_back((None, at[5]), down, grace, absent) == (None, at[30] + absent)
    assert given_back((None, at[15]), down, grace, absent) == (None, at[35])


async def test_a_write_that_keeps_the_clock_while_the_time_is_given_back_keeps_the_time_too(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await _away_500_s_after_10(service, clock)
    read = repo.deadlines_on

    async def then_a_write(connection: Any, shards: Shards, without: Any = ()) -> list[Any]:
        rows = await read(connection, shards, without)
        # Discord is back: a write that keeps the clock (the table's message placed again) comes between the
        # read of the deadlines and the table's lock, and moves the clock to a new version, its moments the same
        await service.set_location(table.id, message_id=123456)
        return rows

    monkeypatch.setattr(outages.repo, "deadlines_on", then_a_write)
    await service.gateway.back(0, 1)
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=50)


async def test_a_clock_started_during_the_outage_gets_back_only_the_time_it_ran(
    service: TableService, clock: Clock
) -> None:
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=4)).table
    service.gateway.lost(0, 1)
    clock.advance(590)  # ten minutes away; then a move (on the Activity's screen, say) starts the next seat's clock
    moved = await play_one(service, await service.table(table.id), random.Random(1))
    assert moved.table.turn_ends == clock.now + timedelta(seconds=60)
    clock.advance(10)
    await service.gateway.back(0, 1)
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=60)  # not 600 s more


async def _returns_through_two_failures(service: TableService, clock: Clock, table: TableInfo) -> None:
    """The shard returns while the database fails twice (as the caller arranged): the timers pass over the shard
    between the attempts and find nothing due, and the table has the 50 s it had left when Discord went."""
    timers_while_waiting: list[list[Any]] = []

    async def wait(seconds: float) -> None:  # between attempts: the timers pass over the shard still
        clock.advance(seconds)
        timers_while_waiting.append(await service.run_timers())

    service.gateway.sleep = wait
    await service.gateway.back(0, 1)
    assert timers_while_waiting == [[], []]
    await service.settle()
    assert heard(service).take() == []
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=50)


async def test_the_database_failing_at_the_return_keeps_the_clocks_stopped_until_it_answers(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await _away_500_s_after_10(service, clock)
    read = repo.deadlines_on
    failures = [ConnectionError("the database went away with the network")] * 2

    async def failing(connection: Any, shards: Shards, without: Any = ()) -> list[Any]:
        if failures:
            raise failures.pop()
        return await read(connection, shards, without)

    monkeypatch.setattr(outages.repo, "deadlines_on", failing)
    await _returns_through_two_failures(service, clock, table)


async def test_the_database_failing_for_one_table_at_the_return_gives_that_table_its_time_when_it_answers(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the shard's return the database fails twice for one table alone (its deadline's read: a connection
    lost, a deadlock): that table is tried again, the shard's timers waiting meanwhile, and gets its time. It was
    skipped, its clock run on without the 500 s: reminded at once and played for 30 s later, though its seat's
    clicks could not arrive."""
    table = await _away_500_s_after_10(service, clock)
    read = repo.deadline_of
    failures = [ConnectionResetError("connection reset by peer")] * 2

    async def failing(connection: Any, table_id: int) -> Any:
        if table_id == table.id and failures:
            raise failures.pop()
        return await read(connection, table_id)

    monkeypatch.setattr(outages.repo, "deadline_of", failing)
    await _returns_through_two_failures(service, clock, table)


async def test_a_table_whose_log_no_longer_replays_holds_no_shard_back_at_the_return(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault of the table's own at the shard's return (its log no longer replays) is not the database's passing
    fault: no waiting for it (eight tries would hold the shard's timers two minutes in vain); it is set aside as
    troubled at once, as at any other time."""
    from bot.tables.errors import LogDoesNotReplay

    table = await _away_500_s_after_10(service, clock)
    waits: list[float] = []

    async def broken(connection: Any, table_id: int) -> Any:
        raise LogDoesNotReplay(table_id)

    async def wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(outages.repo, "deadline_of", broken)
    service.gateway.sleep = wait
    await service.gateway.back(0, 1)
    assert waits == [] and not service.gateway.paused()
    assert table.id in service.store._troubled


async def test_a_connection_noticed_quiet_late_stops_the_clocks_from_when_it_went_quiet(
    service: TableService, clock: Clock
) -> None:
    """The shard heard nothing from 10 s into the seat's 60 s: noticed 70 s later (discord.py gives up on a quiet
    connection after a minute), the seat still gets back the 50 s it had when the connection went quiet."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=4)).table
    clock.advance(40)  # (nothing fires: the reminder is due at 60 s)
    await _nothing_fires(service)
    clock.advance(40)  # 80 s in: the reminder's moment passed while nobody could know the connection was gone
    service.gateway.lost(0, 1, silent=timedelta(seconds=70))
    await _nothing_fires(service)
    clock.advance(200)
    await service.gateway.back(0, 1)
    info = await service.table(table.id)
    assert info.turn_ends == clock.now + timedelta(seconds=50)


async def test_a_quiet_connection_stops_the_clocks_before_discord_py_gives_up_and_gives_the_time_back_if_it_speaks(
    service: TableService, clock: Clock
) -> None:
    """A heartbeat unanswered (the connection still open, 46 s without a word, 10 s into the seat's 60 s): its
    clocks stop from the last word, so the reminder due meanwhile does not come; the connection speaks again 30 s
    later, and the seat has the 50 s it had when it went quiet."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=4)).table
    clock.advance(56)
    assert service.gateway.hushed(0, 1, timedelta(seconds=46))
    assert not service.gateway.hushed(0, 1, timedelta(seconds=47))  # read again a second later: stopped already
    clock.advance(30)  # the reminder's moment (60 s) passes while nothing arrives
    await _nothing_fires(service)
    assert service.gateway.spoke(0)
    assert not service.gateway.spoke(0)  # once
    await _nothing_fires(service)  # still stopped until the time is given back
    await service.gateway.back(0, 1)
    info = await service.table(table.id)
    assert info.turn_ends == clock.now + timedelta(seconds=50)


async def test_a_quiet_connection_given_up_on_is_away_from_its_last_word_and_its_return_gives_the_time(
    service: TableService, clock: Clock
) -> None:
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=4)).table
    clock.advance(56)
    assert service.gateway.hushed(0, 1, timedelta(seconds=46))  # quiet from 10 s in
    clock.advance(40)
    service.gateway.lost(0, 1, silent=timedelta(seconds=86))  # discord.py gives up and closes it
    assert not service.gateway.spoke(0)  # its next word is a new connection's: given its time at its return
    clock.advance(100)
    await _nothing_fires(service)
    await service.gateway.back(0, 1)
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=50)


async def test_a_quiet_connection_changes_nothing_where_the_clocks_are_stopped_already(
    service: TableService, clock: Clock
) -> None:
    service.gateway.starting()  # no shard has connected yet: every clock waits
    assert not service.gateway.hushed(0, 1, timedelta(seconds=50))
    assert not service.gateway.spoke(0)
    await service.gateway.back(0, 1)
    service.gateway.lost(0, 1)
    assert not service.gateway.hushed(0, 1, timedelta(seconds=50))  # away since it closed: nothing more
    assert not service.gateway.spoke(0)


async def test_a_server_out_stops_only_its_own_clocks_and_gets_its_whole_time_back_when_in(
    service: TableService, clock: Clock
) -> None:
    """Discord's outage of one server (GUILD_DELETE with ``unavailable``): its players' clicks cannot arrive, so
    its tables' clocks stop and the other servers' of the same shard run on. The shard lost and back meanwhile
    gives the server's tables nothing (they would have that time twice): when the server is in again, they get
    the whole time it was out."""
    tables = {}
    for guild, channel, first in ((EVEN_GUILD, 10, HOST), (ODD_GUILD, 11, 200)):
        await service.update_guild_settings(guild, turn_seconds=60, grace_seconds=30)
        tables[guild] = (await started(service, "oh-hell", 4, guild=guild, channel=channel, first_user=first)).table
    clock.advance(10)
    service.gateway.server_out(ODD_GUILD)
    assert service.gateway.servers_out() == {ODD_GUILD}
    clock.advance(50)
    reminded = await service.run_timers()
    assert [outcome.table.id for outcome in reminded] == [tables[EVEN_GUILD].id]  # the odd server's waits
    service.gateway.lost(0, 1)
    clock.advance(100)
    await _nothing_fires(service)
    await service.gateway.back(0, 1)  # 100 s: the even table's clock moves on by them, the odd one's not yet
    assert (await service.table(tables[EVEN_GUILD].id)).turn_ends == clock.now + timedelta(seconds=30)
    odd = tables[ODD_GUILD]
    assert (await service.table(odd.id)).turn_ends == odd.turn_ends
    clock.advance(40)
    await service.run_timers()  # (the even table's grace runs out: a computer plays for it)
    await service.settle()
    assert await service.gateway.server_in(ODD_GUILD) == 1  # out 190 s, 10 s into its 60: 50 s left from now
    assert (await service.table(odd.id)).turn_ends == clock.now + timedelta(seconds=50)
    assert service.gateway.servers_out() == frozenset()
    assert await service.gateway.server_in(ODD_GUILD) == 0  # (once)


async def test_a_server_the_bot_left_while_it_was_out_has_nothing_to_give_back(
    service: TableService, clock: Clock
) -> None:
    service.gateway.server_out(EVEN_GUILD)
    service.gateway.server_gone(EVEN_GUILD)
    assert service.gateway.servers_out() == frozenset()
    assert await service.gateway.server_in(EVEN_GUILD) == 0


async def _odd_table(service: TableService) -> TableInfo:
    """A table whose first seat has a 60 s clock, in a server of shard 0 of 1."""
    await service.update_guild_settings(ODD_GUILD, turn_seconds=60, grace_seconds=30)
    return (await started(service, "oh-hell", 4, guild=ODD_GUILD, channel=11, first_user=200)).table


async def _out_then_its_shard_lost(service: TableService, clock: Clock) -> TableInfo:
    """The odd table's server out 10 s into the seat's 60 s, its shard lost 10 s later, and 100 s of both."""
    table = await _odd_table(service)
    clock.advance(10)
    service.gateway.server_out(ODD_GUILD)
    clock.advance(10)
    service.gateway.lost(0, 1)
    clock.advance(100)
    return table


async def test_a_server_said_out_when_its_shard_returns_is_out_since_its_shard_went(
    service: TableService, clock: Clock
) -> None:
    """Discord says a server still out when a session begins or resumes (GUILD_DELETE again): out since its shard
    went away, not since then, so it loses none of the shard's outage when it is in."""
    table = await _odd_table(service)
    clock.advance(10)
    service.gateway.lost(0, 1)
    clock.advance(100)
    service.gateway.server_out(ODD_GUILD)  # told at the new session, before the shard's checks are done
    await service.gateway.back(0, 1)  # the shard's return gives it nothing
    assert (await service.table(table.id)).turn_ends == table.turn_ends
    clock.advance(80)
    await _nothing_fires(service)
    assert await service.gateway.server_in(ODD_GUILD) == 1
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=50)


async def test_a_server_in_again_before_its_shards_return_is_given_its_time_once(
    service: TableService, clock: Clock
) -> None:
    """Out from 10 s into the seat's 60 s, its shard lost 10 s later, the server in again (its GUILD_CREATE) before
    the shard's return: the shard's return gives it its time, from when the server went out, and once."""
    table = await _out_then_its_shard_lost(service, clock)
    assert await service.gateway.server_in(ODD_GUILD) == 0  # its shard is still away: left to its return
    await _nothing_fires(service)
    clock.advance(30)  # the new session's checks
    await service.gateway.back(0, 1)
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=50)
    assert service.gateway.servers_out() == frozenset() and service.gateway.paused() is None


async def test_a_server_out_again_while_its_time_is_given_back_stays_out(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await _odd_table(service)
    clock.advance(10)
    service.gateway.server_out(ODD_GUILD)
    clock.advance(30)
    read = repo.deadlines_of_server

    async def out_again_meanwhile(connection: Any, guild_id: int) -> list[Any]:
        service.gateway.server_out(guild_id)  # it flaps: out again while its clocks are given their time
        return await read(connection, guild_id)

    monkeypatch.setattr(outages.repo, "deadlines_of_server", out_again_meanwhile)
    assert await service.gateway.server_in(ODD_GUILD) == 1
    assert service.gateway.servers_out() == {ODD_GUILD}  # out again: its clocks stay stopped
    monkeypatch.setattr(outages.repo, "deadlines_of_server", read)
    clock.advance(200)
    await _nothing_fires(service)
    assert await service.gateway.server_in(ODD_GUILD) == 1
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=50)


async def test_a_server_in_again_while_its_shards_return_is_under_way_waits_for_it(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's GUILD_CREATE comes while its shard's clocks are being given their time (the server's tables left
    out as still out): the server's return waits for the shard's, then gives its tables their whole time, once."""
    table = await _out_then_its_shard_lost(service, clock)
    read = repo.deadlines_on
    server_in: list[asyncio.Task[int]] = []

    async def the_server_comes_in_meanwhile(connection: Any, shards: Shards, without: Any = ()) -> list[Any]:
        server_in.append(asyncio.create_task(service.gateway.server_in(ODD_GUILD)))
        await asyncio.sleep(0.05)  # (its return waits for this one)
        assert not server_in[0].done()
        return await read(connection, shards, without)

    monkeypatch.setattr(outages.repo, "deadlines_on", the_server_comes_in_meanwhile)
    await service.gateway.back(0, 1)
    assert await server_in[0] == 1
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=50)
    assert service.gateway.servers_out() == frozenset() and service.gateway.paused() is None
