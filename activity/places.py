"""The open tables of each place (a server's channel, or a local room) that screens are waiting in.

A screen with no table yet (the lobby form, or a list of the place's tables to choose from) looks for a table
made meanwhile, in another tab or in chat. The place's tables are read once a second for every screen
waiting there together, not once per screen: however many screens wait in one place, it costs one read a
second, and none once the last of them has its table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from bot.tables import TableInfo

from .source import TableSource

log = logging.getLogger(__name__)

IDLE_POLL = 1.0  # seconds between two reads of a place's tables while screens wait there
STOP_WAIT = 5.0  # seconds a screen's end waits for its place's read under way to stop


def in_place(table: TableInfo, guild_id: int, channel_id: int) -> bool:
    """A screen only ever shows the tables of its own place (its instance's channel or thread, or its room)."""
    return table.guild_id == guild_id and channel_id in (table.channel_id, table.thread_id)


class Place:
    """One place's open tables, as last read, and a count of the reads so far (a waiter's bookmark)."""

    def __init__(self, source: TableSource, guild_id: int, channel_id: int) -> None:
        self.source, self.guild_id, self.channel_id = source, guild_id, channel_id
        self.tables: list[TableInfo] = []
        self.reads = 0
        self.watchers = 0
        # Set when the read under way is done, then replaced by the next one's (an Event, not a Condition: no
        # lock for a cancelled screen to be left holding, or waiting for, as the server stops).
        self._read = asyncio.Event()
        self._wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def now(self) -> int:
        """A bookmark: the next :meth:`after` of it waits for a read that is done after this (a screen that
        just came asks for one at once, rather than wait out the second)."""
        self._wake.set()
        return self.reads

    async def after(self, seen: int) -> tuple[int, list[TableInfo]]:
        """The place's tables once read after bookmark ``seen``, and the new bookmark."""
        while self.reads <= seen:
            await self._read.wait()
        return self.reads, self.tables

    async def run(self, poll: float) -> None:
        while True:
            self._wake.clear()
            try:
                tables = await self.source.tables_in_channel(self.channel_id)
            except Exception as error:  # the database away a moment: the screens keep the last list
                log.warning("could not read the tables of channel %s (%r)", self.channel_id, error)
            else:
                self.tables = [t for t in tables if in_place(t, self.guild_id, self.channel_id)]
            self.reads += 1
            done, self._read = self._read, asyncio.Event()
            done.set()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(poll):
                    await self._wake.wait()


class Places:
    def __init__(self, source: TableSource, poll: float = IDLE_POLL) -> None:
        self.source, self.poll = source, poll
        self._places: dict[tuple[int, int], Place] = {}

    def __len__(self) -> int:
        """How many places are being read (each once a second)."""
        return len(self._places)

    def get(self, guild_id: int, channel_id: int) -> Place | None:
        return self._places.get((guild_id, channel_id))

    @contextlib.asynccontextmanager
    async def watching(self, guild_id: int, channel_id: int) -> AsyncIterator[Place]:
        """The place, read for as long as some screen is in this block."""
        key = (guild_id, channel_id)
        place = self._places.get(key)
        if place is None:
            place = self._places[key] = Place(self.source, guild_id, channel_id)
            place.task = asyncio.create_task(place.run(self.poll), name=f"place-{guild_id}-{channel_id}")
        place.watchers += 1
        try:
            yield place
        finally:
            place.watchers -= 1
            if place.watchers == 0:
                del self._places[key]
                if place.task is not None:  # ended before the screen is: its read never outlives the database
                    place.task.cancel()
                    await asyncio.wait({place.task}, timeout=STOP_WAIT)  # bounded: a stop never hangs on it
