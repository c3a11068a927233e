"""The REST budget (``bot/rest_budget.py``): the bucket's shape, priorities by reserve, waits, fairness between
tables, tokens taken ahead, and the shared bucket in Redis (two processes never over the budget together; Redis
out of reach and back).

The Redis tests use ``TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``) and are skipped, with the reason,
when nothing answers there. Each uses keys of its own.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot import rest_budget
from bot.rest_budget import MemoryBucket, Priority, RestBudget, Shape, current_priority, rest_priority
from tests.redis_service import REDIS_URL, redis_answers


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def most_in_a_second(times: list[float]) -> int:
    """The most calls in any window of one second (a window starts at a call)."""
    times = sorted(times)
    most, start = 0, 0
    for end, moment in enumerate(times):
        while moment - times[start] >= 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


# ---------------------------------------------------------------------- the bucket's shape


def test_the_shape_never_lets_more_than_the_budget_into_a_second() -> None:
    assert Shape(45).capacity == 4.5 and Shape(45).rate == 40.5  # what a second can hold: the bucket and its refill
    assert Shape(5).capacity == 2 and Shape(5).rate == 3
    assert [Shape(45).floor(p) for p in Priority] == [0, 1.125, 2.25]  # answers, pings, edits
    with pytest.raises(ValueError, match="at least 3"):
        Shape(2)


@pytest.mark.parametrize("per_second", [3, 5, 12, 45])
async def test_a_flood_of_calls_in_memory_stays_within_the_budget_in_every_second(per_second: float) -> None:
    clock = Clock()
    bucket = MemoryBucket(Shape(per_second), clock)
    granted: list[float] = []
    priorities = [Priority.URGENT, Priority.PING, Priority.EDIT]
    for step in range(2000):  # callers ask as often as they may, at every priority
        wait = await bucket.take(priorities[step % 3])
        if wait == 0.0:
            granted.append(clock.now)
        else:
            assert wait > 0
            clock.now += min(wait, 0.013)  # the callers come back at any moment, some before their wait is up
    assert most_in_a_second(granted) <= per_second
    seconds = granted[-1] - granted[0]
    assert len(granted) >= Shape(per_second).rate * seconds - 1  # and the budget is used, not wasted


async def test_each_priority_leaves_its_reserve_and_learns_how_long_to_wait() -> None:
    clock = Clock()
    shape = Shape(10)  # a bucket of 2 tokens, refilled at 8 a second
    bucket = MemoryBucket(shape, clock)
    assert await bucket.take(Priority.EDIT) == 0.0  # 2 → 1
    wait = await bucket.take(Priority.EDIT)  # an edit must leave 1: it needs 2
    assert wait == pytest.approx(1 / 8)
    assert await bucket.take(Priority.PING) == pytest.approx(0.5 / 8)  # a ping must leave 0.5
    assert await bucket.take(Priority.URGENT) == 0.0  # an answer takes the last token
    assert await bucket.take(Priority.URGENT) == pytest.approx(1 / 8)
    clock.now += 1 / 8
    assert await bucket.take(Priority.URGENT) == 0.0
    clock.now += 10  # a long quiet: the bucket is full again, never more
    assert bucket.level() == 2


def test_the_settings_refuse_a_budget_too_small_and_a_url_that_is_not_redis() -> None:
    from pydantic import ValidationError

    from bot.config import Settings

    assert Settings(rest_per_second=45, redis_url="redis://cache:6379/0").redis_url == "redis://cache:6379/0"
    assert Settings.model_fields["rest_per_second"].default == 45 and Settings.model_fields["redis_url"].default is None
    with pytest.raises(ValidationError, match="greater than or equal to 3"):
        Settings(rest_per_second=1)
    with pytest.raises(ValidationError, match="not a Redis URL") as refused:
        Settings(redis_url="postgresql://user:secret@host/db")
    assert all("secret" not in error["msg"] for error in refused.value.errors())  # what the launcher prints


def test_each_bot_has_its_own_bucket_in_redis() -> None:
    first, second = rest_budget.bucket_key("token-one.abc"), rest_budget.bucket_key("token-two.def")
    assert first != second and first.startswith("trick-table:rest:")
    assert "token" not in first and "abc" not in first  # a digest: nothing of the token
    assert rest_budget.bucket_key("token-one.abc") == first  # every process of one bot shares it


# ---------------------------------------------------------------------- the budget: waiting, order, fairness


def test_the_priority_comes_from_the_callers_context() -> None:
    assert current_priority() is Priority.URGENT  # a call nobody marked: someone may be waiting on it
    with rest_priority(Priority.EDIT):
        assert current_priority() is Priority.EDIT
        with rest_priority(Priority.PING):
            assert current_priority() is Priority.PING
        assert current_priority() is Priority.EDIT
    assert current_priority() is Priority.URGENT


async def drain(budget: RestBudget) -> None:
    """Take what the bucket holds, so the next callers must wait."""
    while await budget.local.take(Priority.URGENT) == 0.0:
        pass


class Paused:
    """The budget's clock: real time, stopped while the callers line up, so that no token comes back meanwhile
    however slow the machine is; then it goes on from where it stopped."""

    def __init__(self) -> None:
        self.stopped_at: float | None = time.monotonic()
        self.lost = 0.0

    def __call__(self) -> float:
        return self.stopped_at if self.stopped_at is not None else time.monotonic() - self.lost

    async def go(self) -> None:
        for _ in range(5):  # every caller created so far has asked and queued
            await asyncio.sleep(0)
        assert self.stopped_at is not None
        self.lost = time.monotonic() - self.stopped_at
        self.stopped_at = None


async def test_answers_and_pings_go_before_the_table_edits_already_waiting() -> None:
    clock = Paused()
    budget = RestBudget(50, clock=clock)
    await drain(budget)
    order: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        with rest_priority(priority):
            await budget.take()
        order.append(name)

    edits = [asyncio.create_task(call(f"edit {n}", Priority.EDIT)) for n in range(8)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == []  # the edits are queued (the bucket is empty)
    others = [asyncio.create_task(call("ping", Priority.PING)), asyncio.create_task(call("answer", Priority.URGENT))]
    await clock.go()
    await asyncio.gather(*edits, *others)
    assert order[:2] == ["answer", "ping"], order
    assert order[2:] == [f"edit {n}" for n in range(8)]  # the edits in the order they came
    assert budget.taken == {Priority.URGENT: 1, Priority.PING: 1, Priority.EDIT: 8}
    await budget.close()


async def test_a_flood_of_pings_leaves_the_edits_a_share() -> None:
    """Pings go first, but while edits wait, every fourth token below the answers goes to the oldest edit."""
    clock = Paused()
    budget = RestBudget(30, clock=clock)
    await drain(budget)
    order: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        await budget.take(priority)
        order.append(name)

    calls = [asyncio.create_task(call("edit", Priority.EDIT)) for _ in range(3)]
    calls += [asyncio.create_task(call("ping", Priority.PING)) for _ in range(12)]
    await clock.go()
    await asyncio.gather(*calls)
    assert order == ["ping", "ping", "ping", "edit"] * 3 + ["ping"] * 3
    await budget.close()


async def test_under_pressure_tables_take_turns() -> None:
    """Each table edits, then queues again behind the others: round robin, none served twice before another once."""
    clock = Paused()
    budget = RestBudget(30, clock=clock)
    await drain(budget)
    served: list[int] = []

    async def table(number: int) -> None:
        with rest_priority(Priority.EDIT):
            for _ in range(4):
                await budget.take()
                served.append(number)

    tables = [asyncio.create_task(table(n)) for n in range(3)]
    await clock.go()
    await asyncio.gather(*tables)
    assert served == [0, 1, 2] * 4
    await budget.close()


async def test_a_token_taken_ahead_pays_for_the_next_call_only() -> None:
    budget = RestBudget(50)
    async with budget.reserved(Priority.EDIT):
        await budget.spend()  # the edit itself: already paid for
        assert budget.taken == {Priority.EDIT: 1}
        await budget.spend()  # a second call in the same block takes its own token (here at the context's priority)
    assert budget.taken == {Priority.EDIT: 1, Priority.URGENT: 1}
    await budget.close()


async def test_a_caller_that_gives_up_does_not_hold_up_the_others() -> None:
    budget = RestBudget(5)
    await drain(budget)
    quitter = asyncio.create_task(budget.take(Priority.URGENT))
    patient = asyncio.create_task(budget.take(Priority.URGENT))
    await asyncio.sleep(0)
    quitter.cancel()
    await asyncio.wait_for(patient, 5)
    assert budget.taken[Priority.URGENT] == 1
    await budget.close()


async def test_many_callers_at_once_stay_within_the_budget() -> None:
    budget = RestBudget(30)
    granted: list[float] = []

    async def caller(priority: Priority) -> None:
        for _ in range(5):
            await budget.take(priority)
            granted.append(time.monotonic())

    await asyncio.gather(*(caller(Priority(n % 3)) for n in range(15)))  # 75 calls: over two seconds' worth
    assert len(granted) == 75
    assert most_in_a_second(granted) <= 30
    await budget.close()


# ---------------------------------------------------------------------- shared through Redis


@pytest.fixture
async def redis_key() -> AsyncIterator[str]:
    if not await redis_answers():
        pytest.skip(f"Redis: nothing answers at {REDIS_URL} (set TEST_REDIS_URL)")
    key = f"test:rest:{uuid.uuid4().hex}"
    yield key
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(REDIS_URL)
    await client.delete(f"{{{key}}}", f"{{{key}}}:processes")
    await client.aclose()


async def test_redis_keeps_the_same_reserves(redis_key: str) -> None:
    budget = RestBudget(10, REDIS_URL, key=redis_key)  # capacity 2, refilled at 8 a second
    assert budget.shared is not None
    shared = budget.shared
    assert await shared.take(Priority.EDIT) == 0.0
    wait = await shared.take(Priority.EDIT)
    assert 0 < wait <= 1 / 8
    assert await shared.take(Priority.URGENT) == 0.0
    assert await shared.take(Priority.URGENT) > 0
    assert shared.processes == 1
    await budget.close()


async def test_two_processes_sharing_redis_never_go_over_the_budget_together(redis_key: str) -> None:
    """Two budgets with their own connections (two processes) on one bucket: every second holds at most the
    budget, and both are served."""
    per_second = 20
    first, second = (RestBudget(per_second, REDIS_URL, key=redis_key) for _ in range(2))
    granted: dict[str, list[float]] = {"first": [], "second": []}

    async def process(name: str, budget: RestBudget) -> None:
        async def caller(priority: Priority) -> None:
            for _ in range(8):
                await budget.take(priority)
                granted[name].append(time.monotonic())

        await asyncio.gather(*(caller(Priority(n % 3)) for n in range(3)))  # 24 calls each

    await asyncio.gather(process("first", first), process("second", second))
    every = granted["first"] + granted["second"]
    assert len(every) == 48  # over two seconds' worth
    assert most_in_a_second(every) <= per_second
    assert first.shared is not None and first.shared.processes == 2  # each knows the bucket is shared
    assert not first.degraded and not second.degraded
    await first.close()
    await second.close()


async def test_redis_out_of_reach_the_bot_goes_on_with_its_share_and_says_so_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    budget = RestBudget(40, "redis://127.0.0.1:1/0")  # nothing listens there
    with caplog.at_level(logging.WARNING, logger="bot.rest_budget"):
        await asyncio.wait_for(asyncio.gather(*(budget.take(p) for p in Priority)), 5)  # all on their way at once
        await budget.start()
        for _ in range(5):
            await asyncio.wait_for(budget.take(Priority.URGENT), 5)
    assert budget.degraded and budget.backend == "memory (Redis out of reach)"
    assert budget.taken == {Priority.URGENT: 6, Priority.PING: 1, Priority.EDIT: 1}
    warnings = [r.getMessage() for r in caplog.records if "out of reach" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "at 10 calls a second" in warnings[0]  # never reached: a quarter of the budget
    await budget.close()


async def test_redis_lost_then_back(redis_key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rest_budget, "PROBE_EVERY", 0.05)
    first, second = (RestBudget(20, REDIS_URL, key=redis_key) for _ in range(2))
    await second.take(Priority.URGENT)
    await first.take(Priority.URGENT)  # two processes share the bucket, as the first has seen
    assert first.shared is not None
    shared_script = first.shared.script

    async def lost(*args: object, **kwargs: object) -> object:
        raise ConnectionError("Connection refused")

    monkeypatch.setattr(first.shared, "script", lost)
    await first.take(Priority.URGENT)  # served all the same, from memory
    assert first.degraded
    assert isinstance(first.local, MemoryBucket) and first.local.shape.per_second == 10  # its half of the budget
    monkeypatch.setattr(first.shared, "script", shared_script)  # Redis answers again (the probe pings it)
    for _ in range(3000):  # the probe comes every 50 ms: waited for up to a minute (a busy machine)
        if not first.degraded:
            break
        await asyncio.sleep(0.02)
    assert not first.degraded and first.backend == "redis"
    await first.take(Priority.URGENT)
    assert first.taken[Priority.URGENT] == 3
    await first.close()
    await second.close()


async def test_a_redis_that_answers_but_takes_no_writes_keeps_the_budget_in_memory(
    redis_key: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A read-only replica after a failover (or a Redis out of memory that evicts nothing) answers PING and refuses
    the script: the budget stays in memory, said once, rather than go back to Redis and fall off it every probe."""
    import redis.exceptions

    monkeypatch.setattr(rest_budget, "PROBE_EVERY", 0.05)
    budget = RestBudget(20, REDIS_URL, key=redis_key)
    await budget.take(Priority.URGENT)
    assert budget.shared is not None

    async def read_only(*args: object, **kwargs: object) -> float:
        raise redis.exceptions.ReadOnlyError("You can't write against a read only replica.")

    monkeypatch.setattr(budget.shared, "script", read_only)
    monkeypatch.setattr(budget.shared.client, "set", read_only)
    with caplog.at_level(logging.WARNING, logger="bot.rest_budget"):
        await budget.take(Priority.URGENT)
        await asyncio.sleep(0.5)  # ten probes
        for _ in range(3):
            await budget.take(Priority.URGENT)
    assert budget.degraded
    said = [r.getMessage() for r in caplog.records]
    assert not [m for m in said if m.startswith("Redis answers again")], said
    assert len([m for m in said if "out of reach" in m]) == 1, said
    await budget.close()


# ---------------------------------------------------------------------- a bucket a round trip away


class FarBucket:
    """A memory bucket behind a round trip, as Redis far away would be: each take is counted and answered after
    ``delay`` seconds (or when the test lets it go), and each token is recorded with its moment and the level it
    left, so that the tests check the floors and the seconds however the budget batches its takes."""

    def __init__(self, shape: Shape, clock: Callable[[], float], delay: float = 0.0, gated: bool = False) -> None:
        self.inner = MemoryBucket(shape, clock)
        self.shape, self.clock, self.delay, self.gated = shape, clock, delay, gated
        self.advance = 0.0  # with a fake clock: the bucket's time each round trip takes
        self.trips = 0
        self.granted: list[float] = []
        self.asked: list[int] = []
        self.gates: list[asyncio.Future[None]] = []

    async def take(self, priority: Priority) -> float:
        taken, wait = await self.take_up_to(priority, 1)
        return 0.0 if taken else wait

    async def take_up_to(self, priority: Priority, most: int, returned: int = 0) -> tuple[int, float]:
        self.trips += 1
        self.asked.append(most)
        if self.gated:
            gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.gates.append(gate)
            await gate
        elif self.delay:
            await asyncio.sleep(self.delay)
        if self.advance and isinstance(self.clock, Clock):
            self.clock.now += self.advance
        taken, wait = await self.inner.take_up_to(priority, most, returned)
        assert taken <= most
        if taken:
            assert self.inner.tokens >= self.shape.floor(priority) - 1e-9, "a take dug under its floor"
        self.granted += [self.clock()] * taken
        return taken, wait

    def open(self, index: int = 0) -> None:
        """The take that went out ``index``-th of those still on their way reaches the bucket now."""
        self.gates.pop(index).set_result(None)

    def open_all(self) -> None:
        self.gated = False
        while self.gates:
            self.open()


def far(budget: RestBudget, delay: float = 0.0, gated: bool = False) -> FarBucket:
    bucket = FarBucket(budget.shape, budget.clock, delay, gated)
    budget.local = bucket
    return bucket


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_a_bucket_far_away_serves_a_queue_in_a_few_round_trips() -> None:
    """Each take asks for as many tokens as the waiters next in line want (at most what the bucket holds above
    the floor), and takes go out without waiting for each other's answer: 40 waiters, far fewer round trips."""
    budget = RestBudget(45)  # a bucket of 4.5 tokens
    bucket = far(budget, delay=0.05)
    await asyncio.gather(*(budget.take(Priority.URGENT) for _ in range(40)))
    assert budget.taken == {Priority.URGENT: 40}
    assert len(bucket.granted) == 40  # every token taken went to a caller: none over, none lost
    assert bucket.trips <= 16, bucket.trips  # one a token before
    assert max(bucket.asked) == 4  # an answer may take the last token: 4 of the 4.5
    assert most_in_a_second(bucket.granted) <= 45
    await budget.close()


async def test_far_away_answers_and_pings_still_go_before_edits_and_edits_keep_every_fourth_token() -> None:
    clock = Clock()
    budget = RestBudget(30, clock=clock)  # a bucket of 3, refilled at 27 a second
    bucket = far(budget)
    await drain(budget)
    bucket.trips = 0
    order: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        await budget.take(priority)
        order.append(name)

    calls = [asyncio.create_task(call("edit", Priority.EDIT)) for _ in range(3)]
    calls += [asyncio.create_task(call("ping", Priority.PING)) for _ in range(12)]
    calls += [asyncio.create_task(call("answer", Priority.URGENT)) for _ in range(2)]
    await settle()
    assert order == []  # all queued (the bucket is empty, and its clock stands still)
    bucket.advance = 0.1  # now each round trip fills the bucket up again: several tokens a take
    await asyncio.gather(*calls)
    assert order == ["answer"] * 2 + ["ping", "ping", "ping", "edit"] * 3 + ["ping"] * 3
    assert bucket.trips < len(order)  # several tokens in a take
    await budget.close()


async def test_far_away_tables_still_take_turns_and_no_second_holds_more_than_the_budget() -> None:
    budget = RestBudget(45)  # a bucket of 4.5 tokens: an edit leaves 2.25, so a take asks for two
    bucket = far(budget, delay=0.03)
    served: list[int] = []

    async def table(number: int) -> None:
        with rest_priority(Priority.EDIT):
            for _ in range(3):
                await budget.take()
                served.append(number)

    await asyncio.gather(*(table(n) for n in range(8)))
    assert sorted(served) == sorted(list(range(8)) * 3)
    for turn in range(3):  # round robin: no table a second time before every other once
        assert sorted(served[turn * 8 : turn * 8 + 8]) == list(range(8)), served
    assert most_in_a_second(bucket.granted) <= 45
    assert len(bucket.granted) == 24 and bucket.trips < 24
    await budget.close()


async def test_a_token_taken_for_a_caller_who_gave_up_goes_to_the_next_in_line() -> None:
    clock = Clock()  # no refill: every token is counted
    budget = RestBudget(45, clock=clock)
    bucket = far(budget, gated=True)
    first = asyncio.create_task(budget.take(Priority.URGENT))  # nobody queued: its own take
    await settle()
    edits = [asyncio.create_task(budget.take(Priority.EDIT)) for _ in range(3)]
    await settle()
    assert bucket.asked[:2] == [1, 2]  # the first's own, and the server's for the two next in line (an edit's most)
    edits[0].cancel()
    await settle()
    bucket.open(1)  # the server's take: two tokens of the 4.5 (an edit leaves 2.25)
    await settle()
    assert edits[1].done() and edits[2].done()  # the one who gave up passed its token on
    bucket.open_all()
    await settle()
    assert first.done() and not first.cancelled()
    assert budget.taken == {Priority.URGENT: 1, Priority.EDIT: 2} and budget.put_back == 0
    assert bucket.inner.tokens == 4.5 - 3
    await budget.close()


async def test_a_token_nobody_may_have_goes_back_into_the_bucket() -> None:
    clock = Clock()
    budget = RestBudget(45, clock=clock)
    bucket = far(budget, gated=True)
    first = asyncio.create_task(budget.take(Priority.URGENT))
    await settle()
    edits = [asyncio.create_task(budget.take(Priority.EDIT)) for _ in range(2)]
    await settle()
    for edit in edits:
        edit.cancel()
    await settle()
    bucket.open(1)  # the server's take for the two edits: two tokens
    bucket.open_all()
    await settle()
    assert first.done() and budget.taken == {Priority.URGENT: 1}
    assert budget.put_back == 2 and bucket.inner.tokens == 4.5 - 3  # taken, not yet back
    await budget.take(Priority.URGENT)  # the next take puts them back first
    assert bucket.inner.tokens == 4.5 - 2
    await budget.close()


async def test_tokens_taken_at_a_floor_go_to_no_one_whose_floor_is_higher() -> None:
    """A take asked at the pings' floor, whose pings gave up meanwhile: the edits waiting may not have its tokens
    (they would dig under their reserve); the tokens go back."""
    clock = Clock()
    budget = RestBudget(45, clock=clock)
    bucket = far(budget, gated=True)
    first = asyncio.create_task(budget.take(Priority.URGENT))
    await settle()
    ping = asyncio.create_task(budget.take(Priority.PING))
    await settle()
    edit = asyncio.create_task(budget.take(Priority.EDIT))
    await settle()
    assert len(bucket.gates) == 2  # the first's, and the ping's (every edit is asked for once the ping is served)
    ping.cancel()
    await settle()
    bucket.open(1)  # the server's take at the pings' floor
    await settle()
    assert budget.put_back == 1 and not edit.done()
    bucket.open_all()
    await settle()
    bucket.open_all()  # the edit's own take, at its floor
    await asyncio.wait_for(edit, 5)
    assert first.done()
    assert budget.taken == {Priority.URGENT: 1, Priority.EDIT: 1}
    await budget.close()


@pytest.mark.parametrize("seed", range(4))
async def test_far_away_with_callers_coming_and_giving_up_no_token_is_over_or_lost(seed: int) -> None:
    """Callers of every priority come at random moments and some give up: every token the bucket gave went to a
    caller served or went back, no take dug under its floor, and no second held more than the budget."""
    import random

    rng = random.Random(seed)
    budget = RestBudget(45)
    bucket = far(budget, delay=0.02)
    served = 0

    async def caller(priority: Priority) -> None:
        nonlocal served
        await budget.take(priority)
        served += 1

    tasks: list[asyncio.Task[None]] = []
    for _ in range(50):
        tasks.append(asyncio.create_task(caller(Priority(rng.randrange(3)))))
        await asyncio.sleep(rng.random() * 0.02)
        if rng.random() < 0.25:
            rng.choice(tasks).cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await budget.take(Priority.URGENT)  # puts back what was left over
    served += 1
    assert served == sum(budget.taken.values())
    assert len(bucket.granted) == served + budget.put_back
    assert most_in_a_second(bucket.granted) <= 45
    await budget.close()


async def test_a_redis_far_away_serves_a_queue_in_far_fewer_round_trips(redis_key: str) -> None:
    """Redis 200 ms away (each script call waits first): 30 callers at once are served in far fewer round trips
    than 30, and the reserves hold in the script."""
    budget = RestBudget(45, REDIS_URL, key=redis_key)
    assert budget.shared is not None
    script = budget.shared.script
    trips: list[list[str]] = []

    async def far_script(*, keys: list[str], args: list[str]) -> object:
        trips.append(args)
        await asyncio.sleep(0.2)
        return await script(keys=keys, args=args)

    budget.shared.script = far_script  # type: ignore[assignment]
    await asyncio.gather(*(budget.take(Priority.URGENT) for _ in range(30)))
    assert budget.taken == {Priority.URGENT: 30} and not budget.degraded
    assert len(trips) <= 15, len(trips)  # one a caller (and more) before
    budget.shared.script = script
    taken, wait = await budget.shared.take_up_to(Priority.EDIT, 10)
    assert 0 <= taken <= 2 and (wait > 0 or taken == 2)  # an edit leaves half of the 4.5: never more than 2
    await budget.close()


async def test_the_script_takes_several_tokens_at_once_and_puts_back_what_was_not_used(redis_key: str) -> None:
    budget = RestBudget(10, REDIS_URL, key=redis_key)  # capacity 2, refilled at 8 a second
    assert budget.shared is not None
    shared = budget.shared
    taken, wait = await shared.take_up_to(Priority.URGENT, 5)
    assert taken == 2 and wait == pytest.approx(1 / 8, abs=0.01)  # the whole bucket
    taken, wait = await shared.take_up_to(Priority.URGENT, 5, returned=2)  # two back, taken again at once
    assert taken == 2 and wait > 0
    taken, wait = await shared.take_up_to(Priority.EDIT, 5, returned=2)
    assert taken == 1 and wait > 0  # an edit leaves 1 of the 2
    await budget.close()


async def test_two_processes_with_redis_far_away_never_go_over_the_budget_together(redis_key: str) -> None:
    """Two budgets on their own connections, Redis 100 ms away from each, many takes on their way at once: the
    tokens the script gave (each at the moment its answer left Redis) never put more than the budget into a
    second, and every caller is served."""
    per_second = 30
    budgets = [RestBudget(per_second, REDIS_URL, key=redis_key) for _ in range(2)]
    given: list[float] = []
    for budget in budgets:
        assert budget.shared is not None
        script = budget.shared.script

        async def far_script(*, keys: list[str], args: list[str], script: Any = script) -> Any:
            await asyncio.sleep(0.1)
            taken, wait, processes = await script(keys=keys, args=args)
            given.extend([time.monotonic()] * int(taken))
            return taken, wait, processes

        budget.shared.script = far_script  # type: ignore[assignment]

    async def caller(budget: RestBudget, priority: Priority) -> None:
        for _ in range(3):
            await budget.take(priority)

    await asyncio.gather(*(caller(budget, Priority(n % 3)) for budget in budgets for n in range(12)))  # 72 calls
    assert sum(sum(budget.taken.values()) for budget in budgets) == 72
    assert len(given) == 72 + sum(budget.put_back for budget in budgets)
    assert most_in_a_second(given) <= per_second
    assert not any(budget.degraded for budget in budgets)
    for budget in budgets:
        await budget.close()


async def test_an_answer_does_not_wait_for_the_edits_takes_already_on_their_way() -> None:
    """Edits' takes are on their way to a bucket that holds them (other processes keep it at the edits' floor):
    an answer's take goes out at once, beside them, rather than waiting for them to come back refused."""
    edits_answer = asyncio.Event()
    taken_at: list[Priority] = []

    class Held:
        async def take(self, priority: Priority) -> float:
            taken, wait = await self.take_up_to(priority, 1)
            return 0.0 if taken else wait

        async def take_up_to(self, priority: Priority, most: int, returned: int = 0) -> tuple[int, float]:
            taken_at.append(priority)
            if priority == Priority.URGENT:
                return 1, 0.0
            await edits_answer.wait()  # the edits' take comes back only when the test lets it
            return 0, 0.05

    budget = RestBudget(45)
    budget.local = Held()
    edits = [asyncio.create_task(budget.take(Priority.EDIT)) for _ in range(5)]
    while Priority.EDIT not in taken_at:
        await asyncio.sleep(0)
    await asyncio.wait_for(budget.take(Priority.URGENT), 5)  # served while the edits' take is still out
    assert Priority.URGENT in taken_at and not edits_answer.is_set()
    edits_answer.set()
    for edit in edits:
        edit.cancel()
    await budget.close()
