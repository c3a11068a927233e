"""``python -m bench start``: how soon a bot with many open tables answers after a start.

Seeds ``--tables`` Ninety-Nine matches in play (``--actions`` moves into each) straight into the
database, as the service would have written them, then starts a fresh table service over them as
the bot does: the seconds until it is ready (what the bot awaits before connecting), the first click
on a table not read yet (alone, and again while the background read runs), the first pass of the
turn timers when every table's reminder is due (an outage's worth) and the passes until all are
sent, the background read of every open table, and the memory a live table takes.

Seeding goes around the service: each match is played in memory by the engine (random legal moves)
and its rows (guild, players, table, seats, the action log, the turn deadline) are inserted many
tables at a time, so 10,000 tables take minutes, not the hours one action at a time through the
service would. ``tests/service/test_bench_seed.py`` checks the rows are those the service writes.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import shutil
import tempfile
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from bench.database import drop_schema, postgres_schema
from bot.games import new_game
from bot.storage import repository as repo
from bot.storage.database import Database
from bot.storage.models import PLAYING, utcnow
from bot.tables import TableService

TABLES_PER_SERVER = 20  # within a server's default limit of open tables
PLAYERS = 3
GAME = "ninety-nine"
OPTIONS: dict[str, object] = {"format": "nine-deals"}
TURN_SECONDS = 300  # the servers' turn time (five minutes: a slow server's)
GRACE_SECONDS = 3_600  # the servers' grace: long, so the seeded reminders are due and the timeouts not yet
BATCH = 500  # tables per transaction while seeding
CLICK_INTO_RESUME = 0.2  # seconds into the background resume when a click comes
MEMORY_SAMPLE = 1_000  # tables read under tracemalloc for the memory a live table takes


def guild_of(number: int) -> int:
    return 1 + number // TABLES_PER_SERVER


def host_of(number: int) -> int:
    return 2_000_000 + number * 10


@dataclass(frozen=True)
class Seeded:
    """A seeded table: its id, the person who opened it, and the moves made."""

    table_id: int
    host: int
    actions: int


def random_moves(seed: int, actions: int, rng: random.Random) -> list[tuple[int, str]]:
    """Up to ``actions`` random legal moves (seat, action) of a match with ``seed``, stopping short of
    the move that would end it (a match in play is seeded, never a finished one)."""
    state = new_game(GAME, players=PLAYERS, options=OPTIONS, seed=seed)
    moves: list[tuple[int, str]] = []
    for _ in range(actions):
        seat = rng.choice(tuple(state.to_act()))
        action = rng.choice(state.legal(seat))
        state.act(seat, action)
        if state.is_over():
            break
        moves.append((seat, action))
    return moves


def _on_conflict_nothing(connection: AsyncConnection, table: Any) -> Any:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(table).on_conflict_do_nothing()


async def seed_tables(
    database: Database,
    numbers: Sequence[int],
    actions: int,
    *,
    seeds: Sequence[int] | None = None,
    rng: random.Random | None = None,
    due: bool = True,
    batch: int = BATCH,
) -> list[Seeded]:
    """Matches in play at the tables ``numbers`` (each its own thread, message and three people; 20
    tables a server), ``actions`` random moves into each, written as the service writes them: the
    table ``playing`` with its version and action count, seats with positions, the action log and a
    turn deadline. ``due``: the last move was made a minute more than the turn time ago, so every
    table's reminder is due now (and, with the servers' grace of an hour, no timeout yet)."""
    rng = rng or random.Random(7)
    now = utcnow()
    moved_at = now - timedelta(seconds=TURN_SECONDS + 60) if due else now
    guilds = sorted({guild_of(number) for number in numbers})

    async def servers(connection: AsyncConnection) -> None:
        rows: list[dict[str, Any]] = [
            {
                "id": guild,
                "turn_seconds": TURN_SECONDS,
                "grace_seconds": GRACE_SECONDS,
                "thread_per_table": True,
                "language": None,
                "default_options": {},
                "created_at": moved_at,
            }
            for guild in guilds
        ]
        await connection.execute(_on_conflict_nothing(connection, repo.GUILDS), rows)

    async with database.engine.begin() as connection:
        await servers(connection)
    out: list[Seeded] = []
    for start in range(0, len(numbers), batch):
        chunk = list(numbers[start : start + batch])
        chunk_seeds = list(seeds[start : start + batch]) if seeds is not None else [rng.getrandbits(62) for _ in chunk]
        matches = [random_moves(seed, actions, rng) for seed in chunk_seeds]
        async with database.engine.begin() as connection:
            out.extend(await _insert_chunk(connection, chunk, chunk_seeds, matches, moved_at, PLAYING))
    return out


async def _insert_chunk(
    connection: AsyncConnection,
    numbers: list[int],
    seeds: list[int],
    matches: list[list[tuple[int, str]]],
    at: datetime,
    status: str,
) -> list[Seeded]:
    people = [
        {"id": host_of(number) + seat, "display_name": f"p{host_of(number) + seat}", "updated_at": at}
        for number in numbers
        for seat in range(PLAYERS)
    ]
    await connection.execute(_on_conflict_nothing(connection, repo.PLAYERS), people)
    names = [
        {"guild_id": guild_of(number), "user_id": host_of(number) + seat, "display_name": f"p{host_of(number) + seat}"}
        for number in numbers
        for seat in range(PLAYERS)
    ]
    await connection.execute(
        _on_conflict_nothing(connection, repo.GUILD_PLAYERS), [{**name, "updated_at": at} for name in names]
    )
    # open (version 0), a join by each other person, the lobby's message recorded, the start, each move
    lobby_versions = PLAYERS + 1
    tables = [
        {
            "guild_id": guild_of(number),
            "channel_id": 10_000 + number,
            "thread_id": number + 1,
            "message_id": number + 1,
            "channel_slot": None,  # in a thread of its own
            "game": GAME,
            "options": dict(OPTIONS),
            "players": None,
            "seed": seed,
            "status": status,
            "host_id": host_of(number),
            "turn_seconds": None,
            "hints": False,
            "created_at": at,
            "started_at": at,
            "finished_at": None,
            "version": lobby_versions + len(moves),
            "action_count": len(moves),
        }
        for number, seed, moves in zip(numbers, seeds, matches, strict=True)
    ]
    statement = insert(repo.TABLES).returning(repo.TABLES.c.id, sort_by_parameter_order=True)
    ids = [int(row.id) for row in await connection.execute(statement, tables)]
    seats = [
        {
            "table_id": table_id,
            "position": seat,
            "user_id": host_of(number) + seat,
            "computer_level": None,
            "joined_at": at,
            "left_at": None,
            "absent": False,
            "resigned": False,
        }
        for table_id, number in zip(ids, numbers, strict=True)
        for seat in range(PLAYERS)
    ]
    await connection.execute(insert(repo.SEATS), seats)
    log = [
        {"table_id": table_id, "seq": seq, "seat": seat, "action": action, "source": "player", "created_at": at}
        for table_id, moves in zip(ids, matches, strict=True)
        for seq, (seat, action) in enumerate(moves)
    ]
    if log:
        await connection.execute(insert(repo.ACTIONS), log)
    remind_at = at + timedelta(seconds=TURN_SECONDS)
    act_at = remind_at + timedelta(seconds=GRACE_SECONDS)
    deadlines = [
        {"table_id": table_id, "version": row["version"], "remind_at": remind_at, "act_at": act_at, "due_at": remind_at}
        for table_id, row in zip(ids, tables, strict=True)
    ]
    await connection.execute(insert(repo.DEADLINES), deadlines)
    return [
        Seeded(table_id, host_of(number), len(moves))
        for table_id, number, moves in zip(ids, numbers, matches, strict=True)
    ]


def _database(url: str | None, schema: str | None, folder: Path) -> Database:
    """A new engine on the bench's database (a fresh process's connections)."""
    if url is None or schema is None:
        return Database(f"sqlite+aiosqlite:///{folder}/bench.db")
    return Database(url, connect_args={"server_settings": {"search_path": schema}})


async def bench_start(tables: int, actions: int, url: str | None) -> list[str]:
    schema = f"bench_start_{int(time.time())}_{secrets.token_hex(2)}" if url else None
    folder = Path(tempfile.mkdtemp(prefix="bench-start-"))
    database = await postgres_schema(url, schema) if url and schema else _database(None, None, folder)
    backend = database.backend
    try:
        await database.upgrade()
        seeding = time.perf_counter()
        seated = await seed_tables(database, range(tables), actions)
        seeded = time.perf_counter() - seeding
        await database.close()

        # A start: a new engine, a new service; ready is all the bot awaits before it connects.
        database = _database(url, schema, folder)
        started = time.perf_counter()
        fresh = TableService(database)
        await fresh.close_unshown_lobbies()
        ready = time.perf_counter() - started
        clicked = time.perf_counter()
        await fresh.hand(seated[-1].table_id, seated[-1].host)  # a click on a table not read yet
        first_click = time.perf_counter() - clicked

        # The turn timers after an outage, on a service with every table cold: each pass takes the
        # earliest due deadlines (a batch), reads those tables and claims their reminders in one write.
        timers = TableService(database)
        timing = time.perf_counter()
        reminded = len(await timers.run_timers())
        first_pass = time.perf_counter() - timing
        passes, total = 1, reminded
        while more := len(await timers.run_timers()):
            passes, total = passes + 1, total + more
        all_passes = time.perf_counter() - timing
        await timers.close()
        del timers

        # The background read of every open table, as the bot starts it once ready; a click on a table
        # not read yet while it runs (it waits for at most the one table being read).
        resuming = time.perf_counter()
        resume = asyncio.create_task(fresh.load_open_tables())
        await asyncio.sleep(CLICK_INTO_RESUME)
        clicked = time.perf_counter()
        other = seated[-2] if len(seated) > 1 else seated[0]  # the last one was clicked already
        await fresh.hand(other.table_id, other.host)
        click_during = time.perf_counter() - clicked
        loaded = await resume
        resumed = time.perf_counter() - resuming
        await fresh.close()
        del fresh

        sample = [entry.table_id for entry in seated[:MEMORY_SAMPLE]]
        measured = TableService(database)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for table_id in sample:
            await measured.table(table_id)
        per_table = (tracemalloc.get_traced_memory()[0] - before) / max(1, len(sample))
        tracemalloc.stop()
        await measured.close()
    finally:
        await database.close()
        if schema is not None and url is not None:
            await drop_schema(url, schema)
        shutil.rmtree(folder, ignore_errors=True)
    moves = sum(entry.actions for entry in seated)
    return [
        f"tables={tables} actions_each={actions} actions={moves} backend={backend} seeded_in_s={seeded:.1f}",
        f"ready_s={ready:.3f} first_click_cold_ms={first_click * 1000:.1f} "
        f"first_timer_pass_s={first_pass:.2f} reminders_first_pass={reminded} "
        f"timer_passes={passes} reminders={total} all_reminders_s={all_passes:.1f}",
        f"background_resume_s={resumed:.1f} resumed={loaded} click_during_resume_ms={click_during * 1000:.1f} "
        f"kB_per_live_table={per_table / 1024:.1f} "
        f"(tracemalloc over {len(sample)} tables)",
    ]
