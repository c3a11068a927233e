"""Limits against abuse: each server's cap on open tables, one host's lobbies, and the pause between
two tables one person opens. Each refusal says why and writes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.storage.database import Database
from bot.storage.repository import TABLES
from bot.tables import BadOptions, ChannelBusy, TableService, TooMany

from .conftest import Clock
from .helpers import CHANNEL, GUILD, HOST


async def tables_in(database: Database) -> int:
    async with database.engine.connect() as connection:
        return int((await connection.execute(select(func.count()).select_from(TABLES))).scalar_one())


async def test_the_defaults_are_sensible(service: TableService) -> None:
    settings = await service.guild_settings(GUILD)
    assert (settings.max_open_tables, settings.max_lobbies_per_host, settings.play_cooldown_seconds) == (25, 2, 10)


async def test_a_second_table_waits_out_the_cooldown(service: TableService, database: Database, clock: Clock) -> None:
    first = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine")
    await service.abandon(first.id, HOST)  # closing it does not reset the pause
    clock.advance(3)
    with pytest.raises(TooMany) as refused:
        await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine")
    assert refused.value.key == "play_cooldown" and refused.value.params == {"seconds": 7}
    assert await tables_in(database) == 1
    await service.open_table(GUILD, CHANNEL + 1, HOST + 1, "Bob", "just-make")  # others are not held up
    clock.advance(7)
    await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine")
    assert await tables_in(database) == 3


async def test_one_host_holds_at_most_two_lobbies(service: TableService, database: Database, clock: Clock) -> None:
    for number in range(2):
        await service.open_table(GUILD, CHANNEL + number, HOST, "Ann", "ninety-nine")
        clock.advance(11)
    with pytest.raises(TooMany) as refused:
        await service.open_table(GUILD, CHANNEL + 2, HOST, "Ann", "ninety-nine")
    assert refused.value.key == "host_lobbies_full" and refused.value.params == {"limit": 2}
    await service.open_table(GUILD + 1, CHANNEL + 3, HOST, "Ann", "ninety-nine")  # another server: its own limits
    assert await tables_in(database) == 3


async def test_a_server_holds_at_most_its_cap_of_open_tables(
    service: TableService, database: Database, clock: Clock
) -> None:
    await service.update_guild_settings(GUILD, max_open_tables=2)
    for number in range(2):
        await service.open_table(GUILD, CHANNEL + number, HOST + number, "P", "just-make")
    with pytest.raises(TooMany) as refused:
        await service.open_table(GUILD, CHANNEL + 2, HOST + 2, "Cid", "just-make")
    assert refused.value.key == "server_tables_full" and refused.value.params == {"limit": 2}
    assert "2 open tables" in str(refused.value)
    table_id = (await service.table_in_channel(CHANNEL)).id  # type: ignore[union-attr]
    await service.abandon(table_id, HOST)  # a table closed frees its place
    await service.open_table(GUILD, CHANNEL + 2, HOST + 2, "Cid", "just-make")
    assert await tables_in(database) == 3


async def test_the_limits_are_settings_with_their_own_bounds(service: TableService) -> None:
    settings = await service.update_guild_settings(
        GUILD, max_open_tables=100, max_lobbies_per_host=5, play_cooldown_seconds=0
    )
    assert (settings.max_open_tables, settings.max_lobbies_per_host, settings.play_cooldown_seconds) == (100, 5, 0)
    for key, bad in (("max_open_tables", 0), ("max_lobbies_per_host", 26), ("play_cooldown_seconds", -1)):
        with pytest.raises(BadOptions) as refused:
            await service.update_guild_settings(GUILD, **{key: bad})
        assert refused.value.key == "bad_setting"
    assert (await service.guild_settings(GUILD)).max_lobbies_per_host == 5


async def test_a_lobby_never_shown_is_closed_on_start(database: Database, clock: Clock) -> None:
    """A crash between opening a lobby and posting it leaves a lobby with no message: the next start
    closes it (once a minute has passed, so another process's lobby being posted is left alone)."""
    service = TableService(database, clock=clock)
    shown = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine")
    await service.set_location(shown.id, message_id=555)
    lost = await service.open_table(GUILD, CHANNEL + 1, HOST + 1, "Bob", "ninety-nine")
    clock.advance(120)
    fresh = await service.open_table(GUILD, CHANNEL + 2, HOST + 2, "Cid", "ninety-nine")
    await service.close()
    restarted = TableService(database, clock=clock)
    assert await restarted.load_open_tables() == 2
    assert (await restarted.table(lost.id)).status == "abandoned"
    assert (await restarted.table(shown.id)).status == "lobby" and (await restarted.table(fresh.id)).status == "lobby"
    assert await restarted.table_in_channel(CHANNEL + 1) is None  # its channel is free again
    await restarted.open_table(GUILD, CHANNEL + 1, HOST + 1, "Bob", "ninety-nine")
    await restarted.close()


async def test_a_table_whose_thread_failed_takes_its_channel_or_is_refused(service: TableService) -> None:
    """A table meant for its own thread holds no channel; when the thread cannot be made it stays in the
    channel and takes the channel's one place, unless another table holds it."""
    await service.update_guild_settings(GUILD, play_cooldown_seconds=0)
    first = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine", own_thread=True)
    await service.set_location(first.id, message_id=1, in_channel=True)
    assert await service.table_in_channel(CHANNEL) == await service.table(first.id)
    second = await service.open_table(GUILD, CHANNEL, HOST + 1, "Bob", "ninety-nine", own_thread=True)
    with pytest.raises(ChannelBusy):
        await service.set_location(second.id, message_id=2, in_channel=True)
    assert (await service.table(second.id)).message_id is None  # nothing of it written
    assert (await service.table_in_channel(CHANNEL)).id == first.id  # type: ignore[union-attr]
