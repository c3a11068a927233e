"""Benchmarks: ``python -m bot bench engine|tables|start|chart|table-image|players`` print figures;
tests never time anything."""

from __future__ import annotations

import argparse
import asyncio
import os
import queue
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot import bench_players, bench_start
from bot.games import GAMES, compiled, new_game

# The formats that keep each game's matches short and even, so a figure is deals per second.
LOBBY_MESSAGE = 1  # the (absent) lobby message a Start is pressed on
BENCH_OPTIONS: dict[str, dict[str, object]] = {"ninety-nine": {"format": "nine-deals"}}


def play_random_match(game: str, players: int, seed: int, options: dict[str, object] | None = None) -> int:
    """Play one match choosing uniformly among ``legal()``; return the deals played."""
    state = new_game(game, players=players, options=options or BENCH_OPTIONS.get(game, {}), seed=seed)
    pick = random.Random(seed).random
    while not state.is_over():
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else seats[int(pick() * len(seats))]
        actions = state.legal(seat)
        state.act(seat, actions[int(pick() * len(actions))])
    result = state.result()
    deals: int = result.get("hands", result["deals"])  # Five Hundred: hands played, not thrown in
    return deals


def bench_engine(game: str, players: int, seconds: float) -> tuple[int, float, float]:
    """Deals played, the wall time and this process's CPU time taken, over at least ``seconds``.

    The CPU time tells what the engine costs when other work shares the cores.
    """
    play_random_match(game, players, seed=-1)  # warm the lookup tables
    deals, seed = 0, 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        deals += play_random_match(game, players, seed)
        seed += 1
    return deals, elapsed, time.process_time() - cpu_start


async def _play_table(service: Any, table_id: int, think: float, seed: int, latencies: list[float]) -> int:
    """One table's players: random legal moves, ``think`` seconds (mean) before each."""
    pick = random.Random(seed)
    info = await service.table(table_id)
    actions = 0
    while info.status == "playing":
        if think:
            await asyncio.sleep(pick.uniform(0, 2 * think))
        seat = pick.choice(info.to_act)
        user = info.seats[seat].user_id
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


async def _open_tables(database: Any, tables: int, players: int, processes: int) -> list[tuple[int, int]]:
    """``tables`` Ninety-Nine matches started through the service: each table's id and server."""
    from bot.tables import TableService

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


def _bench_database(url: str, schema: str | None) -> Any:
    from bot.storage.database import Database

    if schema is None:
        return Database(url)
    return Database(url, connect_args={"server_settings": {"search_path": schema}})


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
    from bot.shards import Shards
    from bot.tables import TableService

    database = _bench_database(url, schema)
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
    import multiprocessing

    from bot.shards import shard_of

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
            database = asyncio.run(_fresh(target, schema))
            backend = database.backend
            try:
                opened = asyncio.run(_opened(target, schema, tables, players, processes))
                actions, elapsed, cpu, latencies = _run_processes(target, schema, count, opened, think_ms)
            finally:
                if schema is not None:
                    asyncio.run(_drop_schema(target, schema))

        def percentile(p: float, latencies: list[float] = latencies) -> float:
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

        lines.append(
            f"processes={count} tables={tables} actions={actions} seconds={elapsed:.1f} "
            f"actions/s={actions / elapsed:.0f} p50_ms={percentile(0.50):.1f} p99_ms={percentile(0.99):.1f} "
            f"max_ms={latencies[-1] * 1000:.1f} cpu_ms/action={cpu * 1000 / actions:.2f} "
            f"think_ms={think_ms:g} backend={backend}"
        )
    return lines


async def _fresh(url: str, schema: str | None) -> Any:
    """A fresh database (an empty schema on PostgreSQL), migrated; its engine closed again."""
    database = await _postgres_schema(url, schema) if schema is not None else _bench_database(url, None)
    try:
        await database.upgrade()
    finally:
        await database.close()
    return database


async def _opened(url: str, schema: str | None, tables: int, players: int, processes: int) -> list[tuple[int, int]]:
    database = _bench_database(url, schema)
    try:
        return await _open_tables(database, tables, players, processes)
    finally:
        await database.close()


async def _postgres_schema(url: str, schema: str) -> Any:
    from bot.storage.database import Database

    admin = Database(url)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    await admin.close()
    return Database(url, connect_args={"server_settings": {"search_path": schema}})


async def _drop_schema(url: str, schema: str) -> None:
    from bot.storage.database import Database

    admin = Database(url)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    await admin.close()


def bench_chart(repeat: int = 20) -> list[str]:
    """Draw the chart of a long random match of each game (the most players) ``repeat`` times."""
    from cogs.charts import running_totals, totals_chart  # the presentation's own code, measured here

    out = []
    for game, info in GAMES.items():
        players = max(info.players)
        state = new_game(game, players=players, options={}, seed=1)
        rng = random.Random(1)
        while not state.is_over():
            seat = state.to_act()[0]
            state.act(seat, rng.choice(state.legal(seat)))
        sheets = state.result()["sheets"]
        lines = running_totals(sheets, players)
        start = time.perf_counter()
        for _ in range(repeat):
            png = totals_chart(lines, PICTURE_NAMES[:players], "deal", "points")
        elapsed = (time.perf_counter() - start) / repeat
        out.append(f"{game} players={players} deals={len(sheets)} ms/chart={elapsed * 1000:.1f} png_bytes={len(png)}")
    return out


PICTURE_NAMES = (
    "Alexandra Wolfenden",
    "Bartholomew Kingsley",
    "Carol",
    "Dmitri Ivanovich Petr",
    "Ed",
    "Francesca",
    "Gwendolyn",
    "Hiro",
    "Isabella Montgomery",
)


def bench_table_image(samples: int = 300, save: Path | None = None) -> list[str]:
    """Draw the table picture at ``samples`` moments of random matches of each game at its largest
    table (long names, every seat on the felt): milliseconds per picture and PNG bytes."""
    from datetime import UTC, datetime

    from bot.tables import SeatInfo, TableInfo, TableStatus
    from cogs.picture import draw_table
    from cogs.tables.picture import table_picture

    out = []
    for game, info in GAMES.items():
        players = max(info.players)
        now = datetime.now(UTC)
        seats = tuple(SeatInfo(seat, 10 + seat, PICTURE_NAMES[seat]) for seat in range(players))
        rng = random.Random(3)
        times: list[float] = []
        sizes: list[int] = []
        seed = 0
        while len(times) < samples:
            state = new_game(game, players=players, options={}, seed=seed)
            seed += 1
            while not state.is_over() and len(times) < samples:
                table = TableInfo(
                    1,
                    1,
                    1,
                    None,
                    1,
                    game,
                    {},
                    players,
                    TableStatus.PLAYING,
                    1,
                    1,
                    seats,
                    0,
                    0,
                    now,
                    now,
                    None,
                    tuple(state.to_act()),
                )
                start = time.perf_counter()
                png = draw_table(table_picture(table, state.view(None), "en-US"))
                times.append((time.perf_counter() - start) * 1000)
                sizes.append(len(png))
                if save is not None and len(times) in (samples // 3, samples * 2 // 3):
                    save.mkdir(parents=True, exist_ok=True)
                    (save / f"{game}-{len(times)}.png").write_bytes(png)
                seat = rng.choice(state.to_act())
                state.act(seat, rng.choice(state.legal(seat)))
        times.sort()
        sizes.sort()
        out.append(
            f"{game} players={players} pictures={len(times)} p50_ms={times[len(times) // 2]:.1f} "
            f"p99_ms={times[int(len(times) * 0.99)]:.1f} max_ms={times[-1]:.1f} "
            f"p50_bytes={sizes[len(sizes) // 2]} max_bytes={sizes[-1]}"
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot bench", description="Print speed figures.")
    sub = parser.add_subparsers(dest="what", required=True)
    engine = sub.add_parser("engine", help="random matches through the engine contract, deals per second")
    engine.add_argument("--game", choices=sorted(GAMES), action="append", help="one game (repeatable); all by default")
    engine.add_argument("--seconds", type=float, default=3.0, help="time per game and player count")
    tables = sub.add_parser("tables", help="many Ninety-Nine tables played at once through the service")
    tables.add_argument("--tables", type=int, default=200)
    tables.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    tables.add_argument("--database", help="a database URL (default: a fresh SQLite file)")
    tables.add_argument(
        "--processes",
        type=int,
        default=1,
        choices=range(1, 17),
        metavar="P",
        help="also play the tables in P processes side by side, a shard each (PostgreSQL only); "
        "prints the 1-process figures and the P-process ones",
    )
    tables.add_argument(
        "--think-ms",
        type=float,
        default=100.0,
        help="each player's mean time to act, drawn from 0 to twice this (0: act at once, the saturated figures)",
    )
    sub.add_parser("chart", help="the running-totals chart of long matches: milliseconds to draw, PNG size")
    start = sub.add_parser("start", help="a start over many open tables: seconds to ready, the first cold click")
    start.add_argument("--tables", type=int, default=10_000)
    start.add_argument("--actions", type=int, default=100, help="moves into each table's match")
    start.add_argument("--database", help="a PostgreSQL URL (default: a fresh SQLite file)")
    image = sub.add_parser("table-image", help="the table's picture at the largest tables: milliseconds, PNG size")
    image.add_argument("--samples", type=int, default=300, help="pictures per game, at moments of random matches")
    image.add_argument("--save", type=Path, help="a folder to write two of each game's pictures to")
    computers = sub.add_parser(
        "players",
        help="computer players: decision times and strength in seat-rotated matches on the same deals",
    )
    bench_players.add_arguments(computers)
    args = parser.parse_args(argv)
    if args.what == "players":
        try:
            config = bench_players.config_from(args)
        except ValueError as error:
            computers.error(str(error))
        for line in bench_players.bench_players(config):
            print(line)
        return 0
    if args.what == "start":
        for line in asyncio.run(bench_start.bench_start(args.tables, args.actions, args.database)):
            print(line)
        return 0
    if args.what == "table-image":
        for line in bench_table_image(args.samples, args.save):
            print(line)
        return 0
    if args.what == "chart":
        for line in bench_chart():
            print(line)
        return 0
    if args.what == "tables":
        if args.processes > 1 and not (args.database or "").startswith(("postgresql", "postgres")):
            print(
                f"bench tables: {args.processes} processes need a PostgreSQL --database; "
                "SQLite serves one process, so run it with --processes 1 (the default).",
                file=sys.stderr,
            )
            return 2
        for line in bench_tables(args.tables, args.database, args.think_ms, args.players, args.processes):
            print(line)
        return 0
    if args.what == "engine":
        print(f"engines: {'compiled by mypyc' if compiled() else 'pure Python'}")
        for game in args.game or list(GAMES):
            for players in GAMES[game].players:
                deals, elapsed, cpu = bench_engine(game, players, args.seconds)
                print(
                    f"{game} players={players} deals={deals} seconds={elapsed:.2f} deals/s={deals / elapsed:.0f} "
                    f"cpu_seconds={cpu:.2f} deals/cpu_s={deals / cpu:.0f}"
                )
    return 0
