"""``python -m bench picture``: the time to draw the end-of-match chart and the table's picture.

The pictures are the presentation's own code (``cogs``), measured here from above.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime
from pathlib import Path

from bot.games import GAMES, new_game
from bot.tables import SeatInfo, TableInfo, TableStatus
from cogs.charts import running_totals, totals_chart
from cogs.picture import draw_table
from cogs.tables.picture import table_picture


def bench_chart(repeat: int = 20) -> list[str]:
    """Draw the chart of a long random match of each game (the most players) ``repeat`` times."""
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
