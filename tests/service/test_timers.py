"""Turn deadlines: rows in the database that remind, then play for the absent, and survive restarts."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text

from bot.storage import repository as repo
from bot.storage.database import Database
from bot.tables import BadOptions, Outcome, TableError, TableInfo, TableService
from bot.tables.play import SET_ASIDE

from .conftest import Clock
from .helpers import CHANNEL, HOST, heard, make_service, started


async def _deadlines(database: Database) -> int:
    async with database.engine.connect() as connection:
        return int((await connection.execute(text("SELECT count(*) FROM deadlines"))).scalar() or 0)


async def test_a_late_player_is_reminded_then_played_for(service: TableService, clock: Clock) -> None:
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    outcome = await started(service, "just-make", players=4)
    table = outcome.table
    bidder = table.to_act[0]
    clock.advance(59)
    assert await service.run_timers() == []
    clock.advance(1)
    [reminder] = await service.run_timers()
    assert reminder.kinds() == ["reminder"] and reminder.events[0]["seats"] == [bidder]
    assert await service.run_timers() == []  # reminded once only
    clock.advance(30)
    assert await service.run_timers() == []  # the strong computer plays for them, after the call
    await service.settle()
    [timeout] = heard(service).take()
    assert "timeout" in timeout.kinds()
    event = next(e for e in timeout.events if e["kind"] == "timeout")
    assert event["seat"] == bidder and event["action"].startswith("bid ")
    assert timeout.table.seats[bidder].absent
    assert timeout.table.to_act != table.to_act


async def _until_on_turn(service: TableService, info: TableInfo, seat: int) -> TableInfo:
    """Others play (the first legal action) until ``seat`` is on turn."""
    while info.to_act != (seat,):
        other = info.to_act[0]
        info = (await service.act(info.id, HOST + other, (await service.legal(info.id, HOST + other))[0])).table
    return info


async def test_an_absent_player_is_not_reminded_and_coming_back_clears_it(service: TableService, clock: Clock) -> None:
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    outcome = await started(service, "just-make", players=4)
    away = outcome.table.to_act[0]
    clock.advance(90)  # both the reminder and the grace have passed: it plays at once
    assert await service.run_timers() == []
    await service.settle()
    [played] = heard(service).take()
    assert "reminder" not in played.kinds() and "timeout" in played.kinds()
    assert played.table.seats[away].absent
    # When the absent player's turn comes again, only the grace applies, without a reminder.
    info = await _until_on_turn(service, played.table, away)
    clock.advance(29)
    assert await service.run_timers() == []
    await service.settle()
    assert heard(service).take() == []
    clock.advance(1)
    assert await service.run_timers() == []
    await service.settle()
    [again] = heard(service).take()
    assert "reminder" not in again.kinds() and "timeout" in again.kinds()
    assert again.table.seats[away].absent and again.table.version > info.version
    # Acting again makes them present.
    info = await _until_on_turn(service, again.table, away)
    back = await service.act(info.id, HOST + away, (await service.legal(info.id, HOST + away))[0])
    assert not back.table.seats[away].absent


async def test_timers_can_be_off_per_table(service: TableService, database: Database) -> None:
    await started(service, "ninety-nine", players=3, turn_seconds=0)
    assert await _deadlines(database) == 0
    with pytest.raises(BadOptions):
        await service.open_table(1, 9, HOST, "Ann", "ninety-nine", turn_seconds=-5)


async def test_deadlines_survive_a_restart(database: Database, clock: Clock) -> None:
    first = make_service(database, clock)
    await first.update_guild_settings(1, turn_seconds=30, grace_seconds=0)
    outcome = await started(first, "ninety-nine", players=3)
    assert await _deadlines(database) == 1
    second = make_service(database, clock)  # a new process: nothing in memory
    clock.advance(31)
    await second.run_timers()
    await second.settle()
    outcomes = heard(second).take()
    assert [kind for o in outcomes for kind in o.kinds()].count("timeout") == 3  # all three bids made for them
    assert all(outcomes[-1].table.seats[s].absent for s in range(3))
    assert outcomes[-1].table.version > outcome.table.version
    await first.close()
    await second.close()


async def clock_alone(service: TableService, clock: Clock, outcome: Outcome, *, someone_first: bool) -> Outcome:
    """A started table (``someone_first``: one person makes the first move) then played by the turn clock alone,
    20 s at a time, until it is over: the last outcome heard."""
    if someone_first:
        who = outcome.table.to_act[0]
        await service.act(outcome.table.id, HOST + who, (await service.legal(outcome.table.id, HOST + who))[0])
    last = outcome
    for _ in range(2_000):  # nobody acts (again): the timers play every turn
        clock.advance(20)
        await service.run_timers()
        await service.settle()
        for timed in heard(service).take():
            last = timed
        if last.table.status != "playing":
            break
    return last


async def test_a_table_everyone_has_left_for_a_whole_deal_is_abandoned(service: TableService, clock: Clock) -> None:
    await service.update_guild_settings(1, turn_seconds=10, grace_seconds=5)
    outcome = await started(service, "just-make", players=4)
    last = await clock_alone(service, clock, outcome, someone_first=True)
    assert last.table.status == "abandoned" and last.kinds()[-1] == "abandoned"
    # Someone played in deal 1, so the table gave up only when the whole of deal 2 had passed without anyone.
    assert last.public["deal"] == 3
    assert (await service.table(outcome.table.id)).status == "abandoned"
    assert await service.table_in_channel(outcome.table.channel_id) is None


async def test_a_last_deal_nobody_played_abandons_the_table_rather_than_rate_it(
    service: TableService, clock: Clock
) -> None:
    """Everyone away for the whole of the match's last deal (here its only deal): abandoned, as any deal played by
    the clock alone, not finished and rated as if it had been played (found by a helper's audit)."""
    await service.update_guild_settings(1, turn_seconds=10, grace_seconds=5)
    outcome = await started(service, "oh-hell", players=3, options={"start_cards": 1})
    last = await clock_alone(service, clock, outcome, someone_first=False)
    assert last.table.status == "abandoned" and last.kinds()[-1] == "abandoned"
    assert "match_over" not in last.kinds()
    async with service.db.engine.connect() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM matches"))).scalar_one() == 0
        assert (await connection.execute(text("SELECT count(*) FROM ratings"))).scalar_one() == 0
    # one person played in it: the match is finished and counts
    outcome = await started(service, "oh-hell", players=3, options={"start_cards": 1}, channel=CHANNEL + 1)
    last = await clock_alone(service, clock, outcome, someone_first=True)
    assert last.table.status == "finished" and "match_over" in last.kinds()


async def test_guild_settings_are_checked_and_saved(service: TableService) -> None:
    settings = await service.guild_settings(5)
    assert (settings.turn_seconds, settings.grace_seconds) == (60, 30) and settings.thread_per_table  # the defaults
    changed = await service.update_guild_settings(5, turn_seconds=90, thread_per_table=False, language="ja")
    assert (changed.turn_seconds, changed.thread_per_table, changed.language) == (90, False, "ja")
    for bad in ({"turn_seconds": -1}, {"grace_seconds": "soon"}, {"colour": "red"}, {"thread_per_table": 1}):
        with pytest.raises(BadOptions):
            await service.update_guild_settings(5, **bad)
    with pytest.raises(BadOptions) as wrong:
        await service.update_guild_settings(5, default_options={"ninety-nine": {"target": 3}})
    assert wrong.value.key == "bad_option_value"
    saved = await service.update_guild_settings(5, default_options={"ninety-nine": {"target": 200}})
    assert saved.default_options == {"ninety-nine": {"target": 200}}


async def test_the_table_says_when_the_turn_runs_out_and_a_restart_knows_it(database: Database, clock: Clock) -> None:
    first = make_service(database, clock)
    try:
        await first.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
        outcome = await started(first, "oh-hell", players=4)
        table = outcome.table
        assert table.turn_ends == clock.now + timedelta(seconds=60)  # the reminder comes first
        clock.advance(60)
        [reminder] = await first.run_timers()
        assert reminder.table.turn_ends == clock.now + timedelta(seconds=30)  # then the grace
        bidder = table.to_act[0]
        moved = await first.act(table.id, HOST + bidder, (await first.legal(table.id, HOST + bidder))[0])
        assert moved.table.turn_ends == clock.now + timedelta(seconds=60)  # the next seat's turn
    finally:
        await first.close()
    second = make_service(database, clock)  # a new process reads it from the database
    try:
        assert (await second.table(table.id)).turn_ends == clock.now + timedelta(seconds=60)
    finally:
        await second.close()


async def test_a_table_without_a_turn_timer_says_no_time(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    try:
        await service.update_guild_settings(1, turn_seconds=0)
        outcome = await started(service, "oh-hell", players=4, channel=555)
        assert outcome.table.turn_ends is None
    finally:
        await service.close()


async def test_a_timeout_during_a_burst_of_clicks_lets_exactly_one_action_win(
    service: TableService, database: Database, clock: Clock
) -> None:
    """The player's time runs out while they click fifteen times at once: either their click or the
    computer's move for them is the turn's one action; the rest are refused and nothing is lost."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=0)
    outcome = await started(service, "just-make", players=4)
    seat = outcome.table.to_act[0]
    user = HOST + seat
    legal = await service.legal(outcome.table.id, user)
    turn = outcome.table.seats[seat].acted
    clock.advance(61)

    async def click(action: str) -> bool:
        try:
            await service.act(outcome.table.id, user, action, expected_turn=turn)
        except TableError:
            return False
        return True

    results = await asyncio.gather(service.run_timers(), *(click(legal[i % len(legal)]) for i in range(15)))
    await service.settle()
    won = sum(1 for result in results[1:] if result is True)
    async with database.engine.connect() as connection:
        log = (await connection.execute(text("SELECT seat, source FROM actions ORDER BY seq"))).all()
    assert won <= 1 and log, log
    assert log[0].seat == seat and log[0].source == ("player" if won else "timeout")  # by click or by timer
    assert len(log) == 1 or log[1].seat != seat  # and only one: the turn then passed on
    info = await service.table(outcome.table.id)
    assert info.actions == len(log)  # the log and the table agree: nothing half applied


async def test_a_default_option_that_some_table_size_refuses_is_refused_and_nothing_changes(
    service: TableService,
) -> None:
    """Oh Hell's start_cards=17 fits only three players: saved as the server's default, every table of four to
    seven was refused for an option its host never chose. Now /settings refuses it, naming the sizes."""
    before = await service.update_guild_settings(5, default_options={"oh-hell": {"start_cards": 7}})
    with pytest.raises(TableError) as refused:
        await service.update_guild_settings(5, default_options={"oh-hell": {"start_cards": 17}})
    assert refused.value.key == "default_misfits" and refused.value.params["players"] == "4, 5, 6, 7"
    with pytest.raises(TableError):
        await service.update_guild_settings(5, default_options={"ninety-nine": {"format": "oxford"}})
    kept = (await service.guild_settings(5)).default_options
    assert kept == before.default_options == {"oh-hell": {"start_cards": 7}}


async def test_a_setting_or_a_nights_format_out_of_range_is_refused_in_the_readers_words(
    service: TableService,
) -> None:
    """Only a forged or stale click reaches these, but the Japanese refusal said '0 to 86400 seconds' and the
    formats' raw names ('swiss, knockout, duplicate') in English."""
    from bot.words import error_text
    from cogs.i18n import t

    with pytest.raises(TableError) as refused:
        await service.update_guild_settings(5, turn_seconds=-1)
    assert error_text(refused.value, "ja").endswith("0〜86400秒。")
    with pytest.raises(TableError) as refused:
        await service.update_guild_settings(5, turn_pings=3)
    assert t("ja", "option.on") in error_text(refused.value, "ja")
    with pytest.raises(TableError) as refused:
        service.game_nights.check("oh-hell", None, None, "2099-01-01 20:00", "bogus")
    shown = error_text(refused.value, "ja")
    assert t("ja", "choice.format_swiss") in shown and "knockout" not in shown


async def test_a_table_placed_again_in_play_keeps_its_turn_timer(database: Database, clock: Clock) -> None:
    """A table placed while in play (a tournament's table is started, then placed; a deleted table message is
    posted again; a thread recorded after the start) bumped the version and left the turn timer at the old one:
    nobody on turn was reminded or played for, not even after a restart."""
    first = make_service(database, clock)
    try:
        await first.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
        outcome = await started(first, "oh-hell", players=3)
        table = outcome.table
        await first.set_location(table.id, message_id=9_999)
        await first.set_location(table.id, thread_id=8_888)
        assert (await first.table(table.id)).turn_ends == outcome.table.turn_ends  # the clock runs on unchanged
        clock.advance(60)
        [reminder] = await first.run_timers()
        assert reminder.events[0]["seats"] == list(table.to_act)
    finally:
        await first.close()
    second = make_service(database, clock)  # a restart finds the timer too
    try:
        clock.advance(30)
        await second.run_timers()
        await second.settle()
        assert [event["seat"] for event in heard(second).events("timeout")] == list(table.to_act)
    finally:
        await second.close()


async def _spoil_the_log(database: Database, table_id: int) -> None:
    """The stored log of ``table_id`` no longer replays (an engine changed since, a row edited by hand)."""
    async with database.engine.begin() as connection:
        await connection.execute(text(f"UPDATE actions SET action = 'bid 99' WHERE table_id = {table_id}"))


async def test_a_table_that_cannot_be_read_stops_no_other_timer(
    database: Database, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """One table whose log no longer replays had the earliest due deadline for good, and every pass of the timers
    failed on it: nobody at any other table was reminded or played for again, and a restart stopped resuming the
    open tables at it. Now it is logged once and set aside, and the others go on."""
    first = make_service(database, clock)
    await first.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    bad = (await started(first, "oh-hell", players=3)).table
    who = bad.to_act[0]
    await first.act(bad.id, HOST + who, (await first.legal(bad.id, HOST + who))[0])
    clock.advance(1)
    good = (await started(first, "oh-hell", players=3, channel=501)).table
    await first.close()
    await _spoil_the_log(database, bad.id)
    second = make_service(database, clock)  # a restart
    try:
        assert await second.load_open_tables() == 1  # the good table is resumed, the bad one left out
        clock.advance(100)
        for _ in range(3):  # three passes of the timers, a second apart
            await second.run_timers()
            await second.settle()
            clock.advance(1)
        assert [event["seat"] for event in heard(second).events("timeout")] == list(good.to_act)
        failures = [r for r in caplog.records if r.levelname == "ERROR" and f"table {bad.id} failed" in r.message]
        assert len(failures) == 1 and failures[0].exc_info  # with its traceback once, not at every pass
        async with database.engine.connect() as connection:
            due = await repo.due_deadlines(connection, clock.now)
        assert bad.id not in [row.table_id for row in due]  # set aside: not read at every pass
        clock.advance(SET_ASIDE.total_seconds())
        async with database.engine.connect() as connection:
            due = await repo.due_deadlines(connection, clock.now)
        assert bad.id in [row.table_id for row in due]  # and tried again later
    finally:
        await second.close()


async def test_with_no_grace_someone_away_still_has_time_to_come_back(service: TableService, clock: Clock) -> None:
    """A grace of 0 (offered in /settings) gave a seat whose time had run out no time at all on its later turns:
    the computer played for it at the timers' next pass, every turn, and the person could never act again."""
    from bot.tables import MIN_ABSENT_TURN_SECONDS, absent_turn_seconds

    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=0)
    assert (await service.guild_settings(1)).absent_seconds == MIN_ABSENT_TURN_SECONDS
    assert absent_turn_seconds(5, 0) == 5  # never longer than someone present waits (a table's own short turn)
    outcome = await started(service, "just-make", players=4)
    away = outcome.table.to_act[0]
    clock.advance(60)
    await service.run_timers()
    await service.settle()
    [played] = heard(service).take()
    assert played.table.seats[away].absent
    info = await _until_on_turn(service, played.table, away)
    clock.advance(MIN_ABSENT_TURN_SECONDS - 1)  # passes of the timers meanwhile leave the turn to them
    await service.run_timers()
    await service.settle()
    assert heard(service).take() == []
    back = await service.act(info.id, HOST + away, (await service.legal(info.id, HOST + away))[0])
    assert not back.table.seats[away].absent  # they came back in time
    info = await _until_on_turn(service, back.table, away)
    clock.advance(60)  # present again: the whole turn timer, and no grace after it
    await service.run_timers()
    await service.settle()
    assert [event["seat"] for event in heard(service).events("timeout")] == [away]


async def test_a_bid_made_at_once_keeps_the_clock_of_those_still_to_bid(service: TableService, clock: Clock) -> None:
    """Ninety-Nine's bids are made at once: each bid started the clock again for the seats still to bid, so a seat
    reminded already was reminded again, and the computer did not play at the time the reminder had named."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "ninety-nine", players=3)).table
    assert sorted(table.to_act) == [0, 1, 2]
    start = clock.now
    clock.advance(30)
    bid = await service.act(table.id, HOST, (await service.legal(table.id, HOST))[0])
    assert bid.table.turn_ends == table.turn_ends  # seat 0's bid leaves the others' clock as it was
    clock.advance(30)
    [reminder] = await service.run_timers()  # at 60 s from the deal, not from seat 0's bid
    assert sorted(reminder.events[0]["seats"]) == [1, 2]
    act_at = reminder.events[0]["act_at"]
    clock.advance(20)
    bid = await service.act(table.id, HOST + 1, (await service.legal(table.id, HOST + 1))[0])
    assert bid.table.turn_ends == reminder.table.turn_ends  # the time to act the reminder named stands
    assert await service.run_timers() == []  # and seat 2 is not reminded again
    clock.advance(10)
    assert clock.now.isoformat() == act_at == (start + timedelta(seconds=90)).isoformat()
    assert await service.run_timers() == []
    await service.settle()
    assert [event["seat"] for event in heard(service).events("timeout")] == [2]  # played for when promised
    after = await service.table(table.id)
    assert after.turn_ends is not None and after.turn_ends > clock.now  # what follows is a new turn: a new clock


async def test_a_server_turning_its_timer_off_or_on_changes_the_turn_in_progress(
    service: TableService, clock: Clock
) -> None:
    """A change of the server's turn timer reached an open table only at its next move: turned off, the person
    on turn was still played for; turned on, a table waiting on someone who had left never got a clock."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=3)).table
    own = (await started(service, "oh-hell", players=3, channel=501, turn_seconds=600)).table
    clock.advance(10)
    await service.update_guild_settings(1, turn_seconds=0)  # a manager turns the timer off
    assert (await service.table(table.id)).turn_ends is None
    assert (await service.table(own.id)).turn_ends == own.turn_ends  # a table's own turn time stands
    clock.advance(100)
    assert await service.run_timers() == []
    await service.settle()
    assert heard(service).events("timeout") == []  # nobody at the server's table is played for
    await service.update_guild_settings(1, turn_seconds=120)  # and on again, to move a table waiting on someone
    assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=120)  # timed from the change
    clock.advance(120)
    [reminder] = [o for o in await service.run_timers() if o.table.id == table.id]
    assert reminder.events[0]["seats"] == list(table.to_act)
    await service.update_guild_settings(1, grace_seconds=10)  # a new grace reaches a table's own turn time too
    assert (await service.table(own.id)).turn_ends == clock.now + timedelta(seconds=600)


async def test_a_bid_while_the_reminder_is_claimed_leaves_the_others_reminded(
    service: TableService, clock: Clock
) -> None:
    """Ninety-Nine's bids are made at once. The reminder was claimed (the deadline's remind_at cleared) with the
    table's lock let go; a bid served right then carried the claimed deadline to the next version, and the
    reminder, finding the table moved on, was dropped: the seats still to bid were never reminded, and the
    computer played for them with no warning."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "ninety-nine", players=3)).table
    bid = (await service.legal(table.id, HOST))[0]
    live = service.store.live[table.id]
    database = service.store.db
    original = database.write
    clicks: list[asyncio.Task[Any]] = []

    async def write(work: Any, *args: Any, **kwargs: Any) -> Any:
        result = await original(work, *args, **kwargs)
        if getattr(work, "__name__", "") == "claim" and not clicks:
            clicks.append(asyncio.create_task(service.act(table.id, HOST, bid)))  # a click as the claim commits
            if not live.lock.locked():
                await clicks[0]  # nothing holds the table: the click is served at once
        return result

    database.write = write  # type: ignore[method-assign]
    clock.advance(60)
    try:
        reminders = await service.run_timers()
    finally:
        database.write = original  # type: ignore[method-assign]
    await clicks[0]
    [reminder] = reminders
    assert {1, 2} <= set(reminder.events[0]["seats"])  # those still to bid are reminded, of the same clock
    act_at = table.turn_ends + timedelta(seconds=30) if table.turn_ends else None
    assert reminder.events[0]["act_at"] == (act_at.isoformat() if act_at else None)
    assert (await service.table(table.id)).turn_ends == act_at  # the table counts to the end of the grace
    clock.advance(30)
    assert await service.run_timers() == []
    await service.settle()
    assert sorted(event["seat"] for event in heard(service).events("timeout")) == [1, 2]  # when the reminder said


async def test_a_passing_database_fault_at_the_timer_is_tried_again_at_the_next_pass(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Any failure at a table's timer (one failed read, as a lost pooled connection gives) was taken for a log that
    no longer replays: the table was set aside 5 minutes and its seats reminded that late; and a table that
    failed while held here was logged only at DEBUG for good after its first failure."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=3)).table
    service.store.evict(service.store.live[table.id])  # not held here (a restart, a failed write before)
    load, faults = repo.load_table, [ConnectionResetError("connection was closed in the middle of operation")]

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        if faults:
            raise faults.pop()
        return await load(*args, **kwargs)

    monkeypatch.setattr(repo, "load_table", flaky)
    clock.advance(60)
    assert await service.run_timers() == []
    clock.advance(1)
    [reminder] = await service.run_timers()  # the next pass, the database fine again: not 5 minutes later
    assert reminder.events[0]["seats"] == list(table.to_act)
    peek = service.store.peek

    def flaky_peek(table_id: int) -> Any:
        if faults:
            raise faults.pop()
        return peek(table_id)

    monkeypatch.setattr(service.store, "peek", flaky_peek)  # now faults with the table held here, two turns running
    info = table
    for turn in range(2):
        who = info.to_act[0]
        info = (await service.act(table.id, HOST + who, (await service.legal(table.id, HOST + who))[0])).table
        faults.append(ConnectionResetError(f"again {turn}"))
        clock.advance(60)
        assert await service.run_timers() == []
        clock.advance(1)
        assert len(await service.run_timers()) == 1
    failures = [r for r in caplog.records if r.levelname == "ERROR" and f"table {table.id} failed" in r.message]
    assert len(failures) == 3  # read fine in between: each fault is news, logged with its traceback


async def test_a_table_failing_pass_after_pass_is_set_aside_until_written_again(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table whose timer fails pass after pass is set aside 5 minutes, as one whose log no longer replays; a
    write since that keeps the clock (here its message placed again) carried the put-off moment on, so the table
    was still not reminded when due."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=3)).table
    service.store.evict(service.store.live[table.id])
    load = repo.load_table

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionResetError("connection refused")

    monkeypatch.setattr(repo, "load_table", broken)
    clock.advance(60)

    async def due() -> list[int]:
        async with service.store.db.engine.connect() as connection:
            return [row.table_id for row in await repo.due_deadlines(connection, clock.now)]

    for _ in range(3):
        assert await due() == [table.id]  # tried again at each pass
        assert await service.run_timers() == []
        clock.advance(1)
    assert await due() == []  # the third failure in a row sets it aside
    monkeypatch.setattr(repo, "load_table", load)
    await service.set_location(table.id, message_id=9_999)  # the table is well: a write keeps its clock
    assert await due() == [table.id]  # due at its own moment again, not 5 minutes on
    [reminder] = await service.run_timers()
    assert reminder.events[0]["seats"] == list(table.to_act)


@pytest.mark.parametrize("turn_seconds", [0, 120])
async def test_a_server_changing_its_timer_calls_off_a_timeout_under_way(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch, turn_seconds: int
) -> None:
    """The time of the seat on turn had run out and the computer was thinking for it when the server changed its
    timer: the deadline was removed (or timed anew from the change), but the seat was still played for and marked
    absent, though /settings says that with the timer off nobody is played for any more."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    table = (await started(service, "oh-hell", players=3)).table
    thinker = service.play.computers.thinking()
    decide, thought = thinker.decide, asyncio.Event()

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await thought.wait()  # still thinking while the server's manager changes the timer
        return await decide(*args, **kwargs)

    monkeypatch.setattr(thinker, "decide", slow)
    clock.advance(90)
    assert await service.run_timers() == []  # the seat's time ran out: the computer is woken to play for it
    await service.update_guild_settings(1, turn_seconds=turn_seconds)
    thought.set()
    await service.settle()
    assert heard(service).events("timeout") == []
    after = await service.table(table.id)
    assert after.to_act == table.to_act and not after.seats[table.to_act[0]].absent
    assert after.turn_ends == (clock.now + timedelta(seconds=turn_seconds) if turn_seconds else None)


async def test_a_server_changing_its_timer_retimes_its_tables_in_few_commits(
    service: TableService, clock: Clock
) -> None:
    """/settings answers a change of the turn timer once every table of the server in play is re-timed: one lock
    and one commit after another, hundreds of tables took seconds. Now they are re-timed many at once, their
    writes committed together."""
    await service.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    tables = [(await started(service, "oh-hell", players=3, channel=1000 + n)).table for n in range(30)]
    clock.advance(10)
    database = service.store.db
    batches = database.batches
    await service.update_guild_settings(1, turn_seconds=120)
    assert database.batches - batches <= 10  # the settings' own write, then the tables' in a few batches
    for table in tables:
        assert (await service.table(table.id)).turn_ends == clock.now + timedelta(seconds=120)
