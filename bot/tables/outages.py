"""Turn clocks that stop while Discord cannot reach the bot.

People play through Discord: while a shard has lost Discord's gateway, the clicks of its servers' players
never arrive, so their turn timers must not run out and hand their turns to the computer. The bot's
presentation says when a shard loses the gateway and when it is back (:meth:`GatewayClocks.lost`,
:meth:`GatewayClocks.back`); meanwhile the turn timers pass over the tables of that shard's servers (no
reminder, no timeout), and once it is back every clock of those tables gets back the time Discord was away:
a deadline not yet past when the gateway went is moved on by the time its clock ran during the outage (the
outage's length, or for a clock started meanwhile after a computer's move, the time since), so each seat has the
time it had left. A blip shorter than :data:`SHORT_OUTAGE` (a resumed session) moves nothing. The shard stays
paused until every clock has its time, the database tried again if it does not answer.

A connection can also go quiet without closing (a network that drops its packets): discord.py gives up on it only
after a minute without a word. The presentation says so sooner, once a heartbeat went unanswered
(:meth:`GatewayClocks.hushed`): the shard's clocks stop from Discord's last word, and get that time back if it
speaks again (:meth:`GatewayClocks.spoke`) or when it is back after discord.py gave up on it, so a turn timer does
not run out for people whose clicks could not arrive.

A process that starts has every shard away until it first connects (:meth:`GatewayClocks.starting`). Its
clocks that ran out while no process served them (the bot was down) cannot know how long they had left: a
seat whose reminder was due is reminded once the shard is back and has its grace from then; a seat already
reminded, or away, has the time an absent seat has (the grace, at least 15 s) from then.

Nothing here imports discord; without :meth:`GatewayClocks.starting` (tests, local mode) no clock is ever
stopped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from bot.shards import Shards, shard_of
from bot.storage import repository as repo
from bot.storage.models import PLAYING

from .errors import StaleAction, TableError
from .records import absent_turn_seconds
from .store import Store

log = logging.getLogger(__name__)

SHORT_OUTAGE = timedelta(seconds=2)  # a blip: the clocks, shown to the second, keep their moments
GIVE_BACK_AT_ONCE = 20  # tables given their time back at a time (each under its lock, one commit each)
GIVE_BACK_TRIES = 8  # attempts (2 s apart, doubling to 30 s) before a shard's clocks run on without their time

Deadline = tuple[datetime | None, datetime]


@dataclass(frozen=True)
class Outage:
    """A shard's time away: from ``since`` (the process's start, when ``from_start``) to ``back``."""

    since: datetime
    back: datetime
    from_start: bool = False

    @property
    def length(self) -> timedelta:
        return self.back - self.since


def given_back(
    deadline: Deadline, outage: Outage, grace: timedelta, absent: timedelta, started: datetime | None = None
) -> Deadline:
    """A turn's deadline (when to remind, when to play for the seats) once ``outage`` is over: every moment
    still to come when it began moves on by the time the clock ran during it (the outage's length; for a clock
    ``started`` during the outage, after a computer's move, only the time since). After a start, a moment already
    past then ran out while the bot was down: a reminder still due is sent now, with ``grace`` after it; a timeout
    (the seat reminded already, or away) comes ``absent`` from now."""
    remind_at, act_at = deadline
    if outage.from_start:
        if remind_at is not None and remind_at <= outage.since:
            return outage.back, outage.back + grace
        if remind_at is None and act_at <= outage.since:
            return None, outage.back + absent
    ran = outage.back - max(outage.since, started or outage.since)
    if not outage.from_start and ran < SHORT_OUTAGE:
        return deadline

    def later(moment: datetime) -> datetime:
        return moment + ran if moment > outage.since else moment

    return (later(remind_at) if remind_at is not None else None), later(act_at)


class GatewayClocks:
    """Which of this process's shards have lost Discord's gateway, and the time given back when they return."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._away: dict[int, datetime] = {}  # shard: away since
        self._everything: datetime | None = None  # every shard away since (the shard count not known yet)
        self._started: datetime | None = None  # the process's start
        self._count: int | None = None
        self._returning: dict[int, asyncio.Lock] = {}
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # between attempts to give the time back
        self._lost_again: dict[int, datetime] = {}  # shard: lost again while its clocks were being given time
        self._hushed: set[int] = set()  # shards stopped for a quiet connection, still open (see :meth:`hushed`)
        self._servers_out: dict[int, datetime] = {}  # server: out since (Discord's outage of that server alone)
        self._server_returning: dict[int, asyncio.Lock] = {}
        self._out_again: dict[int, datetime] = {}  # server: out again while its clocks were being given time
        self._in_while_away: dict[int, datetime] = {}  # server: in again (out since) while its shard was still away
        self._given_in: set[int] = set()  # of those, the ones given their time at an attempt of the shard's return

    def starting(self) -> None:
        """The process starts: no shard has reached the gateway yet."""
        now = self.store.clock()
        self._everything = self._started = now

    def paused(self) -> Shards | None:
        """The shards whose clocks are stopped now (``Shards.everything()``: all of them; None: none)."""
        if self._everything is not None:
            return Shards.everything()
        stopped = set(self._away) | {shard for shard, lock in self._returning.items() if lock.locked()}
        if not stopped or self._count is None:
            return None
        return Shards.of(self._count, stopped)

    def lost(self, shard_id: int, count: int | None, silent: timedelta = timedelta(0)) -> None:
        """``shard_id`` lost the gateway: its servers' clocks stop. ``silent``: how long it had heard nothing
        before that was noticed (a connection gone quiet, not closed): the outage began then."""
        self._know(count)
        self._hushed.discard(shard_id)  # closed now: its return is a new connection's
        if self._everything is not None:
            return
        since = self.store.clock() - max(silent, timedelta(0))
        lock = self._returning.get(shard_id)
        if lock is not None and lock.locked():  # its last outage's time is being given back: a new one after
            self._lost_again.setdefault(shard_id, since)
        else:
            self._away.setdefault(shard_id, since)

    def hushed(self, shard_id: int, count: int | None, silent: timedelta) -> bool:
        """``shard_id``'s connection is open but has heard nothing from Discord for ``silent``, longer than its
        heartbeats' interval (an acknowledgement missed): its clocks stop from its last word, as :meth:`lost` would
        stop them, until it speaks again (:meth:`spoke`) or, given up on and closed, comes back (:meth:`back`).
        False (nothing done) where its clocks are stopped already: the process starting, or the shard away or
        being given its time back."""
        self._know(count)
        lock = self._returning.get(shard_id)
        if self._everything is not None or shard_id in self._away or (lock is not None and lock.locked()):
            return False
        self._away[shard_id] = self.store.clock() - max(silent, timedelta(0))
        self._hushed.add(shard_id)
        return True

    def spoke(self, shard_id: int) -> bool:
        """A connection that went quiet (:meth:`hushed`) heard from Discord again: True if its clocks were stopped
        for that; they stay stopped until :meth:`back` gives them the time from its last word. False where it was
        not stopped for being quiet (or was closed since)."""
        if shard_id not in self._hushed:
            return False
        self._hushed.discard(shard_id)
        return True

    async def back(self, shard_id: int, count: int | None) -> None:
        """``shard_id`` reached the gateway again: its servers' clocks get back the time it was away, then run.
        The shard stays paused until every one of them has it (a timer must not fire on a moment about to move)."""
        self._know(count)
        total = self._count = self._count or self.store.shards.count or 1  # (Discord names it before a READY)
        if self._everything is not None:  # the first connection: every shard of this process was away since then
            mine = self.store.shards.ids if self.store.shards.count is not None else range(total)
            self._away = dict.fromkeys(mine, self._everything)
            self._everything = None
        lock = self._returning.setdefault(shard_id, asyncio.Lock())
        async with lock:  # one return at a time per shard: a second connect event waits, then finds nothing
            since = self._away.get(shard_id)
            if since is None:
                return
            # Still paused (its ``since`` kept, the lock held) until its clocks have the time back: a timer must
            # not fire on a moment about to move, nor the outage be forgotten if the database fails now.
            given, outage = await self._retried(
                f"shard {shard_id}",
                "Discord was away",
                lambda: Outage(since, self.store.clock(), from_start=since == self._started),
                lambda outage: self._give_back(Shards.of(total, [shard_id]), outage),
            )
            if self._away.get(shard_id) == since:
                del self._away[shard_id]
            if shard_id in self._lost_again:  # lost again while its clocks were given their time: away from then
                self._away[shard_id] = self._lost_again.pop(shard_id)
            if given:
                log.info(
                    "shard %s: %d turn clocks given back the %.0f s Discord was away%s",
                    shard_id,
                    given,
                    outage.length.total_seconds(),
                    " (and those that ran out while the bot was down, their time to act from now)"
                    if outage.from_start
                    else "",
                )

    def servers_out(self) -> frozenset[int]:
        """The servers whose clocks are stopped for an outage of their own (:meth:`server_out`)."""
        return frozenset(self._servers_out)

    def server_out(self, guild_id: int) -> None:
        """Discord says a server is out (an outage of its own; GUILD_DELETE with ``unavailable``, also for a server
        still out when a session begins or resumes): its players' clicks cannot arrive, so its tables' clocks stop
        until it is in again (:meth:`server_in`), which gives them their whole time: from now, or from when its
        shard went away if it is away still (its shard's return then gives them nothing, so nothing twice)."""
        now = self.store.clock()
        lock = self._server_returning.get(guild_id)
        if lock is not None and lock.locked():  # its last outage's time is being given back: a new one after
            self._out_again.setdefault(guild_id, now)
            return
        since = self._in_while_away.pop(guild_id, None) or self._shard_away_since(guild_id)
        self._servers_out.setdefault(guild_id, since if since is not None else now)

    def server_gone(self, guild_id: int) -> None:
        """The bot left the server (its tables end), or joined it anew: nothing to give back, nothing stopped."""
        for kept in (self._servers_out, self._out_again, self._in_while_away):
            kept.pop(guild_id, None)
        self._given_in.discard(guild_id)

    def _shard_away_since(self, guild_id: int) -> datetime | None:
        """Since when the server's shard has had its clocks stopped (None: it has not): away, quiet, being given its
        time back, or the process starting."""
        if self._everything is not None:
            return self._everything
        return self._away.get(self._shard(guild_id))

    def _shard(self, guild_id: int) -> int:
        return shard_of(guild_id, self._count or self.store.shards.count or 1)

    async def server_in(self, guild_id: int) -> int:
        """A server out (:meth:`server_out`) came in again (GUILD_CREATE): its tables' clocks get back the time it
        was out, then run (they stay stopped until they have it, the database tried again if it does not answer).
        How many clocks moved; 0 for a server that was not out."""
        lock = self._server_returning.setdefault(guild_id, asyncio.Lock())
        async with lock:
            # A return of its shard under way read, or is about to read, its tables as out: it is let finish first
            # (the server is still out for it), so that no table is given the same time twice nor left out.
            while (returning := self._returning.get(self._shard(guild_id))) is not None and returning.locked():
                async with returning:
                    pass
            if self._out_again.pop(guild_id, None) is not None:  # out again meanwhile: still out, from before
                return 0
            since = self._servers_out.get(guild_id)
            if since is None:
                return 0
            if self._shard_away_since(guild_id) is not None:
                # Its shard's clocks are still stopped (a new session's checks, a session resumed or quiet): the
                # shard's return gives these tables their time, from when the server went out, and only it.
                del self._servers_out[guild_id]
                self._in_while_away[guild_id] = since
                return 0
            given, outage = await self._retried(
                f"server {guild_id}",
                "it was out",
                lambda: Outage(since, self.store.clock(), from_start=since == self._started),
                lambda outage: self._give_server(guild_id, outage),
            )
            if self._servers_out.get(guild_id) == since:
                del self._servers_out[guild_id]
            if guild_id in self._out_again:  # out again while its clocks were given their time: out from then
                self._servers_out[guild_id] = self._out_again.pop(guild_id)
            if given:
                log.info(
                    "server %s: %d turn clocks given back the %.0f s it was out",
                    guild_id,
                    given,
                    outage.length.total_seconds(),
                )
            return given

    async def _give_server(self, guild_id: int, outage: Outage) -> int:
        if not outage.from_start and outage.length < SHORT_OUTAGE:
            return 0
        async with self.store.db.engine.connect() as connection:
            rows = await repo.deadlines_of_server(connection, guild_id)
        return await self._give_rows(rows, outage)

    async def _retried(
        self, who: str, away: str, outage_now: Callable[[], Outage], give: Callable[[Outage], Awaitable[int]]
    ) -> tuple[int, Outage]:
        """``give`` the clocks their time back (how many moved), the outage as it is at each attempt; a database
        away a moment (the network cut both) is tried again, 2 s apart doubling to 30 s, :data:`GIVE_BACK_TRIES`
        times, then the clocks run on without it."""
        for attempt in range(1, GIVE_BACK_TRIES + 1):
            outage = outage_now()
            try:
                return await give(outage), outage
            except Exception as error:
                if attempt == GIVE_BACK_TRIES:
                    log.exception("%s: the turn clocks could not be given the time %s; they run on", who, away)
                    break
                wait = min(30.0, 2.0**attempt)
                log.warning(
                    "%s: the turn clocks wait for the time %s (%s); tried again in %.0f s",
                    who,
                    away,
                    _reason(error),
                    wait,
                )
                await self.sleep(wait)
        return 0, outage

    def _know(self, count: int | None) -> None:
        if count:
            self._count = count

    async def _give_back(self, shard: Shards, outage: Outage) -> int:
        """The shard's clocks given their time: those of a server that came in while the shard was away from when
        that server went out (each given once: done first, and then forgotten), the rest from the shard's outage,
        but those of a server still out (its whole time is given when it is in)."""
        given = 0
        came_in = {g: s for g, s in self._in_while_away.items() if shard.owns(g)}
        for guild_id, since in came_in.items():
            if guild_id not in self._given_in:  # (given already at an attempt that the database failed after)
                server = Outage(since, outage.back, from_start=since == self._started)
                given += await self._give_server(guild_id, server)
                self._given_in.add(guild_id)
        if outage.from_start or outage.length >= SHORT_OUTAGE:
            async with self.store.db.engine.connect() as connection:
                rows = await repo.deadlines_on(connection, shard, without=self.servers_out() | came_in.keys())
            given += await self._give_rows(rows, outage)
        for guild_id in came_in:
            self._in_while_away.pop(guild_id, None)
            self._given_in.discard(guild_id)
        return given

    async def _give_rows(self, rows: list[Any], outage: Outage) -> int:
        at_once = asyncio.Semaphore(GIVE_BACK_AT_ONCE)
        given = 0

        async def one(row: Any) -> None:
            nonlocal given
            # A database that fails for this table alone (a connection lost, a deadlock) is tried again, as the
            # whole give-back is, the shard's (or server's) timers waiting meanwhile: skipped, its clock would run
            # on without the time, and its seat be played for at once. Again is harmless: a clock already given
            # its time is no longer the one read, and is left as it is.
            for attempt in range(1, GIVE_BACK_TRIES + 1):
                # (tried again: the clocks stayed stopped while it waited, so its outage lasts until now)
                lasting = outage if attempt == 1 else replace(outage, back=self.store.clock())
                try:
                    async with at_once:
                        for _ in range(2):  # a copy behind the database (another process moved it) is read again
                            try:
                                given += await self._give_one(row, lasting)
                                return
                            except StaleAction:
                                await self.store.refreshed(int(row.table_id))
                    return
                except TableError:
                    return  # closed meanwhile
                except Exception as error:
                    # only the database's passing faults are worth waiting for: a table whose log no longer
                    # replays (or any other fault of its own) would hold the shard's timers for two minutes in vain
                    passing = isinstance(error, (SQLAlchemyError, OSError, TimeoutError))
                    if not passing or attempt == GIVE_BACK_TRIES:
                        self.store.troubled(int(row.table_id), "to give its clock the time Discord was away")
                        return
                    wait = min(30.0, 2.0**attempt)
                    log.warning(
                        "table %s: its turn clock waits for its time back (%s); tried again in %.0f s",
                        row.table_id,
                        _reason(error),
                        wait,
                    )
                    await self.sleep(wait)

        await asyncio.gather(*(one(row) for row in rows))
        return given

    async def _give_one(self, row: Any, outage: Outage) -> int:
        """Give one table's clock its time back, under its lock, if its clock is still the one read: a write that
        kept the clock meanwhile (another seat's bid at once, the table's message placed again) moved it to a new
        version with the same moments, and it is given its time all the same; a clock set anew since (a move) is
        not. 1 if it was moved."""
        async with self.store.locked(int(row.table_id)) as live:
            async with self.store.db.engine.connect() as connection:
                now = await repo.deadline_of(connection, live.id)
            before: Deadline = (row.remind_at, row.act_at)
            if now is None or (now.remind_at, now.act_at) != before or live.status != PLAYING:
                return 0
            grace = timedelta(seconds=live.guild_grace)
            absent = timedelta(seconds=absent_turn_seconds(live.turn_seconds, live.guild_grace))
            # when the clock began: a seat's turn time before its reminder, or an absent seat's time before its move
            started = row.remind_at - timedelta(seconds=live.turn_seconds) if row.remind_at else row.act_at - absent
            after = given_back(before, outage, grace, absent, started)
            if after == before:
                return 0
            await self.store.set_timer(live, after)
            return 1


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200]}" if text else type(error).__name__
