"""``python -m bench events``: a Swiss tournament of 64 entrants at 16 tables of four, every seat played
at full speed (random legal moves, no thinking time) through the table service and the database.

For each round change it prints the time from the commit that ended the round's last table to the moment
the next round's 16 tables are all written and started (the service's ``round_opened``), and then to the
last REST call the chat presentation (the bot's ``/tournament`` cog, over counted calls behind the bot's
REST budget: :mod:`bench.events_chat`) made for it, with those calls by route.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.database import database_on, drop_schema, fresh_database
from bench.events_chat import ChatTournaments
from bot.storage.database import Database
from bot.tables import TableService
from bot.tables.tournament_records import TournamentChanged

GUILD, CHANNEL, HOST = 1 << 22, 10, 1_000_000
OPTIONS = {"start_cards": 3, "sequence": "down"}  # three deals a match (3, 2 and 1 cards)
ROUTES = {  # the routes a round change calls, as people would name them
    "POST /channels/{channel_id}/messages": "posts (the standings, each table's message, each ping)",
    "PATCH /channels/{channel_id}/messages/{message_id}": "edits (the sign-up message; each table's message)",
    "POST /channels/{channel_id}/messages/{message_id}/threads": "threads (one a table)",
}


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


async def _run(database: Database, entrants: int, rounds: int, latency: float) -> list[str]:
    service = TableService(database)
    opened: dict[int, float] = {}

    async def heard(event: TournamentChanged) -> None:
        if event.what == "round_opened":
            opened[event.round] = time.perf_counter()

    service.tournaments.events.subscribe(heard)
    chat = ChatTournaments(service, GUILD, latency)
    tournaments = service.tournaments
    info = await tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", dict(OPTIONS), table_size=4, rounds=rounds, computers=False
    )
    await tournaments.set_message(info.id, 1)  # the sign-up message, edited at each round as in the bot
    for n in range(1, entrants):
        await tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    await tournaments.start(info.id, HOST)
    await tournaments.events.drain()
    await chat.take()  # round 1's opening is not a round change
    rng = random.Random(7)
    changes: list[float] = []
    shown: list[float] = []
    calls: list[dict[str, int]] = []
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
            await tournaments.events.drain()  # the cog has shown the standings and the new round
            sent, last_call = await chat.take()
            shown.append((last_call or last) - last)
            calls.append(dict(sent))
    await tournaments.events.drain()
    final = await tournaments.tournament(info.id)
    await service.close()
    await chat.close()
    routes = sorted({route for sent in calls for route in sent})
    by_route = "; ".join(
        f"{ROUTES.get(route, route)}: {' / '.join(str(sent.get(route, 0)) for sent in calls)}" for route in routes
    )
    return [
        f"bench events: {entrants} entrants, Swiss, {tables_per_round} tables of 4 (Oh Hell, 3 deals), "
        f"{rounds} rounds on {database.backend}; {final.status.value}",
        "round change (last table's final commit -> next round's tables written and started): "
        + ", ".join(f"{change * 1000:.0f} ms" for change in changes)
        + f"; median {statistics.median(changes) * 1000:.0f} ms",
        "round change shown in chat (last table's final commit -> the chat presentation's last REST call, "
        f"behind the bot's budget of 45 calls a second, each answered in {latency * 1000:.0f} ms): "
        + ", ".join(f"{change * 1000:.0f} ms" for change in shown)
        + f"; median {statistics.median(shown) * 1000:.0f} ms",
        "REST calls per round change: " + ", ".join(str(sum(sent.values())) for sent in calls) + f" ({by_route})",
    ]


def bench_events(entrants: int, rounds: int, url: str | None, latency: float = 0.0) -> list[str]:
    async def run() -> list[str]:
        if url is None:
            with tempfile.TemporaryDirectory() as folder:
                path = f"sqlite:///{Path(folder) / 'bench.db'}"
                await fresh_database(path, None)
                return await _run(database_on(path, None), entrants, rounds, latency)
        schema = "bench_events"
        await fresh_database(url, schema)
        try:
            return await _run(database_on(url, schema), entrants, rounds, latency)
        finally:
            await drop_schema(url, schema)

    return asyncio.run(run())
