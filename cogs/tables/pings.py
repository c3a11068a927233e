"""Turn pings: one short line per table that mentions the people whose turn has just come.

A table edit never notifies anyone (Discord does not notify for edits), so when
a person's turn comes (after a computer's or another person's move, at a new
deal, once for everyone at simultaneous bids) a line mentioning them is posted
in the table's thread or channel, and the table's previous line is deleted: the
channel holds at most one per table. A server can turn them off in /settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.tables import TableInfo, TableStatus

from ..i18n import t

log = logging.getLogger(__name__)


def people_on_turn(table: TableInfo) -> frozenset[int]:
    """The people (not computers, not resigned seats) the table waits for now."""
    if table.status != TableStatus.PLAYING:
        return frozenset()
    return frozenset(
        seat.user_id
        for seat in table.seats
        if seat.index in table.to_act and seat.user_id is not None and not seat.resigned
    )


class TurnPings:
    """What each table last pinged, and the line that did it."""

    def __init__(self, bot: discord.Client, enabled: Callable[[int], Awaitable[bool]]) -> None:
        self.bot = bot
        self.enabled = enabled  # whether a server wants them
        self.waiting: dict[int, frozenset[int]] = {}  # table -> the people on turn when last seen
        self.seen: dict[int, int] = {}  # table -> the action count last seen (outcomes may come out of order)
        self.lines: dict[int, discord.PartialMessage] = {}  # table -> its ping line
        self._locks: dict[int, asyncio.Lock] = {}

    async def update(self, table: TableInfo, locale: Any) -> None:
        """Ping the people whose turn has come since the table was last seen; forget a closed table."""
        try:
            await self._update(table, locale)
        except Exception:  # a ping is a courtesy: never let it break what shows the table
            log.exception("could not ping the turn at table %s", table.id)

    async def _update(self, table: TableInfo, locale: Any) -> None:
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            if table.actions < self.seen.get(table.id, 0):
                return  # an older moment of the table than one already handled
            self.seen[table.id] = table.actions
            people = people_on_turn(table)
            new = people - self.waiting.get(table.id, frozenset())
            self.waiting[table.id] = people
            if not table.is_open:
                await self._delete(table.id)
                self.waiting.pop(table.id, None)
                self.seen.pop(table.id, None)
                self._locks.pop(table.id, None)
                return
            if not new or not await self.enabled(table.guild_id):
                return
            order = [seat.user_id for seat in table.seats if seat.user_id in new]
            mentions = " ".join(f"<@{user}>" for user in order)
            channel = self.bot.get_partial_messageable(table.thread_id or table.channel_id, guild_id=table.guild_id)
            try:
                message = await channel.send(
                    t(locale, "turn.ping", who=mentions),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in order]),
                )
            except discord.HTTPException:
                log.warning("could not ping the turn at table %s", table.id)
                return
            await self._delete(table.id)
            self.lines[table.id] = channel.get_partial_message(message.id)

    async def _delete(self, table_id: int) -> None:
        line = self.lines.pop(table_id, None)
        if line is not None:
            with contextlib.suppress(discord.HTTPException):
                await line.delete()
