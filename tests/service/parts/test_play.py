"""The play part alone, on a store (a lobby on the same store seats the table first)."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.tables import NotAllowed, Outcome, StaleAction
from bot.tables.events import MatchEnded, SeatViewChanged, TableChanged
from bot.tables.lobby import Lobby
from bot.tables.play import Play
from bot.tables.store import TableStore
from bot.tables.thinking import InProcessThinker

from ..helpers import HOST, LOBBY_MESSAGE, SAMPLES, no_pause
from .helpers import Events, lobby_of, started_table


async def test_an_action_is_committed_published_and_refused_when_stale(database: Database) -> None:
    store = TableStore(database)
    play = Play(store, thinker=InProcessThinker(samples=SAMPLES), sleep=no_pause)
    table_id = await started_table(store)
    events = Events(store)
    legal = (await store.get(table_id)).state.legal(0)  # type: ignore[union-attr]
    outcome = await play.act(table_id, HOST, legal[0], expected_turn=0)
    assert outcome.actor == 0 and outcome.hand is not None and outcome.hand.seat.acted == 1
    heard = await events.take()
    assert isinstance(heard[0], TableChanged) and heard[0].kinds() == ["action"]
    assert {e.seat for e in heard if isinstance(e, SeatViewChanged)} == set(outcome.changed)
    with pytest.raises(StaleAction):
        await play.act(table_id, HOST, legal[0], expected_turn=0)  # a click from before its own action
    with pytest.raises(NotAllowed):
        await play.act(table_id, HOST, legal[0])  # its bid is made: not its turn now
    await play.close()


async def test_computers_play_on_and_a_resignation_ends_the_match(database: Database) -> None:
    store = TableStore(database)
    play = Play(store, thinker=InProcessThinker(samples=SAMPLES), sleep=no_pause)
    heard: list[Outcome] = []

    async def listener(outcome: Outcome) -> None:
        heard.append(outcome)

    play.listen(listener)
    table_id = await lobby_of(store, 2, "oh-hell")
    lobby = Lobby(store)
    await lobby.add_computer(table_id, HOST, "easy")
    await lobby.start(table_id, HOST, message_id=LOBBY_MESSAGE)
    events = Events(store)
    await play.settle(table_id)
    assert all(o.table.id == table_id for o in heard)
    outcome = await play.resign(table_id, HOST)  # one side of people is left: the match ends
    await play.settle(table_id)
    assert outcome.table.status == "finished" and "match_over" in outcome.kinds()
    ended = [e for e in await events.take() if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].record is not None and ended[0].record["match_id"] > 0
    await play.close()
