"""Scheduled game nights in the service: checked at the door, pinged and opened once (two processes),
following edits and cancellations made in Discord, and kept across a restart."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import text

from bot.shards import Shards
from bot.storage.database import Database
from bot.tables import TableError, TableService
from bot.tables.game_nights import MAX_WAITING, NightInfo, parse_options

from .conftest import Clock
from .helpers import CHANNEL, GUILD, HOST, make_service

EVENT = 777


async def schedule(service: TableService, starts: str = "2026-11-21 21:00", event: int = EVENT) -> NightInfo:
    plan = service.game_nights.check("oh-hell", "start_cards=5", 4, starts)
    return await service.game_nights.schedule(
        plan, guild_id=GUILD, channel_id=CHANNEL, event_id=event, host_id=HOST, host_name="Host"
    )


@pytest.mark.parametrize(
    ("game", "options", "players", "starts", "key"),
    [
        ("oh-hell", "", None, "2026-11-21 19:59", "night_in_past"),
        ("oh-hell", "", None, "21/11/2026 21:00", "night_bad_time"),
        ("oh-hell", "", None, "2026-02-30 21:00", "night_bad_time"),
        ("oh-hell", "", None, "2028-11-21 21:00", "night_too_far"),
        ("oh-hell", "start_cards", None, "2026-11-21 21:00", "night_bad_options"),
        ("oh-hell", "colour=blue", None, "2026-11-21 21:00", "unknown_option"),
        ("oh-hell", "", 17, "2026-11-21 21:00", "bad_players"),
        ("chess", "", None, "2026-11-21 21:00", "unknown_game"),
        # a time whose UTC falls past the calendar's end, or before its start: not a time (it was an OverflowError)
        ("oh-hell", "", None, "9999-12-31 23:59-05:00", "night_bad_time"),
        ("oh-hell", "", None, "0001-01-01 00:00+05:00", "night_bad_time"),
    ],
)
async def test_bad_nights_are_refused_at_the_door(
    service: TableService, game: str, options: str, players: int | None, starts: str, key: str
) -> None:
    with pytest.raises(TableError) as refused:
        service.game_nights.check(game, options, players, starts)
    assert refused.value.key == key


@pytest.mark.parametrize(
    ("options", "tournament", "key"),
    [
        ("", "round-robin", "night_bad_tournament"),
        ("", "", "night_bad_tournament"),
        ("_tournament_format=swiss", "swiss", "unknown_option"),  # the reserved name is not an option to type
        # its tables will be of seven (the game's largest): ten cards each is more than the deck (it passed the
        # door, checked for no table size, and the tournament was refused at the night's start)
        ("start_cards=10", "swiss", "bad_option_value"),
    ],
)
async def test_a_bad_tournament_night_is_refused_and_nothing_is_written(
    service: TableService, options: str, tournament: str, key: str
) -> None:
    with pytest.raises(TableError) as refused:
        service.game_nights.check("oh-hell", options, None, "2026-11-21 21:00", tournament)
    assert refused.value.key == key
    assert await service.game_nights.upcoming(GUILD) == []


async def test_a_tournament_night_keeps_its_format_apart_from_the_games_options(service: TableService) -> None:
    plan = service.game_nights.check("oh-hell", "start_cards=5", 4, "2026-11-21 21:00", "duplicate")
    night = await service.game_nights.schedule(
        plan, guild_id=GUILD, channel_id=CHANNEL, event_id=EVENT, host_id=HOST, host_name="Host"
    )
    assert (night.kind, night.tournament_format, night.options) == ("tournament", "duplicate", {"start_cards": 5})
    again = await service.game_nights.night_of_event(EVENT)
    assert again == night  # read back the same
    game_night = await schedule(service, event=EVENT + 1)
    assert (game_night.kind, game_night.tournament_format) == ("game", None)


def test_options_are_read_as_the_game_takes_them() -> None:
    assert parse_options("oh-hell", "start_cards=5 hints=off name=x") == {"start_cards": 5, "hints": False, "name": "x"}
    # parted as a tournament's are: a Japanese keyboard's full-width space, or commas (the space was refused)
    assert parse_options("oh-hell", "start_cards=5\u3000hook=off") == {"start_cards": 5, "hook": False}
    assert parse_options("oh-hell", "start_cards=5, hook=off") == {"start_cards": 5, "hook": False}


async def test_the_interested_are_pinged_before_and_the_lobby_opens_at_the_start(
    service: TableService, clock: Clock
) -> None:
    night = await schedule(service)  # 21:00; the clock says 20:00
    assert night.starts_at.hour == 21 and night.options == {"start_cards": 5} and night.players == 4
    assert await service.game_nights.due() == ([], [])
    clock.advance(49 * 60)  # 20:49: not yet
    assert await service.game_nights.due() == ([], [])
    clock.advance(60)  # 20:50: ten minutes before
    pings, opens = await service.game_nights.due()
    assert [n.id for n in pings] == [night.id] and opens == []
    assert await service.game_nights.due() == ([], [])  # once
    clock.advance(10 * 60)  # 21:00 exactly
    pings, opens = await service.game_nights.due()
    assert pings == [] and [n.id for n in opens] == [night.id]
    await service.game_nights.opened(night.id, table_id=5)
    assert await service.game_nights.due() == ([], [])
    assert await service.game_nights.edited(EVENT, night.starts_at, cancelled=True) is None  # open: not ours now


async def test_edits_and_cancellations_in_discord_are_followed(service: TableService, clock: Clock) -> None:
    night = await schedule(service)
    clock.advance(55 * 60)  # pinged at 20:55
    assert len((await service.game_nights.due())[0]) == 1
    later = night.starts_at + timedelta(hours=2)
    moved = await service.game_nights.edited(EVENT, later, cancelled=False)
    assert moved is not None and moved.starts_at == later
    clock.now = later - timedelta(minutes=10)
    pings, opens = await service.game_nights.due()
    assert len(pings) == 1 and opens == []  # moved later: pinged again before the new start
    cancelled = await service.game_nights.deleted(EVENT)
    assert cancelled is not None and cancelled.status == "cancelled"
    clock.now = later
    assert await service.game_nights.due() == ([], [])
    assert await service.game_nights.edited(12345, later, cancelled=True) is None  # not a night of ours


async def test_a_night_long_past_when_the_bot_comes_back_is_missed_not_opened_late(
    service: TableService, clock: Clock
) -> None:
    night = await schedule(service)
    clock.advance(3 * 3600)  # the bot was away over its start, and an hour more
    assert await service.game_nights.due() == ([], [])
    missed = await service.game_nights.night_of_event(EVENT)
    assert missed is not None and missed.id == night.id and missed.status == "missed"


async def test_two_processes_and_a_restart_open_each_night_once(database: Database, clock: Clock) -> None:
    first = make_service(database, clock)
    try:
        nights = [await schedule(first, f"2026-11-21 21:{n}0", event=EVENT + n) for n in (1, 2)]
    finally:
        await first.close()
    first, second = make_service(database, clock), make_service(database, clock)  # restarted, and a second
    try:
        clock.advance(85 * 60)  # 21:25: both started (21:10, 21:20) within the hour
        answers = await asyncio.gather(*(s.game_nights.due() for s in (first, second, first, second)))
        pinged = sorted(n.id for pings, _ in answers for n in pings)
        opened = sorted(n.id for _, opens in answers for n in opens)
        assert pinged == opened == [n.id for n in nights]
    finally:
        await first.close()
        await second.close()
    async with database.engine.connect() as connection:
        rows = (await connection.execute(text("SELECT count(*) FROM game_nights WHERE opened_at IS NOT NULL"))).scalar()
    assert rows == 2


async def test_a_night_found_moved_when_it_came_due_is_pinged_and_opened_at_its_new_start(
    service: TableService, clock: Clock
) -> None:
    """The event was moved while the bot was away; the ping claimed at the old time was not sent (the cog read the
    event first): the night moves, and is pinged and opened as its new start comes, earlier or later."""
    night = await schedule(service)  # 21:00; the clock says 20:00
    clock.advance(50 * 60)  # 20:50: the ping is claimed
    pings, _ = await service.game_nights.due()
    assert [n.id for n in pings] == [night.id]
    earlier = night.starts_at - timedelta(minutes=5)  # moved to 20:55: within the ping's ten minutes
    moved = await service.game_nights.moved(night.id, earlier)
    assert moved is not None and moved.starts_at == earlier
    pings, opens = await service.game_nights.due()
    assert [n.id for n in pings] == [night.id] and opens == []  # pinged now, not lost
    clock.advance(5 * 60)  # 20:55
    _, opens = await service.game_nights.due()
    assert [n.id for n in opens] == [night.id]
    later = earlier + timedelta(hours=2)  # found moved again as it opened: opened at the new start instead
    assert await service.game_nights.moved(night.id, later) is not None
    assert await service.game_nights.due() == ([], [])
    clock.advance(2 * 3600)
    pings, opens = await service.game_nights.due()
    assert [n.id for n in pings] == [night.id] and [n.id for n in opens] == [night.id]


async def test_a_night_is_cancelled_by_its_host_or_an_events_manager_before_it_opens(
    service: TableService, clock: Clock
) -> None:
    """``/gamenight cancel``: the host's own night, or anyone's for a person who manages events; refused (and
    nothing changed) for someone else, another server's night, a forged number, and a night no longer waiting
    (opening now, opened, cancelled)."""
    nights = service.game_nights
    first = await schedule(service, event=EVENT)
    second = await schedule(service, "2026-11-21 22:00", event=EVENT + 1)
    for guild, night_id, user, manager, key in [
        (GUILD, first.id, HOST + 1, False, "night_not_yours"),
        (GUILD + 1, first.id, HOST, True, "night_not_found"),  # another server's: not found there
        (GUILD, 999_999, HOST, True, "night_not_found"),
        (GUILD, 0, HOST, True, "night_not_found"),
        (GUILD, 2**63, HOST, True, "night_not_found"),
    ]:
        with pytest.raises(TableError) as refused:
            await nights.cancel(guild, night_id, user, may_manage=manager)
        assert refused.value.key == key
    assert [n.id for n in await nights.upcoming(GUILD)] == [first.id, second.id]  # nothing changed

    cancelled = await nights.cancel(GUILD, first.id, HOST, may_manage=False)  # its host
    assert cancelled.id == first.id and cancelled.status == "cancelled"
    assert await nights.edited(EVENT, first.starts_at, cancelled=True) is None  # Discord's echo: nothing more
    with pytest.raises(TableError) as again:
        await nights.cancel(GUILD, first.id, HOST, may_manage=False)
    assert again.value.key == "night_not_waiting"

    clock.advance(2 * 3600)  # 22:00: the second's opening is claimed, and under way
    _, opens = await nights.due()
    assert [n.id for n in opens] == [second.id]
    with pytest.raises(TableError) as opening:
        await nights.cancel(GUILD, second.id, HOST + 1, may_manage=True)
    assert opening.value.key == "night_opening"
    await nights.opened(second.id, table_id=7)
    with pytest.raises(TableError) as opened:
        await nights.cancel(GUILD, second.id, HOST + 1, may_manage=True)
    assert opened.value.key == "night_not_waiting"
    found = await nights.night_of_event(EVENT + 1)
    assert found is not None and found.status == "open" and found.table_id == 7


async def test_an_opening_whose_process_stopped_is_claimed_again_after_its_lease(
    service: TableService, clock: Clock
) -> None:
    """The process that claimed a night's opening stopped before it was done (the night still waiting): after
    two minutes another claims it and opens it, a little late rather than never; one done is not claimed again."""
    night = await schedule(service)
    clock.advance(3600)  # 21:00: claimed by a process that then stops
    assert [n.id for n in (await service.game_nights.due())[1]] == [night.id]
    clock.advance(119)
    assert (await service.game_nights.due())[1] == []  # still within its claim
    clock.advance(2)
    assert [n.id for n in (await service.game_nights.due())[1]] == [night.id]  # taken again
    assert (await service.game_nights.due())[1] == []  # and claimed anew: once
    await service.game_nights.opened(night.id, table_id=9)
    clock.advance(10 * 60)
    assert (await service.game_nights.due())[1] == []  # opened: never again


async def test_a_ping_not_sent_is_claimed_again_after_its_lease_while_its_night_is_ahead(
    service: TableService, clock: Clock
) -> None:
    """A ping claimed by a process that stopped before it went out (or that Discord failed): after two minutes
    another claims it, a little late rather than never; never once the night began; one sent never again, and a
    ping sent for a start that moved later is claimed anew for the new start."""
    nights = service.game_nights
    night = await schedule(service)  # 21:00; the clock says 20:00
    clock.advance(50 * 60)  # 20:50: claimed by a process that then stops
    assert [n.id for n in (await nights.due())[0]] == [night.id]
    clock.advance(119)
    assert (await nights.due())[0] == []  # still within its claim
    clock.advance(2)
    pings = (await nights.due())[0]
    assert [n.id for n in pings] == [night.id]  # taken again
    assert (await nights.due())[0] == []  # and claimed anew: once
    assert await nights.pinged(pings[0])
    clock.advance(5 * 60)  # 20:57: sent, so never again
    assert (await nights.due())[0] == []
    found = await nights.night_of_event(EVENT)
    assert found is not None and found.ping_sent

    moved = await nights.edited(EVENT, night.starts_at + timedelta(minutes=5), cancelled=False)  # now 21:05
    assert moved is not None and moved.pinged_at is None and not moved.ping_sent
    assert not await nights.pinged(pings[0])  # the old claim marks nothing now
    pings = (await nights.due())[0]
    assert [n.id for n in pings] == [night.id]  # pinged for the new start, claimed and never sent
    clock.advance(8 * 60)  # 21:05, the start: not "starting in…" once it began
    assert (await nights.due())[0] == []


async def test_a_ping_is_renewed_before_it_is_sent_and_a_move_waits_for_it(service: TableService, clock: Clock) -> None:
    """Just before it is sent a ping's claim is renewed: a claim taken again by another process since (its lease
    over) is no longer this one's to send. While a ping is being sent the night is not moved (a move undone would
    bring the ping back unsent, and it would go out twice); once it is sent, it may be; and a move read before
    the ping was claimed writes nothing."""
    nights = service.game_nights
    night = await schedule(service)  # 21:00; the clock says 20:00
    found, starts_at = await nights.may_move(GUILD, night.id, HOST, "2026-11-22 21:00", may_manage=False)
    clock.advance(50 * 60)  # 20:50: its ping claimed
    (claimed,) = (await nights.due())[0]
    assert await nights.begin_move(found, starts_at) is None  # read before the claim: nothing written
    with pytest.raises(TableError) as busy:
        await nights.may_move(GUILD, night.id, HOST, "2026-11-22 21:00", may_manage=False)
    assert busy.value.key == "night_pinging"
    clock.advance(121)  # its process stopped: another claims it again, and sends it
    (again,) = (await nights.due())[0]
    assert await nights.renew_ping(claimed) is None  # the first claim is no longer its own
    renewed = await nights.renew_ping(again)
    assert renewed is not None and renewed.pinged_at == clock.now
    assert await nights.pinged(renewed)
    assert await nights.renew_ping(renewed) is None  # sent: never again
    found, starts_at = await nights.may_move(GUILD, night.id, HOST, "2026-11-22 21:00", may_manage=False)
    claim = await nights.begin_move(found, starts_at)
    assert claim is not None and await nights.put_back(found, starts_at, claim)  # the move undone
    back = await nights.night_of_event(EVENT)
    assert back is not None and back.ping_sent  # still sent: not pinged twice
    clock.advance(5 * 60)
    assert (await nights.due())[0] == []


async def test_a_server_has_at_most_25_nights_to_come(service: TableService) -> None:
    """Asked before the Discord event is made: the 26th night to come is refused (Discord keeps 100 events a
    server, everyone's); a night cancelled, or one that began, makes room again; other servers are apart."""
    nights = service.game_nights
    made = [await schedule(service, f"2026-11-2{2 + n // 24} {n % 24:02d}:00", event=EVENT + n) for n in range(25)]
    with pytest.raises(TableError) as full:
        await nights.room_for(GUILD)
    assert full.value.key == "night_too_many" and full.value.params["count"] == 25
    await nights.room_for(GUILD + 1)  # another server: room
    await nights.cancel(GUILD, made[-1].id, HOST, may_manage=False)
    await nights.room_for(GUILD)


async def test_each_process_pings_and_opens_only_the_nights_of_its_own_servers(
    database: Database, clock: Clock
) -> None:
    """Run as several processes, each on its shards: a night is pinged and opened by the process that drives
    its server's tables (its lobby's computers, its timers), never by another."""
    even, odd = 6 << 22, 7 << 22  # shards 0 and 1 of 2
    first = make_service(database, clock, shards=Shards.of(2, [0]))
    second = make_service(database, clock, shards=Shards.of(2, [1]))
    try:
        plan = first.game_nights.check("oh-hell", "", 4, "2026-11-21 21:00")
        nights = {
            guild: await first.game_nights.schedule(
                plan, guild_id=guild, channel_id=CHANNEL, event_id=EVENT + n, host_id=HOST, host_name="Host"
            )
            for n, guild in enumerate((even, odd))
        }
        clock.advance(3600)  # 21:00: both due
        pings, opens = await second.game_nights.due()
        assert [n.id for n in pings] == [n.id for n in opens] == [nights[odd].id]
        pings, opens = await first.game_nights.due()
        assert [n.id for n in pings] == [n.id for n in opens] == [nights[even].id]
    finally:
        await first.close()
        await second.close()


async def test_a_night_taken_again_while_its_process_was_slow_is_opened_once(database: Database, clock: Clock) -> None:
    """A process claims two nights and opens them one after another; the first takes it over two minutes, and
    another process takes the second again. Before opening the second the first asks whether it is still its
    claim (``renew``): it is not, so only the other opens it; a late word from the slow one changes nothing."""
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        made = [await schedule(first, "2026-11-21 21:00", event=EVENT + n) for n in (1, 2)]
        clock.advance(3600)
        _, batch = await first.game_nights.due()
        assert [n.id for n in batch] == [n.id for n in made]
        assert await first.game_nights.renew(batch[0])  # the first night's lobby opens, slowly
        clock.advance(121)
        await first.game_nights.opened(batch[0].id, table_id=1)
        _, taken = await second.game_nights.due()
        assert [n.id for n in taken] == [batch[1].id]  # past its lease: taken again
        assert not await first.game_nights.renew(batch[1])  # no longer the slow one's to open
        assert await second.game_nights.renew(taken[0])
        await second.game_nights.opened(taken[0].id, table_id=2)
        await first.game_nights.opened(batch[1].id, failed=True)  # a late word: the night stays open
        found = await first.game_nights.night_of_event(EVENT + 2)
        assert found is not None and found.status == "open" and found.table_id == 2
        _, later = await first.game_nights.due()
        assert later == []
    finally:
        await first.close()
        await second.close()


async def test_a_night_whose_opening_failed_may_be_cancelled_once_its_claim_is_old(
    service: TableService, clock: Clock
) -> None:
    """An opening that failed (its channel gone, Discord down) leaves its claim: within the lease the night is
    said to be opening; past it, its host may cancel it rather than have it tried again for an hour. A night
    cancelled meanwhile is not opened by a claim made before."""
    night = await schedule(service)
    clock.advance(3600)
    _, opens = await service.game_nights.due()
    with pytest.raises(TableError) as opening:
        await service.game_nights.cancel(GUILD, night.id, HOST, may_manage=False)
    assert opening.value.key == "night_opening"
    clock.advance(121)
    cancelled = await service.game_nights.cancel(GUILD, night.id, HOST, may_manage=False)
    assert cancelled.status == "cancelled"
    assert not await service.game_nights.renew(opens[0])
    await service.game_nights.opened(night.id, table_id=3)  # a lobby that opened regardless: the night stays
    found = await service.game_nights.night_of_event(EVENT)
    assert found is not None and found.status == "cancelled"


async def test_an_event_ended_in_discord_while_its_lobby_opens_does_not_cancel_the_night(
    service: TableService, clock: Clock
) -> None:
    """Discord makes the event active at its start and someone ends it there as the lobby is being posted: as
    /gamenight cancel at that moment, it is not taken for a cancellation (the channel was told the night was
    cancelled, then its lobby opened); once the opening's claim is old, it is."""
    night = await schedule(service)
    clock.advance(3600)
    _, opens = await service.game_nights.due()
    assert await service.game_nights.renew(opens[0])  # the lobby is being opened now
    assert await service.game_nights.edited(EVENT, night.starts_at, cancelled=True) is None
    await service.game_nights.opened(night.id, table_id=42)
    found = await service.game_nights.night_of_event(EVENT)
    assert found is not None and found.status == "open" and found.table_id == 42
    later = await schedule(service, "2026-11-21 23:00", event=EVENT + 1)
    clock.advance(2 * 3600)
    _, opens = await service.game_nights.due()
    assert [n.id for n in opens] == [later.id]
    clock.advance(121)  # its opening failed long enough ago: an end in Discord cancels it
    told = await service.game_nights.edited(EVENT + 1, later.starts_at, cancelled=True)
    assert told is not None and told.status == "cancelled"
    # the opener itself reads the event before it opens the night, under its own fresh claim: an event cancelled
    # while nobody heard cancels the night then (its own claim stood in the way, and it was never cancelled)
    last = await schedule(service, "2026-11-22 01:00", event=EVENT + 2)
    clock.advance(2 * 3600)
    _, opens = await service.game_nights.due()
    assert [n.id for n in opens] == [last.id] and opens[0].opened_at is not None
    told = await service.game_nights.edited(EVENT + 2, last.starts_at, cancelled=True, claim=opens[0].opened_at)
    assert told is not None and told.status == "cancelled"


async def test_a_night_may_be_moved_by_its_host_or_an_events_manager_to_a_start_ahead(
    service: TableService, clock: Clock
) -> None:
    """``/gamenight move``: checked as a cancellation is (whose night, which server, still waiting) and its start
    as a new night's; nothing is written by the check (the cog moves the event, then the night)."""
    nights = service.game_nights
    night = await schedule(service)  # 21:00; the clock says 20:00
    for user, manager, starts, key in [
        (HOST + 1, False, "2026-11-22 21:00", "night_not_yours"),
        (HOST, False, "2026-11-21 19:00", "night_in_past"),
        (HOST, False, "tomorrow", "night_bad_time"),
        (HOST, False, "2028-11-21 21:00", "night_too_far"),
    ]:
        with pytest.raises(TableError) as refused:
            await nights.may_move(GUILD, night.id, user, starts, may_manage=manager)
        assert refused.value.key == key
    with pytest.raises(TableError) as elsewhere:
        await nights.may_move(GUILD + 1, night.id, HOST, "2026-11-22 21:00", may_manage=True)
    assert elsewhere.value.key == "night_not_found"
    found, starts_at = await nights.may_move(GUILD, night.id, HOST + 1, "2026-11-22 21:00+09:00", may_manage=True)
    assert found.id == night.id and starts_at.isoformat() == "2026-11-22T12:00:00+00:00"
    assert (await nights.upcoming(GUILD))[0].starts_at == night.starts_at  # the check wrote nothing
    clock.advance(55 * 60)  # 20:55: pinged for 21:00
    (pinging,) = (await nights.due())[0]
    assert pinging.id == night.id and await nights.pinged(pinging)
    found, starts_at = await nights.may_move(GUILD, night.id, HOST + 1, "2026-11-22 21:00+09:00", may_manage=True)
    claim = await nights.begin_move(found, starts_at)
    assert claim is not None
    moved = await nights.end_move(found, starts_at, claim)
    assert moved is not None and moved.starts_at == starts_at
    clock.now = starts_at - timedelta(minutes=10)
    pings, _ = await nights.due()
    assert [n.id for n in pings] == [night.id]  # pinged again before its new start
    await nights.opened(night.id, table_id=4)
    with pytest.raises(TableError) as over:
        await nights.may_move(GUILD, night.id, HOST, "2026-11-23 21:00", may_manage=False)
    assert over.value.key == "night_not_waiting"


async def test_a_move_undone_puts_the_night_back_as_it_was(service: TableService, clock: Clock) -> None:
    """The night is moved before its Discord event; if the event cannot be moved the night is put back: its
    start, and its ping already sent (nobody is pinged twice for the start that stands)."""
    nights = service.game_nights
    night = await schedule(service)  # 21:00
    clock.advance(55 * 60)  # 20:55: pinged
    (pinging,) = (await nights.due())[0]
    assert pinging.id == night.id and await nights.pinged(pinging)
    found, starts_at = await nights.may_move(GUILD, night.id, HOST, "2026-11-22 21:00", may_manage=False)
    assert found.pinged_at is not None and found.ping_sent
    claim = await nights.begin_move(found, starts_at)
    assert claim is not None and await nights.put_back(found, starts_at, claim)
    back = await nights.night_of_event(EVENT)
    assert back is not None and back.starts_at == night.starts_at and back.pinged_at == found.pinged_at
    assert await nights.due() == ([], [])  # not pinged again
    clock.advance(5 * 60)
    assert [n.id for n in (await nights.due())[1]] == [night.id]  # opened at the start that stands


async def test_a_move_holds_the_night_still_until_its_event_has_moved(service: TableService, clock: Clock) -> None:
    """While its Discord event is being moved the night is claimed by the move: not pinged nor opened (even
    moved to a start within the ping's ten minutes), not moved or cancelled by anyone else; a move whose night
    began opening since it was read writes nothing."""
    nights = service.game_nights
    night = await schedule(service, "2026-11-21 23:00")  # the clock says 20:00
    found, starts_at = await nights.may_move(GUILD, night.id, HOST, "2026-11-21 20:05", may_manage=False)
    claim = await nights.begin_move(found, starts_at)
    assert claim is not None
    assert await nights.due() == ([], [])  # within its ping's window, yet held by the move
    for attempt in (
        nights.may_move(GUILD, night.id, HOST, "2026-11-22 20:00", may_manage=True),
        nights.cancel(GUILD, night.id, HOST, may_manage=True),
    ):
        with pytest.raises(TableError) as held:
            await attempt
        assert held.value.key == "night_opening"
    assert await nights.begin_move(found, starts_at) is None  # the same reading, again: it changed since
    moved = await nights.end_move(found, starts_at, claim)
    assert moved is not None and moved.starts_at == starts_at
    pings, opens = await nights.due()
    assert [n.id for n in pings] == [night.id] and opens == []  # pinged at once: its start is near

    clock.advance(5 * 60)  # 20:05: its opening claimed and under way
    found, later = await nights.may_move(GUILD, night.id, HOST, "2026-11-22 20:00", may_manage=False)
    _, opens = await nights.due()
    assert [n.id for n in opens] == [night.id] and await nights.renew(opens[0])
    assert await nights.begin_move(found, later) is None  # read before the opening began: nothing written
    await nights.opened(night.id, table_id=6)
    done = await nights.night_of_event(EVENT)
    assert done is not None and done.status == "open" and done.starts_at == starts_at


async def test_two_schedules_at_once_keep_the_servers_cap(database: Database, clock: Clock) -> None:
    """Two /gamenight schedule at the same moment where the server has one place left: both asked ``room_for``
    before their Discord events were made, and both were stored (26 nights, one of them in no list: found by a
    helper's audit). The second to be stored is refused, nothing of it kept."""
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        for hour in range(MAX_WAITING - 1):
            await schedule(first, f"2026-11-22 {hour:02d}:00", event=1000 + hour)
        await asyncio.gather(first.game_nights.room_for(GUILD), second.game_nights.room_for(GUILD))
        plan = first.game_nights.check("oh-hell", "", 4, "2026-11-23 10:00")
        answers = await asyncio.gather(
            *(
                service.game_nights.schedule(
                    plan, guild_id=GUILD, channel_id=CHANNEL, event_id=2000 + n, host_id=HOST, host_name="H"
                )
                for n, service in enumerate((first, second))
            ),
            return_exceptions=True,
        )
        refused = [a for a in answers if isinstance(a, TableError)]
        assert len(refused) == 1 and refused[0].key == "night_too_many", answers
        assert len(await first.game_nights.upcoming(GUILD, 100)) == MAX_WAITING
    finally:
        await first.close()
        await second.close()
