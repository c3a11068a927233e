"""The Activity launched in a channel with no table, inside "Discord" (the real bot against the double, the SDK's
DiscordSDKMock standing in for the client): the page's lobby form opens a table with two computers, the chat
table posts its lobby in the channel, the start on the page turns it into the table, and a few moves played on
the page move the channel's table message; no frame names a card the seat could not see."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import Browser

from bot.storage.database import Database
from tests.activity.leaks import leaks, sight_by_move
from tests.double import BotProcess, DiscordDouble
from tests.double.activity import SECRET
from tests.e2e.conftest import people
from tests.e2e.driver import control

from .test_discord_match import MOCK_INSTANCE, double, free_port  # noqa: F401 (the double is a fixture)
from .test_local_match import Player


async def test_a_page_opens_a_table_with_computers_where_the_channel_has_none_and_plays(
    double: DiscordDouble,  # noqa: F811
    browser: Browser,
    tmp_path: Path,
) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    port = free_port()
    env = {"ACTIVITY_PORT": str(port), "ACTIVITY_CLIENT_ID": str(double.app_id), "ACTIVITY_CLIENT_SECRET": SECRET}
    bot = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="50", **env)
    await bot.start()
    try:
        (alice,) = people(1)
        double.activity.launch([alice], double.channel_id, double.guild_id, instance_id=MOCK_INSTANCE)
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        player = Player(alice.name, await context.new_page())
        player.listen()
        page = player.page
        await page.goto(f"http://127.0.0.1:{port}/?lang=en&mock_code={double.activity.authorize(alice)}")
        await page.wait_for_selector("#game", timeout=30_000)  # no table here: the lobby form
        await page.select_option("#game", "oh-hell")
        await page.select_option("#players", "3")
        await page.select_option("#computers", "2")
        await page.click("details summary")
        await page.select_option("#option-start_cards", "2")
        await page.click("[data-key=create]")
        await page.wait_for_selector("text=Seated: 3", timeout=20_000)
        table_id = player.states()[-1]["id"]
        message = await double.wait_for(
            lambda: next((m for m in double.public_messages() if control(m, f":join:{table_id}")), None),
            timeout=20,
            what="the lobby opened on the page is posted in the channel",
        )
        await page.click("[data-key=start]")
        await page.wait_for_selector(".hand .card", timeout=30_000)
        await double.wait_for(lambda: control(message, "tt:hand:"), timeout=20, what="the table in the channel")
        started = len(message.versions)
        played = 0
        for _ in range(300):
            if played >= 3:
                break
            if await player.take_turn():
                played += 1
            else:
                await asyncio.sleep(0.2)
        assert played >= 3, "Alice could not play on her page"
        await double.wait_for(
            lambda: len(message.versions) > started, timeout=20, what="the channel's table moved with the page"
        )
        assert double.problems == [], double.problems
        database = Database(database_url)
        try:
            frames = list(player.frames)  # those received so far: the computers play on while the log is read
            sight = await sight_by_move(database, table_id, 0)
            assert leaks(frames, table_id, sight) == []
        finally:
            await database.close()
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]
