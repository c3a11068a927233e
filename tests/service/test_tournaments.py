"""Tournaments on the service: sign-up refusals, Swiss rounds of ordinary tables opened exactly once,
standings, a restart between rounds, knockout to a final, duplicate rounds dealt the same."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.storage.models import TournamentStatus
from bot.tables import TableError, TableService
from bot.tables.tournament_records import TournamentChanged, TournamentInfo
from bot.tables.tournaments import Tournaments

from .conftest import Clock
from .helpers import CHANNEL, GUILD, HOST, make_service

SHORT = {"start_cards": 1, "sequence": "down"}  # one deal of one card: a match in a few moves


async def signed_up(service: TableService, people: int, **kwargs: object) -> TournamentInfo:
    info = await service.tournaments.create(
        GUILD,
        CHANNEL,
        HOST,
        "Host",
        "oh-hell",
        dict(SHORT),
        table_size=4,
        **kwargs,  # type: ignore[arg-type]
    )
    for n in range(1, people):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    return info


async def play_round(service: TableService, tournament_id: int) -> None:
    """Every person at the round's tables plays their first legal action until every table is over."""
    info = await service.tournaments.tournament(tournament_id)
    for _ in range(200):
        tables = await service.tournaments.round_tables(tournament_id, info.round)
        open_tables = [t for t in tables if t.status in ("lobby", "playing")]
        if not open_tables:
            break
        for table in open_tables:
            await service.settle(table.table_id)
            live = await service.table(table.table_id)
            for seat in live.to_act:
                user = next(s.user_id for s in live.seats if s.index == seat)
                if user is not None:
                    legal = await service.legal(table.table_id, user)
                    if legal:
                        with contextlib.suppress(TableError):
                            await service.act(table.table_id, user, legal[0])
        await asyncio.sleep(0)
    await service.events.drain()
    await service.tournaments.events.drain()


async def test_refusals_write_nothing(service: TableService, clock: Clock) -> None:
    tournaments = service.tournaments
    bad = [
        {"table_size": 9},  # Oh Hell is not played by 9
        {"rounds": 0},
        {"rounds": 10_000},
        {"format": "roulette"},
        {"starts_at": clock.now - timedelta(minutes=1)},
        {"starts_at": clock.now + timedelta(days=400)},
        {"format": "knockout", "advance": 4, "table_size": 4},
    ]
    for kwargs in bad:
        with pytest.raises(TableError):
            await tournaments.create(GUILD, CHANNEL, HOST, "Host", "oh-hell", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TableError):
        await tournaments.create(GUILD, CHANNEL, HOST, "Host", "oh-hell", {"start_cards": 99}, table_size=4)
    info = await signed_up(service, 1)
    assert info.id == 1  # nothing was written by the refusals
    with pytest.raises(TableError) as refused:
        await tournaments.start(info.id, HOST)
    assert refused.value.key == "too_few_entrants"
    with pytest.raises(TableError) as refused:
        await tournaments.join(info.id, GUILD + 1, HOST + 1, "Elsewhere")
    assert refused.value.key == "tournament_elsewhere"
    with pytest.raises(TableError) as refused:
        await tournaments.join(info.id, GUILD, HOST, "Host")
    assert refused.value.key == "already_entered"
    await tournaments.join(info.id, GUILD, HOST + 1, "P1")
    for forged in (tournaments.start(info.id, HOST + 1), tournaments.cancel(info.id, HOST + 1)):
        with pytest.raises(TableError) as refused:
            await forged
        assert refused.value.key == "not_tournament_host"
    await tournaments.start(info.id, HOST)
    with pytest.raises(TableError) as refused:
        await tournaments.join(info.id, GUILD, HOST + 5, "Late")
    assert refused.value.key == "tournament_started"
    with pytest.raises(TableError) as refused:
        await tournaments.tournament(10_000_000_000)
    assert refused.value.key == "tournament_not_found"


async def test_open_tournaments_per_server_are_limited(service: TableService) -> None:
    for _ in range(3):
        await service.tournaments.create(GUILD, CHANNEL, HOST, "Host", "oh-hell")
    with pytest.raises(TableError) as refused:
        await service.tournaments.create(GUILD, CHANNEL, HOST, "Host", "oh-hell")
    assert refused.value.key == "server_tournaments_full"


async def test_swiss_of_ten_in_tables_of_four_with_a_restart(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    info = await signed_up(service, 10, rounds=2)
    await service.tournaments.start(info.id, HOST)
    tables = await service.tournaments.round_tables(info.id, 1)
    assert len(tables) == 3
    assert sorted(sum(seat is None for seat in t.seats) for t in tables) == [0, 1, 1]
    for table in tables:
        live = await service.table(table.table_id)
        assert live.status == "playing" and len(live.seats) == 4
    # a second call, as another process would make it, opens nothing more
    assert not await service.tournaments.advance(info.id)
    await play_round(service, info.id)
    after = await service.tournaments.tournament(info.id)
    assert after.round == 2
    standings = await service.tournaments.standings(info.id)
    assert len(standings) == 10 and [line.rank for line in standings] == list(range(1, 11))
    await service.close()

    # a restart: a new service finds round 2 under way and plays it to the end
    service = make_service(database, clock)
    await service.load_open_tables()
    await service.tournaments.recheck()
    assert len(await service.tournaments.round_tables(info.id, 2)) == 3
    await play_round(service, info.id)
    await service.tournaments.recheck()
    done = await service.tournaments.tournament(info.id)
    assert done.status == TournamentStatus.DONE and done.round == 2
    assert len(await service.tournaments.round_tables(info.id)) == 6
    await service.close()


async def test_a_round_finished_while_no_process_was_running_opens_the_next_at_start_up(
    database: Database, clock: Clock
) -> None:
    service = make_service(database, clock)
    info = await signed_up(service, 4, rounds=2)
    await service.tournaments.start(info.id, HOST)
    # the round's tables end while nobody advances (as if the process stopped on hearing it)
    for table in await service.tournaments.round_tables(info.id, 1):
        await service.abandon(table.table_id, HOST, can_manage=True)
    await service.events.drain()
    await service.close()
    twin = make_service(database, clock)
    other = make_service(database, clock)
    await asyncio.gather(twin.tournaments.recheck(), other.tournaments.recheck())
    assert len(await twin.tournaments.round_tables(info.id, 2)) == 1  # opened once, not twice
    await twin.close()
    await other.close()


async def test_knockout_ends_with_a_final(service: TableService) -> None:
    info = await signed_up(service, 8, format="knockout", advance=2)
    await service.tournaments.start(info.id, HOST)
    assert len(await service.tournaments.round_tables(info.id, 1)) == 2
    await play_round(service, info.id)
    final = await service.tournaments.round_tables(info.id, 2)
    assert len(final) == 1 and sum(seat is not None for seat in final[0].seats) == 4
    await play_round(service, info.id)
    done = await service.tournaments.tournament(info.id)
    assert done.status == TournamentStatus.DONE


async def test_duplicate_tables_play_the_same_deals(service: TableService) -> None:
    info = await service.tournaments.create(
        GUILD,
        CHANNEL,
        HOST,
        "Host",
        "oh-hell",
        {"start_cards": 3, "sequence": "down"},
        format="duplicate",
        table_size=4,
        rounds=1,
    )
    for n in range(1, 12):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    await service.tournaments.start(info.id, HOST)
    tables = await service.tournaments.round_tables(info.id, 1)
    assert len(tables) == 3
    states = [service._live[t.table_id].state for t in tables]
    assert all(state is not None and state.seed == states[0].seed for state in states)  # type: ignore[union-attr]
    assert len({state.to_json() for state in states if state is not None}) == 1  # same cards, dealer, trumps
    await play_round(service, info.id)
    lines = await service.tournaments.standings(info.id)
    assert len(lines) == 12
    deals = await service.tournaments.comparison(info.id, 1)
    assert [deal.deal for deal in deals] == [1, 2, 3]  # 3 cards, 2, 1: every deal compared
    for deal in deals:
        for position in deal.seats:
            assert [seat.table for seat in position] == [1, 2, 3]
            assert sum(seat.matchpoints for seat in position) == 6  # 2 a pair of tables, 3 pairs
    done = await service.tournaments.tournament(info.id)
    assert done.status == TournamentStatus.DONE


async def test_a_start_time_starts_it_or_calls_it_off(service: TableService, clock: Clock) -> None:
    """At its start time a tournament starts, or, short of entrants, is called off, its event saying why (the
    channel is told: it was a bare "was cancelled")."""
    heard = listen(service)
    soon = clock.now + timedelta(minutes=5)
    ready = await signed_up(service, 4, starts_at=soon)
    lonely = await service.tournaments.create(
        GUILD, CHANNEL + 1, HOST, "Host", "oh-hell", dict(SHORT), table_size=4, starts_at=soon
    )
    night = await service.tournaments.create(
        GUILD, CHANNEL + 2, HOST, "Host", "oh-hell", dict(SHORT), format="duplicate", table_size=4, starts_at=soon
    )
    for n in range(1, 4):
        night = await service.tournaments.join(night.id, GUILD, HOST + n, f"P{n}")
    await service.tournaments.recheck()
    assert (await service.tournaments.tournament(ready.id)).status == TournamentStatus.SIGNUP  # not yet
    clock.advance(301)
    await service.tournaments.recheck()
    await service.tournaments.events.drain()
    assert (await service.tournaments.tournament(ready.id)).status == TournamentStatus.RUNNING
    assert (await service.tournaments.tournament(lonely.id)).status == TournamentStatus.CANCELLED  # one entrant
    assert (await service.tournaments.tournament(night.id)).status == TournamentStatus.CANCELLED  # one table's
    why = {e.tournament_id: e.refusal.key for e in heard if e.what == "cancelled" and e.refusal is not None}
    assert why == {lonely.id: "too_few_entrants", night.id: "too_few_for_duplicate"}
    other = await signed_up(service, 2)
    await service.tournaments.cancel(other.id, HOST)  # by its host: no refusal to tell
    await service.tournaments.events.drain()
    assert [e.refusal for e in heard if e.tournament_id == other.id and e.what == "cancelled"] == [None]


async def test_withdrawing_between_rounds_and_a_computer_entrant(service: TableService) -> None:
    info = await signed_up(service, 5, rounds=2)
    info = await service.tournaments.add_computer(info.id, HOST)
    computer = info.entrants[-1]
    assert computer.computer
    with pytest.raises(TableError) as refused:
        await service.tournaments.add_computer(info.id, HOST + 1)
    assert refused.value.key == "not_tournament_host"
    await service.tournaments.start(info.id, HOST)
    await service.tournaments.leave(info.id, HOST + 4)  # withdraws from the rounds to come
    await play_round(service, info.id)
    seated = [seat for table in await service.tournaments.round_tables(info.id, 2) for seat in table.seats]
    withdrawn = next(e for e in info.entrants if e.user_id == HOST + 4)
    assert withdrawn.id not in seated and computer.id in seated


class NoStart:
    """A process that stops right after writing a round, before starting its tables."""

    async def start_seated(self, table_id: int, /) -> None:
        return None


async def test_a_round_written_but_never_started_is_started_at_the_re_check(service: TableService) -> None:
    crashing = Tournaments(service.store, NoStart(), service.play)
    info = await crashing.create(GUILD, CHANNEL, HOST, "Host", "oh-hell", dict(SHORT), table_size=4)
    for n in range(1, 4):
        await crashing.join(info.id, GUILD, HOST + n, f"P{n}")
    await crashing.start(info.id, HOST)
    (table,) = await service.tournaments.round_tables(info.id, 1)
    assert table.status == "lobby"
    assert await service.close_unshown_lobbies(timedelta(0)) == []  # not a lobby nobody posted: left alone
    await service.tournaments.recheck()
    assert (await service.table(table.table_id)).status == "playing"
    await crashing.close()


async def test_a_round_left_unposted_is_announced_again_once(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    info = await signed_up(service, 4)
    await service.tournaments.start(info.id, HOST)
    await service.close()
    clock.advance(1)
    heard: list[TournamentChanged] = []

    async def listen(event: TournamentChanged) -> None:
        heard.append(event)

    again = make_service(database, clock)  # a new process: nobody is posting that round's tables
    again.tournaments.events.subscribe(listen)
    await again.tournaments.recheck()
    await again.tournaments.recheck()
    await again.tournaments.events.drain()
    assert [(e.what, e.round) for e in heard] == [("round_opened", 1)]
    await again.close()


async def test_a_round_discord_failed_to_take_is_announced_again_at_longer_and_longer_gaps(
    database: Database, clock: Clock
) -> None:
    """The process that opened a round, whose tables Discord failed to take (a 5xx, the network), announces it
    again itself (it used to wait for the next process to start): 2 minutes after, then 4, 8, ... at most 30,
    while a table of it is still not posted; not once they all are."""
    service = make_service(database, clock)
    heard = listen(service)
    info = await signed_up(service, 8)
    await service.tournaments.start(info.id, HOST)
    await service.tournaments.events.drain()

    async def opened_after(seconds: int) -> int:
        clock.advance(seconds)
        before = len(heard)
        await service.tournaments.recheck()
        await service.tournaments.events.drain()
        return sum(e.what == "round_opened" for e in heard[before:])

    assert sum(e.what == "round_opened" for e in heard) == 1
    assert await opened_after(60) == 0  # it may still be posting them
    assert await opened_after(61) == 1  # 2 minutes on: again
    assert [await opened_after(60) for _ in range(4)] == [0, 0, 0, 1]  # 4 minutes on
    assert [await opened_after(60) for _ in range(8)] == [0] * 7 + [1]  # 8 minutes on
    for gap in (16, 30, 30):
        assert [await opened_after(60) for _ in range(gap)] == [0] * (gap - 1) + [1]
    first, second = await service.tournaments.round_tables(info.id, 1)
    await service.set_location(first.table_id, message_id=901)
    assert [await opened_after(60) for _ in range(30)] == [0] * 29 + [1]  # one still unposted
    await service.set_location(second.table_id, message_id=902)
    assert [await opened_after(60) for _ in range(60)] == [0] * 60  # both posted: nothing more
    await service.close()


async def test_the_host_replaces_a_no_show(service: TableService) -> None:
    info = await signed_up(service, 4, rounds=2)
    no_show = next(e for e in info.entrants if e.user_id == HOST + 3)
    with pytest.raises(TableError) as refused:
        await service.tournaments.replace(info.id, HOST + 1, no_show.id, HOST + 9, "Sub")
    assert refused.value.key == "not_tournament_host"
    with pytest.raises(TableError) as refused:
        await service.tournaments.replace(info.id, HOST, no_show.id, HOST + 1, "Already in")
    assert refused.value.key == "already_entered"
    await service.tournaments.start(info.id, HOST)
    info = await service.tournaments.replace(info.id, HOST, no_show.id, HOST + 9, "Sub")
    assert info.entrant_of(HOST + 9) is not None and info.entrant_of(HOST + 3) is None
    await play_round(service, info.id)
    (table,) = await service.tournaments.round_tables(info.id, 2)
    assert HOST + 9 in [seat.user_id for seat in (await service.table(table.table_id)).seats]


async def test_a_moderator_runs_the_tournament_for_a_host_gone_home(service: TableService) -> None:
    """Someone who can manage the server may do all the host may (add a computer, take out, replace, start):
    an entrant without that permission may not."""
    moderator = HOST + 50
    info = await signed_up(service, 4, rounds=2)
    no_show, leaving = (next(e for e in info.entrants if e.user_id == HOST + n) for n in (3, 2))
    for forged in (
        service.tournaments.add_computer(info.id, HOST + 1),
        service.tournaments.remove(info.id, HOST + 1, leaving.id),
        service.tournaments.replace(info.id, HOST + 1, no_show.id, HOST + 9, "Sub"),
        service.tournaments.start(info.id, HOST + 1),
    ):
        with pytest.raises(TableError) as refused:
            await forged
        assert refused.value.key == "not_tournament_host"
    assert (await service.tournaments.tournament(info.id)).status == TournamentStatus.SIGNUP
    info = await service.tournaments.add_computer(info.id, moderator, can_manage=True)
    assert info.entrants[-1].computer
    info = await service.tournaments.remove(info.id, moderator, leaving.id, can_manage=True)
    info = await service.tournaments.replace(info.id, moderator, no_show.id, HOST + 9, "Sub", can_manage=True)
    assert info.entrant_of(HOST + 2) is None and info.entrant_of(HOST + 3) is None
    assert info.entrant_of(HOST + 9) is not None
    info = await service.tournaments.start(info.id, moderator, can_manage=True)
    assert info.status == TournamentStatus.RUNNING and info.round == 1
    (table,) = await service.tournaments.round_tables(info.id, 1)
    seated = {seat.user_id for seat in (await service.table(table.table_id)).seats}
    assert seated == {HOST, HOST + 1, HOST + 9, None}  # the computer entrant in the fourth seat


async def test_entrants_per_tournament_are_limited(service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.tables.tournaments.MAX_ENTRANTS", 4)  # 256 in the product: the same door
    info = await signed_up(service, 4)
    with pytest.raises(TableError) as refused:
        await service.tournaments.join(info.id, GUILD, HOST + 50, "One too many")
    assert refused.value.key == "tournament_full"
    with pytest.raises(TableError) as refused:
        await service.tournaments.add_computer(info.id, HOST)
    assert refused.value.key == "tournament_full"
    assert len((await service.tournaments.tournament(info.id)).entrants) == 4


async def duplicate_night(service: TableService, compare_after: str) -> TournamentInfo:
    """Three Oh Hell tables of four playing the same two deals (two cards, then one)."""
    info = await service.tournaments.create(
        GUILD,
        CHANNEL,
        HOST,
        "Host",
        "oh-hell",
        {"start_cards": 2, "sequence": "down"},
        format="duplicate",
        table_size=4,
        rounds=1,
        compare_after=compare_after,
    )
    for n in range(1, 12):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    return info


async def play_deals(service: TableService, tournament_id: int, deals: int) -> None:
    """Every person plays their first legal action until each table of the round has scored ``deals``."""
    info = await service.tournaments.tournament(tournament_id)
    for _ in range(200):
        busy = False
        for table in await service.tournaments.round_tables(tournament_id, info.round):
            if table.status not in ("lobby", "playing"):
                continue
            await service.settle(table.table_id)
            live = await service.table(table.table_id)
            if len(service._live[table.table_id].sheets) >= deals:
                continue
            busy = True
            for seat in live.to_act:
                user = next(s.user_id for s in live.seats if s.index == seat)
                legal = await service.legal(table.table_id, user) if user is not None else []
                if legal and user is not None:
                    with contextlib.suppress(TableError):
                        await service.act(table.table_id, user, legal[0])
        if not busy:
            break
        await asyncio.sleep(0)
    await service.events.drain()
    await service.tournaments.events.drain()


def listen(service: TableService, *, posting: bool = True) -> list[TournamentChanged]:
    """What the service's tournaments publish; with ``posting``, each deal's comparison is marked posted as
    the chat presentation marks it once it has posted it."""
    heard: list[TournamentChanged] = []

    async def hear(event: TournamentChanged) -> None:
        heard.append(event)
        if posting and event.what == "deal_compared" and event.deal is not None:
            await service.tournaments.deal_posted(event.tournament_id, event.round, event.deal)

    service.tournaments.events.subscribe(hear)
    return heard


async def test_the_comparison_time_is_a_duplicate_nights_choice(service: TableService) -> None:
    for kwargs in ({"format": "swiss"}, {"format": "knockout"}, {"format": "duplicate", "compare_after": "hand"}):
        with pytest.raises(TableError) as refused:
            await service.tournaments.create(
                GUILD,
                CHANNEL,
                HOST,
                "Host",
                "oh-hell",
                **{"compare_after": "deal", **kwargs},  # type: ignore[arg-type]
            )
        assert refused.value.key in ("compare_duplicate_only", "bad_compare_after")
    plain = await service.tournaments.create(GUILD, CHANNEL, HOST, "Host", "oh-hell", format="duplicate")
    assert plain.id == 1 and plain.compare_after == "round"  # nothing written by the refusals; the default


async def test_after_each_deal_each_deal_is_compared_once_across_a_restart(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    heard = listen(service)
    info = await duplicate_night(service, "deal")
    assert info.compare_after == "deal"
    await service.tournaments.start(info.id, HOST)
    await play_deals(service, info.id, 1)
    assert [(e.what, e.round, e.deal) for e in heard if e.what == "deal_compared"] == [("deal_compared", 1, 1)]
    first = await service.tournaments.deal_comparison(info.id, 1, 1)
    assert first is not None and first.deal == 1
    assert [[seat.table for seat in position] for position in first.seats] == [[1, 2, 3]] * 4
    assert all(sum(seat.matchpoints for seat in position) == 6 for position in first.seats)
    assert await service.tournaments.deal_comparison(info.id, 1, 2) is None  # not played yet
    assert await service.tournaments.compare_deals(info.id) == []  # asked again: already compared
    await service.close()

    again = make_service(database, clock)  # a restart (or another process) compares nothing twice
    heard = listen(again)
    await again.load_open_tables()
    await again.tournaments.recheck()
    await again.tournaments.events.drain()
    assert [e.what for e in heard if e.what == "deal_compared"] == []
    await play_deals(again, info.id, 2)
    assert [(e.what, e.deal) for e in heard if e.what in ("deal_compared", "round_done")] == [
        ("deal_compared", 2),
        ("round_done", None),
    ]
    whole = await again.tournaments.comparison(info.id, 1)  # the round's sheets agree with the deal's
    assert whole[0] == first
    assert (await again.tournaments.tournament(info.id)).status == TournamentStatus.DONE
    await again.close()


async def test_a_deal_nobody_compared_is_compared_once_by_two_processes(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    info = await duplicate_night(service, "deal")
    await service.tournaments.start(info.id, HOST)
    await service.tournaments._hearing.close()  # the deals end unheard, as if the process stopped each time
    await play_deals(service, info.id, 1)
    await service.close()
    twin, other = make_service(database, clock), make_service(database, clock)
    heard_twin, heard_other = listen(twin), listen(other)
    await asyncio.gather(twin.load_open_tables(), other.load_open_tables())
    await asyncio.gather(twin.tournaments.recheck(), other.tournaments.recheck())
    await twin.tournaments.events.drain()
    await other.tournaments.events.drain()
    compared = [e.deal for e in heard_twin + heard_other if e.what == "deal_compared"]
    assert compared == [1]
    await twin.close()
    await other.close()


async def test_at_the_end_of_the_round_no_deal_is_compared_alone(service: TableService) -> None:
    heard = listen(service)
    info = await duplicate_night(service, "round")
    await service.tournaments.start(info.id, HOST)
    await play_deals(service, info.id, 2)
    assert [e.what for e in heard if e.what in ("deal_compared", "round_done")] == ["round_done"]
    assert [deal.deal for deal in await service.tournaments.comparison(info.id, 1)] == [1, 2]


async def test_an_abandoned_duplicate_table_keeps_the_deals_it_played_compared(service: TableService) -> None:
    """Table 3 of a duplicate round is abandoned after the first deal: that deal is still compared at every
    table (the abandoned table's scored deals are its own, replayed: no match was recorded), the second, which it
    never reached, is not. Its seats were once counted as having nothing to compare, which wiped every seat's
    matchpoints and left the standings to the tie-breaks (the abandoned table's "shared first place" on top)."""
    info = await duplicate_night(service, "round")
    await service.tournaments.start(info.id, HOST)
    await play_deals(service, info.id, 1)
    tables = await service.tournaments.round_tables(info.id, 1)
    await service.abandon(tables[2].table_id, 999, can_manage=True)
    await play_deals(service, info.id, 2)
    assert (await service.tournaments.tournament(info.id)).status == "finished"
    compared = await service.tournaments.comparison(info.id, 1)
    assert [deal.deal for deal in compared] == [1]
    assert all({seat.table for seat in position} == {1, 2, 3} for position in compared[0].seats)
    # each seat position: three pairs of tables, 2 matchpoints a pair; a round's points are the matchpoints halved
    points = [float(line.points) for line in await service.tournaments.standings(info.id)]
    assert sum(points) == 4 * 3 * 2 / 2


async def test_an_abandoned_duplicate_table_whose_log_no_longer_replays_is_compared_with_nothing(
    service: TableService,
) -> None:
    """The abandoned table's deals are replayed from its log; a log that no longer replays (an engine changed
    since, a row edited by hand) once made the round's comparison and the standings raise, for every reader of
    the night. Now that table is compared with nothing, and the night's pages still open."""
    info = await duplicate_night(service, "round")
    await service.tournaments.start(info.id, HOST)
    await play_deals(service, info.id, 1)
    tables = await service.tournaments.round_tables(info.id, 1)
    spoilt = tables[2].table_id
    await service.abandon(spoilt, 999, can_manage=True)
    await play_deals(service, info.id, 2)
    async with service.store.db.engine.begin() as connection:
        await connection.execute(text(f"UPDATE actions SET action = 'bid 99' WHERE table_id = {spoilt}"))
    service.store.live.pop(spoilt, None)  # read again from the database, as after a restart
    assert (await service.tournaments.tournament(info.id)).status == "finished"
    assert await service.tournaments.comparison(info.id, 1) == []  # no deal was reached at every table
    points = [float(line.points) for line in await service.tournaments.standings(info.id)]
    assert points == [0.0] * len(points)


async def test_a_finished_tournament_is_in_the_history_and_the_stats(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    info = await signed_up(service, 4, rounds=1)
    assert await service.tournaments.finished(GUILD, HOST) == []  # not finished yet
    await service.tournaments.start(info.id, HOST)
    await play_round(service, info.id)
    lines = await service.tournaments.standings(info.id)
    await service.tournaments.set_message(info.id, 777, podium=True)
    places = {line.entrant.user_id: line.rank for line in lines}
    for user in range(HOST, HOST + 4):
        (result,) = await service.tournaments.finished(GUILD, user)
        assert (result.id, result.game, result.format, result.entrants) == (info.id, "oh-hell", "swiss", 4)
        assert result.place == places[user] and result.podium_message_id == 777 and result.finished_at is not None
        totals = await service.tournaments.totals(GUILD, user)
        assert totals.played == 1
        assert (totals.podiums, totals.wins) == (int(places[user] <= 3), int(places[user] == 1))
    (server,) = await service.tournaments.finished(GUILD)  # the server's history: the winner, no place
    assert server.place is None and server.winners == (lines[0].entrant.user_id,)
    assert await service.tournaments.finished(GUILD + 1, HOST) == []  # another server's
    assert (await service.tournaments.totals(GUILD + 1, HOST)).played == 0
    assert (await service.tournaments.totals(GUILD, HOST, "ninety-nine")).played == 0  # another game's
    assert await service.tournaments.finished(GUILD, HOST + 50) == []  # someone who did not enter
    # a tournament that finished before places were kept: its standings are worked out again
    async with database.engine.begin() as connection:
        await connection.execute(text("UPDATE tournament_entrants SET place = NULL"))
    again = await service.tournaments.finished(GUILD, HOST)
    assert again[0].place == places[HOST]
    assert (await service.tournaments.finished(GUILD))[0].winners == server.winners
    assert (await service.tournaments.totals(GUILD, HOST)).wins == int(places[HOST] == 1)
    await service.close()


async def test_a_cancelled_tournament_is_not_in_the_history(service: TableService) -> None:
    info = await signed_up(service, 4)
    await service.tournaments.start(info.id, HOST)
    await service.tournaments.cancel(info.id, HOST)
    assert await service.tournaments.finished(GUILD, HOST) == []
    assert (await service.tournaments.totals(GUILD, HOST)).played == 0


async def test_a_deal_claimed_but_never_posted_is_posted_again_once(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    heard = listen(service, posting=False)  # the process stops between the claim and the post
    info = await duplicate_night(service, "deal")
    await service.tournaments.start(info.id, HOST)
    await play_deals(service, info.id, 1)
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1]
    await service.tournaments.recheck()  # the claimer itself, within REPOST_AFTER: not again
    await service.tournaments.events.drain()
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1]
    await service.close()
    clock.advance(1)
    again = make_service(database, clock)  # started since: deal 1 was never posted
    heard = listen(again, posting=False)
    await again.load_open_tables()
    await again.tournaments.recheck()
    await again.tournaments.recheck()  # once a process, even if its post fails again
    await again.tournaments.events.drain()
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1]
    clock.advance(121)  # this process published it, Discord failed to take it: again, 2 minutes on
    await again.tournaments.recheck()
    await again.tournaments.events.drain()
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1, 1]
    clock.advance(121)  # then 4 minutes on, not 2
    await again.tournaments.recheck()
    await again.tournaments.events.drain()
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1, 1]
    clock.advance(121)
    await again.tournaments.recheck()
    await again.tournaments.events.drain()
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1, 1, 1]
    assert await again.tournaments.deal_needs_posting(info.id, 1, 1)
    await again.tournaments.deal_posted(info.id, 1, 1)  # this time it was posted
    # a publication still waiting in the presentation's queue finds it posted, and posts nothing
    assert not await again.tournaments.deal_needs_posting(info.id, 1, 1)
    clock.advance(3600)
    await again.tournaments.recheck()
    await again.tournaments.events.drain()
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1, 1, 1]
    await again.close()
    clock.advance(1)
    third = make_service(database, clock)
    heard = listen(third)
    await third.load_open_tables()
    await third.tournaments.recheck()
    await third.tournaments.events.drain()
    assert [e for e in heard if e.what == "deal_compared"] == []
    await third.close()


async def test_a_rounds_last_deal_that_discord_failed_to_take_is_posted_again_after_the_standings(
    database: Database, clock: Clock
) -> None:
    """The last deal's comparison of a round that Discord failed to take was tried again only while its round was
    under way: the round closed at once (its standings, the night over), and it was never posted."""
    service = make_service(database, clock)
    failing = True
    heard: list[TournamentChanged] = []

    async def hear(event: TournamentChanged) -> None:
        heard.append(event)
        if not failing and event.what == "deal_compared" and event.deal is not None:
            await service.tournaments.deal_posted(event.tournament_id, event.round, event.deal)

    service.tournaments.events.subscribe(hear)
    info = await duplicate_night(service, "deal")
    await service.tournaments.start(info.id, HOST)
    await play_round(service, info.id)  # both deals; the night (one round) is over
    assert (await service.tournaments.tournament(info.id)).status == "finished"
    assert [e.deal for e in heard if e.what == "deal_compared"] == [1, 2]  # both published, neither taken
    clock.advance(121)
    failing = False  # Discord takes them now
    await service.tournaments.recheck()
    await service.tournaments.events.drain()
    assert sorted(e.deal for e in heard if e.what == "deal_compared") == [1, 1, 2, 2]
    assert not await service.tournaments.deal_needs_posting(info.id, 1, 2)
    clock.advance(3600)  # posted: never again
    await service.tournaments.recheck()
    await service.tournaments.events.drain()
    assert len([e for e in heard if e.what == "deal_compared"]) == 4
    await service.close()


async def _entered(service: TableService, people: int, game: str = "oh-hell", **kwargs: object) -> TournamentInfo:
    info = await service.tournaments.create(GUILD, CHANNEL, HOST, "Host", game, dict(SHORT), **kwargs)  # type: ignore[arg-type]
    for n in range(1, people):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    return info


async def test_a_duplicate_round_of_one_table_earns_every_seat_nothing(service: TableService) -> None:
    """One table alone has nothing to compare (docs/rules/duplicate.md): a round left one table by a withdrawal
    earns every seat 0, not its place."""
    info = await _entered(service, 5, format="duplicate", table_size=4, rounds=2)
    await service.tournaments.start(info.id, HOST)
    assert len(await service.tournaments.round_tables(info.id, 1)) == 2
    await service.tournaments.leave(info.id, HOST + 4)  # withdrawn from round 2 (round 1 plays on): four left
    await play_round(service, info.id)
    first = {line.entrant: line.points for line in await service.tournaments.standings(info.id)}
    assert (await service.tournaments.tournament(info.id)).round == 2
    assert len(await service.tournaments.round_tables(info.id, 2)) == 1
    await play_round(service, info.id)
    assert (await service.tournaments.tournament(info.id)).status == "finished"
    after = {line.entrant: line.points for line in await service.tournaments.standings(info.id)}
    assert after == first and any(points != "0" for points in first.values())


async def test_a_knockout_final_without_computers_seats_the_games_fewest_and_ends(
    service: TableService, clock: Clock
) -> None:
    """Eight people, tables of four, the top one of each goes on, no computers: two would go on to an Oh Hell
    final, which needs three. The next best of round 1 goes on too, the final is played, and the tournament
    ends, its podium the final's places (it stayed open for ever before, re-trying a final it could not start)."""
    info = await _entered(service, 8, format="knockout", table_size=4, advance=1, computers=False)
    await service.tournaments.start(info.id, HOST)
    await play_round(service, info.id)
    round_one = await service.tournaments.round_tables(info.id, 1)
    (final,) = await service.tournaments.round_tables(info.id, 2)
    assert len([seat for seat in final.seats if seat is not None]) == 3
    await play_round(service, info.id)
    done = await service.tournaments.tournament(info.id)
    assert done.status == TournamentStatus.DONE
    finalists = {seat for seat in final.seats if seat is not None}
    lines = await service.tournaments.standings(info.id)
    assert {line.entrant.id for line in lines[:3]} == finalists  # the podium is the final's
    assert len(round_one) == 2


async def test_a_knockout_podium_is_the_finals_places_and_never_someone_who_sat_out(service: TableService) -> None:
    """Four people at tables of three, no computers: one sits out round 1, which is the final. The podium is
    the final's three in their places there; the one who sat out is last, whatever a bye's points."""
    info = await _entered(service, 4, format="knockout", table_size=3, advance=1, computers=False)
    await service.tournaments.start(info.id, HOST)
    await play_round(service, info.id)
    assert (await service.tournaments.tournament(info.id)).status == TournamentStatus.DONE
    (final,) = await service.tournaments.round_tables(info.id, 1)
    assert final.places is not None
    place = {seat: p for seat, p in zip(final.seats, final.places, strict=True) if seat is not None}
    lines = await service.tournaments.standings(info.id)
    podium = [line.entrant.id for line in lines[:3]]
    assert set(podium) == set(place)
    assert [place[e] for e in podium] == sorted(place[e] for e in podium)  # in the final's places
    assert lines[3].byes == 1 and lines[3].played == 0


def test_a_knockout_tie_across_the_cut_goes_to_the_higher_seed_of_that_round() -> None:
    """Two people tied for second at a table where two go on are level on every standings tie-break; the one
    seeded higher in that round goes on (docs/events.md), even when the other signed up first."""
    from types import SimpleNamespace

    from bot.tables.tournament_records import EntrantInfo, TournamentStatus
    from bot.tournaments.swiss import first_round_order

    entrants = tuple(EntrantInfo(i, 1000 + i, f"P{i}") for i in range(1, 9))
    ids = [e.id for e in entrants]
    seed = next(s for s in range(100) if (order := first_round_order(ids, s))[1] > order[2])
    seeds = first_round_order(ids, seed)
    higher, lower = seeds[1], seeds[2]  # seeded higher, but signed up later
    info = TournamentInfo(
        id=1, guild_id=GUILD, channel_id=CHANNEL, message_id=None, host_id=1001, game="oh-hell", options={},
        format="knockout", table_size=4, rounds=0, advance=2, computers=False, rated=True, starts_at=None,
        seed=seed, status=TournamentStatus.RUNNING, round=2, entrants=entrants,
    )  # fmt: skip
    tables = [
        SimpleNamespace(round=1, seats=tuple(seeds[:4]), places={0: 1, 1: 2, 2: 2, 3: 4}),  # a tie for second
        SimpleNamespace(round=1, seats=tuple(seeds[4:]), places={0: 1, 1: 2, 2: 3, 3: 4}),
    ]
    going = Tournaments._knockout_seeds(None, info, 2, tables)  # type: ignore[arg-type]
    assert higher in going and lower not in going


def test_a_knockout_over_when_one_person_alone_goes_on_puts_that_person_first() -> None:
    """Three people at a game of two: A and B tie (their table ended early: both placed first), A goes on as the
    higher seed, and C loses to the computer, so A alone goes on and the knockout ends without a final: A wins
    it (the standings, level on points, put B first, who signed up before A)."""
    from types import SimpleNamespace

    from bot.tables.tournament_records import EntrantInfo
    from bot.tournaments.swiss import first_round_order

    entrants = tuple(EntrantInfo(i, 1000 + i, f"P{i}") for i in range(1, 4))
    seed = next(s for s in range(100) if (o := first_round_order([1, 2, 3], s))[0] > o[1])  # A signed up after B
    info = TournamentInfo(
        id=1, guild_id=GUILD, channel_id=CHANNEL, message_id=None, host_id=1001, game="ninety-nine", options={},
        format="knockout", table_size=2, rounds=0, advance=1, computers=True, rated=True, starts_at=None,
        seed=seed, status=TournamentStatus.DONE, round=1, entrants=entrants,
    )  # fmt: skip
    a, b, c = first_round_order([e.id for e in entrants], info.seed)

    def table(seats: tuple[int | None, ...], places: dict[int, int]) -> SimpleNamespace:
        return SimpleNamespace(round=1, number=1, table_id=1, seats=seats, status="finished", message_id=None,
                               places=places, sheets=[])  # fmt: skip

    lost_to_the_computer = [table((a, b), {0: 1, 1: 1}), table((c, None), {0: 2, 1: 1})]
    stub = Tournaments.__new__(Tournaments)
    lines = stub._standings(info, lost_to_the_computer, [])  # type: ignore[arg-type]
    assert lines[0].entrant == a and [line.rank for line in lines] == [1, 2, 3]
    beat_the_computer = [table((a, b), {0: 2, 1: 1}), table((c, None), {0: 1, 1: 2})]
    going = stub._knockout_seeds(info, 2, beat_the_computer)  # type: ignore[arg-type]
    assert sorted(going) == sorted([b, c])  # the lone person who beat the computer goes on to the final


async def test_a_tournament_host_seated_at_a_round_table_cannot_end_it_alone(service: TableService) -> None:
    """The host plays in round 1: ending that table would count it as all its seats tied (a shared first place
    for a host who was losing). Only someone who can manage the server may; a table the host does not play at
    the host still may end."""
    info = await signed_up(service, 8)
    await service.tournaments.start(info.id, HOST)
    tables = await service.tournaments.round_tables(info.id, 1)
    host_entrant = next(e.id for e in info.entrants if e.user_id == HOST)
    own = next(table for table in tables if host_entrant in table.seats)
    other = next(table for table in tables if host_entrant not in table.seats)
    before = await service.table(own.table_id)
    with pytest.raises(TableError) as refused:
        await service.abandon(own.table_id, HOST)
    assert refused.value.key == "not_allowed_abandon_own_round"
    assert (await service.table(own.table_id)).status == before.status == "playing"
    await service.abandon(other.table_id, HOST)  # the host's privilege at a table of others stays
    await service.abandon(own.table_id, HOST, can_manage=True)
    assert {t.status for t in await service.tournaments.round_tables(info.id, 1)} == {"abandoned"}


async def test_a_duplicate_tables_review_waits_for_every_table_of_the_round_to_play_the_deal(
    service: TableService,
) -> None:
    """Every table of a duplicate round holds the same cards: table 1's 📜 Last deal (and, once it finished, its
    replay with every hand as dealt) named the cards table 2 still held. A deal is reviewed once every other table
    still playing has played it too."""
    import random

    from .helpers import play_one, play_to_end

    info = await service.tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", {"start_cards": 2, "sequence": "down"},
        format="duplicate", table_size=4, rounds=1, computers=False,
    )  # fmt: skip
    for n in range(1, 8):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    await service.tournaments.start(info.id, HOST)
    first, second = await service.tournaments.round_tables(info.id, 1)
    rng = random.Random(0)
    one = await service.table(first.table_id)
    host = one.seats[0].user_id
    assert host is not None
    while (await service.hand(one.id, host)).view["last_deal"] is None:  # table 1 plays its first deal
        await play_one(service, one, rng)
        one = await service.table(one.id)
    assert one.status == "playing"
    for _ in range(2):  # deal 1 scored here, not yet at table 2; nor, once finished, its hands as dealt
        with pytest.raises(TableError) as refused:
            await service.deal_reviews(one.id)
        assert refused.value.key == "review_after_other_tables"
        await play_to_end(service, one)
    assert (await service.table(one.id)).status == "finished"
    # nor its score sheet in /history: each deal's points say the bids (found by a helper's audit)
    result = await service.table_result(one.id)
    assert result is not None
    with pytest.raises(TableError) as refused:
        await service.history_sheet(result["match_id"])
    assert refused.value.key == "review_after_other_tables"
    # nor its totals in /history's list and /stats' recent matches: who played, not how they scored
    [listed] = await service.recent_matches(GUILD)
    assert listed["held"] and listed["match_id"] == result["match_id"]
    assert {seat["user_id"] for seat in listed["seats"]} == {seat.user_id for seat in one.seats}
    assert all(seat["score"] is None and seat["placement"] is None and not seat["won"] for seat in listed["seats"])
    # nor in /stats: its score, place, bids made and best deal (a helper's audit); the rating moved at once
    profile = await service.player_profile(GUILD, host, "oh-hell")
    assert profile["matches"] == 0 and profile["best_score"] is None and profile["bids"] == 0
    assert profile["best_deal"] is None and profile["history"] == [] and profile["rating"] is not None
    assert (await service.player_stats(GUILD, host, "oh-hell"))["matches"] == 0
    await play_to_end(service, await service.table(second.table_id), seed=1)
    profile = await service.player_profile(GUILD, host, "oh-hell")
    mine = next(seat for seat in result["seats"] if seat["user_id"] == host)
    assert profile["matches"] == 1 and profile["best_score"] == mine["score"] and profile["bids"] == 2
    assert profile["best_deal"] is not None and profile["best_deal"]["match_id"] == result["match_id"]
    assert [point["match_id"] for point in profile["history"]] == [result["match_id"]]
    _, shown = await service.deal_reviews(one.id)
    assert [deal.deal for deal in shown] == [1, 2] and all(deal.hands for deal in shown)
    sheet = await service.history_sheet(result["match_id"])
    assert sheet is not None and len(sheet["sheets"]) == 2
    listed_now = await service.recent_matches(GUILD)
    assert len(listed_now) == 2 and not any(match["held"] for match in listed_now)
    mine = next(match for match in listed_now if match["match_id"] == result["match_id"])
    assert sorted(seat["score"] for seat in mine["seats"]) == sorted(seat["score"] for seat in result["seats"])


@pytest.mark.parametrize("computers", [False, True])
async def test_a_duplicate_night_of_one_table_is_not_started(service: TableService, computers: bool) -> None:
    """A duplicate night compares tables dealt the same cards: with a single table every seat would get 0
    matchpoints, every round. Its start needs two tables' entrants (one more than a table, where computers
    fill the seats), says how many, and opens nothing; at the start time, the night is called off."""
    info = await service.tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", format="duplicate", table_size=4, rounds=1, computers=computers
    )
    least = 5 if computers else 8
    for n in range(1, least - 1):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    assert len(info.playing) == least - 1
    with pytest.raises(TableError) as refused:
        await service.tournaments.start(info.id, HOST)
    assert refused.value.key == "too_few_for_duplicate"
    assert refused.value.params == {"least": least, "entrants": least - 1, "size": 4}
    assert (await service.tournaments.tournament(info.id)).status == "signup"
    assert await service.tournaments.round_tables(info.id, 1) == []
    await service.tournaments.join(info.id, GUILD, HOST + least, "Last")
    started = await service.tournaments.start(info.id, HOST)
    assert started.status == "running" and len(await service.tournaments.round_tables(info.id, 1)) == 2


async def test_a_leave_just_before_a_duplicate_nights_start_is_counted_under_the_lock(service: TableService) -> None:
    """The start counts the entrants before it takes the tournament's row; a Leave committed in between left a
    night of one table (found by a helper's review). The round's opening counts them again under the lock."""
    info = await service.tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", format="duplicate", table_size=4, rounds=1, computers=True
    )
    for n in range(1, 5):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    assert len(info.playing) == 5  # enough, as the start read them
    await service.tournaments.leave(info.id, HOST + 4)  # and then one left
    with pytest.raises(TableError) as refused:
        await service.tournaments._open_round(info, 1)  # the start's next step, with what it read
    assert refused.value.key == "too_few_for_duplicate"
    assert (await service.tournaments.tournament(info.id)).status == "signup"
    assert await service.tournaments.round_tables(info.id, 1) == []


async def _play_table(service: TableService, table_id: int) -> None:
    """Every person at one table plays their first legal action until it is over."""
    for _ in range(300):
        await service.settle(table_id)
        live = await service.table(table_id)
        if live.status not in ("lobby", "playing"):
            return
        for seat in live.to_act:
            user = next(s.user_id for s in live.seats if s.index == seat)
            if user is not None and (legal := await service.legal(table_id, user)):
                with contextlib.suppress(TableError):
                    await service.act(table_id, user, legal[0])
        await asyncio.sleep(0)


async def test_a_knockout_winner_who_leaves_mid_round_lets_the_next_best_at_the_table_go_on(
    service: TableService,
) -> None:
    """Table 1's winner went home while table 2 still played: nobody of table 1 went on, and with one going on a
    table the tournament ended without its final (found by a helper's audit)."""
    info = await signed_up(service, 8, format="knockout", advance=1)
    await service.tournaments.start(info.id, HOST)
    first, second = await service.tournaments.round_tables(info.id, 1)
    await _play_table(service, first.table_id)
    first = (await service.tournaments.round_tables(info.id, 1))[0]
    assert first.places is not None
    best = min(first.places)
    winners = {seat for seat, place in zip(first.seats, first.places, strict=True) if place == best}
    others = set(first.seats) - winners
    assert others and None not in first.seats  # (a table of four people, not all tied)
    for entrant in info.entrants:
        if entrant.id in winners:
            await service.tournaments.leave(info.id, entrant.user_id)
    await _play_table(service, second.table_id)
    await service.events.drain()
    await service.tournaments.events.drain()
    now = await service.tournaments.tournament(info.id)
    assert now.round == 2 and now.status != TournamentStatus.DONE
    [final] = await service.tournaments.round_tables(info.id, 2)
    assert others & set(final.seats) and not winners & set(final.seats), (first, final)


async def test_a_round_seats_only_tables_its_options_allow(service: TableService, clock: Clock) -> None:
    """Oxford Ninety-Nine is for three: five entrants were seated three and two, and the table of two never
    started (its round never closed: the tournament was stuck for good)."""
    info = await service.tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "ninety-nine", {"format": "oxford"}, table_size=3, computers=False
    )
    for n in range(1, 5):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    await service.tournaments.start(info.id, HOST)
    clock.advance(20)
    await service.tournaments.recheck()
    tables = await service.tournaments.round_tables(info.id, 1)
    assert tables and all(len(table.seats) == 3 and table.status == "playing" for table in tables), tables


async def test_a_cancel_as_the_next_round_opens_ends_that_rounds_tables_too(service: TableService) -> None:
    """Round 1 ended (and round 2 opened) between Cancel's read and its write: round 2's tables played on in a
    cancelled tournament (found by a helper's audit)."""
    tournaments = service.tournaments
    info = await signed_up(service, 8, rounds=3)
    await tournaments.start(info.id, HOST)
    read, raced = tournaments.tournament, []

    async def then_the_round_ends(tournament_id: int) -> TournamentInfo:
        seen = await read(tournament_id)
        if not raced:
            raced.append(True)
            await play_round(service, tournament_id)  # another process closes round 1, opens round 2
        return seen

    tournaments.tournament = then_the_round_ends  # type: ignore[method-assign]
    try:
        await tournaments.cancel(info.id, HOST)
    finally:
        tournaments.tournament = read  # type: ignore[method-assign]
    after = await tournaments.tournament(info.id)
    assert after.status == TournamentStatus.CANCELLED and after.round == 2
    assert {table.status for table in await tournaments.round_tables(info.id, 2)} == {"abandoned"}


async def test_a_no_show_seated_alone_with_computers_does_not_go_on(service: TableService, clock: Clock) -> None:
    """A table whose people were all away for a whole deal is abandoned, and an abandoned table counted every seat
    tied first: someone who never came, alone with a computer, went on in a knockout past the person who played
    and lost (found by a helper's audit). Those away are now tied last."""
    from .helpers import heard

    await service.update_guild_settings(GUILD, turn_seconds=10, grace_seconds=5)
    tournaments = service.tournaments
    info = await tournaments.create(GUILD, CHANNEL, HOST, "Host", "ninety-nine", {}, format="knockout", table_size=2)
    for n in range(1, 3):
        info = await tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    await tournaments.start(info.id, HOST)
    tables = await tournaments.round_tables(info.id, 1)
    lone = next(table for table in tables if None in table.seats)
    duel = next(table for table in tables if None not in table.seats)
    for _ in range(3000):  # the one alone never plays; the two at the other table play their first legal move
        clock.advance(20)
        await service.run_timers()
        await service.settle()
        heard(service).take()
        live = await service.table(duel.table_id)
        if live.status == "playing":
            for seat in live.to_act:
                user = next(s.user_id for s in live.seats if s.index == seat)
                if user is not None and (legal := await service.legal(duel.table_id, user)):
                    with contextlib.suppress(TableError):
                        await service.act(duel.table_id, user, legal[0])
        statuses = [(await service.table(t.table_id)).status for t in tables]
        if all(status not in ("playing", "lobby") for status in statuses):
            break
    await service.events.drain()
    await tournaments.events.drain()
    absentee = next(seat for seat in lone.seats if seat is not None)
    [lone_now] = [t for t in await tournaments.round_tables(info.id, 1) if t.table_id == lone.table_id]
    assert lone_now.status == "abandoned" and lone_now.places is not None
    assert lone_now.places[lone_now.seats.index(absentee)] == 2  # behind the computer
    standings = await tournaments.standings(info.id)
    assert standings[-1].entrant.id == absentee and standings[-1].firsts == 0
    assert all(absentee not in table.seats for table in await tournaments.round_tables(info.id, 2))


async def test_cancelling_with_a_table_that_cannot_be_read_ends_every_table(database: Database, clock: Clock) -> None:
    """A round's table whose log no longer replays does not keep the tournament's other tables open when it is
    cancelled: that one is closed by its row, the others abandoned as ever."""
    first = make_service(database, clock)
    info = await signed_up(first, 8)
    await first.tournaments.start(info.id, HOST)
    bad, good = await first.tournaments.round_tables(info.id, 1)
    live = await first.table(bad.table_id)
    who = next(s.user_id for s in live.seats if s.index == live.to_act[0])
    assert who is not None
    await first.act(bad.table_id, who, (await first.legal(bad.table_id, who))[0])
    await first.close()
    async with database.engine.begin() as connection:
        await connection.execute(text("UPDATE actions SET action = 'bid 99' WHERE table_id = :t"), {"t": bad.table_id})
    second = make_service(database, clock)  # a restart: the bad table cannot be read
    try:
        await second.tournaments.cancel(info.id, HOST)
        statuses = {t.table_id: t.status for t in await second.tournaments.round_tables(info.id, 1)}
        assert statuses == {bad.table_id: "abandoned", good.table_id: "abandoned"}
    finally:
        await second.close()
