"""The service's events as a presentation hears them, in one process and across two on PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.shards import Shards
from bot.storage.database import Database
from bot.tables.events import Event, SeatViewChanged, TableChanged, TableMovedElsewhere, TurnBegan

from .conftest import Clock
from .helpers import make_service, seated

EVEN_GUILD = 6 << 22  # shard 0 of 2


async def test_a_subscriber_reads_each_seats_view_at_the_version_it_heard_of(database: Database) -> None:
    service = make_service(database)
    heard: list[Event] = []

    async def subscriber(event: Event) -> None:
        heard.append(event)

    service.events.subscribe(subscriber)
    try:
        info = await seated(service, "oh-hell", players=3, options={"start_cards": 3})
        started = (await service.start(info.id, info.host_id, message_id=1)).table
        who = started.seats[started.to_act[0]].user_id
        assert who is not None
        outcome = await service.act(info.id, who, (await service.legal(info.id, who))[0])
        await service.events.drain()
        changes = [e for e in heard if isinstance(e, TableChanged)]
        assert [c.kinds() for c in changes] == [["started"], ["action"]]
        assert [c.version for c in changes] == sorted({c.version for c in changes})  # in commit order
        seen = {e.seat for e in heard if isinstance(e, SeatViewChanged) and e.version == outcome.table.version}
        assert seen == set(outcome.changed)
        for seat in seen:
            view = await service.view(info.id, seat)
            assert view.version == outcome.table.version and view.view == outcome.views[seat]
        began = [e for e in heard if isinstance(e, TurnBegan)]
        assert began[-1].seats == outcome.table.to_act
    finally:
        await service.close()


async def test_a_change_made_in_another_process_reaches_this_ones_subscribers(database: Database, clock: Clock) -> None:
    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process: every change is made where it is heard")
    owner = make_service(database, clock, shards=Shards.of(2, [0]), announce_every_change=True)
    other = make_service(database, clock, shards=Shards.of(2, [1]))
    heard: list[Event] = []

    async def subscriber(event: Event) -> None:
        heard.append(event)

    async def settings_changed(_settings: object) -> None:
        return None

    try:
        await other.follow_others(settings_changed)
        other.events.subscribe(subscriber, (TableMovedElsewhere,))
        info = await seated(owner, "oh-hell", players=3, options={"start_cards": 3}, guild=EVEN_GUILD)
        await owner.start(info.id, info.host_id, message_id=1)
        for _ in range(200):  # the news arrives after the commit
            if heard:
                break
            await asyncio.sleep(0.02)
        assert heard and all(e == TableMovedElsewhere(info.id, EVEN_GUILD) for e in heard)
        assert (await other.view(info.id)).version == (await owner.table(info.id)).version  # read again: current
    finally:
        await owner.close()
        await other.close()


async def test_by_default_only_a_move_at_another_shards_table_is_told(database: Database, clock: Clock) -> None:
    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process: every change is made where it is heard")
    owner = make_service(database, clock, shards=Shards.of(2, [0]))
    other = make_service(database, clock, shards=Shards.of(2, [1]))
    at_owner: list[Event] = []
    at_other: list[Event] = []

    async def owner_hears(event: Event) -> None:
        at_owner.append(event)

    async def other_hears(event: Event) -> None:
        at_other.append(event)

    async def settings_changed(_settings: object) -> None:
        return None

    try:
        for service in (owner, other):
            await service.follow_others(settings_changed)
        owner.events.subscribe(owner_hears, (TableMovedElsewhere,))
        other.events.subscribe(other_hears, (TableMovedElsewhere,))
        info = await seated(owner, "oh-hell", players=3, options={"start_cards": 3}, guild=EVEN_GUILD)
        started = (await owner.start(info.id, info.host_id, message_id=1)).table
        who = started.seats[started.to_act[0]].user_id
        assert who is not None
        await other.act(info.id, who, (await other.legal(info.id, who))[0])  # a click routed to the other
        for _ in range(200):
            if at_owner:
                break
            await asyncio.sleep(0.02)
        assert at_owner == [TableMovedElsewhere(info.id, EVEN_GUILD)]
        assert at_other == []  # the owner's own commits are not announced
    finally:
        await owner.close()
        await other.close()


async def test_a_reminder_sent_by_another_process_moves_the_clock_of_this_ones_copy(
    database: Database, clock: Clock
) -> None:
    """A reminder leaves the table's version as it was: a copy held by another process (its screens, its reads)
    went on counting to the reminder's moment instead of the end of the grace."""
    if database.backend != "postgresql":
        pytest.skip("SQLite serves one process: every reminder is sent where it is heard")
    owner = make_service(database, clock, shards=Shards.of(2, [0]))
    other = make_service(database, clock, shards=Shards.of(2, [1]))
    heard: list[Event] = []

    async def subscriber(event: Event) -> None:
        heard.append(event)

    async def settings_changed(_settings: object) -> None:
        return None

    try:
        await other.follow_others(settings_changed)
        other.events.subscribe(subscriber, (TableMovedElsewhere,))
        info = await seated(owner, "oh-hell", players=3, options={"start_cards": 3}, guild=EVEN_GUILD)
        started = (await owner.start(info.id, info.host_id, message_id=1)).table
        assert (await other.table(info.id)).turn_ends == started.turn_ends  # the other process holds a copy
        clock.advance(60)
        [reminder] = await owner.run_timers()
        for _ in range(200):  # the news arrives after the commit
            if heard:
                break
            await asyncio.sleep(0.02)
        assert heard == [TableMovedElsewhere(info.id, EVEN_GUILD)]
        assert (await other.table(info.id)).turn_ends == reminder.table.turn_ends  # the end of the grace
    finally:
        await owner.close()
        await other.close()
