"""Discord takes something away in the middle of a match: the real bot, as its own process, against the double.

- The bot removed from the server (GUILD_DELETE): the table ends at once as abandoned, and nothing more is sent to
  the server (no edit, no ping, no reminder), however its turn timer and computers would have gone on; a server's
  outage (GUILD_DELETE with ``unavailable``) changes nothing.
- The table's channel deleted (CHANNEL_DELETE): the table is abandoned, and nothing more is sent there; deleted
  while the bot was down, it is missed from the server's GUILD_CREATE at the next start: the same.
- The table's thread deleted (THREAD_DELETE): the table goes on, its reminder said in its channel.
- The table's channel closed to the bot (every call 403 Missing Access): one refused edit, not one a move.

Each ends with no traceback in the bot's log (the ``bot`` fixture) and the bot far from the invalid-request ban.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

from bot.storage import repository as repo
from bot.storage.database import Database
from tests.double import BotProcess, DiscordDouble, Message, User

from .conftest import people
from .driver import WAIT, TableDriver
from .test_stop import logged

TURN = 3  # seconds: the reminder (a ping in the table's thread) comes this long after Alice's turn begins
REFUSED_LINE = re.compile(r"WARNING cogs\.tables\.publisher: Discord refused the edit of table (\d+)")


async def status(database_url: str, table_id: int) -> str:
    database = Database(database_url)
    try:
        async with database.engine.connect() as connection:
            stored = await repo.load_table(connection, table_id, with_actions=False)
    finally:
        await database.close()
    assert stored is not None
    return str(stored.table.status)


async def quiet(double: DiscordDouble, seconds: float = 1.5, timeout: float = WAIT) -> int:
    """Wait until the bot has made no REST call for ``seconds`` (its edits of the last move sent); the calls so far."""
    deadline = time.monotonic() + timeout
    seen, since = len(double.calls), time.monotonic()
    while time.monotonic() - since < seconds:
        assert time.monotonic() < deadline, "the bot never went quiet"
        await asyncio.sleep(0.1)
        if len(double.calls) != seen:
            seen, since = len(double.calls), time.monotonic()
    return seen


async def alices_turn(double: DiscordDouble) -> TableDriver:
    """Alice and two computers at Oh Hell, a turn timer of ``TURN`` seconds; returns once it is Alice's turn."""
    table = TableDriver(double, people(1), seed=3)
    await table.open("oh-hell", players=3, start_cards=5, turn_seconds=TURN)
    await table.seat_everyone(["easy", "easy"])
    await table.start()
    await table.show_hand(table.players[0])
    while not table.someone_can_act():  # the computers bid first, then her hand shows her choices
        await asyncio.sleep(0.2)
        await table.refresh_all()
    return table


def reminded(double: DiscordDouble, channel_id: int, since: int) -> Message | None:
    return next(
        (
            m
            for m in double.public_messages()
            if m.id > since and m.channel_id == channel_id and "<@1000>" in m.text() and "tt:" not in str(m.controls())
        ),
        None,
    )


async def test_the_bot_removed_from_the_server_ends_its_table_and_sends_nothing_more(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    table = await alices_turn(double)
    guild = double.guild_id
    await double.server_unavailable(guild)  # an outage of the server: nothing changes
    await asyncio.sleep(1.0)
    assert await status(database_url, table.table_id) == "playing"
    assert "removed from server" not in bot.log()
    before = await quiet(double)
    await double.remove_from_server(guild)
    [line] = await logged(bot, re.compile(rf"INFO bot\.tables\.departures: removed from server {guild}: 1 open tables"))
    assert f"({table.table_id})" in line
    assert await status(database_url, table.table_id) == "abandoned"
    await asyncio.sleep(TURN + 3)  # past Alice's reminder, which would have pinged her in the table's thread
    assert double.calls_to(double.channels_of(guild), since=before) == []
    assert double.limits.invalid_peak == 0, double.limits.limited[:5]
    # its commands may stay in the server: a /play there opens nothing, and says why
    someone = User(1003, "Dave")
    answer = await double.command(someone, "play-oh-hell")
    assert answer.original is not None and answer.original.ephemeral_for == someone.id
    assert "no longer in this server" in answer.original.text()
    again = f"tt:rematch:{table.table_id}"  # nor a rematch's button (made by hand: an abandoned table shows none)
    await double.click(table.users[0], double.plant([again]), again)
    latest = double.latest_ephemeral(table.users[0])
    assert latest is not None and "no longer in this server" in latest.text()
    assert double.calls_to(double.channels_of(guild), since=before) == []
    assert "Traceback" not in bot.log()


@contextlib.asynccontextmanager
async def started_again(double: DiscordDouble, database_url: str, log: Path) -> AsyncIterator[BotProcess]:
    """The bot started again (after a stop), stopped at the end; its log without a traceback."""
    again = BotProcess(double, database_url, log, COMPUTER_BUDGET_MS="100")
    await again.start()
    try:
        yield again
    finally:
        await again.stop()
    assert "Traceback" not in again.log(), again.log()[-4000:]


async def test_a_server_left_while_the_bot_was_down_is_closed_when_it_comes_back(
    double: DiscordDouble, bot: BotProcess, database_url: str, tmp_path: Path
) -> None:
    """Discord says nothing at the next start of a server the bot was removed from meanwhile: its READY no longer
    lists it. The table there ends as abandoned at once (it would have waited out its timers, each edit refused),
    and nothing is sent to the server."""
    table = await alices_turn(double)
    guild = double.guild_id
    await bot.stop()
    await double.remove_from_server(guild, heard=False)
    before = len(double.calls)
    async with started_again(double, database_url, tmp_path / "bot-again.log") as again:
        [line] = await logged(again, re.compile(rf"INFO bot\.tables\.departures: removed from server {guild}: 1 open"))
        assert f"({table.table_id})" in line and "not listed by Discord at READY" in again.log()
        assert await status(database_url, table.table_id) == "abandoned"
        await asyncio.sleep(TURN + 3)  # past Alice's reminder
        assert double.calls_to(double.channels_of(guild), since=before) == []


async def test_a_server_left_while_the_gateway_was_away_is_closed_at_the_new_session(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """The bot running, its shard cut off from Discord (a network outage), removed from the server meanwhile: the
    new session's READY no longer lists it (discord.py's sharded client would keep the server it knew, whole).
    The table there ends as abandoned before its clock runs again, and nothing more is sent to the server."""
    env = {"RECONNECT_FIRST_SECONDS": "0.1", "RECONNECT_LONGEST_SECONDS": "0.5", "COMPUTER_BUDGET_MS": "100"}
    running = BotProcess(double, database_url, tmp_path / "bot.log", **env)
    await running.start()
    try:
        table = await alices_turn(double)
        guild = double.guild_id
        before = await quiet(double)
        await double.take_away()
        await double.remove_from_server(guild, heard=False)
        await double.bring_back()
        [line] = await logged(running, re.compile(rf"INFO bot\.tables\.departures: removed from server {guild}: 1"))
        assert f"({table.table_id})" in line and "not listed by Discord at READY" in running.log()
        assert await status(database_url, table.table_id) == "abandoned"
        await asyncio.sleep(TURN + 3)  # past Alice's reminder
        assert double.calls_to(double.channels_of(guild), since=before) == []
    finally:
        await running.stop()
    assert "Traceback" not in running.log(), running.log()[-4000:]


async def test_a_deleted_channel_abandons_its_table_and_nothing_more_is_sent_there(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    table = await alices_turn(double)
    before = await quiet(double)
    await double.delete_channel(double.channel_id)
    await logged(bot, re.compile(rf"channel {double.channel_id} was deleted: open tables {table.table_id} abandoned"))
    assert await status(database_url, table.table_id) == "abandoned"
    await asyncio.sleep(TURN + 3)
    assert double.calls_to(double.channels_deleted, since=before) == []


async def test_a_channel_deleted_while_the_bot_was_down_is_closed_when_it_comes_back(
    double: DiscordDouble, bot: BotProcess, database_url: str, tmp_path: Path
) -> None:
    """Discord says nothing at the next start of a channel deleted meanwhile: its server's GUILD_CREATE no longer
    lists it. The table there ends as abandoned before its clock runs again (its edits and Alice's reminder would
    each have been refused): Discord is asked once whether the channel is gone, and nothing is sent there."""
    table = await alices_turn(double)
    await bot.stop()
    await double.delete_channel(double.channel_id, heard=False)
    before = len(double.calls)
    async with started_again(double, database_url, tmp_path / "bot-again.log") as again:
        await logged(again, re.compile(rf"channel {double.channel_id} was deleted: open tables {table.table_id} "))
        assert "not listed by Discord with their servers" in again.log()
        await _closed_after_one_question(double, database_url, table.table_id, before)


async def test_a_channel_deleted_while_the_bot_was_down_is_closed_when_its_server_comes_in_late(
    double: DiscordDouble, bot: BotProcess, database_url: str, tmp_path: Path
) -> None:
    """The table's server is out when the bot starts again (READY lists it, no GUILD_CREATE follows): its channels
    cannot be checked with the rest; they are when it comes in."""
    table = await alices_turn(double)
    await bot.stop()
    await double.delete_channel(double.channel_id, heard=False)
    await double.server_unavailable(double.guild_id, heard=False)
    async with started_again(double, database_url, tmp_path / "bot-again.log") as again:
        await logged(again, re.compile(r"shard 0: 1 servers still out; their channels are checked when they come in"))
        before = await quiet(double)  # Alice's reminder, due while the bot was down, tried (her thread is gone)
        assert await status(database_url, table.table_id) == "playing"
        await double.server_available(double.guild_id)
        await logged(again, re.compile(rf"channel {double.channel_id} was deleted: open tables {table.table_id} "))
        await _closed_after_one_question(double, database_url, table.table_id, before)


async def _closed_after_one_question(double: DiscordDouble, database_url: str, table_id: int, before: int) -> None:
    """The table is abandoned, and after the one question whether its channel is gone nothing is sent there, past
    the moment Alice's reminder would have come."""
    assert await status(database_url, table_id) == "abandoned"
    await asyncio.sleep(TURN + 3)
    assert double.calls_to(double.channels_deleted, since=before) == [("GET", f"/channels/{double.channel_id}")]


async def test_a_deleted_thread_leaves_the_table_playing_in_its_channel(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    table = await alices_turn(double)
    assert table.table is not None
    thread = table.table.thread_id
    assert thread is not None, "the table has a thread of its own (the server's default)"
    newest = max(double.messages)
    before = await quiet(double)
    await double.delete_thread(thread)
    await logged(bot, re.compile(rf"thread {thread} was deleted: tables {table.table_id} go on in their channel"))
    assert await status(database_url, table.table_id) == "playing"
    await double.wait_for(
        lambda: reminded(double, double.channel_id, newest), timeout=WAIT, what="Alice reminded in the channel"
    )
    assert double.calls_to({thread}, since=before) == []
    await table.play(stop_after=1)  # and she plays on from her hand
    assert await status(database_url, table.table_id) == "playing"


async def test_a_channel_closed_to_the_bot_costs_one_refused_edit_not_one_a_move(
    double: DiscordDouble, bot: BotProcess
) -> None:
    table = await alices_turn(double)
    assert table.table is not None
    closed = {double.channel_id, *([table.table.thread_id] if table.table.thread_id else [])}
    before = await quiet(double)
    double.channels_refused |= closed  # the bot's view of the channel taken away
    moves = 0
    while moves < 4:  # Alice bids and plays; the computers answer; each move would edit the table
        if await table.take_turn(table.players[0]):
            moves += 1
        await asyncio.sleep(1.2)  # past the edits' pace: each move its own edit
        await table.refresh_all()
    await quiet(double)
    edits = [call for call in double.calls_to(closed, since=before) if call[0] == "PATCH"]
    assert len(edits) == 1, edits
    assert len(double.calls_to(closed, since=before)) <= 3  # the edit, and a ping or a reminder at most
    [line] = await logged(bot, REFUSED_LINE)
    assert line.endswith("then its next change tries again")
    assert "Traceback" not in bot.log()
