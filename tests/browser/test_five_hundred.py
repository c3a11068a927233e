"""Five Hundred at the local table from a browser page, against three computers: the page takes every kind of
control the game's description asks for (a number then its suits, words, cards to pick and confirm, a card to
tap twice) until a whole hand is scored, and no frame names a card the seat could not see."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.storage.database import Database
from tests.activity.leaks import leaks, sight_by_move

from .conftest import LocalBot
from .steps import new_table, no_computer_pace, sign_in_at, start_and_see_the_hand
from .test_local_match import Player


async def test_a_hand_of_five_hundred_from_a_page(local_bot: LocalBot, browser: Browser, tmp_path: Path) -> None:
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    player = Player("Erin", await context.new_page())
    player.listen()
    page = player.page
    await sign_in_at(page, local_bot.base, "Erin", 3)
    await new_table(page, "five-hundred", 4, 3)
    await start_and_see_the_hand(page)
    for _ in range(600):
        states = player.states()
        if states and (states[-1].get("sheet") or states[-1]["status"] != "playing"):
            break
        if not await player.take_any():
            await page.wait_for_timeout(200)
    else:
        await page.screenshot(path=str(tmp_path / "stuck.png"))
        shown = player.states()[-1] if player.states() else None
        raise AssertionError(f"no hand was scored: {shown and shown.get('choices')} {shown and shown['to_act']}")
    last = player.states()[-1]
    assert last["sheet"]["title"] and last["scores"] is not None
    table_id = last["id"]
    database = Database(local_bot.database_url)
    try:
        frames = list(player.frames)  # those received so far: the computers play on while the log is read
        sight = await sight_by_move(database, table_id, 0)
        assert leaks(frames, table_id, sight) == []
    finally:
        await database.close()
