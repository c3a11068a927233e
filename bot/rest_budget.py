"""One budget of REST calls for the whole bot: a token bucket with priorities, in memory or shared through Redis.

Discord lets a bot make 50 REST calls a second, counted across all its
processes (interaction answers are not counted; channel posts and edits are).
Every counted call takes a token from one bucket first. The bucket is shaped so
that no second ever holds more than ``per_second`` calls: it holds at most
``capacity`` tokens and refills at ``per_second - capacity`` a second, and a
second can spend at most what the bucket held plus what it refilled.

Priorities are reserves: a call of lower priority takes a token only while
more than its floor remains, so the tokens under it are kept for calls that
matter more.

- ``URGENT`` (a person waits on it: posting a lobby, opening its thread,
  anything not marked otherwise) takes the last token;
- ``PING`` (turn pings, reminders, timeouts) leaves a quarter of the bucket;
- ``EDIT`` (the public table edited in place) leaves half of it.

So under a flood of table edits the bucket hovers at the edits' floor, and a
ping or an answer still finds a token at once. Within a process the waiters
are served most urgent first, then first come, first served: a table that has
just edited waits behind every table already waiting, so under pressure each
table's edits are spaced further apart, fairly. Pings never stop the edits
altogether: while edits wait, every fourth token below the answers goes to
the oldest of them, so a table's latest state always lands.

Two backends: in memory (one process), and Redis (``REDIS_URL``), where one
Lua script refills and takes atomically on Redis's own clock (``TIME``), so
every process draws on the same bucket. If Redis cannot be reached the budget
says so once and carries on in memory with this process's share (the budget
divided by the processes that were sharing it), and goes back to Redis when
it answers again.

A Redis far away (another region, 200 ms a round trip) still serves the whole
budget. One take asks for as many tokens as the callers next in line want at
one floor, up to what the bucket can hold above that floor, and the script
takes them all at once (or as many as the floor allows) in one round trip; the
memory bucket does the same. Takes do not wait for each other's answer: while
callers are left that no take on its way asks for, another goes out as soon as
the bucket has had time to refill what the last one asked for (at most eight on
their way). Tokens are handed out when the answer comes back, in the order above
at that moment (an answer who came meanwhile goes first), and only to callers
whose floor is no higher than the one they were taken at. A token taken for a
caller who gave up meanwhile goes to the next in line; if nobody may have it,
it goes back into the bucket with the next take (never into another bucket), so
the bucket then holds no more than it would have had it never been taken.
None of this lets more into a second: each take is atomic, and taking several
tokens at once is taking them one after another at the same moment. A caller
who finds nobody queued and no take on its way takes its own token at once; if
refused, it queues ahead of those who came while it asked.

Nothing here imports discord: the bot's HTTP client calls :meth:`RestBudget.spend`
before each counted call (``cogs/rest.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import math
import random
import time
import uuid
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50  # REST calls a second for a bot, across all its processes
DEFAULT_PER_SECOND = 45.0  # below it, for the clocks of Discord and of the bot not agreeing to the millisecond
LEAST_PER_SECOND = 3.0  # a bucket of two tokens needs at least one more a second to refill
PROCESS_SEEN_FOR = 15.0  # seconds: a process that drew on the shared bucket this recently shares it
PROBE_EVERY = 5.0  # seconds between attempts to reach Redis again
REPORT_EVERY = 60.0  # seconds between reports of a budget under pressure
TAKES_IN_FLIGHT = 8  # takes on their way to Redis at once, at most (each on a connection of its own)
PINGS_BEFORE_AN_EDIT = 3  # while edits wait, at most this many pings in a row go before the oldest edit


def bucket_key(token: str | None) -> str:
    """The Redis key of a bot's bucket: Discord counts per bot, so each bot's is its own (named by a digest of its
    token, which says nothing of the token), and several bots may share one Redis."""
    if not token:
        return "trick-table:rest"
    return "trick-table:rest:" + hashlib.sha256(token.encode()).hexdigest()[:16]


class Priority(IntEnum):
    """Who waits on a call; lower is served first and may dig deeper into the bucket."""

    URGENT = 0  # a person waits on it (and every call nobody marked)
    PING = 1  # turn pings, reminders, timeouts
    EDIT = 2  # the table edited in place


_priority: ContextVar[Priority] = ContextVar("rest_priority", default=Priority.URGENT)


@dataclass
class _Prepaid:
    left: int


_prepaid: ContextVar[_Prepaid | None] = ContextVar("rest_prepaid", default=None)


@contextlib.contextmanager
def rest_priority(priority: Priority) -> Iterator[None]:
    """REST calls made inside (by this task, and tasks it starts) take tokens at ``priority``."""
    token = _priority.set(priority)
    try:
        yield
    finally:
        _priority.reset(token)


def current_priority() -> Priority:
    return _priority.get()


@dataclass(frozen=True)
class Shape:
    """A bucket that never lets more than ``per_second`` calls into any one second."""

    per_second: float

    def __post_init__(self) -> None:
        if self.per_second < LEAST_PER_SECOND:
            raise ValueError(f"a REST budget needs at least {LEAST_PER_SECOND:g} calls a second")

    @property
    def capacity(self) -> float:
        return max(2.0, self.per_second / 10)

    @property
    def rate(self) -> float:
        return self.per_second - self.capacity

    def floor(self, priority: Priority) -> float:
        """The tokens a call of this priority must leave in the bucket."""
        return self.capacity * (0.0, 0.25, 0.5)[priority]


class Bucket(Protocol):
    async def take(self, priority: Priority) -> float:
        """Take a token if the priority's floor would be left in the bucket: 0.0; else the seconds until there
        may be enough."""
        ...

    async def take_up_to(self, priority: Priority, most: int, returned: int = 0) -> tuple[int, float]:
        """Put back ``returned`` tokens taken earlier and never used, then take as many tokens as the priority's
        floor allows, at least one and at most ``most`` (or none): how many were taken, and the seconds until the
        bucket may hold one more above the floor (0.0 if it does now)."""
        ...


class MemoryBucket:
    """The bucket of one process."""

    def __init__(self, shape: Shape, clock: Callable[[], float] = time.monotonic) -> None:
        self.shape = shape
        self.clock = clock
        self.tokens = shape.capacity
        self.stamp = clock()

    def level(self) -> float:
        now = self.clock()
        if now > self.stamp:
            self.tokens = min(self.shape.capacity, self.tokens + (now - self.stamp) * self.shape.rate)
        self.stamp = now
        return self.tokens

    async def take(self, priority: Priority) -> float:
        taken, wait = await self.take_up_to(priority, 1)
        return 0.0 if taken else max(wait, 1e-6)  # a refusal never reads as a token (Redis rounds the wait)

    async def take_up_to(self, priority: Priority, most: int, returned: int = 0) -> tuple[int, float]:
        floor = self.shape.floor(priority)
        need = 1.0 + floor
        tokens = min(self.shape.capacity, self.level() + returned)
        taken = 0
        if tokens >= need:  # at least one; never so many that less than the floor is left
            taken = max(1, min(most, math.floor(tokens - floor)))
            tokens -= taken
        self.tokens = tokens
        return taken, 0.0 if tokens >= need else (need - tokens) / self.shape.rate


# KEYS: the bucket, the processes drawing on it. ARGV: rate, capacity, floor, this process, seconds a process
# counts as sharing, the most tokens to take (1 if absent), tokens taken earlier and never used, put back first
# (0 if absent). Returns {tokens taken (0 to the most), seconds until one more may be taken at this floor (text:
# Lua numbers reach Redis as integers), processes}.
TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local floor = tonumber(ARGV[3])
local need = 1 + floor
local most = tonumber(ARGV[6]) or 1
local returned = tonumber(ARGV[7]) or 0
local state = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(state[1])
local stamp = tonumber(state[2])
if tokens == nil or stamp == nil then
  tokens = capacity
  stamp = now
end
if now > stamp then
  tokens = tokens + (now - stamp) * rate
end
tokens = math.min(capacity, tokens + returned)
local taken = 0
if tokens >= need then
  taken = math.max(1, math.min(most, math.floor(tokens - floor)))
  tokens = tokens - taken
end
local wait = 0
if tokens < need then
  wait = (need - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'stamp', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], 60000)
redis.call('ZADD', KEYS[2], now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[2], 60000)
return {taken, string.format('%.6f', wait), redis.call('ZCARD', KEYS[2])}
"""


class RedisBucket:
    """The bucket every process shares, kept in Redis and changed only by one atomic script."""

    def __init__(self, shape: Shape, url: str, key: str = "trick-table:rest", timeout: float = 1.0) -> None:
        import redis.asyncio  # only a bot that shares its budget needs Redis

        self.shape = shape
        self.client = redis.asyncio.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout, decode_responses=True
        )
        self.script = self.client.register_script(TAKE)
        # One hash slot for both keys (Redis Cluster runs a script only over keys of one slot).
        self.keys = [f"{{{key}}}", f"{{{key}}}:processes"]
        self.member = uuid.uuid4().hex
        self.processes = 0  # how many processes drew on the bucket lately, as of the last call

    async def take(self, priority: Priority) -> float:
        taken, wait = await self.take_up_to(priority, 1)
        return 0.0 if taken else max(wait, 1e-6)  # a refusal never reads as a token (Redis rounds the wait)

    async def take_up_to(self, priority: Priority, most: int, returned: int = 0) -> tuple[int, float]:
        """One round trip to Redis, however many tokens it takes."""
        floor = self.shape.floor(priority)
        args = [repr(self.shape.rate), repr(self.shape.capacity), repr(floor), self.member, repr(PROCESS_SEEN_FOR)]
        args += [str(most), str(returned)]
        taken, wait, processes = await self.script(keys=self.keys, args=args)
        self.processes = int(processes)
        return int(taken), float(wait)

    async def ping(self) -> None:
        """Redis answers and takes writes: a read-only replica after a failover, or a Redis out of memory that
        evicts nothing, answers PING and refuses the script (the budget would go back to it and fall off again)."""
        await self.client.set(f"{self.keys[0]}:probe", self.member, px=60_000)

    async def close(self) -> None:
        await self.client.aclose()


class RestBudget:
    """Take a token before each counted REST call: at once when the bucket allows, else after a wait that
    never blocks the event loop. Most urgent first; first come, first served within a priority."""

    def __init__(
        self,
        per_second: float = DEFAULT_PER_SECOND,
        redis_url: str | None = None,
        *,
        key: str = "trick-table:rest",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.shape = Shape(per_second)
        self.clock = clock
        self.shared: RedisBucket | None = RedisBucket(self.shape, redis_url, key) if redis_url else None
        self.local: Bucket = MemoryBucket(self.shape, clock)  # the whole budget, or this process's share
        self.degraded = False  # Redis is configured but out of reach: the local share is used
        self._waiting: dict[Priority, deque[asyncio.Future[None]]] = {p: deque() for p in Priority}
        self._pings_in_a_row = 0  # pings served while edits waited, since the last edit
        self._unused = 0  # tokens taken for waiters who gave up meanwhile: back into their bucket with its next take
        self._unused_from: Bucket | None = None
        self._retry_at: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # the loop's time a floor may be asked
        self._taking = 0  # takes on their way to the bucket
        self._server: asyncio.Task[None] | None = None
        self._arrived = asyncio.Event()
        self._probe: asyncio.Task[None] | None = None
        self.taken: Counter[Priority] = Counter()
        self.put_back = 0  # tokens taken for waiters who gave up meanwhile, and put back
        self.waited: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # seconds spent waiting, over all calls
        self._reported = clock()
        self._report_taken: Counter[Priority] = Counter()
        self._report_waited: dict[Priority, float] = dict.fromkeys(Priority, 0.0)

    @property
    def backend(self) -> str:
        if self.shared is None:
            return "memory"
        return "memory (Redis out of reach)" if self.degraded else "redis"

    async def start(self) -> None:
        """Say which budget the bot runs on; with Redis, reach it now (and say so if it cannot be)."""
        if self.shared is not None:
            try:
                await self.shared.ping()
            except Exception as error:
                self._degrade(error)
                return
        log.info("REST budget: at most %g calls a second, %s", self.shape.per_second, self._where())

    def _where(self) -> str:
        if self.shared is None:
            return "in this process (no REDIS_URL)"
        return "shared through Redis by every process" if not self.degraded else "in this process (Redis out of reach)"

    # ------------------------------------------------------------------ taking tokens

    async def take(self, priority: Priority | None = None) -> None:
        """Wait for a token (at the priority of the calling context unless given)."""
        priority = current_priority() if priority is None else priority
        started = self.clock()
        first = not any(self._waiting.values()) and not self._taking
        if first:  # nobody queued and no take on its way (to a Redis far away): no queue needed
            taken, wait, _ = await self._try(priority, 1)
            if taken:
                self._granted(priority, 0.0)
                return
            self._wait_at(priority, wait)  # the server need not ask again before then
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if first:  # refused: whoever queued meanwhile came after it
            self._waiting[priority].appendleft(future)
        else:
            self._waiting[priority].append(future)
        self._arrived.set()  # the server looks again at once: this one may be more urgent, or asked for by no take
        if self._server is None or self._server.done():
            self._server = asyncio.create_task(self._serve(), name="rest-budget")
        await future
        self._granted(priority, self.clock() - started)

    async def spend(self) -> None:
        """One counted call is about to be made: use a token taken ahead for it (see :meth:`reserved`), or take one."""
        prepaid = _prepaid.get()
        if prepaid is not None and prepaid.left > 0:
            prepaid.left -= 1
            return
        await self.take()

    @contextlib.asynccontextmanager
    async def reserved(self, priority: Priority | None = None) -> AsyncIterator[None]:
        """Take a token now for the next call made inside: work done after the wait (rendering a table) sees
        the latest state, and the call then goes out without waiting again."""
        await self.take(priority)
        token = _prepaid.set(_Prepaid(1))
        try:
            yield
        finally:
            _prepaid.reset(token)

    def _next(self) -> tuple[Priority, Priority] | None:
        """Whom to serve next (the queue) and at which floor: answers first, then pings, then edits; but after
        PINGS_BEFORE_AN_EDIT pings in a row while edits wait, the oldest edit goes next at the pings' floor, so a
        flood of pings never stops the tables from showing their latest state."""
        for queue in self._waiting.values():
            while queue and queue[0].done():  # its caller gave up (a task cancelled while it waited)
                queue.popleft()
        return _choose({p: len(queue) for p, queue in self._waiting.items()}, self._pings_in_a_row)

    def _wanted(self, floor: Priority, most: int) -> int:
        """How many tokens the waiters want at this floor: those :meth:`_next` would serve in a row at it (up to
        ``most``)."""
        waiting = {p: sum(1 for _ in itertools.islice(_live(queue), most)) for p, queue in self._waiting.items()}
        pings_in_a_row = self._pings_in_a_row
        wanted = 0
        while wanted < most and (chosen := _choose(waiting, pings_in_a_row)) is not None and chosen[1] == floor:
            queue = chosen[0]
            waiting[queue] -= 1
            wanted += 1
            pings_in_a_row = _pings_after(queue, pings_in_a_row, bool(waiting[Priority.EDIT]))
        return max(1, wanted)

    def _hand_out(self, taken: int, floor: Priority) -> int:
        """Give the tokens just taken at ``floor`` to the waiters, in the order :meth:`_next` says (one who came
        meanwhile and is more urgent goes first; one who gave up meanwhile is passed over): the tokens left over."""
        while taken and (chosen := self._next()) is not None and chosen[1] <= floor:
            queue = chosen[0]
            self._waiting[queue].popleft().set_result(None)  # _next dropped those who gave up: this one waits
            taken -= 1
            self._pings_in_a_row = _pings_after(queue, self._pings_in_a_row, bool(self._waiting[Priority.EDIT]))
        return taken

    async def _serve(self) -> None:
        """Hand out tokens to the waiters: as many at once as the bucket allows and the waiters at one floor want
        (one round trip to Redis for all of them); most urgent first, first come, first served within a priority.

        A take still on its way does not hold up the next: while waiters are left that no take in flight asks for,
        another goes out once the bucket has had time to refill what the last one asked for, so a Redis far away
        (a round trip of 200 ms) still serves the whole budget."""
        loop = asyncio.get_running_loop()
        calls: dict[asyncio.Task[tuple[int, float, Bucket]], tuple[Priority, int]] = {}
        arrived: asyncio.Task[bool] | None = None
        next_call = 0.0  # the loop's time before which no further take goes out while one is on its way
        try:
            while (chosen := self._next()) is not None or calls:
                self._arrived.clear()
                timeout: float | None = None  # none: until a take comes back (or someone more urgent comes)
                if chosen is not None:
                    floor = chosen[1]
                    most = self._most(floor)
                    ask = min(
                        most,
                        self._wanted(floor, TAKES_IN_FLIGHT * most) - sum(n for f, n in calls.values() if f <= floor),
                    )
                    if ask > 0 and len(calls) < TAKES_IN_FLIGHT:
                        ready = max(self._retry_at[floor], next_call if calls else 0.0)
                        now = loop.time()
                        if now >= ready:
                            calls[asyncio.create_task(self._try(floor, ask))] = (floor, ask)
                            next_call = now + ask / self.shape.rate  # what the bucket takes to refill as much
                            continue
                        timeout = ready - now
                if arrived is None or arrived.done():
                    arrived = asyncio.create_task(self._arrived.wait())
                await asyncio.wait([*calls, arrived], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
                for call in [call for call in calls if call.done()]:
                    floor, _ = calls.pop(call)
                    self._answered(floor, *call.result())
        finally:
            for task in [*calls, *([arrived] if arrived is not None else [])]:
                task.cancel()

    def _answered(self, floor: Priority, taken: int, wait: float, bucket: Bucket) -> None:
        """A take at ``floor`` came back: its tokens to the waiters, and when that floor may be asked again."""
        left = self._hand_out(taken, floor)
        if left:  # those it was taken for gave up meanwhile, and nobody else may have it
            self._put_back(left, bucket)
        self._wait_at(floor, wait)

    def _wait_at(self, floor: Priority, wait: float) -> None:
        """The bucket said that ``floor`` may be asked again in ``wait`` seconds (and a higher one no sooner)."""
        if wait > 0 and self.shared is not None and not self.degraded:
            wait *= 1 + random.random() / 10  # processes that were refused together do not all ask again together
        again = asyncio.get_running_loop().time() + wait
        for priority in Priority:  # a higher floor needs at least as long
            if priority == floor:
                self._retry_at[priority] = again
            elif priority > floor:
                self._retry_at[priority] = max(self._retry_at[priority], again)

    def _most(self, floor: Priority) -> int:
        """The most tokens one take asks for: what the bucket can hold above the floor."""
        return max(1, math.floor(self.shape.capacity - self.shape.floor(floor)))

    def _put_back(self, tokens: int, bucket: Bucket) -> None:
        """Tokens taken and not used go back into the bucket they came from, with its next take (into another,
        they would be more than the budget); put back, the bucket holds no more than it would had they not
        been taken."""
        if self._unused_from is not bucket:
            self._unused = 0
        self._unused += tokens
        self._unused_from = bucket
        self.put_back += tokens

    async def _try(self, priority: Priority, most: int) -> tuple[int, float, Bucket]:
        """Take up to ``most`` tokens at the priority's floor: how many, the wait for the next, and from where."""
        self._taking += 1
        try:
            if self.shared is not None and not self.degraded:
                try:
                    return (*await self.shared.take_up_to(priority, most, self._returned(self.shared)), self.shared)
                except Exception as error:  # out of reach, timed out, refused: the bot goes on without it
                    self._degrade(error)
            local = self.local
            return (*await local.take_up_to(priority, most, self._returned(local)), local)
        finally:
            self._taking -= 1

    def _returned(self, bucket: Bucket) -> int:
        """The unused tokens that go back into ``bucket`` with this take (if they came from it)."""
        returned = self._unused if self._unused_from is bucket else 0
        self._unused = 0
        return returned

    def _granted(self, priority: Priority, waited: float) -> None:
        self.taken[priority] += 1
        self.waited[priority] += waited
        self._report_taken[priority] += 1
        self._report_waited[priority] += waited
        now = self.clock()
        if now - self._reported >= REPORT_EVERY:
            if sum(self._report_waited.values()) > 0:
                log.info(
                    "REST budget (%s, %g a second): %d calls in the last %.0f s (%s); waited on average %s",
                    self.backend,
                    self.shape.per_second,
                    sum(self._report_taken.values()),
                    now - self._reported,
                    ", ".join(f"{p.name.lower()} {self._report_taken[p]}" for p in Priority),
                    ", ".join(
                        f"{p.name.lower()} {self._report_waited[p] / self._report_taken[p]:.2f} s"
                        for p in Priority
                        if self._report_taken[p]
                    ),
                )
            self._reported = now
            self._report_taken.clear()
            self._report_waited = dict.fromkeys(Priority, 0.0)

    # ------------------------------------------------------------------ Redis out of reach

    def _degrade(self, error: BaseException) -> None:
        """Carry on in memory with this process's share of the budget, and keep trying Redis."""
        assert self.shared is not None
        if self.degraded:  # calls that were on their way to Redis together: said once
            return
        processes = self.shared.processes or 4  # never reached: assume a few processes share the budget
        share = max(LEAST_PER_SECOND, self.shape.per_second / processes)
        self.local = MemoryBucket(Shape(share), self.clock)
        self.degraded = True
        log.warning(
            "Redis is out of reach (%s): the REST budget goes on in this process alone, at %g calls a second "
            "(its share of %g among %d processes), until Redis answers again",
            _reason(error),
            share,
            self.shape.per_second,
            processes,
        )
        if self._probe is None or self._probe.done():
            self._probe = asyncio.create_task(self._reach_again(), name="rest-budget-redis")

    async def _reach_again(self) -> None:
        assert self.shared is not None
        while True:
            await asyncio.sleep(PROBE_EVERY)
            try:
                await self.shared.ping()
            except Exception:
                continue
            self.local = MemoryBucket(self.shape, self.clock)
            self.degraded = False
            log.warning("Redis answers again: the REST budget is shared by every process once more")
            return

    async def close(self) -> None:
        for task in (self._server, self._probe):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for queue in self._waiting.values():
            for waiter in queue:
                waiter.cancel()
            queue.clear()
        if self.shared is not None:
            with contextlib.suppress(Exception):
                await self.shared.close()


def _live(queue: deque[asyncio.Future[None]]) -> Iterator[asyncio.Future[None]]:
    return (waiter for waiter in queue if not waiter.done())


def _choose(waiting: Mapping[Priority, int], pings_in_a_row: int) -> tuple[Priority, Priority] | None:
    """The queue served next and its floor, given how many wait in each (see :meth:`RestBudget._next`)."""
    if waiting[Priority.URGENT]:
        return Priority.URGENT, Priority.URGENT
    if waiting[Priority.PING]:
        if waiting[Priority.EDIT] and pings_in_a_row >= PINGS_BEFORE_AN_EDIT:
            return Priority.EDIT, Priority.PING
        return Priority.PING, Priority.PING
    if waiting[Priority.EDIT]:
        return Priority.EDIT, Priority.EDIT
    return None


def _pings_after(served: Priority, pings_in_a_row: int, edits_wait: bool) -> int:
    """Pings served in a row while edits wait, once ``served`` has had its token."""
    if served == Priority.EDIT:
        return 0
    if served == Priority.PING and edits_wait:
        return pings_in_a_row + 1
    return pings_in_a_row


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__
