"""Five Hundred at the local table from a browser page, against three computers: the page takes every kind of
control the game's description asks for (a number then its suits, words, cards to pick and confirm, a card to
tap twice) until a whole hand is scored, and no frame names a card the seat could not see."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from activity.sessions import LOCAL_GUILD
from bot.storage.database import Database
from bot.tables import TableService
from tests.activity.leaks import leaks, sight_by_move

from .conftest import LocalBot
from .test_local_match import Player


async def test_a_hand_of_five_hundred_from_a_page(local_bot: LocalBot, browser: Browser, tmp_path: Path) -> None:
    database = Database(local_bot.database_url)
    service = TableService(database)
    try:
        await service.update_guild_settings(LOCAL_GUILD, computer_pace_ms=0)  # the computers keep no pace here
    finally:
        await service.close()
        await database.close()
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    player = Player("Erin", await context.new_page())
    player.listen()
    page = player.page
    await page.goto(f"{local_bot.base}/?room=3&lang=en")
    await page.fill("#name", "Erin")
    await page.click("button[type=submit]")
    await page.wait_for_selector("#game")
    await page.select_option("#game", "five-hundred")
    await page.select_option("#players", "4")
    await page.select_option("#computers", "3")
    await page.select_option("#level", "easy")
    await page.click("[data-key=create]")
    await page.click("[data-key=start]", timeout=20_000)
    await page.wait_for_selector(".hand .card", timeout=60_000)
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
