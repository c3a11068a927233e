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
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.games import from_json
from bot.players import DEFAULT_BUDGET_MS, ComputerPlayer

log = logging.getLogger(__name__)


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


def think(job: Job) -> Choice:
    """Make one decision (in a worker process, or in-process for tests)."""
    state = from_json(job.state)
    player = ComputerPlayer(job.level, seed=job.seed, budget_ms=job.budget_ms, samples=job.samples)
    decision = player.decide(state, job.seat)
    chosen = decision.chosen
    if chosen is None:
        return Choice(decision.action, samples=decision.samples)
    return Choice(decision.action, chosen.aim, chosen.aim_rate, decision.samples)


def decision_seed(table_seed: int, action_count: int) -> int:
    """The seed of the decision taken when the table's log holds ``action_count`` actions:
    reproducible from the log, and different for every move of the match."""
    return random.Random(f"{table_seed}:{action_count}").getrandbits(62)


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
        self, workers: int | None = None, *, budget_ms: int = DEFAULT_BUDGET_MS, samples: int | None = None
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
        self._pool: ProcessPoolExecutor | None = None

    async def decide(self, state: str, seat: int, level: str, seed: int) -> Choice:
        """``level``'s choice for ``seat`` in ``state`` (a ``GameState.to_json()`` text)."""
        return await self._run(Job(state, seat, level, seed, self.budget_ms, self.samples))

    async def _run(self, job: Job) -> Choice:
        for attempt in range(2):
            pool = self._executor()
            try:
                # Submitting starts a worker process when none is idle (the first time, the fork server
                # too: a second or more): in a thread, so the event loop answers clicks meanwhile.
                future = await asyncio.to_thread(pool.submit, think, job)
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start a fresh pool and try once more.
                log.warning("a computer player's worker process died; restarting the pool")
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=_context())
        return self._pool

    async def close(self) -> None:
        """Stop the workers: decisions not started are dropped, one under way is waited for."""
        pool, self._pool = self._pool, None
        if pool is not None:
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
