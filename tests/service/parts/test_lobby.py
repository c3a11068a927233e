"""The lobby part alone, on a store: seats, options, hints, the start."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.tables import BadOptions, NotAllowed, TableStatus, WrongStatus
from bot.tables.events import LobbyChanged, TableChanged
from bot.tables.lobby import Lobby
from bot.tables.store import TableStore

from ..helpers import CHANNEL, GUILD, HOST, LOBBY_MESSAGE
from .helpers import Events


async def test_a_lobby_is_seated_changed_and_started(database: Database) -> None:
    store = TableStore(database)
    lobby = Lobby(store)
    events = Events(store)
    info = await lobby.open_table(GUILD, CHANNEL, HOST, "Host", "oh-hell")
    info = await lobby.join(info.id, HOST + 1, "Ann")
    info = await lobby.add_computer(info.id, HOST, "easy")
    with pytest.raises(NotAllowed):
        await lobby.add_computer(info.id, HOST + 1)  # the host's alone
    info = await lobby.set_hints(info.id, HOST, True)
    info = await lobby.set_options(info.id, HOST, players=3)
    with pytest.raises(BadOptions):
        await lobby.set_options(info.id, HOST, players=9)
    assert info.hints and info.players == 3 and [s.computer for s in info.seats] == [False, False, True]
    heard = await events.take()
    assert all(isinstance(e, LobbyChanged) for e in heard) and len(heard) == 5
    assert heard[-1] == LobbyChanged(info)

    outcome = await lobby.start(info.id, HOST, message_id=LOBBY_MESSAGE)
    assert outcome.table.status == TableStatus.PLAYING and outcome.kinds() == ["started"]
    started = [e for e in await events.take() if isinstance(e, TableChanged)]
    assert len(started) == 1 and started[0].table == outcome.table
    with pytest.raises(WrongStatus):
        await lobby.join(info.id, HOST + 2, "Late")


async def test_the_last_person_leaving_closes_the_lobby(database: Database) -> None:
    store = TableStore(database)
    lobby = Lobby(store)
    info = await lobby.open_table(GUILD, CHANNEL, HOST, "Host", "ninety-nine")
    info = await lobby.join(info.id, HOST + 1, "Ann")
    info = await lobby.leave(info.id, HOST)
    assert info.host_id == HOST + 1 and info.status == TableStatus.LOBBY
    info = await lobby.leave(info.id, HOST + 1)
    assert info.status == TableStatus.ABANDONED


async def test_a_lobby_opened_away_from_chat_seats_its_computers_at_once_or_not_at_all(database: Database) -> None:
    store = TableStore(database)
    lobby = Lobby(store)
    events = Events(store)
    for computers, players, refused in (
        (["easy", "made-up"], None, BadOptions),  # no such level
        (["easy", "easy", "strong"], 3, NotAllowed),  # four seats at a table of three
        (["easy"] * 7, None, NotAllowed),  # more than the game seats
    ):
        with pytest.raises(refused):
            await lobby.open_table(GUILD, CHANNEL, HOST, "Host", "oh-hell", players=players, computers=computers)
    assert await events.take() == []  # nothing was opened
    info = await lobby.open_table(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", players=3, computers=["easy", "strong"], announce=True
    )
    assert [(s.computer, s.level) for s in info.seats] == [(False, None), (True, "easy"), (True, "strong")]
    assert await events.take() == [LobbyChanged(info, announce=True)]  # one event: the channel is to post it
