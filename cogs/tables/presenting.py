"""The chat table as a subscriber to the service's events: whatever changed a table (a click here, a
computer's move, a timer), its message is edited (coalesced), the people now on turn are pinged,
reminders (to those still on turn when the post goes) and timeouts are announced, and the hands whose turn came
or went are redrawn.

A lobby changed anywhere has its message edited too, coalesced, and not at all when the click in chat
that changed it redrew it in place already (the publisher compares versions); a lobby opened on an
Activity's screen is posted in its channel from here. A table moved on by another process is shown by
that process (it handled the click)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.rest_budget import Priority, rest_priority
from bot.tables import TableError, TableInfo, TableStatus
from bot.tables.events import Event, LobbyChanged, Reminded, TableChanged, TimedOut

from ..i18n import t
from ..unreachable import Unreachable
from .hand_messages import Hands
from .pings import TurnPings, say_at_table
from .publisher import Publisher
from .render import seat_name
from .working import Work

log = logging.getLogger(__name__)

HEARD = (TableChanged, LobbyChanged, Reminded, TimedOut)  # the events the chat table shows


def still_on_turn(then: TableInfo, now: TableInfo, seats: tuple[int, ...]) -> list[int]:
    """Those of ``seats``, on turn at the moment ``then``, that are still on turn ``now`` and have not moved since."""
    if now.status != TableStatus.PLAYING:
        return []
    acted = {seat.index: seat.acted for seat in then.seats}
    return [
        seat.index
        for seat in now.seats
        if seat.index in seats and seat.index in now.to_act and seat.acted == acted.get(seat.index)
    ]


class Presenter:
    """Shows each event the chat table hears."""

    def __init__(
        self,
        bot: discord.Client,
        publisher: Publisher,
        pings: TurnPings,
        hands: Hands,
        work: Work,
        locale_of: Callable[[int], Awaitable[str]],
        unreachable: Unreachable | None = None,
    ) -> None:
        self.bot = bot
        self.unreachable = unreachable or Unreachable()  # servers left, channels deleted: nothing said there
        self.publisher = publisher
        self.pings = pings
        self.hands = hands
        self.work = work
        self.locale_of = locale_of

    async def on_event(self, event: Event) -> None:
        if isinstance(event, TableChanged):
            await self.table_changed(event.table)
        elif isinstance(event, LobbyChanged):
            if event.table.message_id is not None:
                self.publisher.touch(event.table.id)
            elif event.announce:  # opened on an Activity's screen: posted here, as /play posts its lobby
                self.work.in_background(self.publisher.post(event.table.id))
        elif isinstance(event, Reminded):
            await self.table_changed(event.table)  # its clock now counts the grace
            locale = await self.locale_of(event.table.guild_id)
            self.work.in_background(self._remind(event, locale))
        elif isinstance(event, TimedOut):
            table, locale = event.table, await self.locale_of(event.table.guild_id)
            name = seat_name(table, event.seat, locale)
            self.work.in_background(self._announce(table, locale, "turn.timeout", seats=[event.seat], name=name))

    async def table_changed(self, table: TableInfo) -> None:
        """Show what an action, a start or the service itself changed: the table, pings, hands that now differ."""
        self.publisher.touch(table.id)
        locale = await self.locale_of(table.guild_id)
        self.work.in_background(self.pings.update(table, locale))
        self.hands.table_changed(table)

    async def _remind(self, event: Reminded, locale: Any) -> None:
        """Remind the seats on turn, as turn pings are said: decided again once the token is in hand, so a seat
        that has moved meanwhile (its click came while the reminder waited) is not told it is its turn."""
        async with self.pings.token():
            try:
                now = await self.hands.service.table(event.table.id)
            except TableError:
                return  # gone meanwhile
            seats = still_on_turn(event.table, now, event.seats)
            await self._announce(now, locale, "turn.reminder", seats=seats)

    async def _announce(self, table: TableInfo, locale: Any, key: str, *, seats: list[int], **params: Any) -> None:
        """A short message in the table's thread (or channel) that pings the people concerned (a reminder, a
        timeout): it goes before table edits in the REST budget."""
        users = [s.user_id for s in table.seats if s.index in seats and s.user_id is not None]
        if not users:
            return
        mentions = " ".join(f"<@{user}>" for user in users)
        where = self.unreachable.where(table)
        if where is None or self.unreachable.held_back(table.id):
            return  # the server or channel is gone, or closed to the bot a moment ago
        try:
            with rest_priority(Priority.PING):
                await say_at_table(
                    self.bot, self.unreachable, table, where, t(locale, key, who=mentions, **params), users
                )
        except discord.HTTPException:
            log.warning("could not post to the channel of table %s", table.id)
