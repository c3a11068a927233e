"""What a person does on the page, step by step, as the browser tests do it: sign in at a room of the local
table, fill the new-table form and open the table, start it, wait for the seat's turn to play a card."""

from __future__ import annotations

import asyncio

from playwright.async_api import Page

from activity.sessions import LOCAL_GUILD
from bot.storage.database import Database
from bot.tables import TableService

from .conftest import LocalBot


async def no_computer_pace(bot: LocalBot) -> None:
    """The local table's computers keep no pace (they move at once), so a test waits for nobody."""
    database = Database(bot.database_url)
    service = TableService(database)
    try:
        await service.update_guild_settings(LOCAL_GUILD, computer_pace_ms=0)
    finally:
        await service.close()
        await database.close()


async def sign_in_at(page: Page, base: str, name: str, room: int, language: str = "en") -> None:
    """Open the local page at ``room`` in ``language`` and sit down as ``name`` (the first screen's form)."""
    await page.goto(f"{base}/?room={room}&lang={language}")
    await page.fill("#name", name)
    await page.click("button[type=submit]")


async def new_table(page: Page, game: str, players: int, computers: int, level: str | None = "easy") -> None:
    """Fill the new-table form (``level`` None leaves the computers' level as the form has it) and open it."""
    await page.wait_for_selector("#game", timeout=30_000)
    await page.select_option("#game", game)
    await page.select_option("#players", str(players))
    await page.select_option("#computers", str(computers))
    if level is not None:
        await page.select_option("#level", level)
    await page.click("[data-key=create]")


async def start_and_see_the_hand(page: Page) -> None:
    """Press Start (the host's) and wait until the page shows its hand."""
    await page.click("[data-key=start]", timeout=20_000)
    await page.wait_for_selector(".hand .card", timeout=60_000)


async def open_oh_hell(page: Page) -> None:
    """A four-seat Oh Hell with three easy computers, started: back once the page shows its hand."""
    await new_table(page, "oh-hell", 4, 3)
    await start_and_see_the_hand(page)


async def bid_until_a_card_is_to_play(page: Page, rounds: int = 600) -> None:
    """Make the first bid offered whenever the page asks for one, until it is this seat's turn to play a card."""
    for _ in range(rounds):
        numbers = page.locator(".controls .btn.number")
        if await numbers.count():
            await numbers.first.click()
            await numbers.first.wait_for(state="detached", timeout=20_000)
            continue
        if await page.locator(".controls .your-turn").count() and await page.locator(".hand .card:not(.dim)").count():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("no turn to play a card came")
