"""``python -m bench engine``: the speed of the rules engines, random matches through the engine contract."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from bot.games import GAMES, compiled, new_game

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


def bench_engine(game: str, players: int, seconds: float) -> tuple[int, float, float]:
    """Deals played, the wall time and this process's CPU time taken, over at least ``seconds``.

    The CPU time tells what the engine costs when other work shares the cores.
    """
    play_random_match(game, players, seed=-1)  # warm the lookup tables
    deals, seed, elapsed = 0, 0, 0.0
    start, cpu_start = time.perf_counter(), time.process_time()
    while seed == 0 or elapsed < seconds:  # one match at least, however short the time
        deals += play_random_match(game, players, seed)
        seed += 1
        elapsed = time.perf_counter() - start
    return deals, elapsed, time.process_time() - cpu_start


def engine_figures(games: list[str], seconds: float) -> Iterator[str]:
    """Each game at each of its player counts for ``seconds``: deals a second of wall and of CPU time,
    a line as soon as it is measured."""
    yield f"engines: {'compiled by mypyc' if compiled() else 'pure Python'}"
    for game in games:
        for players in GAMES[game].players:
            deals, elapsed, cpu = bench_engine(game, players, seconds)
            yield (
                f"{game} players={players} deals={deals} seconds={elapsed:.2f} deals/s={deals / elapsed:.0f} "
                f"cpu_seconds={cpu:.2f} deals/cpu_s={deals / cpu:.0f}"
            )
