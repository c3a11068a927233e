"""Two bot processes, each running one of the bot's two shards, on one PostgreSQL database with Redis.

Each process owns the tables of the servers on its shard: it loads them, runs their
timers and plays their computers. A click Discord routes to the other process is
still served, a deadline is acted on once, a server's new settings reach both, and a
process killed mid-match is started again with nothing lost.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.shards import shard_of
from tests.double import BotProcess, DiscordDouble, Message, User
from tests.redis_service import redis_answers, redis_database

from .conftest import people
from .driver import MANAGER, WAIT, TableDriver, control
from .leaks import logged_actions
from .test_tournaments import entrants, pings, seated, sign_up, table_of

REDIS_URL = redis_database(4)  # a database of its own: the REST budget's e2e test uses another
OTHER_GUILD = 900_000_000_000_000_001 + (1 << 22)  # the double's first server is on one shard, this on the other
OTHER_CHANNEL = 900_000_000_000_000_102


async def settings_panel(double: DiscordDouble, channel_id: int) -> Message:
    panel = (await double.command(MANAGER, "settings", channel_id=channel_id)).original
    assert panel is not None
    return panel


def lines(double: DiscordDouble, text: str, channel_id: int | None) -> list[Message]:
    return [m for m in double.public_messages() if text in m.text() and m.channel_id == channel_id]


async def test_two_processes_as_two_shards(double: DiscordDouble, database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL; SQLite serves one process")
    if not await redis_answers(REDIS_URL):
        pytest.skip(f"Redis is not reachable at {REDIS_URL} (TEST_REDIS_URL)")
    double.shard_count = 2
    double.add_server(OTHER_GUILD, OTHER_CHANNEL)
    first_shard, other_shard = shard_of(double.guild_id, 2), shard_of(OTHER_GUILD, 2)
    assert first_shard != other_shard
    env = {"SHARD_COUNT": "2", "REDIS_URL": REDIS_URL, "COMPUTER_BUDGET_MS": "100"}
    processes = {
        shard: BotProcess(double, database_url, tmp_path / f"shard{shard}.log", SHARD_IDS=str(shard), **env)
        for shard in (0, 1)
    }
    for process in processes.values():  # one after the other: the first applies the migrations
        await process.start()
    assert sorted(map(tuple, double.identified)) == [(0, 2), (1, 2)]  # each IDENTIFYs its own shard
    try:
        for channel in (double.channel_id, OTHER_CHANNEL):
            await double.click(MANAGER, await settings_panel(double, channel), "st:pace:0")

        # A match in each server: people at the first, people and computers at the other.
        here = TableDriver(double, people(3), seed=5)
        await here.open("oh-hell", players=3, start_cards=3)
        await here.seat_everyone()
        await here.start()
        there = TableDriver(double, [User(2000, "Uma"), User(2001, "Vic")], seed=6, channel_id=OTHER_CHANNEL)
        await there.open("just-make", players=4, target=3)
        await there.seat_everyone(["easy", "easy"])
        await there.start()
        await asyncio.gather(here.play(stop_after=4), there.play(stop_after=3))

        # Clicks Discord sends to the process that does not own the server are served all the same,
        # and that process speaks the language the server chose in the other process.
        await double.choose(MANAGER, await settings_panel(double, double.channel_id), "st:lang", ["ja"])
        double.route_to = other_shard
        pings_before = len(lines(double, "の番です", here.table.thread_id))  # type: ignore[union-attr]
        await here.play(stop_after=here.actions + 3)
        await double.wait_for(
            lambda: len(lines(double, "の番です", here.table.thread_id)) > pings_before,  # type: ignore[union-attr]
            timeout=WAIT,
        )
        double.route_to = None

        # The owner of the other server is killed mid-match and started again: nothing is lost.
        before = await logged_actions(database_url, there.table_id)
        owner = processes[other_shard]
        await owner.stop(kill=True)
        await owner.start()
        assert (await logged_actions(database_url, there.table_id))[: len(before)] == before
        await asyncio.gather(here.play(), there.play())
        await asyncio.gather(here.wait_finished(), there.wait_finished())

        # A deadline due while both run: one reminder, then one move by the strong computer.
        await double.choose(MANAGER, await settings_panel(double, OTHER_CHANNEL), "st:grace", ["15"])
        late = TableDriver(double, [User(2002, "Wes")], seed=7, channel_id=OTHER_CHANNEL)
        await late.open("just-make", players=4, target=15, turn_seconds=1)
        await late.seat_everyone(["easy", "easy", "easy"])
        await late.start()
        thread = late.table.thread_id  # type: ignore[union-attr]
        timed_out = await double.wait_for(lambda: lines(double, "time ran out", thread), timeout=WAIT)
        assert len(timed_out) == 1 and len(lines(double, "it is your turn at this table", thread)) == 1
        sources = await _sources(database_url, late.table_id)
        assert sources.count("timeout") == 1
        await double.command(late.host, "abandon", channel_id=thread)
        assert control(here.table, "tt:rematch:") is not None  # type: ignore[arg-type]
        assert double.problems == []
    finally:
        for process in processes.values():
            await process.stop()
    for process in processes.values():
        log = process.log()
        assert "Traceback" not in log, log[-5000:]
        assert "no text for" not in log


async def test_a_duplicate_night_with_two_processes_moves_on_and_compares_once(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """A tournament's round ends at a table whose clicks Discord sends to the process that does not own the
    server: the next round is opened once, and each deal (compared after each deal) is posted once."""
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL; SQLite serves one process")
    if not await redis_answers(REDIS_URL):
        pytest.skip(f"Redis is not reachable at {REDIS_URL} (TEST_REDIS_URL)")
    double.shard_count = 2
    owner, other = shard_of(double.guild_id, 2), 1 - shard_of(double.guild_id, 2)
    env = {"SHARD_COUNT": "2", "REDIS_URL": REDIS_URL, "COMPUTER_BUDGET_MS": "50"}
    processes = {
        shard: BotProcess(double, database_url, tmp_path / f"shard{shard}.log", SHARD_IDS=str(shard), **env)
        for shard in (0, 1)
    }
    for process in processes.values():
        await process.start()
    users = entrants(8)
    try:
        signup = await sign_up(
            double, users, format="duplicate", rounds=2, options="start_cards=2 sequence=down", compare="deal"
        )
        start = control(signup, ":start:")
        assert start is not None
        await double.click(users[0], signup, start["custom_id"])
        for round_no in (1, 2):
            await double.wait_for(lambda n=round_no: len(pings(double, n)) == 2, WAIT, f"round {round_no}'s tables")
            for index, ping in enumerate(pings(double, round_no)):
                driver = TableDriver(double, [p for p in seated(ping, users) if p is not None], seed=round_no)
                driver.table = await table_of(double, ping)
                # round 1's second table is played through the process that does not own the server
                double.route_to = other if (round_no, index) == (1, 1) else None
                await driver.play()
                await driver.wait_finished()
                double.route_to = None
        await double.wait_for(lambda: any("the podium" in m.text() for m in double.public_messages()), WAIT)
        await asyncio.sleep(2)  # anything posted twice would be by now

        def count(text: str) -> int:
            return sum(text in m.text() for m in double.public_messages())

        assert len(pings(double, 1)) == 2 and len(pings(double, 2)) == 2  # each round opened once
        for round_no in (1, 2):
            for deal in (1, 2):
                assert count(f"round {round_no}, deal {deal}: the same deal at every table") == 1, (round_no, deal)
        assert count("standings after round 1") == 1 and count("the podium") == 1
        assert double.problems == []
    finally:
        double.route_to = None
        for process in processes.values():
            await process.stop()
    assert owner != other
    for process in processes.values():
        assert "Traceback" not in process.log(), process.log()[-5000:]


async def _sources(database_url: str, table_id: int) -> list[str]:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.storage.database import normalise_url

    engine = create_async_engine(normalise_url(database_url))
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(
                text("SELECT source FROM actions WHERE table_id = :id ORDER BY seq"), {"id": table_id}
            )
            return [row.source for row in rows]
    finally:
        await engine.dispose()
