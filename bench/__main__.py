"""``python -m bench engine|tables|start|players|reading|picture|activity|events|rest-budget``: print speed figures (see
``bench/__init__.py``).

Each benchmark's module is imported only when it runs: the engine's figures need neither the
database nor the pictures' libraries.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from bench import players as bench_players
from bot.games import GAMES

# The spellings of the two picture benchmarks before they were one (the README still shows them).
FORMER = {"chart": ["picture", "--only", "chart"], "table-image": ["picture", "--only", "table"]}


def parser() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The command line, and its ``players`` part (which reports its own argument errors)."""
    parser = argparse.ArgumentParser(prog="python -m bench", description="Print speed figures.")
    sub = parser.add_subparsers(dest="what", required=True)
    engine = sub.add_parser("engine", help="random matches through the engine contract, deals per second")
    engine.add_argument("--game", choices=sorted(GAMES), action="append", help="one game (repeatable); all by default")
    engine.add_argument("--seconds", type=float, default=3.0, help="time per game and player count (per line)")
    engine.add_argument(
        "--against",
        choices=("openspiel",),
        help="random deals side by side with OpenSpiel's oh_hell (pip install open_spiel), the same table and tricks",
    )
    engine.add_argument("--players", type=int, default=3, choices=range(3, 8), metavar="P", help="with --against")
    engine.add_argument("--tricks", type=int, help="with --against: tricks a deal (9, 10 with four players)")
    engine.add_argument("--rounds", type=int, default=3, help="with --against: the whole comparison, this many times")
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
    start = sub.add_parser("start", help="a start over many open tables: seconds to ready, the first cold click")
    start.add_argument("--tables", type=int, default=10_000)
    start.add_argument("--actions", type=int, default=100, help="moves into each table's match")
    start.add_argument("--database", help="a PostgreSQL URL (default: a fresh SQLite file)")
    picture = sub.add_parser(
        "picture", help="the end-of-match chart and the table's picture at the largest tables: milliseconds, PNG size"
    )
    picture.add_argument("--only", choices=("chart", "table"), help="one of the two pictures (both by default)")
    picture.add_argument("--repeat", type=int, default=20, help="times each game's chart is drawn")
    picture.add_argument("--samples", type=int, default=300, help="table pictures a game, at moments of random matches")
    picture.add_argument("--save", type=Path, help="a folder to write two of each game's table pictures to")
    computers = sub.add_parser(
        "players",
        help="computer players: decision times and strength in seat-rotated matches on the same deals",
    )
    bench_players.add_arguments(computers)
    events = sub.add_parser("events", help="a 64-entrant Swiss tournament at full speed: each round change's time")
    events.add_argument("--entrants", type=int, default=64)
    events.add_argument("--rounds", type=int, default=3)
    events.add_argument("--database", help="a PostgreSQL URL (default: a fresh SQLite file)")
    events.add_argument(
        "--latency", type=float, default=0.0, help="milliseconds Discord takes to answer each REST call (default 0)"
    )
    rest = sub.add_parser("rest-budget", help="the REST budget shared through Redis, near and far: calls a second")
    rest.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="a Redis URL (the bench's own keys)")
    rest.add_argument(
        "--latency",
        type=float,
        action="append",
        help="milliseconds of each round trip to Redis, added (repeatable; default 0 and 200)",
    )
    rest.add_argument("--callers", type=int, default=100)
    rest.add_argument("--seconds", type=float, default=10.0, help="time per line")
    search = sub.add_parser("search", help="a strong decision's search within its budget: deals tried, time")
    search.add_argument("--game", default="oh-hell", choices=sorted(GAMES))
    search.add_argument("--deals", type=int, default=8, help="random deals whose decisions are searched")
    search.add_argument("--budget-ms", type=int, default=200)
    search.add_argument("--samples", type=int, default=50, help="deals of the fixed-size decision timed in CPU")
    search.add_argument("--seed", type=int, default=1)
    reading = sub.add_parser(
        "reading", help="Oh Hell: how well strong's model of the others' bids and plays fits a player's real ones"
    )
    reading.add_argument("--level", default="ismcts", choices=("ismcts", "easy", "strong", "baseline"))
    reading.add_argument("--deals", type=int, default=150)
    reading.add_argument("--seed", type=int, default=7)
    reading.add_argument("--budget-ms", type=int, default=200, help="strong's and baseline's time per decision")
    reading.add_argument("--samples", type=int, help="strong's and baseline's deals a decision instead of the time")
    reading.add_argument("--simulations", type=int, default=1000, help="ISMCTS's simulations a decision")
    sub.add_parser(
        "activity", help="the Activity on real WebSockets: action to new state on four screens", add_help=False
    )
    return parser, computers


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if given and given[0] == "activity":  # the Activity's own command line (bench/activity.py)
        from bench.activity import main as bench_activity

        return bench_activity(given[1:])
    if given and given[0] in FORMER:
        given = [*FORMER[given[0]], *given[1:]]
    whole, computers = parser()
    args = whole.parse_args(given)
    lines: Iterable[str] = []
    if args.what == "players" and args.against == "ismcts":
        from bench.ismcts import bench_ismcts

        if args.simulations is not None and args.samples is None:
            computers.error("--simulations needs --samples (without it ISMCTS follows our level's time)")
        lines = bench_ismcts(
            args.matches, args.budget_ms, args.seed, args.jobs, args.level, args.simulations, args.samples
        )
    elif args.what == "players":
        try:
            config = bench_players.config_from(args)
        except ValueError as error:
            computers.error(str(error))
        lines = bench_players.bench_players(config)
    elif args.what == "start":
        from bench.start import bench_start

        lines = asyncio.run(bench_start(args.tables, args.actions, args.database))
    elif args.what == "picture":
        from bench.picture import bench_chart, bench_table_image

        lines = [
            *(bench_chart(args.repeat) if args.only in (None, "chart") else []),
            *(bench_table_image(args.samples, args.save) if args.only in (None, "table") else []),
        ]
    elif args.what == "tables":
        if args.processes > 1 and not (args.database or "").startswith(("postgresql", "postgres")):
            print(
                f"bench tables: {args.processes} processes need a PostgreSQL --database; "
                "SQLite serves one process, so run it with --processes 1 (the default).",
                file=sys.stderr,
            )
            return 2
        from bench.tables import bench_tables

        lines = bench_tables(args.tables, args.database, args.think_ms, args.players, args.processes)
    elif args.what == "events":
        from bench.events import bench_events

        lines = bench_events(args.entrants, args.rounds, args.database, args.latency / 1000)
    elif args.what == "rest-budget":
        from bench.rest_budget import bench_rest_budget

        lines = bench_rest_budget(args.redis, args.latency or [0.0, 200.0], args.callers, args.seconds)
    elif args.what == "reading":
        from bench.reading import bench_reading

        lines = bench_reading(args.level, args.deals, args.seed, args.budget_ms, args.samples, args.simulations)
    elif args.what == "search":
        from bench.search import bench_search

        lines = bench_search(args.game, args.deals, args.budget_ms, args.samples, args.seed)
    elif args.what == "engine":
        from bench.engine import engine_figures, openspiel_figures

        if args.against:
            lines = openspiel_figures(args.players, args.tricks, args.seconds, args.rounds, args.game)
        else:
            lines = engine_figures(args.game or list(GAMES), args.seconds)
    for line in lines:
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
