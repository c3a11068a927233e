"""Discord's own trouble: an edit it fails on its side is made again, and a server not come in yet (no roles in the
cache) still knows its moderators (found by a helper's audit of the bot's failure paths)."""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from tests.double import BotProcess, DiscordDouble, User
from tests.double.server import SERVICE_UNAVAILABLE, reply

from .conftest import people
from .driver import MOVE, WAIT, TableDriver, shown_move
from .leaks import logged_actions
from .tournament import entrants, round_tables, sign_up, start


class FailingEdits(DiscordDouble):
    """Answers the next ``failing`` edits of a message with 503 Service Unavailable (which discord.py does not
    retry), keeping the latest move each of them would have shown."""

    failing = 0
    failed = 0
    refused_move = 0

    async def _channel_edit(self, request: web.Request) -> web.Response:
        if self.failing:
            self.failing -= 1
            self.failed += 1
            body = await self._body(request)
            footers = " ".join((embed.get("footer") or {}).get("text", "") for embed in body.get("embeds") or [])
            self.refused_move = max([self.refused_move, *map(int, MOVE.findall(footers))])
            return reply(SERVICE_UNAVAILABLE, status=503)
        return await super()._channel_edit(request)


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    server = FailingEdits()
    await server.start()
    yield server
    await server.stop()


async def test_an_edit_discord_fails_is_made_again(double: FailingEdits, bot: BotProcess) -> None:
    table = TableDriver(double, people(3), seed=5)
    await table.open("oh-hell", players=3, start_cards=3)
    await table.seat_everyone()
    await table.start()
    message = table.table
    assert message is not None
    double.failing = 3  # the next three edits: 503; then the message is edited as the table is by then
    await table.play(stop_after=2)
    await double.wait_for(lambda: double.failed == 3, timeout=WAIT)
    await double.wait_for(lambda: (shown_move(message) or 0) >= double.refused_move > 0, timeout=WAIT)
    assert "Traceback" not in bot.log()
    assert "Discord did not take the edit of table" in bot.log()


async def test_a_moderator_abandons_a_table_before_its_server_comes_in(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    first = BotProcess(double, database_url, tmp_path / "first.log")
    await first.start()
    table = TableDriver(double, people(3), seed=5)
    await table.open("oh-hell", players=3, start_cards=3)
    await first.stop()
    assert table.table is not None
    double.servers_out.add(double.guild_id)  # the next READY lists it, no GUILD_CREATE yet: no roles cached
    second = BotProcess(double, database_url, tmp_path / "second.log")
    await second.start()
    try:
        moderator = User(2000, "Mod", manager=True)
        answer = await double.command(moderator, "abandon", channel_id=table.table.thread_id)
        assert answer.original is not None and "abandoned the table" in answer.original.text()
    finally:
        await second.stop()
    assert "Traceback" not in second.log()


async def test_a_command_or_click_as_the_bot_stops_is_told_it_is_restarting(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """The gateway stays open for a second or more while the bot stops, and its cogs were unloaded before it: a
    click failed with a traceback ("something went wrong"), a command was called outdated."""
    bot = BotProcess(double, database_url, tmp_path / "stopping.log")
    await bot.start()
    table = TableDriver(double, people(3), seed=5)
    await table.open("oh-hell", players=3, start_cards=3)
    await table.seat_everyone()
    await table.start()
    for player in table.players:
        await table.show_hand(player)
    assert table.table is not None and bot.process is not None
    before = await logged_actions(database_url, table.table_id)
    on_turn = next(p for p in table.players if p.hand is not None and table.choices(p.hand))
    assert on_turn.hand is not None
    choice = table.choices(on_turn.hand)[0]
    bot.process.send_signal(signal.SIGTERM)
    await double.wait_for(lambda: "answered that the bot is restarting" in bot.log(), timeout=WAIT)
    answer = await double.command(table.players[0].user, "hand", channel_id=table.table.thread_id)
    assert answer.original is not None and "restarting" in answer.original.text(), answer.original
    await double.click(on_turn.user, on_turn.hand, choice["custom_id"])
    latest = double.latest_ephemeral(on_turn.user)
    assert latest is not None and "restarting" in latest.text()
    await bot.process.wait()
    assert await logged_actions(database_url, table.table_id) == before
    assert "Traceback" not in bot.log() and "a click failed" not in bot.log()


async def test_a_private_tables_archived_thread_is_opened_again_and_a_locked_one_left_alone(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """A duplicate night's table lives in its private thread: archived (quiet past its auto-archive time, or closed
    by a moderator) its message could not be edited (400 50083), with a traceback at every change and the table
    frozen; locked, the same (160005)."""
    users = entrants(8)
    bot = BotProcess(double, database_url, tmp_path / "archived.log", COMPUTER_BUDGET_MS="50")
    await bot.start()
    try:
        signup = await sign_up(double, users, format="duplicate", rounds=1, options="start_cards=2 sequence=down")
        await start(double, users[0], signup)
        first, _ = await round_tables(double, users, 1, 2, seed=6)
        message = first.table
        assert message is not None
        await first.play(stop_after=1)
        await double.wait_for(lambda: (shown_move(message) or 0) > 0, timeout=WAIT)
        thread, before = message.channel_id, shown_move(message) or 0
        double.archived.add(thread)
        await first.play(stop_after=3)
        await double.wait_for(lambda: thread not in double.archived, timeout=WAIT)  # opened again by the bot
        await double.wait_for(lambda: (shown_move(message) or 0) > before, timeout=WAIT)  # and the table goes on
        double.archived.add(thread)
        double.locked.add(thread)
        await first.play(stop_after=5)
        await double.wait_for(lambda: "was refused" in bot.log() or "Discord refused the edit" in bot.log(), WAIT)
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log()
