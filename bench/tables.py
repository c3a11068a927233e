"""``python -m bench tables``: many Ninety-Nine tables played at once through the table service and the
database, in one process and in several (a shard each, PostgreSQL)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import queue
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.database import database_on, drop_schema, fresh_database
from bench.engine import BENCH_OPTIONS
from bot.shards import Shards, shard_of
from bot.storage.database import Database
from bot.tables import TableService

LOBBY_MESSAGE = 1  # the (absent) lobby message a Start is pressed on


async def _play_table(service: TableService, table_id: int, think: float, seed: int, latencies: list[float]) -> int:
    """One table's players: random legal moves, ``think`` seconds (mean) before each."""
    pick = random.Random(seed)
    info = await service.table(table_id)
    actions = 0
    while info.status == "playing":
        if think:
            await asyncio.sleep(pick.uniform(0, 2 * think))
        seat = pick.choice(info.to_act)
        user = info.seats[seat].user_id
        assert user is not None, "the bench seats people only"
        legal = await service.legal(table_id, user)
        start = time.perf_counter()
        outcome = await service.act(table_id, user, pick.choice(legal))
        latencies.append(time.perf_counter() - start)
        info = outcome.table
        actions += 1
    return actions


TABLES_PER_SERVER = 20  # within a server's default limit of open tables (25)


def guild_for(number: int, tables: int, processes: int) -> int:
    """The server of table ``number``: at most 20 tables a server, and the servers spread evenly over
    ``processes`` shards by Discord's rule, ``(guild_id >> 22) % processes``."""
    servers = -(-tables // TABLES_PER_SERVER)
    servers = -(-servers // processes) * processes
    return ((number % servers) + 1) << 22


async def _open_tables(database: Database, tables: int, players: int, processes: int) -> list[tuple[int, int]]:
    """``tables`` Ninety-Nine matches started through the service: each table's id and server."""
    service = TableService(database)
    opened = []
    for number in range(tables):
        host, guild = 1_000_000 + number * 10, guild_for(number, tables, processes)
        info = await service.open_table(
            guild, 10_000 + number, host, f"p{host}", "ninety-nine", BENCH_OPTIONS["ninety-nine"]
        )
        for other in range(1, players):
            await service.join(info.id, host + other, f"p{host + other}")
        await service.start(info.id, host, message_id=LOBBY_MESSAGE)
        opened.append((info.id, guild))
    await service.close()
    return opened


def _table_worker(
    url: str, schema: str | None, count: int, shard: int, ids: list[int], think_ms: float, ready: Any, results: Any
) -> None:
    """One process of the bot: its own service over the shared database, owning shard ``shard`` of
    ``count``; it plays its shard's tables (``ids``) all at once and reports its latencies."""
    results.put(asyncio.run(_play_shard(url, schema, count, shard, ids, think_ms, ready)))


async def _play_shard(
    url: str, schema: str | None, count: int, shard: int, ids: list[int], think_ms: float, ready: Any
) -> tuple[int, float, float, float, list[float]]:
    """The shard's actions, when its play began and ended (wall clock), its CPU seconds, its latencies."""
    database = database_on(url, schema)
    try:
        service = TableService(database, shards=Shards.of(count, [shard]))
        await service.load_open_tables()  # as the bot does at start: its shard's tables come back
        await asyncio.to_thread(ready.wait, 600)  # every process starts playing at once
        latencies: list[float] = []
        start, cpu = time.time(), time.process_time()
        counts = await asyncio.gather(
            *(_play_table(service, table_id, think_ms / 1000, table_id, latencies) for table_id in ids)
        )
        end, cpu = time.time(), time.process_time() - cpu
        await service.close()
    finally:
        await database.close()
    return sum(counts), start, end, cpu, latencies


def _run_processes(
    url: str, schema: str | None, processes: int, opened: list[tuple[int, int]], think_ms: float
) -> tuple[int, float, float, list[float]]:
    """Play the tables in ``processes`` worker processes, one shard each: actions, seconds, the workers'
    CPU seconds, latencies."""
    context = multiprocessing.get_context("spawn")
    ready, results = context.Barrier(processes), context.Queue()
    workers = [
        context.Process(
            target=_table_worker,
            args=(
                url,
                schema,
                processes,
                shard,
                [table_id for table_id, guild in opened if shard_of(guild, processes) == shard],
                think_ms,
                ready,
                results,
            ),
            name=f"bench-tables-{shard}",
        )
        for shard in range(processes)
    ]
    for worker in workers:
        worker.start()
    reports: list[tuple[int, float, float, float, list[float]]] = []
    try:
        while len(reports) < len(workers):
            try:
                reports.append(results.get(timeout=1))
            except queue.Empty:
                if any(worker.exitcode not in (None, 0) for worker in workers):
                    raise RuntimeError("a bench process failed (its error is above)") from None
    finally:
        for worker in workers:
            worker.join(timeout=60 if len(reports) == len(workers) else 0)
            if worker.is_alive():
                worker.terminate()
    actions = sum(report[0] for report in reports)
    elapsed = max(report[2] for report in reports) - min(report[1] for report in reports)
    cpu = sum(report[3] for report in reports)
    return actions, elapsed, cpu, sorted(latency for report in reports for latency in report[4])


def bench_tables(tables: int, url: str | None, think_ms: float, players: int, processes: int = 1) -> list[str]:
    """Open ``tables`` Ninety-Nine tables and play them all at once through the service, in one process
    (one shard) and, with ``processes`` > 1, again on a fresh schema in that many (a shard each)."""
    lines = []
    for count in sorted({1, processes}):
        with tempfile.TemporaryDirectory() as folder:
            schema = None
            if url is None:
                target = f"sqlite:///{Path(folder) / 'bench.db'}"
            else:
                target, schema = url, f"bench_{os.getpid()}_{count}"
            database = asyncio.run(fresh_database(target, schema))
            backend = database.backend
            try:
                opened = asyncio.run(_opened(target, schema, tables, players, processes))
                actions, elapsed, cpu, latencies = _run_processes(target, schema, count, opened, think_ms)
            finally:
                if schema is not None:
                    asyncio.run(drop_schema(target, schema))

        def percentile(p: float, latencies: list[float] = latencies) -> float:
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

        lines.append(
            f"processes={count} tables={tables} actions={actions} seconds={elapsed:.1f} "
            f"actions/s={actions / elapsed:.0f} p50_ms={percentile(0.50):.1f} p99_ms={percentile(0.99):.1f} "
            f"max_ms={latencies[-1] * 1000:.1f} cpu_ms/action={cpu * 1000 / actions:.2f} "
            f"think_ms={think_ms:g} backend={backend}"
        )
    return lines


async def _opened(url: str, schema: str | None, tables: int, players: int, processes: int) -> list[tuple[int, int]]:
    database = database_on(url, schema)
    try:
        return await _open_tables(database, tables, players, processes)
    finally:
        await database.close()
