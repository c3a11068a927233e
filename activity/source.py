"""What the Activity needs of the table service, and the one adapter over :class:`TableService`.

:class:`TableSource` is the narrow interface the server uses; :class:`ServiceSource` implements it
over :class:`bot.tables.TableService`. The adapter learns of changes as the chat table does, from the
service's events (``bot/tables/events.py``): every committed change of a table, whoever made it (a
card played here, a click in chat, a computer's move, a timer) is published by the service, so the
chat table moves with a card played here and a screen moves with a click in chat. A change made by
another process sharing the database arrives as ``TableMovedElsewhere``; as a last resort for a
process that does not announce every change, the versions of the watched tables are also read every
``poll`` seconds (an in-memory read for the tables this process owns), a few tables at a time so that a
screen woken meanwhile is not kept waiting. No screen waits for the poll to see a change made here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any, Protocol

from bot.games.views import View
from bot.tables import DealReview, HandSnapshot, Hint, MatchSheet, TableError, TableInfo, TableService, TrickReview
from bot.tables.events import Event, SeatViewChanged, TableMovedElsewhere

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0  # a safety net only: every change this process makes or hears of wakes the screens at once
POLL_BATCH = 20  # tables read between two turns of the event loop


class TableSource(Protocol):
    """The table service as the Activity sees it (user ids are the server's, never the page's)."""

    def subscribe(self, table_id: int) -> AsyncIterator[int]:
        """The table's version now, then each new version as the table changes (skipping none that matter:
        a screen always reads the table as it is when it wakes), and the same version again when only the
        table's clock moved (a reminder: the time to act is now the end of the grace)."""
        ...

    async def table(self, table_id: int) -> TableInfo: ...

    async def tables_in_channel(self, channel_id: int) -> list[TableInfo]: ...

    async def public(self, table_id: int) -> tuple[TableInfo, View | None]: ...

    async def hand(self, table_id: int, user_id: int) -> HandSnapshot: ...

    async def hint(self, table_id: int, user_id: int) -> Hint: ...

    async def deal_reviews(self, table_id: int) -> tuple[TableInfo, list[DealReview]]:
        """The scored deals trick by trick, as the chat's "Last deal" has them (hands only once the match is over)."""
        ...

    async def deal_end(self, table: TableInfo, public: View) -> TrickReview | None:
        """The last trick of the deal ``public`` shows the sheet of, until the new deal's first card (None: none,
        or not yet: "Last deal" may not show it), as the chat table shows it."""
        ...

    async def table_result(self, table_id: int) -> MatchSheet | None:
        """A finished table's stored match: places, rating changes and every deal's sheet."""
        ...

    async def act(self, table_id: int, user_id: int, action: str, turn: int) -> None: ...

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        game: str,
        options: dict[str, Any],
        players: int | None,
        hints: bool,
        computers: list[str],
    ) -> TableInfo:
        """A new lobby here, checked by the service as ``/play`` is (the server's default options under those
        chosen), with the host and ``computers`` seated at once; outside local mode it is posted in its channel
        by the chat table, which hears it opened (all or nothing: a refusal writes nothing)."""
        ...

    async def join(self, table_id: int, user_id: int, name: str) -> TableInfo: ...

    async def leave(self, table_id: int, user_id: int) -> TableInfo: ...

    async def add_computer(self, table_id: int, user_id: int, level: str) -> TableInfo: ...

    async def remove_computer(self, table_id: int, user_id: int, key: int) -> TableInfo: ...

    async def start(self, table_id: int, user_id: int) -> None: ...


class ServiceSource:
    """:class:`TableSource` over today's :class:`TableService` (see the module's docstring)."""

    def __init__(self, service: TableService, *, poll: float = POLL_SECONDS, local: bool = False) -> None:
        self.service = service
        self.poll = poll
        self.local = local  # local mode: a table's lobby is "posted" by being created (no channel message)
        self._versions: dict[int, int] = {}
        self._clocks: dict[int, datetime | None] = {}  # each watched table's turn_ends at its version, where known
        self._wakes: dict[int, int] = {}  # how often each watched table's screens were woken: what they follow
        self._wakers: dict[int, set[asyncio.Event]] = {}
        self._poller: asyncio.Task[None] | None = None
        self._events = service.events.subscribe(self.heard)

    # ---------------------------------------------------------------- changes

    async def heard(self, event: Event) -> None:
        """A subscriber of the service's events: every committed change wakes the screens of its table."""
        if event.table_id not in self._wakers:
            return
        if isinstance(event, TableMovedElsewhere):  # another process's write: read the version it left
            try:
                info = await self.service.table(event.table_id)
            except TableError:
                return
            self._seen(info)
        elif isinstance(event, SeatViewChanged):
            self._changed(event.table_id, event.version)
        else:  # a reminder leaves the version as it was and moves the clock
            self._seen(event.table)

    def _seen(self, table: TableInfo) -> None:
        """The table as an event or a read showed it: its screens wake for a new version, or for a new clock at
        the same version (a reminder: the time to act is now the end of the grace)."""
        if table.version == self._versions.get(table.id) and table.id in self._clocks:
            if table.turn_ends != self._clocks[table.id]:
                self._clocks[table.id] = table.turn_ends
                self._wake(table.id)
            return
        self._changed(table.id, table.version)
        if table.version == self._versions.get(table.id):
            self._clocks[table.id] = table.turn_ends

    def _changed(self, table_id: int, version: int) -> None:
        if version <= self._versions.get(table_id, -1):
            return
        self._versions[table_id] = version
        self._clocks.pop(table_id, None)  # the new version's clock is learnt with its table
        self._wake(table_id)

    def _wake(self, table_id: int) -> None:
        self._wakes[table_id] = self._wakes.get(table_id, 0) + 1
        for event in self._wakers.get(table_id, ()):
            event.set()

    async def subscribe(self, table_id: int) -> AsyncIterator[int]:
        event = asyncio.Event()
        self._wakers.setdefault(table_id, set()).add(event)
        self._start_polling()
        try:
            self._seen(await self.service.table(table_id))
            seen = -1
            while True:
                wakes = self._wakes.get(table_id, seen)
                if wakes != seen:
                    seen = wakes
                    yield self._versions[table_id]
                event.clear()
                if self._wakes.get(table_id, seen) == seen:
                    await event.wait()
        finally:
            wakers = self._wakers.get(table_id)
            if wakers is not None:
                wakers.discard(event)
                if not wakers:
                    del self._wakers[table_id]
                    for kept in (self._versions, self._clocks, self._wakes):
                        kept.pop(table_id, None)

    def _start_polling(self) -> None:
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll_forever(), name="activity-versions")

    async def _poll_forever(self) -> None:
        while self._wakers:
            await asyncio.sleep(self.poll)
            for count, table_id in enumerate(list(self._wakers), 1):
                if count % POLL_BATCH == 0:  # many tables: let the screens' own work through in between
                    await asyncio.sleep(0)
                try:
                    info = await self.service.table(table_id)
                except TableError:
                    continue
                except Exception:
                    log.exception("could not read the version of table %s", table_id)
                    continue
                self._seen(info)

    async def close(self) -> None:
        await self._events.close()
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller

    def _lobby_changed(self, table: TableInfo) -> TableInfo:
        """A lobby change made here: its screens move at once (the chat table hears the service's event)."""
        self._changed(table.id, table.version)
        return table

    # ---------------------------------------------------------------- reads

    async def table(self, table_id: int) -> TableInfo:
        return await self.service.table(table_id)

    async def tables_in_channel(self, channel_id: int) -> list[TableInfo]:
        return await self.service.tables_in_channel(channel_id)

    async def public(self, table_id: int) -> tuple[TableInfo, View | None]:
        return await self.service.snapshot(table_id)

    async def hand(self, table_id: int, user_id: int) -> HandSnapshot:
        return await self.service.hand(table_id, user_id)

    async def hint(self, table_id: int, user_id: int) -> Hint:
        return await self.service.hint(table_id, user_id)

    async def deal_reviews(self, table_id: int) -> tuple[TableInfo, list[DealReview]]:
        return await self.service.deal_reviews(table_id)

    async def deal_end(self, table: TableInfo, public: View) -> TrickReview | None:
        return await self.service.deal_end(table, public)

    async def table_result(self, table_id: int) -> MatchSheet | None:
        return await self.service.table_result(table_id)

    # ---------------------------------------------------------------- writes

    async def act(self, table_id: int, user_id: int, action: str, turn: int) -> None:
        outcome = await self.service.act(table_id, user_id, action, expected_turn=turn)
        self._changed(table_id, outcome.table.version)

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        game: str,
        options: dict[str, Any],
        players: int | None,
        hints: bool,
        computers: list[str],
    ) -> TableInfo:
        settings = await self.service.guild_settings(guild_id)
        chosen = {**settings.default_options.get(game, {}), **options}  # as /play: the server's defaults, then these
        table = await self.service.open_table(
            guild_id,
            channel_id,
            user_id,
            name,
            game,
            chosen,
            players,
            hints=hints,
            computers=computers,
            announce=not self.local,  # the chat table posts it in its channel
        )
        if self.local:  # no channel message to post: the table is shown where it was made
            await self.service.set_location(table.id, message_id=table.id)
            table = await self.service.table(table.id)
        return self._lobby_changed(table)

    async def join(self, table_id: int, user_id: int, name: str) -> TableInfo:
        return self._lobby_changed(await self.service.join(table_id, user_id, name))

    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        return self._lobby_changed(await self.service.leave(table_id, user_id))

    async def add_computer(self, table_id: int, user_id: int, level: str) -> TableInfo:
        return self._lobby_changed(await self.service.add_computer(table_id, user_id, level))

    async def remove_computer(self, table_id: int, user_id: int, key: int) -> TableInfo:
        return self._lobby_changed(await self.service.remove_computer(table_id, user_id, key))

    async def start(self, table_id: int, user_id: int) -> None:
        outcome = await self.service.start(table_id, user_id)
        self._changed(table_id, outcome.table.version)
