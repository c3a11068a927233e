"""Benchmarks: ``python -m bot bench engine`` prints figures, tests never time anything."""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from bot.games import GAMES, new_game

# The formats that keep each game's matches short and even, so a figure is deals per second.
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


def bench_engine(game: str, players: int, seconds: float) -> tuple[int, float]:
    """Deals played and the time taken, over at least ``seconds``."""
    play_random_match(game, players, seed=-1)  # warm the lookup tables
    deals, seed = 0, 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        deals += play_random_match(game, players, seed)
        seed += 1
    return deals, elapsed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot bench", description="Print speed figures.")
    sub = parser.add_subparsers(dest="what", required=True)
    engine = sub.add_parser("engine", help="random matches through the engine contract, deals per second")
    engine.add_argument("--game", choices=sorted(GAMES), action="append", help="one game (repeatable); all by default")
    engine.add_argument("--seconds", type=float, default=3.0, help="time per game and player count")
    args = parser.parse_args(argv)
    if args.what == "engine":
        for game in args.game or list(GAMES):
            for players in GAMES[game].players:
                deals, elapsed = bench_engine(game, players, args.seconds)
                print(f"{game} players={players} deals={deals} seconds={elapsed:.2f} deals/s={deals / elapsed:.0f}")
    return 0
