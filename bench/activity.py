"""``python -m bench activity``: the Activity's speed on real WebSockets (a benchmark: tests never time anything).

N tables of 4 screens (four people, each on their own socket), all playing Oh Hell at once, each table's
players taking ``--pause`` seconds between moves. For every action: the time from the frame one screen sends
to the new state received on all four. The server, the service and the database run in this process, as in
the bot; the people's screens in another (their browsers are elsewhere). On SQLite (a fresh file) or
PostgreSQL (``--database postgresql://…``: a fresh schema, dropped afterwards). With ``--discord`` the bot's
chat table shows the same tables as in production and its Discord REST calls are counted
(:mod:`bench.discord_calls`); the server's CPU time an action is printed too (a figure the machine's load
moves far less than the latencies).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from activity.server import ActivityServer
from activity.sessions import LOCAL_GUILD
from activity.source import ServiceSource
from bench.discord_calls import ChatTable
from bot.rest_budget import DEFAULT_PER_SECOND, RestBudget
from bot.storage.database import Database
from bot.tables import TableService
from bot.tables.thinking import InProcessThinker

PLAYERS = 4
EDIT_INTERVAL = 1.0  # the chat table's coalesced edits of one table's message: at most one in this many seconds
OPTIONS = {"start_cards": 7, "sequence": "down"}


class Screen:
    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.state: dict[str, Any] | None = None
        self.seen = asyncio.Condition()

    async def run(self) -> None:
        async for message in self.socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            if frame["type"] == "state" and frame["table"]:
                async with self.seen:
                    self.state = frame["table"]
                    self.seen.notify_all()

    async def reach(self, actions: int) -> None:
        async with self.seen:
            await self.seen.wait_for(lambda: self.state is not None and self.state["actions"] >= actions)


async def _database(url: str | None, folder: Path) -> tuple[Database, str | None]:
    if url is None:
        database = Database(f"sqlite+aiosqlite:///{folder / 'bench.db'}")
        await database.upgrade()
        return database, None
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = Database(url)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    await admin.close()
    database = Database(url, connect_args={"server_settings": {"search_path": schema}})
    await database.upgrade()
    return database, schema


async def _drop(url: str | None, schema: str | None) -> None:
    if url is None or schema is None:
        return
    admin = Database(url)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    await admin.close()


async def _table(client: aiohttp.ClientSession, base: str, service: TableService, room: int) -> tuple[int, list[str]]:
    """A started table of four people in room ``room``, and their sessions."""
    sessions = []
    for seat in range(PLAYERS):
        async with client.post(f"{base}/api/local/signin", json={"name": f"P{room}-{seat}", "room": room}) as reply:
            sessions.append(await reply.json())
    users = [int(s["user"]["id"]) for s in sessions]
    table = await service.open_table(LOCAL_GUILD, room, users[0], "P0", "oh-hell", dict(OPTIONS), PLAYERS)
    for seat in range(1, PLAYERS):
        await service.join(table.id, users[seat], f"P{seat}")
    await service.set_location(table.id, message_id=table.id)
    await service.start(table.id, users[0])
    return table.id, [str(s["session"]) for s in sessions]


async def _screens(base: str, table_id: int, sessions: list[str], client: aiohttp.ClientSession) -> list[Screen]:
    screens = []
    for session in sessions:
        socket = await client.ws_connect(f"{base}/ws", max_msg_size=0)
        await socket.send_str(json.dumps({"op": "hello", "session": session, "table": table_id}))
        screens.append(Screen(socket))
    return screens


async def _play(table_id: int, screens: list[Screen], moves: int, pause: float, seed: int, out: list[float]) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(rng.random() * pause)  # tables out of step, as people are
    for _ in range(moves):
        actor = next((s for s in screens if s.state and s.state.get("choices")), None)
        if actor is None or actor.state is None or actor.state["status"] != "playing":
            return
        state = actor.state
        actions = [a["action"] for c in state["choices"] for a in c["actions"]]
        count = state["actions"]
        started = time.perf_counter()
        frame = {"op": "act", "table": table_id, "action": rng.choice(actions), "turn": state["turn"]}
        await actor.socket.send_str(json.dumps(frame))
        await asyncio.gather(*(s.reach(count + 1) for s in screens))
        out.append(time.perf_counter() - started)
        await asyncio.sleep(pause * (0.5 + rng.random()))


async def _people(
    base: str, tables: list[tuple[int, list[str]]], moves: int, pause: float
) -> tuple[list[float], float]:
    """The four people at every table, each with a socket of their own (a browser, elsewhere): the time of
    each action, and the seconds the play took (from the first move to the last)."""
    latencies: list[float] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as client:
        opened = [(t, await _screens(base, t, sessions, client)) for t, sessions in tables]
        tasks = [asyncio.create_task(screen.run()) for _, screens in opened for screen in screens]
        for _, screens in opened:
            for screen in screens:
                await screen.reach(0)
        started = time.perf_counter()
        await asyncio.gather(*(_play(t, screens, moves, pause, i, latencies) for i, (t, screens) in enumerate(opened)))
        played = time.perf_counter() - started
        for _, screens in opened:
            for screen in screens:
                await screen.socket.close()
        for task in tasks:
            task.cancel()
    return latencies, played


def _people_process(base: str, tables: list[tuple[int, list[str]]], moves: int, pause: float, out: Any) -> None:
    out.put(asyncio.run(_people(base, tables, moves, pause)))


async def run(
    tables: int,
    moves: int,
    pause: float,
    url: str | None,
    *,
    discord: bool = False,
    pictures: bool = False,
    budget: bool = False,
) -> dict[str, Any]:
    """Serve ``tables`` tables here; their players (4 screens each) play from a process of their own. With
    ``discord``, the bot's chat table shows the same tables (:mod:`bench.discord_calls`) and its REST calls
    are counted."""
    with tempfile.TemporaryDirectory() as folder:
        database, schema = await _database(url, Path(folder))
        service = TableService(database, thinker=InProcessThinker(samples=1))
        await service.update_guild_settings(
            LOCAL_GUILD, max_open_tables=tables + 10, max_lobbies_per_host=25, play_cooldown_seconds=0
        )
        source = ServiceSource(service, local=True)
        server = ActivityServer(source, local=True)
        chat = (
            ChatTable(
                service,
                pictures=pictures,
                on_screen=server.on_screen,
                budget=RestBudget(DEFAULT_PER_SECOND) if budget else None,
            )
            if discord
            else None
        )
        runner = web.AppRunner(server.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        try:
            async with aiohttp.ClientSession() as client:
                opened = [await _table(client, base, service, room) for room in range(1, tables + 1)]
            if chat is not None:
                await chat.settle()  # the lobbies' and starts' messages: not the moves'
            people = context.Process(target=_people_process, args=(base, opened, moves, pause, results))
            calls_before = chat.counted.calls.copy() if chat is not None else Counter[str]()
            since = time.monotonic()
            cpu = time.process_time()
            people.start()
            latencies, played = await asyncio.to_thread(results.get)
            cpu = time.process_time() - cpu
            await asyncio.to_thread(people.join)
            if chat is not None:
                await chat.settle()
            calls = (chat.counted.calls - calls_before) if chat is not None else Counter[str]()
            most = chat.counted.most_in_a_second(since) if chat is not None else 0
        finally:
            await runner.cleanup()
            if chat is not None:
                await chat.close()
            await source.close()
            await service.close()
            await database.close()
            await _drop(url, schema)
    ordered = sorted(latencies)

    def percentile(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")

    actions = len(latencies)
    return {
        "tables": tables,
        "actions": actions,
        "p50_ms": percentile(0.50),
        "p99_ms": percentile(0.99),
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else float("nan"),
        "actions_per_s": actions / played if played else 0.0,
        "cpu_ms": cpu * 1000 / actions if actions else float("nan"),  # the server's process, every thread
        "calls": dict(calls),
        "calls_per_action": sum(calls.values()) / actions if actions else float("nan"),
        # over the play and the interval after it (the last move's edit goes out up to a second later)
        "calls_per_table_s": sum(calls.values()) / tables / (played + EDIT_INTERVAL),
        "most_in_a_second": most,  # the most calls about one table within any one second
    }


def line(backend: str, figures: dict[str, Any], discord: bool) -> str:
    """One run's figures, as printed."""
    said = (
        f"{backend}: {figures['tables']} tables of {PLAYERS} screens, {figures['actions']} actions "
        f"({figures['actions_per_s']:.0f}/s): action → new state on all four screens "
        f"p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms (mean {figures['mean_ms']:.1f} ms); "
        f"server CPU {figures['cpu_ms']:.2f} ms an action"
    )
    if not discord:
        return said + "; no chat table (no Discord REST call is made: --discord counts them)"
    routes = ", ".join(f"{route} x{count}" for route, count in sorted(figures["calls"].items())) or "none"
    return (
        f"{said}; the chat table beside it: {figures['calls_per_action']:.2f} Discord REST calls an action, "
        f"{figures['calls_per_table_s']:.2f} a table a second, at most {figures['most_in_a_second']} for one table "
        f"in any one second ({routes})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench activity", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, action="append", help="tables at once (repeatable; default 1 and 200)")
    parser.add_argument("--moves", type=int, default=20, help="actions timed at each table")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds (mean) between a table's moves")
    parser.add_argument("--database", help="a PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--discord",
        action="store_true",
        help="the bot's chat table shows the same tables, its Discord REST calls counted (bench/discord_calls.py)",
    )
    parser.add_argument("--pictures", action="store_true", help="with --discord: the table's picture in each edit")
    parser.add_argument(
        "--budget", action="store_true", help="with --discord: the bot's REST budget (45 calls a second) in front"
    )
    args = parser.parse_args(argv)
    backend = "PostgreSQL" if args.database else "SQLite"
    for tables in args.tables or [1, 200]:
        figures = asyncio.run(
            run(
                tables,
                args.moves,
                args.pause,
                args.database,
                discord=args.discord,
                pictures=args.pictures,
                budget=args.budget,
            )
        )
        print(line(backend, figures, args.discord), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
