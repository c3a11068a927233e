"""The store alone: a table's lock, its versioned writes, and the events a commit publishes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.storage import repository
from bot.storage.database import Database
from bot.tables import StaleAction, TableNotFound
from bot.tables.events import LobbyChanged, MatchEnded, SeatViewChanged, TableChanged, TableMovedElsewhere, TurnBegan
from bot.tables.live import Step
from bot.tables.store import TableStore, nothing_more

from .helpers import Events, lobby_of, started_table


async def test_a_write_bumps_the_version_and_a_stale_one_is_refused(database: Database) -> None:
    store = TableStore(database)
    table_id = await lobby_of(store, 1)
    async with store.locked(table_id) as live:
        before = live.version
        await store.write(live, nothing_more, hints=True)
        assert live.version == before + 1
        live.version -= 1  # as if another process had written meanwhile
        with pytest.raises(StaleAction):
            await store.write(live, nothing_more, hints=False)
    assert store.peek(table_id) is None  # forgotten: it is read again from the database
    assert (await store.get(table_id)).version == before + 1


async def test_an_unknown_table_is_not_found(database: Database) -> None:
    store = TableStore(database)
    for table_id in (1, 0, 2**80):
        with pytest.raises(TableNotFound):
            await store.get(table_id)


async def test_a_commit_publishes_the_change_in_order_with_the_seats_it_concerns(database: Database) -> None:
    store = TableStore(database)
    table_id = await lobby_of(store, 3)
    events = Events(store)
    async with store.locked(table_id) as live:  # the start, as the lobby commits it
        for position, seat in enumerate(live.seats):
            seat.position = position
        live.status, live.started_at, live.message_id = "playing", store.clock(), 1
        live.begin()
        await store.commit(live, Step(live, store.clock()), actor=None, positions=True)
    started = await events.take()
    changed = [e for e in started if isinstance(e, TableChanged)]
    assert len(changed) == 1 and changed[0].table.status == "playing"
    assert {e.seat for e in started if isinstance(e, SeatViewChanged)} == {0, 1, 2}
    began = [e for e in started if isinstance(e, TurnBegan)]
    assert len(began) == 1 and set(began[0].seats) == {0, 1, 2}  # Ninety-Nine's bids are simultaneous

    async with store.locked(table_id) as live:
        assert live.state is not None
        step = Step(live, store.clock())
        step.apply(0, live.state.legal(0)[0], "player")
        await store.commit(live, step, actor=0)
    moved = await events.take()
    first = moved[0]
    assert isinstance(first, TableChanged) and first.version == live.version
    assert not [e for e in moved if isinstance(e, TurnBegan)]  # seats 1 and 2 were to act already

    async with store.locked(table_id) as live:
        step = Step(live, store.clock())
        step.abandon = True
        await store.commit(live, step, actor=None, reason="abandoned")
    ended = [e for e in await events.take() if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].record is None and ended[0].reason == "abandoned"


async def test_news_from_another_process_reaches_subscribers_once(database: Database) -> None:
    store = TableStore(database)
    table_id = await started_table(store)
    events = Events(store)
    version = (await store.get(table_id)).version
    await store.moved_elsewhere(table_id, 1, version)  # what this copy has already: no news
    assert await events.take() == []
    await store.moved_elsewhere(table_id, 1, version + 1)
    assert await events.take() == [TableMovedElsewhere(table_id, 1)]


async def test_news_heard_while_an_older_read_is_under_way_leaves_the_copy_current(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two pieces of news close together: the read the first one started ends after the second commit. The copy
    it leaves is a version behind; the second piece of news must not keep it (nothing else would come)."""
    here, elsewhere = TableStore(database), TableStore(database)  # two processes on one database
    table_id = await started_table(elsewhere)
    events = Events(here)
    read, release = asyncio.Event(), asyncio.Event()
    load = repository.load_table

    async def slow_load(connection: Any, wanted: int) -> Any:
        stored = await load(connection, wanted)
        if not read.is_set():  # the first read: done, then held until the second commit and its news
            read.set()
            await release.wait()
        return stored

    monkeypatch.setattr(repository, "load_table", slow_load)
    async with elsewhere.locked(table_id) as live:
        await elsewhere.write(live, nothing_more, hints=True)
    first = asyncio.create_task(here.moved_elsewhere(table_id, 1, live.version))
    await read.wait()
    async with elsewhere.locked(table_id) as live:
        await elsewhere.write(live, nothing_more, hints=False)
    second = asyncio.create_task(here.moved_elsewhere(table_id, 1, live.version))
    await asyncio.sleep(0.05)  # the second piece of news waits for the first read
    release.set()
    await asyncio.gather(first, second)
    copy = here.peek(table_id)
    assert copy is not None and copy.version == live.version and copy.hints is False
    assert await events.take() == [TableMovedElsewhere(table_id, 1)] * 2


async def test_lobby_changes_are_events_too(database: Database) -> None:
    store = TableStore(database)
    events = Events(store)
    await lobby_of(store, 2)
    seen = await events.take()
    assert [type(e) for e in seen] == [LobbyChanged, LobbyChanged]
    assert [len(e.table.seats) for e in seen if isinstance(e, LobbyChanged)] == [1, 2]
