"""What goes when Discord takes something away: the bot removed from a server (its open tables abandoned, its
tournaments and game nights cancelled, nothing of another server touched), a table's channel deleted (its tables
abandoned), a table's thread deleted (the table goes on in its channel)."""

from __future__ import annotations

from sqlalchemy import text

from bot.storage.database import Database
from bot.storage.models import TournamentStatus
from bot.tables import TableService
from bot.tables.departures import CHANNEL_DELETED, SERVER_LEFT
from bot.tables.events import Event, MatchEnded

from .conftest import Clock
from .helpers import CHANNEL, GUILD, HOST, heard, make_service, seated, started

OTHER_GUILD, OTHER_CHANNEL = 2, 600


def hear(service: TableService) -> list[Event]:
    events: list[Event] = []

    async def listen(event: Event) -> None:
        events.append(event)

    service.events.subscribe(listen)
    return events


async def matches(database: Database) -> int:
    async with database.engine.connect() as connection:
        return int((await connection.exec_driver_sql("SELECT count(*) FROM matches")).scalar_one())


async def test_leaving_a_server_closes_everything_of_it_and_nothing_else(
    service: TableService, database: Database, clock: Clock
) -> None:
    for guild in (GUILD, OTHER_GUILD):
        await service.update_guild_settings(guild, turn_seconds=30, grace_seconds=10)
    playing = (await started(service, "oh-hell", players=3, options={"start_cards": 5})).table
    with_computers = await seated(service, "oh-hell", players=1, channel=CHANNEL + 1, first_user=HOST + 10)
    await service.add_computer(with_computers.id, with_computers.host_id)
    await service.add_computer(with_computers.id, with_computers.host_id)
    with_computers = (await service.start(with_computers.id, with_computers.host_id, message_id=1)).table
    lobby = await seated(service, "oh-hell", players=3, channel=CHANNEL + 2, first_user=HOST + 20)
    tournament = await service.tournaments.create(
        GUILD, CHANNEL + 3, HOST, "Host", "oh-hell", {"start_cards": 1}, table_size=4
    )
    for n in range(1, 4):
        tournament = await service.tournaments.join(tournament.id, GUILD, HOST + 30 + n, f"P{n}")
    await service.tournaments.start(tournament.id, HOST)
    round_tables = [t.table_id for t in await service.tournaments.round_tables(tournament.id)]
    plan = service.game_nights.check("oh-hell", "", None, "2026-11-21 21:00")
    night = await service.game_nights.schedule(
        plan, guild_id=GUILD, channel_id=CHANNEL, event_id=77, host_id=HOST, host_name="Host"
    )
    elsewhere = (await started(service, "oh-hell", players=3, guild=OTHER_GUILD, channel=OTHER_CHANNEL)).table
    other_night = await service.game_nights.schedule(
        plan, guild_id=OTHER_GUILD, channel_id=OTHER_CHANNEL, event_id=78, host_id=HOST, host_name="Host"
    )
    events = hear(service)

    left = await service.server_left(GUILD)

    assert round_tables  # closed with their tournament, before the others
    assert set(left.tables) == {playing.id, with_computers.id, lobby.id}
    assert left.tournaments == (tournament.id,) and left.nights == (night.id,)
    for table_id in (playing.id, with_computers.id, lobby.id, *round_tables):
        assert (await service.table(table_id)).status == "abandoned", table_id
    assert (await service.tournaments.tournament(tournament.id)).status == TournamentStatus.CANCELLED
    assert [n.id for n in await service.game_nights.upcoming(GUILD)] == []
    assert [n.id for n in await service.game_nights.upcoming(OTHER_GUILD)] == [other_night.id]
    assert (await service.table(elsewhere.id)).status == "playing"
    assert await matches(database) == 0  # nothing rated
    await service.events.drain()
    reasons = {e.table_id: e.reason for e in events if isinstance(e, MatchEnded)}
    assert reasons[playing.id] == reasons[with_computers.id] == reasons[lobby.id] == SERVER_LEFT

    # nothing of the server moves again: no timer reminds or times out, no computer plays
    await service.settle()
    computers = heard(service)
    computers.take()
    clock.advance(35)
    reminded = await service.run_timers()
    assert [o.table.id for o in reminded] == [elsewhere.id]
    clock.advance(3600)
    await service.run_timers()
    await service.settle()
    assert all(o.table.guild_id != GUILD for o in computers.take())
    assert (await service.server_left(GUILD)).tables == ()  # heard twice: nothing more to close


async def test_leaving_a_server_closes_tables_a_restart_never_read(database: Database, clock: Clock) -> None:
    first = make_service(database, clock)
    table = (await started(first, "oh-hell", players=3)).table
    await first.close()
    again = make_service(database, clock)  # the table is not read back: the event comes first
    try:
        assert (await again.server_left(GUILD)).tables == (table.id,)
        assert (await again.table(table.id)).status == "abandoned"
    finally:
        await again.close()


async def test_a_deleted_channel_abandons_its_tables_only(service: TableService) -> None:
    here = (await started(service, "oh-hell", players=3)).table
    there = await seated(service, "oh-hell", players=3, channel=CHANNEL + 1, first_user=HOST + 10)
    events = hear(service)
    assert await service.channel_deleted(CHANNEL) == [here.id]
    assert (await service.table(here.id)).status == "abandoned"
    assert (await service.table(there.id)).status == "lobby"
    await service.events.drain()
    assert [e.reason for e in events if isinstance(e, MatchEnded)] == [CHANNEL_DELETED]
    assert await service.channel_deleted(CHANNEL) == []


async def test_a_deleted_channel_cancels_its_tournaments_and_game_nights_only(service: TableService) -> None:
    """A tournament whose channel is gone could never post its next round (its round's tables abandoned count as
    ties, and it would go on for ever unseen); a night there could never post its lobby: both are cancelled."""
    tournament = await service.tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", {"start_cards": 1}, table_size=4
    )
    for n in range(1, 4):
        tournament = await service.tournaments.join(tournament.id, GUILD, HOST + 30 + n, f"P{n}")
    await service.tournaments.start(tournament.id, HOST)
    round_tables = [t.table_id for t in await service.tournaments.round_tables(tournament.id)]
    elsewhere = await service.tournaments.create(
        GUILD, CHANNEL + 1, HOST, "Host", "oh-hell", {"start_cards": 1}, table_size=4
    )
    plan = service.game_nights.check("oh-hell", "", None, "2026-11-21 21:00")
    night = await service.game_nights.schedule(
        plan, guild_id=GUILD, channel_id=CHANNEL, event_id=77, host_id=HOST, host_name="Host"
    )
    other_night = await service.game_nights.schedule(
        plan, guild_id=GUILD, channel_id=CHANNEL + 1, event_id=78, host_id=HOST, host_name="Host"
    )
    await service.channel_deleted(CHANNEL)  # (its round's tables close with the tournament)
    for table_id in round_tables:
        assert (await service.table(table_id)).status == "abandoned"
    assert (await service.tournaments.tournament(tournament.id)).status == TournamentStatus.CANCELLED
    assert (await service.tournaments.tournament(elsewhere.id)).status == TournamentStatus.SIGNUP
    assert [n.id for n in await service.game_nights.upcoming(GUILD)] == [other_night.id]
    assert night.id != other_night.id


async def test_a_deleted_thread_leaves_the_table_in_its_channel(service: TableService, clock: Clock) -> None:
    await service.update_guild_settings(GUILD, turn_seconds=30, grace_seconds=10)
    table = (await started(service, "oh-hell", players=3, options={"start_cards": 5})).table
    thread = 4242
    await service.set_location(table.id, thread_id=thread)
    assert (await service.table(table.id)).thread_id == thread
    clock.advance(5)
    assert await service.thread_deleted(thread) == [table.id]
    now = await service.table(table.id)
    assert now.thread_id is None and now.status == "playing" and now.channel_id == CHANNEL
    assert await service.thread_deleted(thread) == []
    # its clock goes on as it was (moving it to the channel is no move): reminded 30 s after the turn began
    clock.advance(26)
    assert [o.table.id for o in await service.run_timers()] == [table.id]


async def test_a_server_left_while_nobody_listened_is_closed_at_its_shards_ready(service: TableService) -> None:
    """A shard's READY lists every server the bot is in on it: one of its servers with a table, a tournament or a
    night to come that it does not list was left meanwhile, and closes as if Discord had said so; a server it lists,
    another shard's server, and the local tables' own server (no Discord server at all) are left alone."""
    listed, left, nights_only, tournament_only, other_shard, seasons_only = (10**18 + n * (1 << 22) for n in range(6))
    plan = service.game_nights.check("oh-hell", "", None, "2026-11-21 21:00")
    tables = {}
    for guild in (listed, left, other_shard, GUILD):
        tables[guild] = (await started(service, "oh-hell", players=3, guild=guild, channel=CHANNEL + guild % 97)).table
    night = await service.game_nights.schedule(
        plan, guild_id=nights_only, channel_id=CHANNEL, event_id=79, host_id=HOST, host_name="Host"
    )
    tournament = await service.tournaments.create(
        tournament_only, CHANNEL, HOST, "Host", "oh-hell", {"start_cards": 1}, table_size=4
    )

    await service.seasons.turn_on(  # nothing of it to close, but its standings would be posted there
        seasons_only, "oh-hell", by_user=HOST, can_manage=True, length="month", channel_id=CHANNEL
    )
    missing = await service.servers_missing({listed}, lambda guild: guild != other_shard)

    assert missing == sorted([left, nights_only, tournament_only, seasons_only])
    gone = {guild: await service.server_left(guild) for guild in missing}
    assert gone[left].tables == (tables[left].id,) and gone[nights_only].nights == (night.id,)
    assert gone[tournament_only].tournaments == (tournament.id,)
    assert (await service.table(tables[left].id)).status == "abandoned"
    for guild in (listed, other_shard, GUILD):
        assert (await service.table(tables[guild].id)).status == "playing", guild
    left_alone = await service.servers_missing({listed}, lambda guild: guild != other_shard)
    assert left_alone == [seasons_only]  # its seasons are kept for the day the bot is added back


async def test_channels_deleted_while_nobody_listened_are_found_when_their_servers_come_in(
    service: TableService,
) -> None:
    """A server that comes in whole (GUILD_CREATE) lists every channel it has: a channel of it with an open table, a
    tournament, a night to come or a season that it does not list was deleted meanwhile; channels it lists, and the
    channels of servers that did not come in (still out, or another shard's), are left alone."""
    guild, out = 10**18, 10**18 + (1 << 22)
    kept, table_gone, tournament_gone, night_gone, season_gone = (CHANNEL + n for n in range(5))
    tables = {}
    for channel in (kept, table_gone):
        tables[channel] = (await started(service, "oh-hell", players=3, guild=guild, channel=channel)).table
    elsewhere = (await started(service, "oh-hell", players=3, guild=out, channel=CHANNEL + 9)).table
    tournament = await service.tournaments.create(
        guild, tournament_gone, HOST, "Host", "oh-hell", {"start_cards": 1}, table_size=4
    )
    plan = service.game_nights.check("oh-hell", "", None, "2026-11-21 21:00")
    night = await service.game_nights.schedule(
        plan, guild_id=guild, channel_id=night_gone, event_id=80, host_id=HOST, host_name="Host"
    )
    await service.seasons.turn_on(
        guild, "oh-hell", by_user=HOST, can_manage=True, length="month", channel_id=season_gone
    )

    missing = await service.channels_missing({guild: {kept, 1, 2}})

    assert missing == [table_gone, tournament_gone, night_gone, season_gone]
    for channel in missing:
        await service.channel_deleted(channel)
    assert (await service.table(tables[table_gone].id)).status == "abandoned"
    assert (await service.table(tables[kept].id)).status == "playing"
    assert (await service.table(elsewhere.id)).status == "playing"  # its server did not come in
    assert (await service.tournaments.tournament(tournament.id)).status == TournamentStatus.CANCELLED
    assert night.id not in [n.id for n in await service.game_nights.upcoming(guild)]
    assert await service.channels_missing({guild: {kept}}) == [season_gone]  # the season is kept, as at CHANNEL_DELETE
    assert await service.channels_missing({}) == []


async def test_a_table_whose_log_no_longer_replays_does_not_keep_the_others_open(
    database: Database, clock: Clock
) -> None:
    """The bot removed from a server with a table whose log no longer replays (a row edited by hand, an engine
    changed under it) and another: both are closed, the first by its row alone (it raised out of the loop and the
    other stayed open, playing on, and the bad one held its channel for good: found by a helper's audit)."""
    first = make_service(database, clock)
    bad = (await started(first, "oh-hell", players=3)).table
    who = bad.to_act[0]
    await first.act(bad.id, HOST + who, (await first.legal(bad.id, HOST + who))[0])
    good = (await started(first, "oh-hell", players=3, channel=CHANNEL + 1, first_user=HOST + 10)).table
    await first.close()
    async with database.engine.begin() as connection:
        await connection.execute(text("UPDATE actions SET action = 'bid 99' WHERE table_id = :t"), {"t": bad.id})
    second = make_service(database, clock)  # a restart: the bad table cannot be read
    try:
        left = await second.server_left(GUILD)
        assert sorted(left.tables) == sorted([bad.id, good.id])
        assert (await second.table(good.id)).status == "abandoned"
        async with database.engine.connect() as connection:
            statuses = dict((await connection.execute(text("SELECT id, status FROM tables"))).all())
            timers = (await connection.execute(text("SELECT count(*) FROM deadlines"))).scalar_one()
        assert statuses == {bad.id: "abandoned", good.id: "abandoned"} and timers == 0
        assert await second.table_in_channel(CHANNEL) is None  # the channel's place is free again
        assert await matches(database) == 0
    finally:
        await second.close()
