"""``python -m bench rest-budget``: the REST budget shared through Redis, with Redis near and far away.

Many callers (tables, pings, answers) take tokens as fast as the budget lets them, for a while, from the budget
of one process on a real Redis (``--redis``, keys of the bench's own, deleted after). Each call of the budget's
script is delayed by a round trip (``--latency`` milliseconds, half before the script runs and half after), as
a Redis in another region would be. For each priority, and for a mix, it prints the calls served a second and
the round trips to Redis a call. The budget allows 45 a second; a long run serves about its refill, 40.5 a
second, plus the 4.5 the bucket held at the start.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from bot.rest_budget import DEFAULT_PER_SECOND, Priority, RestBudget

KINDS: dict[str, tuple[Priority, ...]] = {
    "answers": (Priority.URGENT,),
    "pings": (Priority.PING,),
    "edits": (Priority.EDIT,),
    "mixed": (Priority.URGENT, Priority.PING, Priority.EDIT, Priority.EDIT, Priority.EDIT),
}


async def _run(redis_url: str, latency: float, kinds: tuple[Priority, ...], callers: int, seconds: float) -> str:
    budget = RestBudget(DEFAULT_PER_SECOND, redis_url, key=f"bench:rest:{uuid.uuid4().hex}")
    assert budget.shared is not None
    shared = budget.shared
    script = shared.script
    trips = 0

    async def far(*args: Any, **kwargs: Any) -> Any:
        nonlocal trips
        trips += 1
        await asyncio.sleep(latency / 2)
        answer = await script(*args, **kwargs)
        await asyncio.sleep(latency / 2)
        return answer

    shared.script = far  # type: ignore[assignment]
    await budget.start()
    served = 0
    started = time.monotonic()
    stop = started + seconds

    async def caller(priority: Priority) -> None:
        nonlocal served
        while time.monotonic() < stop:
            await budget.take(priority)
            served += 1

    await asyncio.gather(*(caller(kinds[n % len(kinds)]) for n in range(callers)))
    elapsed = time.monotonic() - started
    where = budget.backend
    await shared.client.delete(*shared.keys)
    await budget.close()
    return f"{served / elapsed:5.1f} calls/s, {trips / max(served, 1):.2f} round trips a call ({where})"


def bench_rest_budget(redis_url: str, latencies_ms: list[float], callers: int, seconds: float) -> list[str]:
    lines = [
        f"REST budget of {DEFAULT_PER_SECOND:g} calls a second through Redis ({redis_url}), "
        f"{callers} callers taking tokens for {seconds:g} s:"
    ]
    for latency_ms in latencies_ms:
        for name, kinds in KINDS.items():
            figure = asyncio.run(_run(redis_url, latency_ms / 1000, kinds, callers, seconds))
            lines.append(f"  Redis {latency_ms:4.0f} ms away, {name:8}: {figure}")
    return lines
