"""The events bus alone: order, kinds, a failing subscriber, draining."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.tables import TableInfo, TableStatus
from bot.tables.events import Event, EventBus, LobbyChanged, TableMovedElsewhere


def lobby(table_id: int) -> LobbyChanged:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    info = TableInfo(
        table_id, 1, 2, None, None, "oh-hell", {}, None, TableStatus.LOBBY, 3, 0, (), 0, 0, now, None, None
    )
    return LobbyChanged(info)


async def test_each_subscriber_hears_every_event_in_order_and_a_failure_stops_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = EventBus()
    first: list[Event] = []
    moved: list[Event] = []

    async def failing(event: Event) -> None:
        first.append(event)
        if event.table_id == 2:
            raise RuntimeError("a subscriber's own trouble")

    async def only_moved(event: Event) -> None:
        moved.append(event)

    bus.subscribe(failing)
    bus.subscribe(only_moved, (TableMovedElsewhere,))
    events: list[Event] = [lobby(1), lobby(2), TableMovedElsewhere(3, 1), lobby(4)]
    bus.publish(*events)
    await bus.drain()
    assert first == events and moved == [TableMovedElsewhere(3, 1)]
    assert "a subscriber failed" in caplog.text
    await bus.close()
    bus.publish(lobby(5))  # nobody listens any more
    assert first == events
