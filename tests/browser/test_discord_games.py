"""Four browser pages inside "Discord" (the real bot against the Discord double, the SDK's DiscordSDKMock standing in
for the client) play a whole match of Five Hundred and of Just Make: the pages' taps are the only way the
match moves on, the channel's chat table message moves with them to its final standings, every page ends on the
standings, and no WebSocket frame a page received names a card its seat could not see. The end screens are saved.

Five Hundred is played to its end (500 or -500) in one hand: whoever bids first bids ten no trumps (520), the others
pass, so the hand scores +520 or -520 for the contractor's side either way; the pages discard and play the first
cards they are offered. Just Make plays to a target of 3, its shortest match. (Ninety-Nine is left out: its shortest
match, to 50 points, took four pages two minutes on a busy machine.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from tests.double import DiscordDouble
from tests.e2e.conftest import people
from tests.e2e.driver import TableDriver

from .test_discord_match import check_frames, double, open_pages, start_bot  # noqa: F401 (a fixture)
from .test_local_match import PEOPLE, Player, shoot

# the game, the options its /play command is given, and the bid a page makes when it is offered (else the first)
GAMES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("five-hundred", {}, ("step-bid 10NT", "n-10")),
    ("just-make", {"target": 3}, ()),
]


async def take(player: Player, wanted: tuple[str, ...]) -> bool:
    """The first of the ``wanted`` controls this page shows, else whatever it offers; False if nothing now."""
    for key in wanted:
        button = player.page.locator(f'.controls [data-key="{key}"]')
        try:
            if await button.count():
                await button.first.click(timeout=3000)
                return True
        except PlaywrightError:
            return False  # the table moved on under the click: look again
    return await player.take_any()


@pytest.mark.parametrize(("game", "options", "wanted"), GAMES, ids=[g[0] for g in GAMES])
async def test_four_pages_play_a_whole_match_in_discord(
    double: DiscordDouble,  # noqa: F811
    browser: Browser,
    tmp_path: Path,
    game: str,
    options: dict[str, Any],
    wanted: tuple[str, ...],
) -> None:
    bot, database_url, port = await start_bot(double, tmp_path)
    try:
        users = people(4)
        table = TableDriver(double, users, seed=5)
        await table.open(game, **options)
        await table.seat_everyone()
        await table.start()
        looks = [(user, language, viewport) for user, (_, language, viewport) in zip(users, PEOPLE, strict=True)]
        pages = await open_pages(double, browser, port, looks)
        for _ in range(5000):
            if table.finished():
                break
            moved = False
            for player in pages:
                moved = await take(player, wanted) or moved
            if not moved:
                await asyncio.sleep(0.1)
        else:
            raise AssertionError("the match did not end")
        await table.wait_finished()
        assert table.table is not None
        assert "Final standings" in table.table.text(), table.table.text()
        for player in pages:
            await player.page.wait_for_selector(".final-panel", timeout=30_000)
            final = await player.page.text_content(".final-panel") or ""
            assert all(user.name in final for user in users), final
        assert double.activity.exchanges == 4 and double.problems == [], double.problems
        await asyncio.sleep(0.5)  # the end screens have settled
        await shoot(pages, tmp_path / "screens", f"{game}-final-")
        await check_frames(database_url, pages)
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]
