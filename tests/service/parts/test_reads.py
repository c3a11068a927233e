"""The reads of one table alone, on a store: views with their versions, a seat's hand."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.tables import NotAllowed, WrongStatus
from bot.tables.lobby import Lobby
from bot.tables.reads import TableReads
from bot.tables.store import TableStore

from ..helpers import CHANNEL, HOST, LOBBY_MESSAGE
from .helpers import lobby_of, started_table


async def test_views_carry_the_version_and_only_what_the_seat_may_see(database: Database) -> None:
    store = TableStore(database)
    reads = TableReads(store)
    lobby_id = await lobby_of(store, 3, channel=CHANNEL + 1)
    with pytest.raises(WrongStatus):
        await reads.view(lobby_id)
    table_id = await started_table(store)
    public = await reads.view(table_id)
    mine = await reads.view(table_id, 0)
    assert public.seat is None and public.version == mine.version == (await reads.table(table_id)).version
    assert "hand" not in public.view or not public.view["hand"]
    assert mine.view["hand"] and mine.view == (await reads.hand(table_id, HOST)).view
    with pytest.raises(NotAllowed):
        await reads.view(table_id, 7)
    assert await reads.legal(table_id, HOST) == (await reads.hand(table_id, HOST)).legal
    with pytest.raises(NotAllowed):
        await reads.hand(table_id, 999)
    here = await reads.table_in_channel(CHANNEL)
    assert here is not None and here.id == table_id
    assert (await reads.snapshot(table_id))[1] == public.view


async def test_a_computers_view_is_read_only_when_asked_for(database: Database) -> None:
    store = TableStore(database)
    reads = TableReads(store)
    table_id = await lobby_of(store, 2)
    await Lobby(store).add_computer(table_id, HOST, "easy")
    await Lobby(store).start(table_id, HOST, message_id=LOBBY_MESSAGE)
    live = store.peek(table_id)
    assert live is not None and set(live.views) == {0, 1}  # the people's seats only
    computer = await reads.view(table_id, 2)
    assert live.state is not None and computer.view == live.state.view(2) and computer.view["hand"]
