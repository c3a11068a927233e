"""``python -m bench search``: how big a strong decision's search is within its time budget.

Plays random deals of one game, every seat by the easy player, and asks the
strong player for each decision on the way (its choice is not played, so
every run meets the same decisions): the deals its search tried and drew (the
determinizations weighted away included), its wall time, and the CPU time of
a decision fixed at ``--samples`` deals (what the machine's load does not
change). Run it before and after a change to the players or the engines on a
quiet machine: the deals a decision tries at 200 ms are what the search's
speed buys.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

from bench.players import percentile
from bot.games import compiled, new_game
from bot.players import ComputerPlayer


def bench_search(game: str, deals: int, budget_ms: int, samples: int, seed: int) -> Iterator[str]:
    timed = ComputerPlayer("strong", seed=seed, budget_ms=budget_ms)
    fixed = ComputerPlayer("strong", seed=seed, samples=samples)
    easy = ComputerPlayer("easy", seed=seed)
    tried: list[float] = []
    drawn: list[float] = []
    wall_ms: list[float] = []
    cpu_ms: list[float] = []
    for index in range(deals):
        state = new_game(game, None, None, seed=seed * 1000 + index)
        while not state.is_over() and not state.sheets:
            seat = state.to_act()[0]
            started = time.perf_counter()
            decision = timed.decide(state, seat)
            wall_ms.append((time.perf_counter() - started) * 1000)
            if decision.samples:
                tried.append(decision.samples)
                drawn.append(decision.drawn)
                cpu = time.process_time()
                fixed.decide(state, seat)
                cpu_ms.append((time.process_time() - cpu) * 1000)
            state.act(seat, easy.choose(state, seat))
    build = "compiled" if compiled() else "pure Python"
    yield f"bench search: {game}, {deals} deals, strong at {budget_ms} ms a decision ({build} engines)"
    if not tried:
        yield "no decision needed a search"
        return
    median, mean = statistics.median, statistics.mean
    yield (
        f"decisions searched: {len(tried)} of {len(wall_ms)}; deals tried a decision median {median(tried):.0f}, "
        f"mean {mean(tried):.0f}, p90 {percentile(sorted(tried), 0.9):.0f}; drawn median {median(drawn):.0f}, "
        f"mean {mean(drawn):.0f}"
    )
    yield f"wall ms a decision p50 {median(wall_ms):.0f}, p99 {percentile(sorted(wall_ms), 0.99):.0f}"
    yield f"CPU ms a decision of {samples} deals: median {median(cpu_ms):.1f}, mean {mean(cpu_ms):.1f}"
