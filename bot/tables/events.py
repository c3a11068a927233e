"""What leaves the table service: a typed stream of events that every presentation subscribes to.

A change is committed first, then published: the chat table (``cogs/tables``) and
any other presentation (a web page over WebSockets) hear the same events and read
what they show from the service (``TableReads.view(table, seat)``: the public view
with ``None``, a seat's own view otherwise, each with the table's version, which only
ever grows). Events carry no views: a subscriber reads the views it shows, so a
hidden card never travels where nobody asked for it.

Publishing never waits for a subscriber: each subscription has its own queue and
task, and hears the events in the order they were published (the order of the
commits of one table). A subscriber that fails on an event is logged and goes on
with the next.

Events from another process (several processes on one PostgreSQL database) arrive
as :class:`TableMovedElsewhere`: "this table changed, read it again".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from .records import Outcome, TableInfo

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableChanged:
    """A change this process committed at a table in play or closing: a start, a move (a person's, a
    computer's, a timeout's), a resignation, an abandon. ``happened`` lists what the change was, as the
    service's event dicts (``Outcome.events``); ``changed`` the seats whose own view changed."""

    table: TableInfo
    happened: tuple[dict[str, Any], ...]
    changed: tuple[int, ...] = ()
    actor: int | None = None

    @property
    def table_id(self) -> int:
        return self.table.id

    @property
    def version(self) -> int:
        return self.table.version

    def kinds(self) -> list[str]:
        return [event["kind"] for event in self.happened]


@dataclass(frozen=True)
class SeatViewChanged:
    """What one seat may see changed (read it with ``view(table_id, seat)``)."""

    table_id: int
    seat: int
    user_id: int | None  # None: a computer's seat
    version: int


@dataclass(frozen=True)
class TurnBegan:
    """These seats are now to act (they were not before the change)."""

    table: TableInfo
    seats: tuple[int, ...]

    @property
    def table_id(self) -> int:
        return self.table.id


@dataclass(frozen=True)
class MatchEnded:
    """The match is over: ``finished`` with its record (``match_id``, ``winners``, ``placements``,
    ``ratings``, ``rated``), or ``abandoned`` (``reason``)."""

    table: TableInfo
    record: dict[str, Any] | None
    reason: str | None = None  # why it was abandoned

    @property
    def table_id(self) -> int:
        return self.table.id


@dataclass(frozen=True)
class LobbyChanged:
    """A lobby's seats, options or hints changed, or it closed (its last person left). ``announce``: a lobby
    just opened away from its channel (on an Activity's screen), which the channel's presentation posts."""

    table: TableInfo
    announce: bool = False

    @property
    def table_id(self) -> int:
        return self.table.id


@dataclass(frozen=True)
class Reminded:
    """The seats on turn were reminded; at ``act_at`` the computer plays for them."""

    table: TableInfo
    seats: tuple[int, ...]
    act_at: datetime

    @property
    def table_id(self) -> int:
        return self.table.id


@dataclass(frozen=True)
class TimedOut:
    """A person's time ran out: the computer played ``action`` for their seat."""

    table: TableInfo
    seat: int
    action: str

    @property
    def table_id(self) -> int:
        return self.table.id


@dataclass(frozen=True)
class TableMovedElsewhere:
    """Another process sharing the database changed this table (read it again to see how)."""

    table_id: int
    guild_id: int


Event = (
    TableChanged | SeatViewChanged | TurnBegan | MatchEnded | LobbyChanged | Reminded | TimedOut | TableMovedElsewhere
)


class Subscriber(Protocol):
    """Hears every event published after it subscribed, one at a time, in order."""

    async def __call__(self, event: Event) -> None: ...


def events_of(outcome: Outcome, before: tuple[int, ...] = ()) -> list[Event]:
    """The events of one committed change (``before``: the seats that were to act before it)."""
    table = outcome.table
    out: list[Event] = [TableChanged(table, outcome.events, outcome.changed, outcome.actor)]
    seats = {seat.index: seat.user_id for seat in table.seats}
    out += [SeatViewChanged(table.id, seat, seats.get(seat), table.version) for seat in outcome.changed]
    out += [TimedOut(table, event["seat"], event["action"]) for event in outcome.events if event["kind"] == "timeout"]
    began = tuple(seat for seat in table.to_act if seat not in before)
    if began:
        out.append(TurnBegan(table, began))
    for event in outcome.events:
        if event["kind"] == "match_over":
            out.append(MatchEnded(table, {k: v for k, v in event.items() if k != "kind"}))
        elif event["kind"] == "abandoned":
            out.append(MatchEnded(table, None, event.get("reason")))
    return out


class Subscription:
    """One subscriber's queue and the task that hands it each event."""

    def __init__(self, bus: EventBus, subscriber: Subscriber, kinds: tuple[type, ...] | None) -> None:
        self.bus = bus
        self.subscriber = subscriber
        self.kinds = kinds
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def put(self, event: Event) -> None:
        if self.kinds is not None and not isinstance(event, self.kinds):
            return
        self.queue.put_nowait(event)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="table-events")

    async def _run(self) -> None:
        while True:
            event = await self.queue.get()
            try:
                await self.subscriber(event)
            except Exception:
                log.exception("a subscriber failed on %s of table %s", type(event).__name__, event.table_id)
            finally:
                self.queue.task_done()

    async def drain(self) -> None:
        await self.queue.join()

    async def close(self) -> None:
        self.bus.unsubscribe(self)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


class EventBus:
    """The service's events, handed to every subscription (publishing never waits for one)."""

    def __init__(self) -> None:
        self._subscriptions: list[Subscription] = []

    def subscribe(self, subscriber: Subscriber, kinds: tuple[type, ...] | None = None) -> Subscription:
        """Hear every event from now on (or only those of ``kinds``)."""
        subscription = Subscription(self, subscriber, kinds)
        self._subscriptions.append(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        if subscription in self._subscriptions:
            self._subscriptions.remove(subscription)

    def publish(self, *events: Event) -> None:
        for subscription in list(self._subscriptions):
            for event in events:
                subscription.put(event)

    async def drain(self) -> None:
        """Wait until every subscriber has handled every event published so far."""
        for subscription in list(self._subscriptions):
            await subscription.drain()

    async def close(self) -> None:
        for subscription in list(self._subscriptions):
            await subscription.close()
