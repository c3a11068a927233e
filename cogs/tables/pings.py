"""Turn pings: one short line per table that mentions the people whose turn has just come.

A table edit never notifies anyone (Discord does not notify for edits), so when
a person's turn comes (after a computer's or another person's move, at a new
deal, once for everyone at simultaneous bids) a line mentioning them is posted
in the table's thread or channel, and the table's previous line is deleted: the
channel holds at most one per table. A server can turn them off in /settings.
A person who has the table open on the Activity's screen sees their turn come
there, and is not pinged (a table played on screens costs no ping at all).

Pings take their tokens from the REST budget ahead of table edits. The decision
is made again once the token is in hand: a moment the table has already moved
past (the people pinged have played) is not announced, the later one pings
whoever is on turn then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.rest_budget import Priority, RestBudget, rest_priority
from bot.tables import TableInfo, TableStatus

from ..i18n import t
from ..unreachable import Unreachable
from .publisher import MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED, THREAD_LOCKED

log = logging.getLogger(__name__)

# Discord's codes for a message refused in a thread the bot may no longer write in: no access, no Send Messages in
# Threads, the thread archived and locked (50083, as Discord answers it), or locked (160005).
THREAD_REFUSALS = (MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED, THREAD_LOCKED)


async def say_at_table(
    bot: discord.Client, unreachable: Unreachable, table: TableInfo, where: int, content: str, users: list[int]
) -> tuple[discord.Message, int] | None:
    """Post ``content`` mentioning ``users`` where the table's lines go (``where``: ``unreachable.where(table)``),
    and where it went. A thread Discord refuses it in (the bot lost Send Messages in Threads, or the thread was
    locked) is left alone for a while (:meth:`Unreachable.thread_refused`): a public table's line goes in its
    channel, where its people see it; a private table's is not said at all meanwhile (None: its channel would
    show it to everyone, and every refusal counts against the bot's limit of them)."""
    mentions = discord.AllowedMentions(users=[discord.Object(user) for user in users])
    if table.private and where == table.thread_id and unreachable.thread_closed(where):
        log.debug("table %s's private thread refused the bot a moment ago: nothing said", table.id)
        return None
    try:
        message = await bot.get_partial_messageable(where, guild_id=table.guild_id).send(
            content, allowed_mentions=mentions
        )
        return message, where
    except discord.HTTPException as refused:
        if where != table.thread_id or refused.code not in THREAD_REFUSALS:
            raise
        unreachable.thread_refused(where)
        if table.private:
            raise
        log.info("table %s's thread refused a message (%s): said in its channel", table.id, refused.code)
    channel = bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
    return await channel.send(content, allowed_mentions=mentions), table.channel_id


class OnScreen(Protocol):
    """Whether a person has the table open on a screen of the Activity (served by this process), where their
    turn is shown as it comes: they are not pinged in chat."""

    def __call__(self, table_id: int, user_id: int) -> bool: ...


def people_on_turn(table: TableInfo) -> frozenset[int]:
    """The people (not computers, not resigned seats) the table waits for now."""
    return frozenset(turns(table))


def turns(table: TableInfo) -> dict[int, tuple[int, int]]:
    """Each person on turn now, with what marks their turn: the moves their seat has made, and the others'."""
    if table.status != TableStatus.PLAYING:
        return {}
    return {
        seat.user_id: (seat.acted, table.actions - seat.acted)
        for seat in table.seats
        if seat.index in table.to_act and seat.user_id is not None and not seat.resigned
    }


def turns_come(before: dict[int, tuple[int, int]], now: dict[int, tuple[int, int]]) -> frozenset[int]:
    """The people whose turn has come since ``before``: not on turn then, or on turn again since, having moved
    and others having moved after them (a moment in between may never have been seen: outcomes can arrive out
    of order). Moving twice in a row (a kitty's discard, then a call) or others bidding at the same time is
    the same turn going on."""
    return frozenset(
        user
        for user, (acted, others) in now.items()
        if user not in before or (before[user][0] != acted and before[user][1] != others)
    )


class TurnPings:
    """What each table last pinged, and the line that did it."""

    def __init__(
        self,
        bot: discord.Client,
        enabled: Callable[[int], Awaitable[bool]],
        budget: RestBudget | None = None,
        on_screen: OnScreen | None = None,
        unreachable: Unreachable | None = None,
    ) -> None:
        self.bot = bot
        # servers left, channels and threads deleted, tables refused a moment ago: no ping goes there
        self.unreachable = unreachable or Unreachable()
        self.enabled = enabled  # whether a server wants them
        self.on_screen = on_screen  # who has the table open on the Activity's screen (sees their turn there)
        self.budget = budget  # the bot's REST budget: a ping waits for its token before it decides what to say
        self.newest: dict[int, int] = {}  # table -> the latest action count an update was asked for
        self.owed: dict[int, frozenset[int]] = {}  # table -> people whose turn came and who were not pinged yet
        self.waiting: dict[int, dict[int, tuple[int, int]]] = {}  # table -> who was on turn when last seen
        self.seen: dict[int, int] = {}  # table -> the action count last seen (outcomes may come out of order)
        self.lines: dict[int, discord.PartialMessage] = {}  # table -> its ping line
        self.placed: dict[int, tuple[int, int]] = {}  # table -> where its ping line is: (server, channel or thread)
        self._locks: dict[int, asyncio.Lock] = {}

    async def update(self, table: TableInfo, locale: Any) -> None:
        """Ping the people whose turn has come since the table was last seen; forget a closed table.
        The line and the removal of the last one go before table edits in the REST budget.

        A table in play whose message is not posted yet (a tournament's round, started before its tables are
        posted one by one) is not pinged: its thread does not exist yet, so the line would land in the channel,
        and the table's own first line in its thread mentions everyone seated. Its turns count from the first
        moment seen once it is placed."""
        if table.is_open and table.status == TableStatus.PLAYING and table.message_id is None:
            return
        self.newest[table.id] = max(self.newest.get(table.id, 0), table.actions)
        try:
            with rest_priority(Priority.PING):
                await self._update(table, locale)
        except Exception:  # a ping is a courtesy: never let it break what shows the table
            log.exception("could not ping the turn at table %s", table.id)

    async def _update(self, table: TableInfo, locale: Any) -> None:
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            if table.actions < self.seen.get(table.id, 0):
                return  # an older moment of the table than one already handled
            self.seen[table.id] = table.actions
            on_turn = turns(table)
            people = frozenset(on_turn)
            new = turns_come(self.waiting.get(table.id, {}), on_turn)
            self.waiting[table.id] = on_turn
            # Owed a ping: whose turn came at this moment or at one not announced yet, and is still on turn,
            # and does not have the table in front of them on a screen of the Activity.
            owed = (self.owed.get(table.id, frozenset()) & people) | new
            if self.on_screen is not None:
                owed = frozenset(user for user in owed if not self.on_screen(table.id, user))
            self.owed[table.id] = owed
            where = self.unreachable.where(table)  # its thread, its channel if the thread is gone; None: all gone
            if table.is_open and self.unreachable.between_threads(table):
                return  # a private table between two private threads: pinged there once it has its new one
            if not table.is_open or where is None:
                if where is None:  # its server or channel is gone, and the line with it: nothing to delete
                    self.lines.pop(table.id, None)
                    self.placed.pop(table.id, None)
                await self._delete(table.id)
                for kept in (self.waiting, self.seen, self.newest, self.owed, self._locks):
                    kept.pop(table.id, None)
                return
            if not owed or self._outrun(table):
                return  # nobody to ping, or a later moment will
            if self.unreachable.held_back(table.id):
                return  # Discord refused the table's edit a moment ago: the channel is closed to the bot
            if not await self.enabled(table.guild_id):
                self.owed.pop(table.id, None)  # the server wants no pings: none is owed
                return
            order = [seat.user_id for seat in table.seats if seat.user_id in owed]
            mentions = " ".join(f"<@{user}>" for user in order)
            async with self.token():
                if self._outrun(table):
                    return  # the table moved on while this waited for the budget: the later moment pings
                if not await self.enabled(table.guild_id):  # turned off while this waited for the budget
                    self.owed.pop(table.id, None)
                    return
                self.owed.pop(table.id, None)
                try:
                    said = await say_at_table(
                        self.bot, self.unreachable, table, where, t(locale, "turn.ping", who=mentions), order
                    )
                except discord.HTTPException:
                    log.warning("could not ping the turn at table %s", table.id)
                    return
                if said is None:
                    return  # a private thread that refused the bot a moment ago
                message, where = said
            await self._delete(table.id)
            channel = self.bot.get_partial_messageable(where, guild_id=table.guild_id)
            self.lines[table.id] = channel.get_partial_message(message.id)
            self.placed[table.id] = (table.guild_id, where)

    def _outrun(self, table: TableInfo) -> bool:
        """A later moment of the table is queued behind this one: it will ping whoever is owed one then."""
        return table.actions < self.newest.get(table.id, 0)

    def token(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A ping's token from the REST budget (ahead of table edits), held while what to say is decided again."""
        if self.budget is None:
            return contextlib.nullcontext()
        return self.budget.reserved(Priority.PING)

    async def _delete(self, table_id: int) -> None:
        line = self.lines.pop(table_id, None)
        if line is not None and not self._gone(table_id):
            with contextlib.suppress(discord.HTTPException):
                await line.delete()

    def _gone(self, table_id: int) -> bool:
        """Whether a table's ping line is where nothing can be deleted any more: a server left, a channel or thread
        deleted."""
        guild_id, channel_id = self.placed.pop(table_id, (None, None))
        return channel_id in self.unreachable.channels or guild_id in self.unreachable.servers
