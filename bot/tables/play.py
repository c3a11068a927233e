"""Play: actions, resignations, abandoning, turn timers and hints."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.games import GameState, IllegalAction
from bot.storage import notify
from bot.storage import repository as repo
from bot.storage import tournaments as trepo
from bot.storage.models import (
    LOBBY,
    PLAYING,
)

from .autoplay import Computers, Sleep
from .computers import STRONG
from .errors import ActionRefused, LogDoesNotReplay, NotAllowed, StaleAction, TableError, TableNotFound, WrongStatus
from .events import Reminded
from .live import LiveSeat, LiveTable, Step, sides_of
from .outages import GatewayClocks
from .records import Hint, Outcome
from .store import Store, expect_version, read_again_if_behind, stale
from .thinking import Choice, Overran, Thinker, decision_seed

log = logging.getLogger(__name__)

Listener = Callable[[Outcome], Awaitable[None]]

DUE_PAGE = 500  # due deadlines read, and reminders claimed in one write, at a time
LOBBY_SWEEP_SECONDS = 30.0  # how often lobbies left unshown by a crash are looked for while running
# How often the tables held here are compared with the database (one query for all of them), in case news of
# another process's commit never arrived: a table whose computer is to act has no deadline to wake it.
VERSION_CHECK_SECONDS = 5.0
# A table that fails at its turn timer (a log that no longer replays) is tried again this long after, not at
# every pass: the others' timers go on meanwhile.
SET_ASIDE = timedelta(minutes=5)
# Any other failure (the database away a moment: a lost pooled connection, a failed read) is tried again at the
# next pass; only a table that fails this many passes in a row is set aside as well.
SET_ASIDE_AFTER = 3
# Due rows checked and reminded under their tables' locks at a time (the claim is one write for them).
REMIND_AT_ONCE = 50


def canonical_action(state: GameState, seat: int, action: str) -> str:
    """``action`` as the engine names it among the seat's legal actions, where it is one of them written
    otherwise (another case, other spacing, its cards in another order): the move log, the review and every
    view then show the card as the engine names it. Otherwise ``action`` itself, for the engine to refuse with
    its own reason (or to take)."""
    legal = state.legal(seat)
    if action in legal:
        return action
    key = _action_key(action)
    return next((candidate for candidate in legal if _action_key(candidate) == key), action)


def not_playing(live: LiveTable) -> WrongStatus:
    """Why a table not in play refuses a move, a hint or a resignation: not started yet, or over (and how)."""
    return WrongStatus("not_in_play") if live.status == LOBBY else WrongStatus("table_closed", status=live.status)


def _action_key(action: str) -> tuple[str, ...]:
    words = action.upper().split()
    return (words[0], *sorted(words[1:])) if words else ()


def retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class Play:
    """Play, timers, computer seats and hints.

    ``thinker`` makes the computer players' decisions (None: a :class:`Thinker` with a worker process
    per CPU, started on the first decision and stopped by :meth:`close`; one passed in is the caller's
    to close). ``sleep`` waits out the computers' pace (tests pass one that moves their clock instead).
    What play changes leaves as the store's events; what the service does by itself (computer moves,
    timeouts, reminders) is also handed as an :class:`Outcome` to the listeners of :meth:`listen`.
    """

    def __init__(self, store: Store, *, thinker: Thinker | None = None, sleep: Sleep = asyncio.sleep) -> None:
        self.store = store
        self.computers = Computers(store, self._notify, thinker, sleep)
        self._listeners: list[Listener] = []
        self._hints: dict[int, tuple[int, dict[int, asyncio.Future[Choice]]]] = {}
        self._timer_task: asyncio.Task[None] | None = None
        self._failures: dict[int, int] = {}  # the passes in a row at which a table failed at its timer
        self.gateway = GatewayClocks(store)  # the shards whose servers' clocks stop while Discord is away
        store.when_evicted(self._forget_hints)

    def _forget_hints(self, table_id: int) -> None:
        self._hints.pop(table_id, None)

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
        await self.computers.settle(table_id)

    async def close(self) -> None:
        """Stop the timers, the computer players and hints under way."""
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task
            self._timer_task = None
        await self.computers.close()
        for _, pending in self._hints.values():
            for future in pending.values():
                future.cancel()
        self._hints.clear()

    def run_timers_forever(
        self, listener: Listener | None = None, interval: float = 1.0, check_every: float = VERSION_CHECK_SECONDS
    ) -> asyncio.Task[None]:
        """Poll the turn deadlines every ``interval`` seconds; ``listener`` (if any) is registered with
        :meth:`listen` and hears every reminder, timeout and computer move (the events go to the
        subscribers of the store's bus either way). Every ``check_every`` seconds the tables held here are
        compared with the database (:meth:`Store.catch_up_all`): the safety net under the other processes'
        notifications, and for a table of this process's servers not held here (not read at start, or dropped
        after a failed write), read again."""
        if listener is not None:
            self.listen(listener)

        async def loop() -> None:
            swept = checked = time.monotonic()
            while True:
                await _guarded("turn timers", self._run_timers_and_tell())
                if time.monotonic() - swept >= LOBBY_SWEEP_SECONDS:  # another process's crash, say
                    swept = time.monotonic()
                    await _guarded("the sweep of lobbies never shown", self.store.close_unshown_lobbies())
                if time.monotonic() - checked >= check_every:  # news of another process's commit lost
                    checked = time.monotonic()
                    await _guarded("the check for news missed", self.store.catch_up_all())
                await asyncio.sleep(interval)

        self._timer_task = asyncio.create_task(loop(), name="turn-timers")
        return self._timer_task

    async def _run_timers_and_tell(self) -> None:
        for outcome in await self.run_timers():
            await self._notify(outcome)

    @read_again_if_behind
    async def act(
        self,
        table_id: int,
        user_id: int,
        action: str,
        *,
        expected_version: int | None = None,
        expected_turn: int | None = None,
    ) -> Outcome:
        """Apply ``user_id``'s action; it is committed before this returns.

        ``expected_version`` (the version the person saw) refuses a click on a table
        that has moved on since. ``expected_turn`` (the seat's ``acted`` count when its
        choices were shown) refuses only a click from before the seat's own last action
        (or a timeout's), so others' moves meanwhile do not spoil a hand that is still right.

        A refusal that may come from this process's copy being behind the database (another
        process moved the table on) reads the table again and tries once more, so a click
        routed to any process is answered from the table as it is.
        """
        return await self._act_once(table_id, user_id, action, expected_version, expected_turn)

    async def _act_once(
        self, table_id: int, user_id: int, action: str, expected_version: int | None, expected_turn: int | None
    ) -> Outcome:
        async with self.store.locked(table_id) as live:
            expect_version(live, expected_version)
            if live.status != PLAYING or live.state is None:
                raise not_playing(live)
            seat = self._player_seat(live, user_id)
            if expected_turn is not None and expected_turn != seat.acted:
                raise stale()
            if seat.position not in live.state.to_act():
                raise NotAllowed("not_your_turn")
            step = Step(live, self.store.clock())
            action = canonical_action(live.state, seat.position, action)
            try:
                step.apply(seat.position, action, "player")
            except IllegalAction as error:
                raise ActionRefused.from_game(error) from None
            if seat.absent:
                step.change_seat(seat, absent=False)
            return await self.store.commit(live, step, actor=seat.position)

    @staticmethod
    def _player_seat(live: LiveTable, user_id: int) -> LiveSeat:
        """The seat the user plays at this match, refusing someone not seated or resigned."""
        seat = live.seat_of(user_id)
        if seat is None or seat.position is None:
            raise NotAllowed("not_seated")
        if seat.resigned:
            raise NotAllowed("resigned")
        return seat

    @read_again_if_behind
    async def resign(self, table_id: int, user_id: int) -> Outcome:
        """Give up the match: a loss. The strong computer plays the seat on, unless one side of people is left."""
        async with self.store.locked(table_id) as live:
            if live.status != PLAYING or live.state is None:
                raise not_playing(live)
            seat = self._player_seat(live, user_id)
            step = Step(live, self.store.clock())
            step.change_seat(seat, resigned=True)
            step.events.append({"kind": "resigned", "seat": seat.position})
            sides = sides_of(live.public, len(live.seats))
            standing = [
                side
                for side in sides
                if any(live.at(p).user_id is not None for p in side) and not any(live.at(p).resigned for p in side)
            ]
            if len(standing) <= 1:
                winners = [p for side in standing for p in side]
                return await self.store.commit(live, step, actor=seat.position, ended={"winners": winners})
            return await self.store.commit(live, step, actor=seat.position)

    @read_again_if_behind
    async def abandon(
        self, table_id: int, by_user: int, *, can_manage: bool = False, reason: str = "abandoned"
    ) -> Outcome:
        """End a table without rating it: its host, or someone who can manage the server. A tournament's table
        (its host the tournament's) not by a host who plays at it: an abandoned round's table counts as all its
        seats tied, so a host losing there could have turned the loss into a shared first place. ``reason``: why,
        in its ``abandoned`` event (the bot removed from the server, the table's channel deleted: see
        :mod:`bot.tables.departures`)."""
        async with self.store.locked(table_id) as live:
            if live.status not in (LOBBY, PLAYING):
                raise WrongStatus("table_closed", status=live.status)
            if by_user != live.host_id and not can_manage:
                raise NotAllowed("not_allowed_abandon")
            if not can_manage and live.seat_of(by_user) is not None:
                async with self.store.db.engine.connect() as connection:
                    if await trepo.tournament_of_table(connection, table_id) is not None:
                        raise NotAllowed("not_allowed_abandon_own_round")
            step = Step(live, self.store.clock())
            step.abandon = True
            return await self.store.commit(live, step, actor=None, reason=reason)

    async def close_unreadable(self, table_id: int) -> bool:
        """End a table whose log no longer replays (:class:`LogDoesNotReplay`: no move can be made there, nothing
        of its game read) by its row alone, where :meth:`abandon` cannot: its places freed, its timer gone, nobody
        rated. For those that end tables wholesale (the bot removed from a server, a channel deleted, a tournament
        cancelled), so that one such table does not keep the others open. Whether it was still open."""
        now = self.store.clock()

        async def work(connection: AsyncConnection) -> bool:
            return await repo.close_unreadable(connection, table_id, now)

        return await self.store.db.write(work)  # (never held in memory: it could not be read)

    async def run_timers(self, now: datetime | None = None) -> list[Outcome]:
        """Remind, or hand to the strong computer player, every seat whose turn deadline has passed,
        at the tables of this process's servers (but those of a shard that has lost Discord's gateway: see
        :class:`GatewayClocks`).

        Returns the reminders; the moves made for people whose time ran out reach the
        listeners (each with a ``timeout`` event) as the computer makes them. However many
        deadlines are due (after an outage, thousands), the reminders are claimed in one
        write per batch, and the computers' moves are group-committed as they come.
        """
        now = now or self.store.clock()
        for live in self.store.loaded():
            self.computers.wake(live)  # a driver stopped by an error (a database hiccup) starts again
        outcomes: list[Outcome] = []
        after: tuple[datetime, int] | None = None
        while True:  # page by page: a timeout's row stays due until its move, so pages move on by key
            async with self.store.db.engine.connect() as connection:
                due = await repo.due_deadlines(
                    connection,
                    now,
                    DUE_PAGE,
                    shards=self.store.shards,
                    after=after,
                    paused=self.gateway.paused(),
                    servers_out=self.gateway.servers_out(),
                )
            # The tables to remind stay locked from the check to the reminder: a bid that keeps the clock
            # (Ninety-Nine's, made at once) cannot come between the claim and the reminder and carry the claimed
            # deadline to a version the reminder would take for one a move replaced. A few at a time, so that a
            # click at one of them waits for a handful of tables' checks and one claim, not for a whole page's.
            for start in range(0, len(due), REMIND_AT_ONCE):
                outcomes.extend(await self._due_rows(due[start : start + REMIND_AT_ONCE], now))
            if len(due) < DUE_PAGE:
                return outcomes
            after = (due[-1].due_at, due[-1].table_id)

    async def _due_rows(self, rows: Sequence[Any], now: datetime) -> list[Outcome]:
        """Handle some due deadline rows (see ``run_timers``): the reminders claimed and told, the timeouts woken."""
        async with contextlib.AsyncExitStack() as held:
            to_remind: list[tuple[Any, LiveTable]] = []
            for row in rows:
                try:
                    reminding = await self._due(row, now, held)
                except (TableNotFound, StaleAction):
                    continue
                except Exception as error:  # one bad table must not stop every timer
                    self.store.troubled(row.table_id, "at its turn timer")
                    failures = self._failures[row.table_id] = self._failures.get(row.table_id, 0) + 1
                    if isinstance(error, LogDoesNotReplay) or failures >= SET_ASIDE_AFTER:
                        self._failures.pop(row.table_id, None)
                        await self._set_aside(row, now)
                    continue
                self._failures.pop(row.table_id, None)
                self.store.recovered(row.table_id)
                if reminding is not None:
                    to_remind.append((row, reminding))
            return await self._remind(to_remind, now)

    async def _due(self, row: Any, now: datetime, held: contextlib.AsyncExitStack) -> LiveTable | None:
        """Handle one due deadline row (table_id, version, remind_at, act_at): the table if its seats are
        to be reminded, its lock then left held (until ``held`` closes, after the reminder); past the reminder,
        the computer is woken to play for them."""
        table_id, version = row.table_id, row.version
        live_now = self.store.peek(table_id)
        if live_now is not None and live_now.version < version:  # another process moved on: read it again
            await self.store.refreshed(table_id)
        async with contextlib.AsyncExitStack() as lock:
            live = await lock.enter_async_context(self.store.locked(table_id))
            if live.version != version or live.status != PLAYING or live.state is None:
                return None  # a newer action replaced this deadline
            if row.remind_at is not None and now < row.act_at:
                held.push_async_exit(lock.pop_all())  # held until the reminder is claimed and told
                return live
            # Nothing is written now: the deadline stays due until the computer's move replaces
            # it, so a restart meanwhile hands these turns to the computer again.
            live.overdue.update(p for p in live.state.to_act() if not live.at(p).on_autopilot)
            self.computers.wake(live)
            return None

    async def _set_aside(self, row: Any, now: datetime) -> None:
        """Leave a table that failed at its timer (its log no longer replays, or it failed
        :data:`SET_ASIDE_AFTER` passes in a row) alone for :data:`SET_ASIDE`: it is tried again then, not at
        every pass (and its deadline no longer heads every page of due ones). Its next write that keeps the
        clock makes it due at its own moment again."""

        async def work(connection: AsyncConnection) -> None:
            await repo.postpone_deadline(connection, row.table_id, row.version, now + SET_ASIDE)

        await self.store.db.write(work)

    async def _remind(self, due: list[tuple[Any, LiveTable]], now: datetime) -> list[Outcome]:
        """Claim the reminders of ``due`` (each row with its table, whose lock the caller holds) in one write,
        then describe those this process claimed. Nothing here can move on between the claim and the reminder;
        another process may (a click routed there), and then either its move came first and the claim finds
        nothing (the next pass reminds at the new version), or it carries the claimed deadline on, and the seats
        still waiting on that clock are among those reminded here."""
        if not due:
            return []
        rows = [row for row, _ in due]

        told = self.store.db.backend == "postgresql" and not self.store.shards.all  # others may hold copies

        async def claim(connection: AsyncConnection) -> set[tuple[int, int]]:
            claimed = await repo.claim_reminders(connection, [(row.table_id, row.version) for row in rows])
            if told and claimed:  # the other processes' copies count to the new time too, from this commit
                guilds = await repo.guilds_of(connection, [table_id for table_id, _ in claimed])
                acts = {(row.table_id, row.version): row.act_at for row in rows}
                news = [(t, guilds[t], v, acts[(t, v)]) for t, v in sorted(claimed) if t in guilds]
                await notify.announce_reminders(connection, news)
            return claimed

        claimed = await self.store.db.write(claim)  # another process's claim means it sends them, once
        outcomes = []
        for row, live in due:
            if (row.table_id, row.version) not in claimed:
                continue
            try:
                assert live.state is not None  # checked in play, with the lock held since
                live.turn_ends = row.act_at  # what is left is the grace before the computer plays
                waiting = [p for p in live.state.to_act() if not live.at(p).on_autopilot]
                event = {"kind": "reminder", "seats": waiting, "act_at": row.act_at.isoformat()}
                outcome = Outcome(live.info(), live.public, dict(live.views), (), (event,))
                outcomes.append(outcome)
                self.store.events.publish(Reminded(outcome.table, tuple(waiting), row.act_at))
            except Exception:
                self.store.troubled(row.table_id, "at its reminder")
        return outcomes

    @read_again_if_behind
    async def hint(self, table_id: int, user_id: int) -> Hint:
        """What the strong computer player would do in the person's seat, from that seat's knowledge only."""
        async with self.store.locked(table_id) as live:
            if live.status != PLAYING or live.state is None:
                raise not_playing(live)
            if not live.hints:
                raise NotAllowed("hints_off")
            seat = self._player_seat(live, user_id)
            if seat.position not in live.state.to_act():
                raise NotAllowed("not_your_turn")
            count, pending = self._hints.get(table_id, (-1, {}))
            if count != live.action_count:  # hints of earlier turns are of no use now
                count, pending = live.action_count, {}
                self._hints[table_id] = (count, pending)
            future = pending.get(seat.position)
            if future is None or (future.done() and (future.cancelled() or future.exception() is not None)):
                thinking = self.computers.thinking().decide(
                    live.state.to_json(), seat.position, STRONG, decision_seed(live.seed, count)
                )
                future = pending[seat.position] = asyncio.ensure_future(thinking)
                future.add_done_callback(retrieved)  # its asker may have gone: no "never retrieved" warning
        acted = seat.acted
        try:
            choice = await asyncio.shield(future)  # a second click while thinking waits for the same hint
        except (Overran, BrokenProcessPool) as error:  # logged where it happened; the asker is told
            raise TableError("hint_failed") from error
        async with self.store.locked(table_id) as live:
            now = live.seat_of(user_id)
            if (
                live.state is None
                or now is None
                or now.acted != acted
                or now.position not in live.state.to_act()
                or choice.action not in live.state.legal(now.position)
            ):
                raise NotAllowed("hint_moved_on")  # the seat moved (or timed out) while it was thought out
        return Hint(choice.action, choice.aim, choice.rate, choice.samples, choice.reading)


async def _guarded(what: str, work: Awaitable[Any]) -> None:
    """Run one duty of the timer loop; a failure is logged and the loop goes on with its other duties."""
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("%s failed; retrying", what)
