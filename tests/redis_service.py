"""Redis for the tests that need it: ``TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``); those tests
skip, saying so, when nothing answers there."""

from __future__ import annotations

import os

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_database(number: int) -> str:
    """The same Redis, another of its numbered databases (so tests that run at once keep apart)."""
    return REDIS_URL.rsplit("/", 1)[0] + f"/{number}"


async def redis_answers(url: str = REDIS_URL) -> bool:
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
    try:
        return bool(await client.ping())
    except Exception:
        return False
    finally:
        await client.aclose()
