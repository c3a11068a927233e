"""``python -m bench events``: a Swiss tournament of 64 entrants at 16 tables of four, every seat played
at full speed (random legal moves, no thinking time) through the table service and the database.

For each round change it prints the time from the commit that ended the round's last table to the moment
the next round's 16 tables are all written and started (the service's ``round_opened``), and the REST
calls the chat presentation makes for a round change, counted from what it sends (see the figures' note).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.database import database_on, drop_schema, fresh_database
from bot.storage.database import Database
from bot.tables import TableService
from bot.tables.tournament_records import TournamentChanged

GUILD, CHANNEL, HOST = 1 << 22, 10, 1_000_000
OPTIONS = {"start_cards": 3, "sequence": "down"}  # three deals a match (3, 2 and 1 cards)
# The chat presentation's calls for one round change at T tables: the standings (1), the sign-up message's
# edit (1), and per table its message, its thread and the ping in it (3): see cogs/tournaments/cog.py.
REST_PER_TABLE, REST_PER_ROUND = 3, 2


async def _play(service: TableService, table_id: int, rng: random.Random) -> float:
    """Every person at the table plays random legal moves until the match ends; when the last commit returned."""
    info = await service.table(table_id)
    while info.status == "playing":
        seat = rng.choice(info.to_act)
        user = next(s.user_id for s in info.seats if s.index == seat)
        assert user is not None, "the bench seats people only"
        legal = await service.legal(table_id, user)
        info = (await service.act(table_id, user, rng.choice(legal))).table
    return time.perf_counter()


async def _run(database: Database, entrants: int, rounds: int) -> list[str]:
    service = TableService(database)
    opened: dict[int, float] = {}

    async def heard(event: TournamentChanged) -> None:
        if event.what == "round_opened":
            opened[event.round] = time.perf_counter()

    service.tournaments.events.subscribe(heard)
    tournaments = service.tournaments
    info = await tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", dict(OPTIONS), table_size=4, rounds=rounds, computers=False
    )
    for n in range(1, entrants):
        await tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    await tournaments.start(info.id, HOST)
    rng = random.Random(7)
    changes: list[float] = []
    tables_per_round = 0
    for round_no in range(1, rounds + 1):
        tables = await tournaments.round_tables(info.id, round_no)
        tables_per_round = len(tables)
        ended = await asyncio.gather(*(_play(service, t.table_id, random.Random(rng.random())) for t in tables))
        last = max(ended)
        await service.events.drain()
        await tournaments.events.drain()
        for _ in range(1000):  # the next round (or the end) follows the last MatchEnded
            done = await tournaments.tournament(info.id)
            if done.round > round_no or done.status.value != "running":
                break
            await asyncio.sleep(0.001)
        if round_no < rounds:
            changes.append(opened[round_no + 1] - last)
    await tournaments.events.drain()
    final = await tournaments.tournament(info.id)
    await service.close()
    rest = REST_PER_TABLE * tables_per_round + REST_PER_ROUND
    return [
        f"bench events: {entrants} entrants, Swiss, {tables_per_round} tables of 4 (Oh Hell, 3 deals), "
        f"{rounds} rounds on {database.backend}; {final.status.value}",
        "round change (last table's final commit -> next round's tables written and started): "
        + ", ".join(f"{change * 1000:.0f} ms" for change in changes)
        + f"; median {statistics.median(changes) * 1000:.0f} ms",
        f"REST calls the chat presentation makes per round change: {rest} "
        f"({REST_PER_TABLE} a table: its message, its thread, the ping; + the standings and the sign-up's edit)",
    ]


def bench_events(entrants: int, rounds: int, url: str | None) -> list[str]:
    async def run() -> list[str]:
        if url is None:
            with tempfile.TemporaryDirectory() as folder:
                path = f"sqlite:///{Path(folder) / 'bench.db'}"
                await fresh_database(path, None)
                return await _run(database_on(path, None), entrants, rounds)
        schema = "bench_events"
        await fresh_database(url, schema)
        try:
            return await _run(database_on(url, schema), entrants, rounds)
        finally:
            await drop_schema(url, schema)

    return asyncio.run(run())
