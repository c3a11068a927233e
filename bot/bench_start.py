"""``python -m bot bench start``: how soon a bot with many open tables answers after a start.

Seeds ``--tables`` Ninety-Nine matches in play (``--actions`` moves into each),
then starts a fresh table service over them as the bot does: the seconds until it
is ready (what the bot awaits before connecting), the first click on a table
not read yet, the background read of every open table, and the memory a live
table takes.
"""

from __future__ import annotations

import random
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

TABLES_PER_SERVER = 20  # within a server's default limit of open tables
PLAYERS = 3


async def _seed(service: Any, tables: int, actions: int) -> list[tuple[int, int]]:
    """``tables`` matches in play; each table's id and a person seated at it."""
    rng = random.Random(7)
    out = []
    for number in range(tables):
        host = 2_000_000 + number * 10
        guild = 1 + number // TABLES_PER_SERVER
        info = await service.open_table(
            guild, 10_000 + number, host, f"p{host}", "ninety-nine", {"format": "nine-deals"}, thread_id=number + 1
        )
        for other in range(1, PLAYERS):
            await service.join(info.id, host + other, f"p{host + other}")
        await service.set_location(info.id, message_id=number + 1)
        table = (await service.start(info.id, host)).table
        for _ in range(actions):
            if table.status != "playing":
                break
            seat = rng.choice(table.to_act)
            user = table.seats[seat].user_id
            table = (await service.act(info.id, user, rng.choice(await service.legal(info.id, user)))).table
        out.append((info.id, host))
    return out


async def bench_start(tables: int, actions: int, url: str | None) -> list[str]:
    from bot.bench import _drop_schema, _postgres_schema
    from bot.storage.database import Database
    from bot.tables import TableService

    schema = f"bench_start_{int(time.time())}" if url else None
    folder = Path(tempfile.mkdtemp(prefix="bench-start-"))
    database = (
        await _postgres_schema(url, schema) if url and schema else Database(f"sqlite+aiosqlite:///{folder}/bench.db")
    )
    try:
        await database.upgrade()
        seeding = time.perf_counter()
        service = TableService(database)
        seated = await _seed(service, tables, actions)
        await service.close()
        seeded = time.perf_counter() - seeding

        started = time.perf_counter()
        fresh = TableService(database)
        await fresh.close_unshown_lobbies()  # all the bot awaits before it connects
        ready = time.perf_counter() - started
        table_id, user = seated[-1]
        clicked = time.perf_counter()
        await fresh.hand(table_id, user)  # a click on a table not read yet
        first_click = time.perf_counter() - clicked

        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        resuming = time.perf_counter()
        loaded = await fresh.load_open_tables()  # the background read, timed on its own
        resumed = time.perf_counter() - resuming
        per_table = (tracemalloc.get_traced_memory()[0] - before) / max(1, loaded - 1)
        tracemalloc.stop()
        await fresh.close()
    finally:
        await database.close()
        if schema is not None and url is not None:
            await _drop_schema(url, schema)
    return [
        f"tables={tables} actions_each={actions} backend={database.backend} seeded_in_s={seeded:.1f}",
        f"ready_s={ready:.3f} first_click_cold_ms={first_click * 1000:.1f} "
        f"background_resume_s={resumed:.1f} kB_per_live_table={per_table / 1024:.1f}",
    ]
