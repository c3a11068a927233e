"""What the tournaments part returns and publishes: plain frozen data, no views."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.storage.models import TournamentStatus

from .errors import TableError

log = logging.getLogger(__name__)

SWISS, KNOCKOUT, DUPLICATE = "swiss", "knockout", "duplicate"
FORMATS = (SWISS, KNOCKOUT, DUPLICATE)
# a round's tables (or a deal's comparison) claimed but still not posted this long after: post them again
REPOST_AFTER = timedelta(minutes=2)
REPOST_MOST = timedelta(minutes=30)  # the longest wait between two tries of what Discord keeps failing to take
AFTER_ROUND, AFTER_DEAL = "round", "deal"  # when a duplicate night's comparison is posted
COMPARE_TIMES = (AFTER_ROUND, AFTER_DEAL)


class Reposts:
    """When one process publishes again what it (or a process before it) published and is still not shown: a
    round's tables, a deal's comparison that Discord failed to take (a 5xx, the network, a refusal). First
    ``REPOST_AFTER`` after it was published, then twice as long each time, up to ``REPOST_MOST``: a passing
    failure is mended within minutes, one that lasts (a channel the bot may no longer write in) is tried a few
    times an hour rather than at every re-check."""

    def __init__(self) -> None:
        self._next: dict[Hashable, tuple[datetime, timedelta]] = {}

    def published(self, key: Hashable, now: datetime) -> None:
        """``key`` was published at ``now`` (the first time this process did)."""
        self._next[key] = (now + REPOST_AFTER, REPOST_AFTER)

    def known(self, key: Hashable) -> bool:
        return key in self._next

    def due(self, key: Hashable, now: datetime) -> bool:
        """Whether ``key``, published by this process and still not shown, is to be published again now; if so,
        the next time is set."""
        entry = self._next.get(key)
        if entry is None or now < entry[0]:
            return False
        gap = min(entry[1] * 2, REPOST_MOST)
        self._next[key] = (now + gap, gap)
        return True

    def shown(self, key: Hashable) -> None:
        """``key`` is shown now: nothing more to publish."""
        self._next.pop(key, None)


@dataclass(frozen=True)
class EntrantInfo:
    id: int  # the entrant's id in the standings (sign-up order)
    user_id: int | None  # None: a computer the host added
    name: str
    withdrawn: bool = False

    @property
    def computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class TournamentInfo:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game: str
    options: dict[str, Any]
    format: str
    table_size: int
    rounds: int
    advance: int
    computers: bool
    rated: bool
    starts_at: datetime | None
    seed: int
    status: TournamentStatus
    round: int
    entrants: tuple[EntrantInfo, ...]
    compare_after: str = AFTER_ROUND  # a duplicate night: the comparison after each deal, or each round

    def entrant_of(self, user_id: int) -> EntrantInfo | None:
        return next((e for e in self.entrants if e.user_id == user_id and not e.withdrawn), None)

    @property
    def playing(self) -> list[EntrantInfo]:
        return [entrant for entrant in self.entrants if not entrant.withdrawn]

    @property
    def is_open(self) -> bool:
        return self.status in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)


@dataclass(frozen=True)
class RoundTable:
    """A table of a round: its number (from 1), the table, each seat's entrant (None: a computer filling
    it), whether it is over, and each seat's place (1 best) once it is."""

    round: int
    number: int
    table_id: int
    seats: tuple[int | None, ...]
    status: str
    message_id: int | None
    places: tuple[int, ...] | None
    private: bool = False  # played in a private thread of its own, seen by its players only (a duplicate night's)


@dataclass(frozen=True)
class StandingLine:
    rank: int
    entrant: EntrantInfo
    points: str  # as shown: 3, 2.5, 1.33
    opponents_points: str
    firsts: int
    played: int
    byes: int


@dataclass(frozen=True)
class ComparedSeat:
    """One table's seat at one deal of a duplicate round: who sat there, what it bid and took, its score
    for the deal, and its matchpoints for the deal against the same seat at the other tables."""

    table: int  # the table's number in the round
    entrant: EntrantInfo | None  # None: a computer filling the seat
    bid: int | None
    tricks: int
    change: int
    matchpoints: int


@dataclass(frozen=True)
class ComparedDeal:
    deal: int
    seats: tuple[tuple[ComparedSeat, ...], ...]  # per seat position, one per table


LANGUAGE_CHANGED = "language"  # TournamentChanged.what: its server's language changed


@dataclass(frozen=True)
class TournamentChanged:
    """A tournament changed: ``what`` is ``signup`` (entrants), ``started``, ``round_opened`` (the round's
    tables are open: post them), ``deal_compared`` (a duplicate night compared after each deal: ``deal`` was
    played at every table of the round, post its comparison), ``round_done`` (its standings), ``finished``
    (the podium), ``cancelled`` (``refusal``: why, when it was called off at its start time), or ``language``
    (its server's language changed: its sign-up is drawn again)."""

    tournament_id: int
    guild_id: int
    what: str
    round: int
    deal: int | None = None
    refusal: TableError | None = None


Listener = Callable[[TournamentChanged], Awaitable[None]]


class TournamentEvents:
    """The tournaments' events, heard one at a time and in order by each listener (like the tables' bus)."""

    def __init__(self) -> None:
        self._listeners: list[tuple[Listener, asyncio.Queue[TournamentChanged]]] = []
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append((listener, asyncio.Queue()))

    def publish(self, event: TournamentChanged) -> None:
        for index, (listener, queue) in enumerate(self._listeners):
            queue.put_nowait(event)
            task = self._tasks.get(index)
            if task is None or task.done():
                self._tasks[index] = asyncio.get_running_loop().create_task(
                    self._run(listener, queue), name="tournament-events"
                )

    @staticmethod
    async def _run(listener: Listener, queue: asyncio.Queue[TournamentChanged]) -> None:
        while True:
            event = await queue.get()
            try:
                await listener(event)
            except Exception:
                log.exception("a tournament listener failed on %s of tournament %s", event.what, event.tournament_id)
            finally:
                queue.task_done()

    async def drain(self) -> None:
        for _, queue in self._listeners:
            await queue.join()

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = {}


@dataclass(frozen=True)
class TournamentResult:
    """A finished tournament as /history lists it: what it was, when it ended, how many entered, where its
    podium is, who won, and (read for one player) that player's place."""

    id: int
    game: str
    format: str
    finished_at: datetime | None
    guild_id: int
    channel_id: int
    podium_message_id: int | None  # None: not posted (or finished before it was kept): the sign-up's below
    message_id: int | None  # the sign-up message
    entrants: int
    winners: tuple[int | None, ...]  # the user ids placed first (None: a computer)
    place: int | None = None


@dataclass(frozen=True)
class TournamentTotals:
    """A player's finished tournaments: how many, how many on the podium (top three), how many won."""

    played: int = 0
    podiums: int = 0
    wins: int = 0
