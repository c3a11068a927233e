"""The table service's core: live tables in memory, one lock per table, the group-committed writes, and the
driver tasks that play computer seats (every other part of the service builds on these)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, Concatenate, ParamSpec, TypeVar

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
    utcnow,
)
from bot.storage.notify import OthersListener

from .computers import Drivers, Turn, next_turn, pause_left, play_turn, stand_in
from .errors import StaleAction, TableError, TableNotFound
from .live import LiveSeat, LiveTable, Step
from .records import HandSnapshot, Outcome
from .results import match_record
from .thinking import Choice, Thinker, decision_seed

log = logging.getLogger(__name__)

Listener = Callable[[Outcome], Awaitable[None]]
Sleep = Callable[[float], Awaitable[None]]
UNSET: Any = object()
UNSHOWN_LOBBY_GRACE = timedelta(minutes=1)  # a lobby not posted by then never will be
GUILD_LIMITS = {
    "turn_seconds": (0, 86_400, "seconds"),
    "grace_seconds": (0, 86_400, "seconds"),
    "computer_pace_ms": (0, 10_000, "milliseconds"),
    "max_open_tables": (1, 500, "tables"),
    "max_lobbies_per_host": (1, 25, "lobbies"),
    "play_cooldown_seconds": (0, 3_600, "seconds"),
}


async def nothing_more(connection: AsyncConnection) -> None:
    """A write that is only the table's own columns (set with the version bump)."""


def stale() -> StaleAction:
    return StaleAction("stale")


def retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


CallParams = ParamSpec("CallParams")
Result = TypeVar("Result")
Service = TypeVar("Service", bound="ServiceCore")


def read_again_if_behind(
    call: Callable[Concatenate[Service, int, CallParams], Awaitable[Result]],
) -> Callable[Concatenate[Service, int, CallParams], Awaitable[Result]]:
    """A call on a table (its id first) that, refused, reads the table again if this process's copy is
    behind the database (another process wrote) and tries once more: a click routed to any process is
    answered from the table as it is. A refusal writes nothing, so trying again is safe."""

    @functools.wraps(call)
    async def again(self: Service, table_id: int, /, *args: CallParams.args, **kwargs: CallParams.kwargs) -> Result:
        try:
            return await call(self, table_id, *args, **kwargs)
        except TableNotFound:
            raise
        except TableError:
            if not await self._refreshed(table_id):
                raise
        return await call(self, table_id, *args, **kwargs)

    return again


class MovedOn(Exception):
    """The table moved on while a computer thought: its choice is dropped and it thinks again."""


def hand_of(live: LiveTable, position: int) -> HandSnapshot:
    """The seat at ``position`` as the table is now (the caller holds the table's lock)."""
    assert live.state is not None
    info = live.info()
    seat = next(s for s in info.seats if s.index == position)
    on_turn = live.status == PLAYING and not seat.resigned and position in live.state.to_act()
    legal = live.state.legal(position) if on_turn else []
    return HandSnapshot(info, seat, live.views[position], legal, live.version)


class ServiceCore:
    """The live tables, their locks and writes, and the computer seats' drivers."""

    def __init__(
        self,
        database: Database,
        *,
        clock: Callable[[], datetime] = utcnow,
        thinker: Thinker | None = None,
        sleep: Sleep = asyncio.sleep,
        lobby_grace: timedelta = UNSHOWN_LOBBY_GRACE,
        shards: Shards | None = None,
    ) -> None:
        self.db = database
        # The servers whose tables this process loads at start and whose turn timers it runs
        # (a click on another server's table is still served: every write checks the version).
        self.shards = shards or Shards.everything()
        self.lobby_grace = lobby_grace
        self.clock = clock
        self.sleep = sleep
        self._thinker = thinker
        self._own_thinker = thinker is None
        self._live: dict[int, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._timer_task: asyncio.Task[None] | None = None
        self._drivers = Drivers()
        self._listeners: list[Listener] = []
        self._hints: dict[int, tuple[int, dict[int, asyncio.Future[Choice]]]] = {}
        self._others: OthersListener | None = None  # what other processes tell: settings, tables moved on
        self._announcing: set[asyncio.Task[None]] = set()

    async def load_open_tables(self) -> int:
        """Close what a crash left half made, then load every open table of this process's servers
        (replaying its log) so play resumes at once; return how many."""
        await self.close_unshown_lobbies()
        async with self.db.engine.connect() as connection:
            ids = await repo.open_table_ids(connection, self.shards)
        for table_id in ids:
            await self._get(table_id)
        return len(ids)

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
            self._live.pop(table_id, None)
        if closed:
            log.info("closed %d lobbies never shown: %s", len(closed), closed)
        return closed

    async def close(self) -> None:
        """Stop the timers, the computer players (a move half thought is thought again by the
        next process: nothing of it was written) and hints under way; shut the pool if it is ours."""
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task
            self._timer_task = None
        await self._drivers.close()
        if self._others is not None:
            await self._others.close()
            self._others = None
        for task in list(self._announcing):
            task.cancel()
        for _, pending in self._hints.values():
            for future in pending.values():
                future.cancel()
        self._hints.clear()
        if self._own_thinker and self._thinker is not None:
            await self._thinker.close()
            self._thinker = None

    def listen(self, listener: Listener) -> None:
        """Send ``listener`` every outcome the service produces on its own: computer moves
        (and the moves of resigned seats and of people whose time ran out) and reminders."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    async def _notify(self, outcome: Outcome) -> None:
        for listener in list(self._listeners):
            try:
                await listener(outcome)
            except Exception:
                log.exception("a listener failed on an outcome of table %s", outcome.table.id)

    async def settle(self, table_id: int | None = None) -> None:
        """Wait until no computer player is thinking or due to move at ``table_id`` (or any table)."""
        await self._drivers.settle(table_id)

    async def _get(self, table_id: int) -> LiveTable:
        live = self._live.get(table_id)
        if live is not None:
            if self.shards.owns(live.guild_id) or await self._up_to_date(live):
                return live
            self._evict(live)  # another shard's table, moved on by its owner: read it again
        if not 1 <= table_id <= MAX_ROW_ID:  # no such row can exist, and PostgreSQL would refuse the number
            raise TableNotFound("table_not_found", table=table_id)
        async with self._loading:
            live = self._live.get(table_id)
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
            )
            if stored.deadline is not None:
                live.turn_ends = stored.deadline.remind_at or stored.deadline.act_at
            if row.status != LOBBY and row.started_at is not None:
                live.begin([(action.seat, action.action, action.source) for action in stored.actions])
            self._live[table_id] = live
        self._wake(live)  # after a restart, a computer that was thinking thinks again
        return live

    async def _refreshed(self, table_id: int) -> bool:
        """Drop the live copy if the database has moved past it (another process wrote); True if so."""
        if not 1 <= table_id <= MAX_ROW_ID:  # no such row can exist, and PostgreSQL would refuse the number
            return False
        live = self._live.get(table_id)
        async with self.db.engine.connect() as connection:
            stored = await repo.table_version(connection, table_id)
        if stored is None or (live is not None and live.version == stored):
            return False
        if live is not None:
            async with live.lock:
                self._evict(live)
        return True

    async def _up_to_date(self, live: LiveTable) -> bool:
        """True if the database holds the same version as this copy (another process may have written)."""
        async with self.db.engine.connect() as connection:
            return await repo.table_version(connection, live.id) == live.version

    async def _moved_elsewhere(self, table_id: int, guild_id: int) -> None:
        """Another process moved on a table of this process's servers (a click routed to it): read the
        table again, so the copy here is current and its computers play on."""
        if not self.shards.owns(guild_id):
            return
        await self._refreshed(table_id)
        with contextlib.suppress(TableNotFound):  # gone meanwhile: nothing to play on
            await self._get(table_id)

    def _tell_owner(self, live: LiveTable) -> None:
        """This process moved on another shard's table: tell its owner (PostgreSQL), after the commit."""
        if self.db.backend != "postgresql" or self.shards.owns(live.guild_id):
            return

        async def work(connection: AsyncConnection) -> None:
            await notify.announce_table(connection, live.id, live.guild_id)

        async def tell() -> None:
            try:
                await self.db.write(work)
            except Exception:
                log.exception("could not tell the owner of table %s that it moved on", live.id)

        task = asyncio.create_task(tell(), name=f"tell-owner-{live.id}")
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: int) -> AsyncIterator[LiveTable]:
        """The live table, with its lock held: one call at a time per table."""
        while True:
            live = await self._get(table_id)
            await live.lock.acquire()
            if not live.evicted:
                break
            live.lock.release()
        try:
            yield live
        finally:
            live.lock.release()
            if live.status not in (LOBBY, PLAYING):
                self._evict(live)  # closed tables are read rarely: replay them when asked

    def _evict(self, live: LiveTable) -> None:
        live.evicted = True
        if self._live.get(live.id) is live:
            del self._live[live.id]
        self._hints.pop(live.id, None)

    async def _write(self, live: LiveTable, work: Callable[[AsyncConnection], Awaitable[Any]], **values: Any) -> Any:
        """Commit ``work`` with the table's version check; on any failure forget the live table."""

        async def guarded(connection: AsyncConnection) -> Any:
            if not await repo.claim_version(connection, live.id, live.version, **values):
                raise BatchRollback(stale())
            return await work(connection)

        return await self._submit(live, guarded)

    async def _submit(self, live: LiveTable, work: Callable[[AsyncConnection], Awaitable[Any]]) -> Any:
        try:
            result = await self.db.write(work)
        except repo.StaleWrite:
            self._evict(live)
            raise stale() from None
        except BaseException:
            self._evict(live)  # memory may be ahead of the database: replay it next time
            raise
        live.version += 1
        self._tell_owner(live)
        return result

    async def _commit(
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
            values.update(status=ABANDONED, finished_at=now, channel_slot=None)
            step.events.append({"kind": "abandoned", "reason": reason})
        elif finished:
            values.update(status=FINISHED, finished_at=now, channel_slot=None)
        deadline = None if step.abandon or finished else self._deadline(live, now)
        seat_positions = {seat.id: seat.position for seat in live.seats} if positions else {}
        record = match_record(live, now, ended) if finished else None

        async def work(connection: AsyncConnection) -> dict[str, Any] | None:
            await repo.append_actions(connection, step.records)
            for seat_id, position in seat_positions.items():
                await repo.update_seat(connection, seat_id, position=position)
            for seat_id, changes in step.seat_changes.items():
                await repo.update_seat(connection, seat_id, **changes)
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
            move = repo.MoveWrite(live.id, live.version, values["action_count"], step.records, remind_at, act_at)
            summary = await self._submit(live, move)
        else:
            summary = await self._write(live, work, **values)
        live.action_count += len(step.records)
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
        self._wake(live)
        hand = hand_of(live, actor) if actor is not None and live.state is not None else None
        return Outcome(live.info(), live.public, dict(live.views), changed, tuple(step.events), actor, hand)

    def _deadline(self, live: LiveTable, now: datetime) -> tuple[datetime | None, datetime] | None:
        """When to remind and when to play for the seats to act (None: no timer)."""
        if live.state is None or live.turn_seconds <= 0:
            return None
        waiting = [live.at(p) for p in live.state.to_act() if not live.at(p).on_autopilot]
        if not waiting:
            return None
        grace = timedelta(seconds=live.guild_grace)
        if all(seat.absent for seat in waiting):
            return None, now + grace  # someone who is away is not kept waiting for twice
        remind_at = now + timedelta(seconds=live.turn_seconds)
        return remind_at, remind_at + grace

    def _thinking(self) -> Thinker:
        if self._thinker is None:
            self._thinker = Thinker()
        return self._thinker

    def _wake(self, live: LiveTable) -> None:
        """Start the table's driver if a computer player is to act there and none is running (only at
        the tables of this process's servers: another shard's owner drives its own)."""
        if not live.evicted and self.shards.owns(live.guild_id) and next_turn(live) is not None:
            self._drivers.start(live.id, lambda: self._drive(live.id))

    async def _drive(self, table_id: int) -> None:
        """Play the computer players' turns at the table, one decision at a time, until people are awaited.

        The lock is held only to copy the state and to apply the choice: a person's
        click meanwhile is served at once, and if it moves the table on, the choice
        (made for a table that is gone) is dropped and the computer thinks again.
        """
        failures = 0
        while True:
            try:
                moved = await self._computer_move(table_id)
            except MovedOn:
                continue  # think again about the table as it is now
            except (asyncio.CancelledError, TableNotFound):
                raise
            except Exception:
                # The database may be away for a moment: nothing was kept of the move, so
                # try again a little later rather than leave the table waiting for a touch.
                failures += 1
                log.exception("a computer move at table %s failed (%d in a row); retrying", table_id, failures)
                await asyncio.sleep(min(60.0, 0.5 * 2**failures))
                continue
            failures = 0
            if moved is None:
                return
            await self._notify(moved)
            if moved.table.status != PLAYING:
                return

    async def _computer_move(self, table_id: int) -> Outcome | None:
        """One decision and its outcome (None: no computer is to act, or the match ended meanwhile)."""
        async with self._locked(table_id) as live:
            turn = next_turn(live)
            if turn is None:
                return None
            assert live.state is not None
            state, count = live.state.to_json(), live.action_count
            seed = decision_seed(live.seed, count)
        action = await self._decide(table_id, state, turn, seed)
        if live.status != PLAYING:
            return None  # the match was ended meanwhile (abandoned, or resigned to one side)
        await self._keep_pace(live)
        async with self._locked(table_id) as current:
            if current is not live or current.action_count != count or next_turn(current) != turn:
                raise MovedOn  # a click, a timeout or a restart came first
            try:
                return await self._commit(current, self._computer_step(current, turn, action, seed), actor=None)
            except StaleAction:
                raise MovedOn from None  # another process moved the table on: it is reloaded

    async def _decide(self, table_id: int, state: str, turn: Turn, seed: int) -> str | None:
        try:
            return (await self._thinking().decide(state, turn.position, turn.level, seed)).action
        except Exception:
            log.exception("the computer player failed at table %s (seat %s)", table_id, turn.position)
            return None

    def _computer_step(self, live: LiveTable, turn: Turn, action: str | None, seed: int) -> Step:
        assert live.state is not None
        if action is not None and action not in live.state.legal(turn.position):
            log.error("the computer player chose %r, which is not legal, at table %s", action, live.id)
            action = None
        step = Step(live, self.clock())
        play_turn(step, turn, action or stand_in(live, turn.position, seed))  # play goes on however it failed
        return step

    async def _keep_pace(self, live: LiveTable) -> None:
        """Wait so that people can follow: the guild's pace after the last move (longer after a trick)."""
        wait = pause_left(live, self.clock(), live.guild_pace_ms)
        if wait > 0:
            await self.sleep(wait)
