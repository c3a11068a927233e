"""Who the computer plays for, at what pace, and the per-table tasks that do it.

The table service runs one driver task per table while a computer player is to
act there: a computer seat (at its level), a resigned seat, or a person whose
time ran out (both by the strong player). The driver thinks without the table's
lock and applies its choice only if the table has not moved meanwhile; see
:class:`bot.tables.autoplay.Computers`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.players import ComputerPlayer
from bot.storage.models import PLAYING

from .live import LiveTable, Step

log = logging.getLogger(__name__)

STRONG = "strong"
EASY = "easy"
TRICK_PAUSE = 1.5  # after a completed trick the next lead waits this many paces


@dataclass(frozen=True)
class Turn:
    """A turn the computer plays: for which seat, how well, and what the log will call it."""

    position: int
    level: str
    source: str  # "computer", "resigned" or "timeout"


def next_turn(live: LiveTable) -> Turn | None:
    """The first seat to act that a computer plays for, or None when only people are awaited."""
    state = live.state
    if live.status != PLAYING or state is None or state.is_over():
        return None
    to_act = state.to_act()
    live.overdue.intersection_update(to_act)  # a person who acted, or whose turn passed, is no longer overdue
    for position in to_act:
        seat = live.at(position)
        if seat.computer:
            return Turn(position, seat.level or STRONG, "computer")
        if seat.resigned:
            return Turn(position, STRONG, "resigned")
        if position in live.overdue:
            return Turn(position, STRONG, "timeout")
    return None


def pause_left(live: LiveTable, now: datetime, pace_ms: int) -> float:
    """Seconds still to wait so people can follow: ``pace_ms`` after the last committed
    action, half as long again after a completed trick (thinking time counts towards it)."""
    if live.moved_at is None or pace_ms <= 0:
        return 0.0
    pause = pace_ms / 1000 * (TRICK_PAUSE if live.after_trick else 1.0)
    return max(0.0, pause - (now - live.moved_at).total_seconds())


def play_turn(step: Step, turn: Turn, action: str) -> None:
    """Apply the computer's ``action`` for ``turn``; a timed-out person is marked absent."""
    seat = step.live.at(turn.position)
    if turn.source == "timeout" and not seat.absent:
        step.change_seat(seat, absent=True)
    step.apply(turn.position, action, turn.source)
    if turn.source == "timeout":
        step.events.append({"kind": "timeout", "seat": turn.position, "action": action})


def stand_in(live: LiveTable, position: int, seed: int) -> str:
    """A legal action for when the computer player failed or overran (logged), so play goes on: the easy
    player's choice, thought here in a moment from the seat's knowledge only (a random legal move would bid
    a misère or reveal a hand for a person whose time ran out); a seeded random one only if that fails too."""
    assert live.state is not None
    try:
        return ComputerPlayer(EASY, seed=seed).choose(live.state, position)
    except Exception:
        log.exception("the easy stand-in failed at table %s (seat %s)", live.id, position)
        return random.Random(seed).choice(live.state.legal(position))


class Drivers:
    """At most one driver task per table; ``settle`` waits for them, ``close`` cancels them."""

    def __init__(self) -> None:
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False

    def running(self, table_id: int) -> bool:
        task = self._tasks.get(table_id)
        return task is not None and not task.done()

    def start(self, table_id: int, drive: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Start ``drive()`` for the table unless a driver is already running there."""
        if self._closed or self.running(table_id):
            return
        task = asyncio.get_running_loop().create_task(self._guarded(table_id, drive), name=f"computers-{table_id}")
        self._tasks[table_id] = task

    async def _guarded(self, table_id: int, drive: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            await drive()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer players of table %s stopped; the next touch restarts them", table_id)
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]

    async def settle(self, table_id: int | None = None) -> None:
        """Wait until no driver runs (on ``table_id``, or anywhere), including drivers started meanwhile."""
        while True:
            tasks = [task for key, task in self._tasks.items() if table_id is None or key == table_id]
            tasks = [task for task in tasks if not task.done()]
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
