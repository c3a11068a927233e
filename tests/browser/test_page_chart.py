"""The end-of-match chart on the page: every total is written at its line's end, however close the totals (one a
point or two from another was left out: only the key said it), moved apart where they would touch; a tie once."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

from playwright.async_api import Browser

from .conftest import LocalBot
from .steps import no_computer_pace, open_oh_hell, sign_in_at
from .test_local_match import DESKTOP, PHONE
from .test_page_connection import Network

LINES = [[0, 10, 21, 32], [0, 11, 20, 33], [0, 9, 22, 31], [0, 30, 50, 60], [0, 12, 20, 31]]  # 32, 33, 31 and a tie


async def test_close_totals_are_all_written_apart_and_a_tie_once(
    local_bot: LocalBot, browser: Browser, tmp_path: Path
) -> None:
    await no_computer_pace(local_bot)
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        context = await browser.new_context(viewport=size, locale="en")
        page = await context.new_page()
        network = Network()
        await network.attach(page)
        await sign_in_at(page, local_bot.base, "Chad", 71 if name == "phone" else 72)
        await open_oh_hell(page)
        frame = copy.deepcopy(next(f for f in reversed(network.got) if f.get("type") == "state" and f.get("table")))
        table = frame["table"]
        names = ["Chad", "Easy 2", "Easy 3", "Easy 4", "Easy 5"]
        totals = [line[-1] for line in LINES]
        table["status"], table["choices"] = "finished", []
        table["final"] = {
            "standings": [
                {"seat": s, "name": names[s], "place": 1, "score": totals[s], "winner": False, "rating": ""}
                for s in range(5)
            ],
            "unrated": "",
            "chart": {"title": "Running totals", "x": "deal", "y": "points", "names": names, "lines": LINES},
        }
        network.muted = True  # the computers play on at the server: the frame slipped in stays shown
        network.slip_in(frame)
        chart = page.locator(".final-panel svg.chart")
        await chart.wait_for(timeout=10_000)
        labels = chart.locator('text[font-weight="700"]')
        written = sorted(int(text) for text in await labels.all_text_contents())
        assert written == sorted(set(totals))  # every total, the tie (31) once
        ys = sorted([float(await labels.nth(at).get_attribute("y") or 0) for at in range(await labels.count())])
        assert all(b - a >= 14 for a, b in itertools.pairwise(ys))  # none on another
        await page.screenshot(path=str(tmp_path / f"chart-{name}.png"))
        # five totals bunched at the chart's foot (the lowest): moved up together, none below the picture
        low = [[0, 1, 1, 1 + n] for n in range(5)] + [[0, 20, 40, 60]]
        table["final"]["chart"] = {**table["final"]["chart"], "lines": low, "names": [*names, "Easy 6"]}
        table["final"]["standings"] = [
            {"seat": s, "name": n, "place": 1, "score": 0, "winner": False, "rating": ""}
            for s, n in enumerate([*names, "Easy 6"])
        ]
        network.slip_in(frame)
        await chart.locator('text[font-weight="700"]', has_text="60").wait_for(timeout=10_000)
        height = float((await chart.get_attribute("viewBox") or "0 0 0 0").split()[3])
        ys = sorted([float(await labels.nth(at).get_attribute("y") or 0) for at in range(await labels.count())])
        assert len(ys) == 6 and all(b - a >= 14 for a, b in itertools.pairwise(ys)) and ys[-1] <= height
        await page.screenshot(path=str(tmp_path / f"chart-{name}-low.png"))
        await context.close()
