"""Computer players' decisions, made off the event loop.

A decision is seconds of CPU-bound Python: in a thread it would hold the GIL
and starve the event loop (every click, every Discord heartbeat), so
:class:`Thinker` runs it in worker processes. A worker receives the state as
JSON text and sends back plain data (:class:`Choice`); it reads nothing else.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import random
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.games import from_json
from bot.players import DEFAULT_BUDGET_MS, ComputerPlayer
from bot.players.inference import Reading

log = logging.getLogger(__name__)
GIVE_UP_AFTER = 60.0  # seconds at the least before a decision that has not come back is given up


@dataclass(frozen=True)
class Job:
    """One decision to make, as it travels to a worker."""

    state: str  # GameState.to_json() of the table at the moment of the decision
    seat: int
    level: str
    seed: int
    budget_ms: int
    samples: int | None  # a fixed number of deals for the strong player (tests); None: as many as the budget allows


@dataclass(frozen=True)
class Choice:
    """A decision as plain data: the action, and for the strong player what its search found of it."""

    action: str
    aim: str | None = None  # "bid", "contract" or "defence"
    rate: float | None = None  # share of the deals tried in which the aim was reached
    samples: int = 0  # deals tried (0: no search was needed)
    reading: Reading | None = None  # what the others' bids and plays say, where the game reads them


class Overran(Exception):
    """A decision given up: it did not come back within the thinker's ``give_up_after``."""


def think(job: Job) -> Choice:
    """Make one decision (in a worker process, or in-process for tests)."""
    state = from_json(job.state)
    player = ComputerPlayer(job.level, seed=job.seed, budget_ms=job.budget_ms, samples=job.samples)
    decision = player.decide(state, job.seat)
    chosen = decision.chosen
    if chosen is None:
        return Choice(decision.action, samples=decision.samples, reading=decision.reading)
    return Choice(decision.action, chosen.aim, chosen.aim_rate, decision.samples, decision.reading)


def decision_seed(table_seed: int, action_count: int) -> int:
    """The seed of the decision taken when the table's log holds ``action_count`` actions:
    reproducible from the log, and different for every move of the match."""
    return random.Random(f"{table_seed}:{action_count}").getrandbits(62)


def _ignore_interrupts() -> None:
    """In each worker: Ctrl-C reaches every process of the terminal's group, and the bot stops its workers
    itself (a KeyboardInterrupt in each would only print a traceback and break the pool under a decision)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool's worker processes now, a decision under way or not (``terminate_workers`` from Python
    3.14; before it, the same through the pool's own table of its processes)."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()


def _context() -> multiprocessing.context.BaseContext:
    # Forking a process that runs an event loop and database threads can copy a held lock
    # into the child; a fork server (or a fresh interpreter) starts workers clean. The fork
    # server imports this module once, so each worker starts with it (and the engines) loaded.
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


class Thinker:
    """Computer players' decisions in a pool of worker processes.

    ``workers`` defaults to the machine's CPU count; the pool starts on the first
    decision. ``budget_ms`` is the strong player's time per decision; ``samples``
    fixes its number of deals instead (deterministic, for tests).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        budget_ms: int = DEFAULT_BUDGET_MS,
        samples: int | None = None,
        give_up_after: float | None = None,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError("a thinker needs at least one worker")
        if budget_ms <= 0:
            raise ValueError("budget_ms must be positive")
        if samples is not None and samples <= 0:
            raise ValueError("samples must be positive")
        self.workers = workers or os.cpu_count() or 1
        self.budget_ms = budget_ms
        self.samples = samples
        # A decision keeps to its budget; one that has not come back long after (a worker stuck, or starved
        # for minutes) is given up, so its table plays on (the easy player stands in) instead of waiting.
        self.give_up_after = give_up_after if give_up_after is not None else max(GIVE_UP_AFTER, 4 * budget_ms / 1000)
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    async def decide(self, state: str, seat: int, level: str, seed: int) -> Choice:
        """``level``'s choice for ``seat`` in ``state`` (a ``GameState.to_json()`` text)."""
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows the caller's cancellation when the
            # decision comes back in the same turn of the loop, and a driver the service cancelled played on
            async with asyncio.timeout(self.give_up_after):
                return await self._run(Job(state, seat, level, seed, self.budget_ms, self.samples))
        except TimeoutError:
            log.error("a decision (seat %s, %s) overran %g s: given up", seat, level, self.give_up_after)
            raise Overran(f"no decision within {self.give_up_after:g} s") from None

    async def _run(self, job: Job) -> Choice:
        for attempt in range(2):
            pool = self._executor()
            try:
                # Submitted from a thread: the first submission starts a worker, which waits for the fork
                # server to import the engines (seconds on a busy machine), and the bot must answer meanwhile.
                future = await asyncio.to_thread(pool.submit, think, job)
                try:
                    return await asyncio.wrap_future(future)
                except asyncio.CancelledError:
                    if not future.cancel() and not self._closed:  # under way in a worker, which cannot stop alone
                        self._restart(pool)
                    raise
            except BrokenProcessPool:
                if self._closed:
                    raise  # stopped on purpose (close): no fresh pool
                # A worker died (killed, out of memory): start a fresh pool and try once more.
                log.warning("a computer player's worker process died; restarting the pool")
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _restart(self, pool: ProcessPoolExecutor) -> None:
        """Stop ``pool``'s workers (one is busy with a decision dropped, perhaps stuck): the next decision
        starts a fresh pool, and the decisions under way in it meanwhile are tried once more there (a broken
        pool's, see ``_run``)."""
        log.warning("a decision under way was dropped; restarting the worker pool")
        if self._pool is pool:
            self._pool = None
        _stop_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._closed = False  # used again after close: a fresh pool
            self._pool = ProcessPoolExecutor(self.workers, mp_context=_context(), initializer=_ignore_interrupts)
        return self._pool

    async def close(self) -> None:
        """Stop the workers at once: decisions not started are dropped, and one under way is abandoned with
        its worker (a decision writes nothing: the table's next start thinks again). A strong player may
        think for up to 30 s a move (``COMPUTER_BUDGET_MS``), longer than a stop may take."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop_workers(pool)
            await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(pool.shutdown, wait=True, cancel_futures=True)
            )


class InProcessThinker(Thinker):
    """For tests only: decides in the calling process, on the event loop, which it blocks meanwhile.

    Cheap to create and deterministic with ``samples``; a bot must use :class:`Thinker`.
    """

    def __init__(self, *, budget_ms: int = DEFAULT_BUDGET_MS, samples: int | None = None) -> None:
        super().__init__(1, budget_ms=budget_ms, samples=samples)

    async def _run(self, job: Job) -> Choice:
        await asyncio.sleep(0)  # let what is already waiting run first, as a pool would
        return think(job)

    async def close(self) -> None:
        return None
