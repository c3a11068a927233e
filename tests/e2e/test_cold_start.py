"""A bot with many open tables answers at once after a start: tables are read back in the background,
and a click on one not read yet reads it then."""

from __future__ import annotations

import random
from pathlib import Path

from bot.storage.database import Database
from bot.tables import TableService
from tests.double import BotProcess, DiscordDouble, User
from tests.service.helpers import relax_limits

OPEN_TABLES = 150
MOVES = 12  # each table a few actions into its match


async def seed_tables(database_url: str, guild_id: int, channel_id: int) -> int:
    """``OPEN_TABLES`` matches in play, each in its own thread; the last one in ``channel_id`` itself."""
    database = Database(database_url)
    await database.upgrade()
    service = TableService(database)
    rng = random.Random(1)
    try:
        await relax_limits(service, guild_id)
        # Turn timers of 5 minutes: seeding takes a while on a busy machine, and no reminder is to fall due
        # before the click (the seeded tables' messages do not exist in the double).
        await service.update_guild_settings(guild_id, max_open_tables=200, turn_seconds=300, grace_seconds=120)
        last = 0
        for number in range(OPEN_TABLES):
            host = 50_000 + 10 * number
            in_channel = number == OPEN_TABLES - 1
            info = await service.open_table(
                guild_id,
                channel_id,
                host,
                f"P{host}",
                "ninety-nine",
                {"format": "nine-deals"},
                thread_id=None if in_channel else 800_000 + number,
            )
            for other in (1, 2):
                await service.join(info.id, host + other, f"P{host + other}")
            await service.set_location(info.id, message_id=700_000 + number)
            table = (await service.start(info.id, host)).table
            for _ in range(MOVES):
                seat = table.to_act[0]
                who = table.seats[seat].user_id
                assert who is not None
                table = (await service.act(info.id, who, rng.choice(await service.legal(info.id, who)))).table
            last = info.id
        return last
    finally:
        await service.close()
        await database.close()


async def test_the_first_click_after_a_start_with_many_open_tables_is_answered_in_time(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    target = await seed_tables(database_url, double.guild_id, double.channel_id)
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    await process.start()
    try:
        button = double.plant([f"tt:hand:{target}"])
        player = User(50_000 + 10 * (OPEN_TABLES - 1), "Host")
        answer = await double.click(player, button, f"tt:hand:{target}")  # answered within 3 s, or it fails
        assert answer.original is not None and "Your hand" in answer.original.text()
        await double.wait_for(lambda: "open tables resumed" in process.log(), timeout=60)
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]
