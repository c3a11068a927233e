"""Seasons: their ratings and boards from scratch, at exact UTC instants of an injected clock, across a
boundary, a restart across boundaries, and two processes (one post of each season's end)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.tables import BoardRow, TableError, TableService
from bot.tables.season_calendar import season_end, season_label
from bot.tables.seasons import ANNOUNCE_AFTER, ANNOUNCE_BATCH

from .conftest import Clock
from .helpers import GUILD, LOBBY_MESSAGE, make_service, play_to_end, relax_limits

GAME = "just-make"
ROOM = 42  # where the standings go


async def play_match(service: TableService, lineup: tuple[int, ...], seed: int = 0) -> dict[str, object]:
    """One rated match of Just Make between ``lineup``, finished at the clock's instant: its record."""
    await relax_limits(service)
    info = await service.open_table(GUILD, 600 + seed, lineup[0], f"P{lineup[0]}", GAME, {"target": 3})
    for user in lineup[1:]:
        info = await service.join(info.id, user, f"P{user}")
    outcome = await service.start(info.id, lineup[0], message_id=LOBBY_MESSAGE)
    final = (await play_to_end(service, outcome.table, seed=seed))[-1]
    return next(e for e in final.events if e["kind"] == "match_over")


async def turn_on(service: TableService, length: str = "month", **kwargs: object) -> str:
    season = await service.seasons.turn_on(
        GUILD,
        GAME,
        by_user=1,
        can_manage=True,
        length=length,
        channel_id=ROOM,
        **kwargs,  # type: ignore[arg-type]
    )
    return season.name


def played(board: list[BoardRow]) -> dict[int, int]:
    return {row["user_id"]: row["matches"] for row in board}


async def count(database: Database, table: str) -> int:
    async with database.engine.connect() as connection:
        return int((await connection.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one())


def test_the_calendar_cuts_at_exact_instants() -> None:
    mid = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    assert season_end("month", mid, None) == datetime(2026, 12, 1, tzinfo=UTC)
    assert season_end("month", datetime(2026, 12, 1, tzinfo=UTC), None) == datetime(2027, 1, 1, tzinfo=UTC)
    assert season_end("quarter", mid, None) == datetime(2027, 1, 1, tzinfo=UTC)
    assert season_end("quarter", datetime(2027, 1, 1, tzinfo=UTC), None) == datetime(2027, 4, 1, tzinfo=UTC)
    assert season_end("dates", mid, 6) == mid + timedelta(days=6)
    assert [season_label(length, mid) for length in ("month", "quarter", "dates")] == [
        "2026-11",
        "2026-Q4",
        "2026-11-21",
    ]


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"can_manage": False}, "season_not_admin"),
        ({"length": "fortnight"}, "season_bad_length"),
        ({"length": "dates", "starts": "2026-11-30", "ends": "2026-11-29"}, "season_ends_before_start"),
        ({"length": "dates", "starts": "2026-11-20", "ends": "2026-12-20"}, "season_starts_in_past"),
        ({"length": "dates", "starts": "2026-13-01", "ends": "2027-01-20"}, "season_bad_date"),
        ({"length": "dates", "starts": "tomorrow", "ends": "2027-01-20"}, "season_bad_date"),
        ({"length": "dates", "starts": "2026-12-01"}, "season_needs_dates"),
        ({"length": "month", "ends": "2026-12-20"}, "season_dates_unused"),
        ({"length": "dates", "starts": "2026-12-01", "ends": "2029-12-01"}, "season_too_long"),
        # a first day 8,000 years ahead was taken (its end crashed past year 9999), as was 1,000 years ahead
        ({"length": "month", "starts": "9999-12-15"}, "season_too_far"),
        ({"length": "dates", "starts": "9999-12-01", "ends": "9999-12-31"}, "season_too_far"),
        ({"length": "month", "starts": "2028-01-01"}, "season_too_far"),
    ],
)
async def test_bad_input_is_refused_and_nothing_is_written(
    service: TableService, database: Database, kwargs: dict[str, object], key: str
) -> None:
    given: dict[str, object] = {"length": "month", "can_manage": True, **kwargs}
    with pytest.raises(TableError) as refused:
        await service.seasons.turn_on(GUILD, GAME, by_user=1, channel_id=ROOM, **given)  # type: ignore[arg-type]
    assert refused.value.key == key
    assert await count(database, "season_plans") == 0 and await count(database, "seasons") == 0


async def test_seasons_on_twice_or_off_when_not_on_are_refused(service: TableService) -> None:
    with pytest.raises(TableError, match="not on"):
        await service.seasons.turn_off(GUILD, GAME, by_user=1, can_manage=True)
    assert await turn_on(service) == "2026-11"
    with pytest.raises(TableError, match="already on"):
        await turn_on(service, "quarter")
    with pytest.raises(TableError) as refused:
        await service.seasons.turn_off(GUILD, GAME, by_user=2, can_manage=False)
    assert refused.value.key == "season_not_admin"


async def test_a_match_counts_in_the_season_it_finished_in(service: TableService, clock: Clock) -> None:
    before = await play_match(service, (1, 2, 3, 5), seed=1)  # before seasons: all-time only
    assert before["season"] is None
    assert await turn_on(service) == "2026-11"
    november = await play_match(service, (1, 2, 3, 5), seed=2)
    clock.now = datetime(2026, 12, 1, tzinfo=UTC) - timedelta(microseconds=1)  # the last instant of November
    last = await play_match(service, (1, 2, 4, 5), seed=3)
    clock.now = datetime(2026, 12, 1, tzinfo=UTC)  # the first of December
    december = await play_match(service, (1, 2, 3, 5), seed=4)
    assert [r["season"]["season"] for r in (november, last, december)] == ["2026-11", "2026-11", "2026-12"]  # type: ignore[index]
    # December's ratings start from scratch; the all-time ones go on.
    for user, change in december["season"]["ratings"].items():  # type: ignore[index]
        assert change["before"] == 0.0 and december["ratings"][user]["before"] != 0.0  # type: ignore[index]
    nov = await service.seasons.season(GUILD, GAME, "2026-11")
    dec = await service.seasons.season(GUILD, GAME, "2026-12")
    assert (nov.ends_at, dec.starts_at) == (datetime(2026, 12, 1, tzinfo=UTC),) * 2
    assert played(await service.seasons.board(nov.id)) == {1: 2, 2: 2, 3: 1, 4: 1, 5: 2}
    assert played(await service.seasons.board(dec.id)) == {1: 1, 2: 1, 3: 1, 5: 1}
    assert played(await service.leaderboard(GUILD, GAME)) == {1: 4, 2: 4, 3: 3, 4: 1, 5: 4}
    clock.now = dec.starts_at + ANNOUNCE_AFTER
    ended = await service.seasons.roll()
    assert [(e.season.name, e.channel_id, e.players, e.following and e.following.name) for e in ended] == [
        ("2026-11", ROOM, 5, "2026-12")
    ]
    assert ended[0].standings == await service.seasons.board(nov.id)
    assert await service.seasons.roll() == []  # claimed: nobody posts it again
    await service.seasons.announced(nov.id, 123)
    mine = await service.seasons.player_seasons(GUILD, GAME, 4)
    assert [(s.season.name, s.matches, s.rank) for s in mine] == [("2026-11", 1, mine[0].rank)]
    with pytest.raises(TableError) as unknown:
        await service.seasons.season(GUILD, GAME, "2025-01")
    assert unknown.value.key == "season_unknown"


async def test_a_match_of_a_seasons_last_moments_written_after_its_end_is_in_its_standings(
    service: TableService, clock: Clock
) -> None:
    """A match whose time was read in November's last moments can commit a little after midnight (behind a
    merged batch, a deadlock's retry, or on a process whose clock is behind): November's standings are read
    only ``ANNOUNCE_AFTER`` past its end, so it is in them, never rated into a season already posted."""
    await turn_on(service)
    await play_match(service, (1, 2, 3, 4), seed=1)
    end = datetime(2026, 12, 1, tzinfo=UTC)
    clock.now = end + ANNOUNCE_AFTER / 2
    assert await service.seasons.roll() == []  # too soon: a match of November may still be landing
    clock.now = end - timedelta(milliseconds=1)
    late = await play_match(service, (1, 2, 3, 5), seed=2)  # November's, written now
    assert late["season"]["season"] == "2026-11"  # type: ignore[index]
    clock.now = end + ANNOUNCE_AFTER
    (november,) = await service.seasons.roll()
    assert november.season.name == "2026-11" and played(november.standings) == {1: 2, 2: 2, 3: 2, 4: 1, 5: 1}


async def test_the_role_moves_on_from_everyone_who_may_hold_it_though_fewer_get_it_now(
    service: TableService, clock: Clock
) -> None:
    """November's best five got the role; seasons turned off and on again with three: December's end took the
    role back from November's best three only, and November's fourth and fifth kept it for good."""
    await turn_on(service, top_count=5, top_role_id=77)
    await play_match(service, (1, 2, 3, 5), seed=2)
    await play_match(service, (1, 2, 4, 6), seed=3)
    clock.now = datetime(2026, 12, 1, tzinfo=UTC) + ANNOUNCE_AFTER
    (november,) = await service.seasons.roll()
    assert november.top_count == 5 and november.previous_top == []
    await service.seasons.announced(november.season.id, 1)
    async with service.store.db.engine.begin() as connection:
        await connection.execute(text("UPDATE season_plans SET top_count = 3"))
    await play_match(service, (1, 2, 3, 5), seed=4)
    clock.now = datetime(2027, 1, 1, tzinfo=UTC) + ANNOUNCE_AFTER
    (december,) = await service.seasons.roll()
    assert december.top_count == 3
    assert december.previous_top == [row["user_id"] for row in november.standings]  # all six: up to ten may hold it


async def test_a_restart_across_boundaries_catches_up(database: Database, clock: Clock) -> None:
    first = make_service(database, clock)
    try:
        await turn_on(first)
        await play_match(first, (1, 2, 3, 4), seed=1)
    finally:
        await first.close()
    clock.now = datetime(2027, 1, 15, 9, 30, tzinfo=UTC)  # the bot was down over two boundaries
    second = make_service(database, clock)
    try:
        ended = await second.seasons.roll()
        assert [(e.season.name, e.following and e.following.name) for e in ended] == [
            ("2026-11", "2026-12"),
            ("2026-12", "2027-01"),
        ]
        assert [e.players for e in ended] == [4, 0]
        record = await play_match(second, (1, 2, 3, 4), seed=2)
        assert record["season"]["season"] == "2027-01"  # type: ignore[index]
        current = await second.seasons.current(GUILD, GAME)
        assert current is not None and current.ends_at == datetime(2027, 2, 1, tzinfo=UTC)
    finally:
        await second.close()


async def test_two_processes_post_each_end_once_and_agree_on_the_next(database: Database, clock: Clock) -> None:
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        await turn_on(first, "dates", starts="2026-11-21", ends="2026-11-27")  # a week, then weeks
        await play_match(second, (1, 2, 3, 4), seed=1)
        clock.now = datetime(2026, 11, 28, tzinfo=UTC) + ANNOUNCE_AFTER  # the second week has begun
        both = await asyncio.gather(first.seasons.roll(), second.seasons.roll(), first.seasons.roll())
        assert sorted(e.season.name for ended in both for e in ended) == ["2026-11-21"]  # one post
        records = await asyncio.gather(
            play_match(first, (5, 6, 7, 8), seed=2), play_match(second, (9, 10, 11, 12), seed=3)
        )
        assert {r["season"]["season"] for r in records} == {"2026-11-28"}  # type: ignore[index]
        assert [s.name for s in await second.seasons.seasons(GUILD, GAME)] == ["2026-11-28", "2026-11-21"]
    finally:
        await first.close()
        await second.close()


async def test_turned_off_the_season_ends_now_and_no_other_follows(service: TableService, clock: Clock) -> None:
    await turn_on(service, "quarter")
    await play_match(service, (1, 2, 3, 4), seed=1)
    clock.advance(3600)
    ended = await service.seasons.turn_off(GUILD, GAME, by_user=1, can_manage=True)
    assert ended is not None and ended.name == "2026-Q4" and ended.ends_at == clock.now
    clock.now += ANNOUNCE_AFTER
    posts = await service.seasons.roll()
    assert [(e.season.name, e.following) for e in posts] == [("2026-Q4", None)]
    record = await play_match(service, (1, 2, 3, 4), seed=2)
    assert record["season"] is None
    assert await turn_on(service, "month") == "2026-11"  # on again: a new season from now


async def test_turned_off_at_the_instant_a_season_ends_no_empty_season_follows(
    service: TableService, clock: Clock
) -> None:
    """/season stop at 00:00 on the 1st, the instant November's season ends: November ended at its own end, and
    no December season is made and ended empty (its standings posted, its role taken back from November's best)."""
    await turn_on(service)
    clock.now = datetime(2026, 12, 1, tzinfo=UTC)
    assert await service.seasons.turn_off(GUILD, GAME, by_user=1, can_manage=True) is None
    clock.now += ANNOUNCE_AFTER
    posts = await service.seasons.roll()
    assert [(e.season.name, e.following) for e in posts] == [("2026-11", None)]


async def test_chosen_dates_turned_off_and_on_again_still_end_at_midnight(service: TableService, clock: Clock) -> None:
    """Seasons of chosen dates (the 21st to the 27th) turned off at 13:00 and on again with the same dates: the
    new one runs from 13:00 (the one before it ended then) to the end of the 27th, not to 13:00 on the 28th, so
    every later season is cut at midnight UTC as the dates say."""
    clock.now = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    await turn_on(service, "dates", starts="2026-11-21", ends="2026-11-27")
    clock.now = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)
    await service.seasons.turn_off(GUILD, GAME, by_user=1, can_manage=True)
    await turn_on(service, "dates", starts="2026-11-21", ends="2026-11-27")
    season = await service.seasons.current(GUILD, GAME)
    assert season is not None
    assert (season.starts_at, season.ends_at) == (clock.now, datetime(2026, 11, 28, tzinfo=UTC))


async def test_daily_seasons_turned_off_and_on_again_the_same_day_keep_the_midnight_cut(
    service: TableService, clock: Clock
) -> None:
    """Seasons of one day (the 21st to the 21st) turned off at 13:00 and on again with the same dates: the new one
    runs to midnight, not to 13:00 the next day, and every later one from midnight to midnight (they all drifted
    to 13:00 for good, found by a helper's audit)."""
    clock.now = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    await turn_on(service, "dates", starts="2026-11-21", ends="2026-11-21")
    clock.now = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)
    await service.seasons.turn_off(GUILD, GAME, by_user=1, can_manage=True)
    await turn_on(service, "dates", starts="2026-11-21", ends="2026-11-21")
    clock.now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    await service.seasons.current(GUILD, GAME)
    spans = [(s.starts_at, s.ends_at) for s in reversed(await service.seasons.seasons(GUILD, GAME))]
    day = [datetime(2026, 11, d, tzinfo=UTC) for d in range(21, 26)]
    assert spans == [
        (day[0], day[0] + timedelta(hours=13)),  # the first, turned off at 13:00
        (day[0] + timedelta(hours=13), day[1]),  # on again: to midnight
        (day[1], day[2]),
        (day[2], day[3]),
        (day[3], day[4]),
    ]


async def test_two_season_starts_at_once_turn_them_on_once(database: Database, clock: Clock) -> None:
    """Two /season start at once (two moderators, or one command sent twice; one process or two): one turns seasons
    on, the other is refused, and the plan kept is the season's own (both were answered "started" and the plan was
    the last writer's while the season was the other's, found by a helper's audit). The same for two stops."""
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        for guild in range(GUILD, GUILD + 4):
            monthly = first.seasons.turn_on(guild, GAME, by_user=1, can_manage=True, length="month", channel_id=42)
            daily = second.seasons.turn_on(
                guild, GAME, by_user=2, can_manage=True, length="dates", starts="2026-11-21", ends="2026-11-21",
                channel_id=99,
            )  # fmt: skip
            answers = await asyncio.gather(monthly, daily, return_exceptions=True)
            refused = [a for a in answers if isinstance(a, TableError)]
            assert len(refused) == 1 and refused[0].key == "season_already_on", answers
            (started,) = [a for a in answers if not isinstance(a, BaseException)]
            async with database.engine.connect() as connection:
                plans = list(
                    await connection.execute(
                        text("SELECT length, channel_id FROM season_plans WHERE guild_id = :g"), {"g": guild}
                    )
                )
                seasons = await connection.execute(
                    text("SELECT count(*) FROM seasons WHERE guild_id = :g"), {"g": guild}
                )
                assert seasons.scalar_one() == 1
            assert plans == [
                ("dates" if started.ends_at.day == 22 else "month", 99 if started.ends_at.day == 22 else 42)
            ]
            stops = await asyncio.gather(
                first.seasons.turn_off(guild, GAME, by_user=1, can_manage=True),
                second.seasons.turn_off(guild, GAME, by_user=2, can_manage=True),
                return_exceptions=True,
            )
            refused = [a for a in stops if isinstance(a, TableError)]
            assert len(refused) == 1 and refused[0].key == "season_not_on", stops
    finally:
        await first.close()
        await second.close()


async def test_an_old_season_is_offered_by_what_is_typed(service: TableService, clock: Clock) -> None:
    """A season's name is offered as it is typed, however old (the 25 newest were chosen first, then filtered: a
    weekly season of January was never offered in September)."""
    clock.now = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
    await turn_on(service, "dates", starts="2026-01-01", ends="2026-01-07")
    clock.now = datetime(2026, 9, 1, tzinfo=UTC)
    await service.seasons.current(GUILD, GAME)
    assert len(await service.seasons.seasons(GUILD, GAME)) == 25
    assert [s.name for s in await service.seasons.seasons(GUILD, GAME, starting="2026-01")] == [
        "2026-01-29", "2026-01-22", "2026-01-15", "2026-01-08", "2026-01-01",
    ]  # fmt: skip
    assert await service.seasons.seasons(GUILD, GAME, starting="2026-01%") == []  # typed, not a pattern
    assert await service.seasons.seasons(GUILD + 1, GAME, starting="2026") == []  # another server's


async def test_a_season_claimed_then_taken_over_after_its_lease_is_posted_once(
    database: Database, clock: Clock
) -> None:
    """Every server's monthly season ends at the same midnight: one roll claimed them all, and while its posts
    waited on Discord past the two-minute lease, another process claimed the rest and posted them too. A roll now
    claims a few at a time, and each post first checks the claim is still its own."""
    first, second = make_service(database, clock), make_service(database, clock)
    try:
        for guild in range(GUILD, GUILD + ANNOUNCE_BATCH + 5):
            await first.seasons.turn_on(guild, GAME, by_user=1, can_manage=True, length="month", channel_id=42)
        clock.now = datetime(2026, 12, 1, 0, 0, 5, tzinfo=UTC) + ANNOUNCE_AFTER
        claimed = await first.seasons.roll()
        assert len(claimed) == ANNOUNCE_BATCH  # the rest wait for the next roll
        clock.advance(3 * 60)  # the first process's posts were slow: its lease ran out
        taken = await second.seasons.roll()
        assert {e.season.id for e in taken} == {e.season.id for e in claimed}  # another process took them over
        assert not await first.seasons.still_mine(claimed[0])  # so the first does not post it
        assert await second.seasons.still_mine(taken[0])
        await second.seasons.announced(taken[0].season.id, 99)
        assert not await second.seasons.still_mine(taken[0])  # posted: nobody posts it again
    finally:
        await first.close()
        await second.close()
