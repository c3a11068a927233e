"""The Activity inside "Discord": the real bot against the Discord double, two players on browser pages (the SDK's
DiscordSDKMock standing in for the Discord client, signed in with codes the double issued) and a third in chat.
They play a whole match of Oh Hell; the chat table moves with the screens to its final standings, and no frame a
page received names a card its seat could not see."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from bot.storage.database import Database
from tests.activity.leaks import leaks, sight_by_move
from tests.double import BotProcess, DiscordDouble, User
from tests.double.activity import SECRET
from tests.e2e.conftest import people
from tests.e2e.driver import TableDriver

from .test_local_match import PHONE, Player

MOCK_INSTANCE = "123456789012345678"  # the instance id DiscordSDKMock gives the page


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    server = DiscordDouble()
    await server.start()
    yield server
    await server.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def start_bot(double: DiscordDouble, tmp_path: Path) -> tuple[BotProcess, str, int]:
    """The bot against the double with the Activity on: the process, its database and the Activity's port."""
    database_url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    port = free_port()
    env = {"ACTIVITY_PORT": str(port), "ACTIVITY_CLIENT_ID": str(double.app_id), "ACTIVITY_CLIENT_SECRET": SECRET}
    bot = BotProcess(double, database_url, tmp_path / "bot.log", **env)
    await bot.start()
    return bot, database_url, port


async def open_pages(
    double: DiscordDouble, browser: Browser, port: int, people: list[tuple[User, str, dict[str, int]]]
) -> list[Player]:
    """The Activity launched in the double's channel for these people (a user, a language, a viewport each), each
    on a page signed in with a code the double issued; back once every page shows its hand."""
    users = [user for user, _, _ in people]
    double.activity.launch(users, double.channel_id, double.guild_id, instance_id=MOCK_INSTANCE)
    pages = []
    for user, language, viewport in people:
        context = await browser.new_context(viewport=viewport, locale=language)  # type: ignore[arg-type]
        player = Player(user.name, await context.new_page())
        player.listen()
        code = double.activity.authorize(user)
        await player.page.goto(f"http://127.0.0.1:{port}/?lang={language}&mock_code={code}")
        await player.page.wait_for_selector(".hand .card", timeout=60_000)
        pages.append(player)
    return pages


async def check_frames(database_url: str, screens: list[Player]) -> None:
    """Every page received states, and no frame names a card its seat could not see."""
    table_id = screens[0].states()[-1]["id"]
    database = Database(database_url)
    try:
        for player in screens:
            frames = list(player.frames)  # those received so far: a table still in play goes on while the log is read
            assert any(f.get("type") == "state" for f in frames), json.dumps(frames)[:500]
            seat = next(s["seat"] for s in player.states() if s.get("seat") is not None)
            sight = await sight_by_move(database, table_id, seat)
            assert leaks(frames, table_id, sight) == []
    finally:
        await database.close()


async def test_two_screens_and_a_chat_player_play_one_table(
    double: DiscordDouble, browser: Browser, tmp_path: Path
) -> None:
    bot, database_url, port = await start_bot(double, tmp_path)
    try:
        alice, bob, carol = people(3)
        table = TableDriver(double, [alice, bob, carol], seed=5)
        await table.open("oh-hell", start_cards=2)
        await table.seat_everyone()
        await table.start()
        screens = await open_pages(double, browser, port, [(alice, "en", PHONE), (bob, "en", PHONE)])
        for _ in range(600):
            if table.finished():
                break
            moved = False
            for player in screens:
                moved = await player.take_turn() or moved
            moved = await table.take_turn(table.players[2]) or moved
            if not moved:
                try:
                    await double.wait_for(lambda: table.finished() or table.someone_can_act(), 1.0)
                except AssertionError:
                    await table.refresh_all()
        else:
            raise AssertionError("the match did not end")
        await table.wait_finished()
        assert table.table is not None and "Final standings" in table.table.text()
        for player in screens:
            await player.page.wait_for_selector(".final-panel", timeout=20_000)
        assert double.activity.exchanges == 2 and double.problems == [], double.problems
        await check_frames(database_url, screens)
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]
