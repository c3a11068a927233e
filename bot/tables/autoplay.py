"""The computer seats' drivers: one task per table while a computer is to act there.

A driver copies the state under the table's lock, thinks without it (in worker processes,
:mod:`bot.tables.thinking`), and applies its choice under the lock only if the table has not
moved meanwhile; a person's click meanwhile is served at once. Each move is committed through
the store (which publishes its events) and handed to ``notify`` (the play part's listeners).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.storage.models import PLAYING

from .computers import Drivers, Turn, next_turn, pause_left, play_turn, stand_in
from .errors import StaleAction, TableNotFound
from .live import LiveTable, Step
from .records import Outcome
from .store import Store
from .thinking import Thinker, decision_seed

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]


class MovedOn(Exception):
    """The table moved on while a computer thought: its choice is dropped and it thinks again."""


class Computers:
    """Plays the computer seats (and resigned seats, and people whose time ran out) at every table of
    this process's servers; ``thinker`` None makes a pool of its own, closed by :meth:`close`."""

    def __init__(
        self, store: Store, notify: Callable[[Outcome], Awaitable[None]], thinker: Thinker | None, sleep: Sleep
    ) -> None:
        self.store = store
        self.notify = notify
        self.sleep = sleep
        self._thinker = thinker
        self._own_thinker = thinker is None
        self.drivers = Drivers()
        store.when_moved(self.wake)

    async def settle(self, table_id: int | None = None) -> None:
        """Wait until no computer player is thinking or due to move at ``table_id`` (or any table)."""
        await self.drivers.settle(table_id)

    async def close(self) -> None:
        """Stop the drivers (a move half thought is thought again by the next process: nothing of it was
        written); shut the pool if it is ours."""
        await self.drivers.close()
        if self._own_thinker and self._thinker is not None:
            await self._thinker.close()
            self._thinker = None

    def thinking(self) -> Thinker:
        if self._thinker is None:
            self._thinker = Thinker()
        return self._thinker

    def wake(self, live: LiveTable) -> None:
        """Start the table's driver if a computer player is to act there and none is running (only at
        the tables of this process's servers: another shard's owner drives its own)."""
        if not live.evicted and self.store.shards.owns(live.guild_id) and next_turn(live) is not None:
            self.drivers.start(live.id, lambda: self._drive(live.id))

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
            await self.notify(moved)
            if moved.table.status != PLAYING:
                return

    async def _computer_move(self, table_id: int) -> Outcome | None:
        """One decision and its outcome (None: no computer is to act, or the match ended meanwhile)."""
        async with self.store.locked(table_id) as live:
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
        async with self.store.locked(table_id) as current:
            if current is not live or current.action_count != count or next_turn(current) != turn:
                raise MovedOn  # a click, a timeout or a restart came first
            try:
                return await self.store.commit(current, self._computer_step(current, turn, action, seed), actor=None)
            except StaleAction:
                raise MovedOn from None  # another process moved the table on: it is reloaded

    async def _decide(self, table_id: int, state: str, turn: Turn, seed: int) -> str | None:
        try:
            return (await self.thinking().decide(state, turn.position, turn.level, seed)).action
        except Exception:
            log.exception("the computer player failed at table %s (seat %s)", table_id, turn.position)
            return None

    def _computer_step(self, live: LiveTable, turn: Turn, action: str | None, seed: int) -> Step:
        assert live.state is not None
        if action is not None and action not in live.state.legal(turn.position):
            log.error("the computer player chose %r, which is not legal, at table %s", action, live.id)
            action = None
        step = Step(live, self.store.clock())
        play_turn(step, turn, action or stand_in(live, turn.position, seed))  # play goes on however it failed
        return step

    async def _keep_pace(self, live: LiveTable) -> None:
        """Wait so that people can follow: the guild's pace after the last move (longer after a trick)."""
        wait = pause_left(live, self.store.clock(), live.guild_pace_ms)
        if wait > 0:
            await self.sleep(wait)
