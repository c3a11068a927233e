"""The table store: live tables in memory, one lock per table, the group-committed writes and the
durable log. Every part of the service (lobby, play, reads, records, settings) works through it, and
through the small :class:`Store` protocol, never through another part.

The state of a table is the replay of its seed and its action log. A part takes the table's lock
(:meth:`TableStore.locked`), changes the live table through a :class:`~bot.tables.live.Step`, and
writes it with :meth:`TableStore.commit` (a step of play) or :meth:`TableStore.write` (anything else),
both checked against the table's version in the database, so a second process can never apply a stale
action. A failed write forgets the live table: it is replayed from the database next time.

Each commit is published as events (:mod:`bot.tables.events`) on the store's bus, in commit order.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.shards import Shards
from bot.storage import notify
from bot.storage import repository as repo
from bot.storage.database import BatchRollback, Database
from bot.storage.models import (
    ABANDONED,
    FINISHED,
    LOBBY,
    MAX_ROW_ID,
    PLAYING,
    SLOTS_FREED,
    utcnow,
)

from .errors import LogDoesNotReplay, StaleAction, TableError, TableNotFound
from .events import EventBus, TableChanged, TableMovedElsewhere, events_of
from .live import LiveSeat, LiveTable, Step
from .records import HandSnapshot, Outcome, absent_turn_seconds
from .results import match_record

log = logging.getLogger(__name__)

UNSET: Any = object()
UNSHOWN_LOBBY_GRACE = timedelta(minutes=1)  # a lobby not posted by then never will be
CATCH_UP_READS = 5  # reads of a table moved on elsewhere, at most, until the copy here holds its news


async def nothing_more(connection: AsyncConnection) -> None:
    """A write that is only the table's own columns (set with the version bump)."""


def stale() -> StaleAction:
    return StaleAction("stale")


def expect_version(live: LiveTable, version: int | None) -> None:
    """Refuse (stale) a call made for another version of the table than this one."""
    if version is not None and version != live.version:
        raise stale()


def clock_runs_on(live: LiveTable, step: Step) -> bool:
    """True when every seat to act after ``step`` was already waiting before it and did not act in it (another
    seat's bid in Ninety-Nine's bids, made at once; a seat that resigned or timed out while others wait): their
    clock runs on, its reminder (sent or not) and its time to act unchanged. A seat whose turn has just begun
    (or begun again, after its own action) starts a new clock."""
    if live.state is None or live.turn_ends is None:
        return False  # no clock running: a new one starts, if any
    acted = {record["seat"] for record in step.records}
    waiting = [p for p in live.state.to_act() if not live.at(p).on_autopilot]
    return bool(waiting) and all(p in step.before and p not in acted for p in waiting)


def hand_of(live: LiveTable, position: int) -> HandSnapshot:
    """The seat at ``position`` as the table is now (the caller holds the table's lock)."""
    assert live.state is not None
    info = live.info()
    seat = next(s for s in info.seats if s.index == position)
    on_turn = live.status == PLAYING and not seat.resigned and position in live.state.to_act()
    legal = live.state.legal(position) if on_turn else []
    return HandSnapshot(info, seat, live.views[position], legal, live.version)


class Store(Protocol):
    """What a part of the service may ask of the store: the database, the clock, the servers this process
    owns, a table (with its lock held to change it), its writes, and the events bus."""

    db: Database
    clock: Callable[[], datetime]
    shards: Shards
    events: EventBus

    async def get(self, table_id: int) -> LiveTable: ...

    def locked(self, table_id: int) -> contextlib.AbstractAsyncContextManager[LiveTable]: ...

    def loaded(self) -> Iterable[LiveTable]: ...

    def peek(self, table_id: int) -> LiveTable | None: ...

    async def close_unshown_lobbies(self, older_than: timedelta | None = None) -> list[int]: ...

    def troubled(self, table_id: int, doing: str) -> None: ...

    def recovered(self, table_id: int) -> None: ...

    async def refreshed(self, table_id: int) -> bool: ...

    async def moved_elsewhere(self, table_id: int, guild_id: int, version: int) -> None: ...

    async def catch_up_all(self) -> list[int]: ...

    async def reminded_elsewhere(self, table_id: int, guild_id: int, version: int, act_at: datetime) -> None: ...

    async def write(self, live: LiveTable, work: Callable[[AsyncConnection], Awaitable[Any]], **values: Any) -> Any: ...

    async def commit(
        self,
        live: LiveTable,
        step: Step,
        *,
        actor: int | None,
        positions: bool = False,
        ended: dict[str, Any] | None = None,
        reason: str = ...,
    ) -> Outcome: ...

    async def retime(self, live: LiveTable) -> None: ...

    async def set_timer(self, live: LiveTable, deadline: tuple[datetime | None, datetime] | None) -> None: ...

    def when_moved(self, watcher: Callable[[LiveTable], None]) -> None: ...

    def when_evicted(self, watcher: Callable[[int], None]) -> None: ...


CallParams = ParamSpec("CallParams")
Result = TypeVar("Result")


class HasStore(Protocol):
    @property
    def store(self) -> Store: ...


Part = TypeVar("Part", bound=HasStore)


BEHIND_TRIES = 4  # a call read again this many times at most while another process keeps moving its table on


def read_again_if_behind(
    call: Callable[Concatenate[Part, int, CallParams], Awaitable[Result]],
) -> Callable[Concatenate[Part, int, CallParams], Awaitable[Result]]:
    """A call on a table (its id first) that, refused, reads the table again if this process's copy is
    behind the database (another process wrote) and tries again: a click routed to any process is
    answered from the table as it is. A refusal writes nothing, so trying again is safe. Up to
    :data:`BEHIND_TRIES` times: the owner's computers moving with no pause between moves can move the table on
    again between the read and the write (a resign or an abandon, which name no moment of the table, was then
    refused as stale)."""

    @functools.wraps(call)
    async def again(self: Part, table_id: int, /, *args: CallParams.args, **kwargs: CallParams.kwargs) -> Result:
        for _ in range(BEHIND_TRIES - 1):
            try:
                return await call(self, table_id, *args, **kwargs)
            except TableNotFound:
                raise
            except TableError:
                if not await self.store.refreshed(table_id):
                    raise
        return await call(self, table_id, *args, **kwargs)

    return again


class TableStore:
    """The live tables, their locks, their writes and the durable log; the events of every commit."""

    def __init__(
        self,
        database: Database,
        *,
        clock: Callable[[], datetime] = utcnow,
        lobby_grace: timedelta = UNSHOWN_LOBBY_GRACE,
        shards: Shards | None = None,
        events: EventBus | None = None,
        announce_every_change: bool = False,
    ) -> None:
        self.db = database
        # The servers whose tables this process loads at start and whose turn timers it runs
        # (a click on another server's table is still served: every write checks the version).
        self.shards = shards or Shards.everything()
        self.lobby_grace = lobby_grace
        self.clock = clock
        self.events = events or EventBus()
        # Tell the other processes of every commit here, not only of those at another shard's tables.
        self.announce_every_change = announce_every_change
        self.live: dict[int, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._on_moved: list[Callable[[LiveTable], None]] = []
        self._on_evict: list[Callable[[int], None]] = []
        self._troubled: set[int] = set()  # tables that failed (a log that no longer replays), logged once
        self._unreplayable: set[int] = set()  # tables whose log no longer replays: not read again at every check

    def when_moved(self, watcher: Callable[[LiveTable], None]) -> None:
        """Call ``watcher`` with a table each time it is loaded or committed (the computers' driver wakes)."""
        self._on_moved.append(watcher)

    def when_evicted(self, watcher: Callable[[int], None]) -> None:
        """Call ``watcher`` with a table's id when its live copy is forgotten."""
        self._on_evict.append(watcher)

    def woke(self, live: LiveTable) -> None:
        for watcher in self._on_moved:
            watcher(live)

    def loaded(self) -> Iterable[LiveTable]:
        """The tables held in memory now."""
        return list(self.live.values())

    def peek(self, table_id: int) -> LiveTable | None:
        """The table's copy in memory, if there is one (nothing is read, nothing locked)."""
        return self.live.get(table_id)

    async def load_open_tables(self) -> int:
        """Close what a crash left half made, then load every open table of this process's servers
        (replaying its log) so play resumes at once; return how many. A table that cannot be read (its log
        no longer replays) is logged and left out: the others are resumed."""
        await self.close_unshown_lobbies()
        async with self.db.engine.connect() as connection:
            ids = await repo.open_table_ids(connection, self.shards)
        loaded = 0
        for table_id in ids:
            try:
                await self.get(table_id)
            except TableNotFound:  # closed meanwhile
                continue
            except Exception:
                self.troubled(table_id, "to be resumed")
                continue
            loaded += 1
        return loaded

    def troubled(self, table_id: int, doing: str) -> None:
        """Log (inside an ``except``) that a table failed ``doing``, so that the other tables go on: with its
        traceback the first time, then only at DEBUG until the table is read again without fault
        (:meth:`recovered`), so one bad table (a log that no longer replays) is not logged at every pass of the
        timers."""
        if table_id in self._troubled:
            log.debug("table %s failed %s again", table_id, doing, exc_info=True)
            return
        self._troubled.add(table_id)
        log.exception("table %s failed %s; the other tables go on", table_id, doing)

    def recovered(self, table_id: int) -> None:
        """The table was read and served without fault (a copy kept in memory, too): its next failure is news,
        logged with its traceback again."""
        self._troubled.discard(table_id)

    async def close_unshown_lobbies(self, older_than: timedelta | None = None) -> list[int]:
        """Abandon lobbies that were opened but never posted (the process died in between), once
        ``older_than`` (the service's ``lobby_grace``) has passed: a lobby being posted right now by
        another process is left alone."""
        now = self.clock()
        older_than = self.lobby_grace if older_than is None else older_than

        async def work(connection: AsyncConnection) -> list[int]:
            return await repo.close_unshown_lobbies(connection, now - older_than, now, self.shards)

        closed = await self.db.write(work)
        for table_id in closed:
            self.live.pop(table_id, None)
        if closed:
            log.info("closed %d lobbies never shown: %s", len(closed), closed)
        return closed

    async def get(self, table_id: int) -> LiveTable:
        live = self.live.get(table_id)
        if live is not None:
            if self.shards.owns(live.guild_id) or await self.up_to_date(live):
                return live
            self.evict(live)  # another shard's table, moved on by its owner: read it again
        if not 1 <= table_id <= MAX_ROW_ID:  # no such row can exist, and PostgreSQL would refuse the number
            raise TableNotFound("table_not_found", table=table_id)
        async with self._loading:
            live = self.live.get(table_id)
            if live is not None:
                return live
            async with self.db.engine.connect() as connection:
                stored = await repo.load_table(connection, table_id)
            if stored is None:
                raise TableNotFound("table_not_found", table=table_id)
            row, guild = stored.table, stored.guild
            seats = [
                LiveSeat(
                    id=seat.id,
                    user_id=seat.user_id,
                    name=stored.names.get(seat.user_id, "") if seat.user_id is not None else "",
                    position=seat.position,
                    absent=seat.absent,
                    resigned=seat.resigned,
                    level=seat.computer_level if seat.user_id is None else None,
                )
                for seat in stored.seats
                if seat.left_at is None
            ]
            if row.status != LOBBY:
                seats.sort(key=lambda seat: seat.position if seat.position is not None else -1)
            live = LiveTable(
                id=row.id,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                thread_id=row.thread_id,
                message_id=row.message_id,
                game=row.game,
                options=dict(row.options),
                players=row.players,
                seed=row.seed,
                status=row.status,
                host_id=row.host_id,
                turn_override=row.turn_seconds,
                guild_turn=guild.turn_seconds,
                guild_grace=guild.grace_seconds,
                guild_pace_ms=guild.computer_pace_ms,
                created_at=row.created_at,
                started_at=row.started_at,
                finished_at=row.finished_at,
                version=row.version,
                action_count=row.action_count,
                seats=seats,
                hints=row.hints,
                private=row.private,
            )
            if stored.deadline is not None:
                live.turn_ends = stored.deadline.remind_at or stored.deadline.act_at
            if row.status != LOBBY and row.started_at is not None:
                try:
                    live.begin([(action.seat, action.action, action.source) for action in stored.actions])
                except Exception as error:  # the engine refuses what it once took: no retry mends it
                    self._unreplayable.add(table_id)
                    raise LogDoesNotReplay(table_id) from error
            self.live[table_id] = live
            self._troubled.discard(table_id)  # read without fault: a new failure is news again
            self._unreplayable.discard(table_id)
        self.woke(live)  # after a restart, a computer that was thinking thinks again
        return live

    async def refreshed(self, table_id: int) -> bool:
        """Drop the live copy if the database has moved past it (another process wrote); True if so."""
        if not 1 <= table_id <= MAX_ROW_ID:  # no such row: PostgreSQL would refuse the number itself
            return False
        live = self.live.get(table_id)
        async with self.db.engine.connect() as connection:
            stored = await repo.table_version(connection, table_id)
        if stored is None or (live is not None and live.version == stored):
            return False
        if live is not None:
            async with live.lock:
                if live.version >= stored and not live.evicted:
                    # What was read was this process's own commit, made while the lock was awaited (a check
                    # for missed news may coincide with one): the copy holds it, and is kept.
                    return False
                self.evict(live)
        return True

    async def up_to_date(self, live: LiveTable) -> bool:
        """True if the database holds the same version as this copy (another process may have written)."""
        async with self.db.engine.connect() as connection:
            return await repo.table_version(connection, live.id) == live.version

    async def moved_elsewhere(self, table_id: int, guild_id: int, version: int) -> None:
        """Another process moved a table on (its commit said so): tell this process's subscribers,
        and if the table is of this process's servers (a click routed elsewhere) read it again, so the
        copy here is current and its computers play on. News this copy already has is none."""
        live = self.live.get(table_id)
        if live is not None:
            if live.version >= version:
                return
            async with live.lock:
                # The news of this process's own commit (told of when every change is, or at another shard's
                # table) is delivered at its commit, and may come before the commit's caller has counted it:
                # it holds the lock until it has, so once the lock is free the copy says whether this is news.
                if live.version >= version and not live.evicted:
                    return
        if self.shards.owns(guild_id):
            await self._catch_up(table_id, version)
        self.events.publish(TableMovedElsewhere(table_id, guild_id))  # subscribers here read it as it is now

    async def reminded_elsewhere(self, table_id: int, guild_id: int, version: int, act_at: datetime) -> None:
        """Another process reminded the seats on turn at a table (its timers run there): the copy here, if it is
        of that version, counts to ``act_at`` too (a copy moved on since is read again), and this process's
        subscribers read the table again (a screen redraws its clock)."""
        live = self.live.get(table_id)
        if live is None or live.version < version:
            return  # nothing held, or a copy that a read brings up to date anyway
        if live.version == version:
            live.turn_ends = act_at
        elif not self.shards.owns(guild_id):  # the owner reminded, its copy locked till then: its own news
            async with live.lock:
                # Moved on here since the reminder was claimed: a move that kept the clock (a bid made at once)
                # carried the claimed deadline on, and this copy still counts to the reminder's moment. It cannot
                # tell whether its clock is that one: it is read again when next used.
                if not live.evicted:
                    self.evict(live)
        self.events.publish(TableMovedElsewhere(table_id, guild_id))

    async def _catch_up(self, table_id: int, version: int) -> None:
        """Read a table of this process's servers again until the copy here holds ``version`` at least. Two
        pieces of news heard close together each read the table; the read of the first may end after the second
        commit, and the second would then find the first's copy, a version behind, and keep it for good (no more
        news comes while nobody moves): so the version is checked, and the table read again while it is behind."""
        for _ in range(CATCH_UP_READS):
            await self.refreshed(table_id)
            try:
                live = await self.get(table_id)
            except TableNotFound:  # gone meanwhile: nothing to play on
                return
            if live.version >= version:
                return
        log.warning("table %s: still behind version %s after %s reads", table_id, version, CATCH_UP_READS)

    async def catch_up_all(self) -> list[int]:
        """Catch up on news that may have been missed (the listening connection was lost a while, or a
        notification never came): compare, in one query, the version of every table held here and of every
        open table of this process's servers with the database's, and treat each one behind as news heard
        (:meth:`moved_elsewhere`: the owner reads it again and its computers play on; another shard's copy is
        dropped, to be read when next used). An open table of this process's servers not held here (opened or
        started by another process, or dropped after a failed write) is read, as at start. The ids caught up.
        SQLite serves one process, so nothing is behind there, but a table dropped after a failed write, or not
        read at start (a passing fault), is read again here: with a computer to act it has no turn timer, and
        nothing else would wake it."""
        held = {live.id: live.version for live in self.live.values()}
        async with self.db.engine.connect() as connection:
            rows = await repo.versions_to_check(connection, list(held), self.shards)
        behind = []
        for table_id, guild_id, version in rows:
            if table_id in held and held[table_id] >= version:
                continue
            try:  # one table that fails to load must not keep the rest from being caught up
                if table_id not in held:
                    # (one whose log no longer replays is left to the timers, which set it aside: replaying it
                    # every few seconds mends nothing)
                    if self.shards.owns(guild_id) and table_id not in self._unreplayable:
                        with contextlib.suppress(TableNotFound):
                            await self.get(table_id)  # its computers wake as it is read
                    continue
                behind.append(table_id)
                if not self.shards.owns(guild_id):
                    await self.refreshed(table_id)  # forgotten, so it is not found behind again at the next check
                await self.moved_elsewhere(table_id, guild_id, version)
            except Exception:
                self.troubled(table_id, "to be caught up")
        if behind:
            log.info("caught up on %d tables moved on by other processes: %s", len(behind), behind)
        return behind

    def told(self, live: LiveTable) -> bool:
        """Whether the other processes sharing the database (PostgreSQL) are told of a commit at this table,
        so that its owner reads it again (a click routed here) and every process tells its own subscribers:
        only another shard's table, unless ``announce_every_change`` (a presentation elsewhere wants every
        change: one more NOTIFY per commit). The news goes in the commit's own transaction: PostgreSQL
        delivers it at commit, never for a rolled-back write, and nothing is left to send once the commit is
        done, so a process stopped right after it (a restart, a crash) has told the others already."""
        if self.db.backend != "postgresql" or self.shards.all:
            return False  # one process serves every server: nobody else to tell
        return self.announce_every_change or not self.shards.owns(live.guild_id)

    @contextlib.asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[LiveTable]:
        """The live table, with its lock held: one call at a time per table."""
        while True:
            live = await self.get(table_id)
            await live.lock.acquire()
            if not live.evicted:
                break
            live.lock.release()
        try:
            yield live
        finally:
            live.lock.release()
            if live.status not in (LOBBY, PLAYING):
                self.evict(live)  # closed tables are read rarely: replay them when asked

    def evict(self, live: LiveTable) -> None:
        live.evicted = True
        if self.live.get(live.id) is live:
            del self.live[live.id]
        for evicted in self._on_evict:
            evicted(live.id)

    async def write(self, live: LiveTable, work: Callable[[AsyncConnection], Awaitable[Any]], **values: Any) -> Any:
        """Commit ``work`` with the table's version check (and the news of it, when :meth:`told`); on any
        failure forget the live table. A table in play keeps its turn timer as it is (a new place for its
        message, say, is no move: the seats on turn keep their clock)."""
        return await self._versioned(live, work, values, keep_timer=live.status == PLAYING)

    async def _versioned(
        self,
        live: LiveTable,
        work: Callable[[AsyncConnection], Awaitable[Any]],
        values: dict[str, Any],
        *,
        keep_timer: bool,
    ) -> Any:
        """:meth:`write`; ``keep_timer``: the deadline row moves to the new version in the same transaction (a
        row left at the old version would be taken for one a move replaced, and never fire)."""
        version, told = live.version, self.told(live)

        async def guarded(connection: AsyncConnection) -> Any:
            if not await repo.claim_version(connection, live.id, version, **values):
                raise BatchRollback(stale())
            if keep_timer:
                await repo.carry_deadline(connection, live.id, version + 1)
            result = await work(connection)
            if told:
                await notify.announce_table(connection, live.id, live.guild_id, version + 1)
            return result

        return await self.submit(live, guarded)

    async def submit(self, live: LiveTable, work: Callable[[AsyncConnection], Awaitable[Any]]) -> Any:
        try:
            result = await self.db.write(work)
        except repo.StaleWrite:
            self.evict(live)
            raise stale() from None
        except BaseException:
            self.evict(live)  # memory may be ahead of the database: replay it next time
            raise
        live.version += 1
        return result

    async def commit(
        self,
        live: LiveTable,
        step: Step,
        *,
        actor: int | None,
        positions: bool = False,
        ended: dict[str, Any] | None = None,
        reason: str = "everyone absent for a whole deal",
    ) -> Outcome:
        """Write the step (actions, seats, deadline, result) in one transaction, then describe it."""
        state = live.state
        now = step.now or self.clock()
        values: dict[str, Any] = {"action_count": live.action_count + len(step.records)}
        if positions:
            values.update(status=PLAYING, started_at=live.started_at, message_id=live.message_id)
        finished = state is not None and (state.is_over() or ended is not None) and not step.abandon
        if step.abandon:
            values.update(status=ABANDONED, finished_at=now, **SLOTS_FREED)
            step.events.append({"kind": "abandoned", "reason": reason})
        elif finished:
            values.update(status=FINISHED, finished_at=now, **SLOTS_FREED)
        over = step.abandon or finished
        keep_timer = not over and clock_runs_on(live, step)  # the seats to act were waiting already
        deadline = None if over or keep_timer else self.deadline(live, now)
        seat_positions = {seat.id: seat.position for seat in live.seats} if positions else {}
        record = match_record(live, now, ended) if finished else None

        async def work(connection: AsyncConnection) -> dict[str, Any] | None:
            await repo.append_actions(connection, step.records)
            for seat_id, position in seat_positions.items():
                await repo.update_seat(connection, seat_id, position=position)
            for seat_id, changes in step.seat_changes.items():
                await repo.update_seat(connection, seat_id, **changes)
            if keep_timer:
                await repo.carry_deadline(connection, live.id, live.version + 1)
            else:
                remind_at, act_at = deadline or (None, None)
                await repo.set_deadline(connection, live.id, live.version + 1, remind_at, act_at)
            if record is not None:
                return await record.write(connection)
            return None

        plain_move = (
            step.records
            and not step.seat_changes
            and not seat_positions
            and record is None
            and list(values) == ["action_count"]
        )
        if plain_move:
            remind_at, act_at = deadline or (None, None)
            told_guild = live.guild_id if self.told(live) else None
            move = repo.MoveWrite(
                live.id, live.version, values["action_count"], step.records, remind_at, act_at, told_guild, keep_timer
            )
            summary = await self.submit(live, move)
        else:
            summary = await self._versioned(live, work, values, keep_timer=False)  # ``work`` sets the timer
        live.action_count += len(step.records)
        if not keep_timer:
            live.turn_ends = (deadline[0] or deadline[1]) if deadline is not None else None
        if "status" in values:
            live.status = values["status"]
            live.finished_at = values.get("finished_at", live.finished_at)
        if summary is not None:
            step.events.append({"kind": "match_over", **summary})
        if step.records or positions:  # the computers' pace counts from here
            live.moved_at = now
            live.after_trick = any(event["kind"] in ("trick", "deal") for event in step.events)
        changed = live.refresh_views() if live.state is not None else ()
        if positions:  # the match begins: every seat sees its hand for the first time
            changed = tuple(sorted(live.views))
        self.woke(live)
        hand = hand_of(live, actor) if actor is not None and live.state is not None else None
        outcome = Outcome(live.info(), live.public, dict(live.views), changed, tuple(step.events), actor, hand)
        self.events.publish(*events_of(outcome, () if positions else step.before))
        return outcome

    async def retime(self, live: LiveTable) -> None:
        """Time the turn in progress anew from now, as the table's timer settings say now (the server's changed;
        the caller holds the table's lock): its deadline replaced, or removed when the timer is off. The version
        moves on, and the table's presentations hear of it (its clock is redrawn). A timeout already under way
        (the seats on turn handed to the computer, which may be thinking) is called off: those seats have a new
        clock, or none, and the computer's driver finds nobody to play for when it comes back with its move."""
        live.overdue.clear()
        await self.set_timer(live, self.deadline(live, self.clock()))

    async def set_timer(self, live: LiveTable, deadline: tuple[datetime | None, datetime] | None) -> None:
        """Replace the turn's deadline with ``deadline`` (when to remind, when to play for the seats to act; None:
        no timer), the caller holding the table's lock. The version moves on and the table's presentations hear of
        it (its clock is redrawn)."""
        remind_at, act_at = deadline or (None, None)

        async def work(connection: AsyncConnection) -> None:
            await repo.set_deadline(connection, live.id, live.version + 1, remind_at, act_at)

        await self._versioned(live, work, {}, keep_timer=False)
        live.turn_ends = remind_at or act_at
        self.events.publish(TableChanged(live.info(), ()))

    def deadline(self, live: LiveTable, now: datetime) -> tuple[datetime | None, datetime] | None:
        """When to remind and when to play for the seats to act (None: no timer)."""
        if live.state is None or live.turn_seconds <= 0:
            return None
        waiting = [live.at(p) for p in live.state.to_act() if not live.at(p).on_autopilot]
        if not waiting:
            return None
        if all(seat.absent for seat in waiting):  # someone who is away is not kept waiting for twice
            return None, now + timedelta(seconds=absent_turn_seconds(live.turn_seconds, live.guild_grace))
        remind_at = now + timedelta(seconds=live.turn_seconds)
        return remind_at, remind_at + timedelta(seconds=live.guild_grace)
