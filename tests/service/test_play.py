"""Play through the service: refusals, one action at a time, events, whole matches, restarts."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.tables import ActionRefused, NotAllowed, StaleAction, TableService, WrongStatus

from .conftest import Clock
from .helpers import HOST, play_one, play_to_end, seated, started


async def _log_size(database: Database, table_id: int) -> tuple[int, int]:
    async with database.engine.connect() as connection:
        count = (await connection.execute(text(f"SELECT count(*) FROM actions WHERE table_id={table_id}"))).scalar()
        version = (await connection.execute(text(f"SELECT version FROM tables WHERE id={table_id}"))).scalar()
    return int(count or 0), int(version or 0)


async def test_refusals_are_typed_and_write_nothing(service: TableService, database: Database) -> None:
    outcome = await started(service, "five-hundred", players=4)
    table = outcome.table
    before = await _log_size(database, table.id)
    bidder = table.to_act[0]
    waiting = (bidder + 1) % 4
    cases = [
        (HOST + 50, "pass", NotAllowed, "not_seated"),
        (HOST + waiting, "pass", NotAllowed, "not_your_turn"),
        (HOST + bidder, "play AS", ActionRefused, "wrong_phase"),
        (HOST + bidder, "bid 11H", ActionRefused, "unparseable"),
        (HOST + bidder, "dance", ActionRefused, "unparseable"),
        (HOST + bidder, "discard AS 2C 3C", ActionRefused, "wrong_phase"),
    ]
    for who, action, error, key in cases:
        with pytest.raises(error) as refused:
            await service.act(table.id, who, action)
        assert refused.value.key == key, (action, refused.value)
    assert await _log_size(database, table.id) == before
    assert (await service.table(table.id)).version == table.version
    assert await service.public_view(table.id) == outcome.public


async def test_an_action_is_committed_before_it_is_acknowledged(service: TableService, database: Database) -> None:
    outcome = await started(service, players=3)
    legal = await service.legal(outcome.table.id, HOST)
    after = await service.act(outcome.table.id, HOST, legal[0])
    assert await _log_size(database, outcome.table.id) == (1, after.table.version)
    assert after.actor == 0 and after.actor_view is not None and after.actor_view["hands"][0]["has_bid"]
    assert after.changed == (0, 1, 2)  # everyone sees that seat 0 has bid


async def test_an_action_written_otherwise_is_logged_as_the_engine_names_it(
    service: TableService, database: Database
) -> None:
    """A screen may send a legal move in another case, spacing or card order ("play  6h", "bid 2s 7h 3d"): the
    engine takes it, and the move log (read by the review and the last deal's cards) holds the engine's own
    name of it, never the text as typed."""
    outcome = await started(service, "ninety-nine", players=3)
    table_id = outcome.table.id
    seat = outcome.table.to_act[0]
    legal = await service.legal(table_id, HOST + seat)
    bid = legal[5]
    verb, *cards = bid.split()
    written = "  ".join([verb.upper(), *reversed([card.lower() for card in cards])])
    assert written != bid
    await service.act(table_id, HOST + seat, written)
    async with database.engine.connect() as connection:
        logged = (await connection.execute(text(f"SELECT action FROM actions WHERE table_id={table_id}"))).scalars()
        assert list(logged) == [bid]
    with pytest.raises(ActionRefused):
        await service.act(table_id, HOST + (seat + 1) % 3, "bid  zz")


async def test_a_click_on_a_table_that_moved_on_is_refused(service: TableService) -> None:
    outcome = await started(service, players=3)
    table = outcome.table
    seen = table.version
    await service.act(table.id, HOST, (await service.legal(table.id, HOST))[0])
    with pytest.raises(StaleAction) as stale:
        await service.act(table.id, HOST + 1, (await service.legal(table.id, HOST + 1))[0], expected_version=seen)
    assert stale.value.key == "stale"


async def test_two_clicks_at_once_apply_exactly_once(service: TableService, database: Database) -> None:
    outcome = await started(service, players=3)
    table = outcome.table
    action = (await service.legal(table.id, HOST))[0]
    results = await asyncio.gather(
        *(service.act(table.id, HOST, action, expected_version=table.version) for _ in range(5)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and len(refused) == 4
    assert all(isinstance(r, StaleAction) for r in refused)
    assert (await _log_size(database, table.id))[0] == 1
    # The same double click without a version: the second is refused by the rules instead.
    action = (await service.legal(table.id, HOST + 1))[0]
    results = await asyncio.gather(*(service.act(table.id, HOST + 1, action) for _ in range(2)), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert any(isinstance(r, (ActionRefused, NotAllowed)) for r in results)
    assert (await _log_size(database, table.id))[0] == 2


async def test_a_second_process_can_never_apply_a_stale_action(database: Database, clock: Clock) -> None:
    first, second = TableService(database, clock=clock), TableService(database, clock=clock)
    outcome = await started(first, players=3)
    table_id = outcome.table.id
    await second.load_open_tables()  # both processes now hold the table in memory
    action = (await first.legal(table_id, HOST))[0]
    seen = (await second.table(table_id)).version  # what a person saw on the second process
    await first.act(table_id, HOST, action)
    with pytest.raises(StaleAction):  # a click on a table that has moved on since it was seen
        await second.act(table_id, HOST + 1, (await second.legal(table_id, HOST + 1))[0], expected_version=seen)
    assert (await _log_size(database, table_id))[0] == 1
    # The refusal made the second process read the table again: it sees the first's action and plays on.
    assert (await second.public_view(table_id)) == await first.public_view(table_id)
    await second.act(table_id, HOST + 1, (await second.legal(table_id, HOST + 1))[0])
    assert (await _log_size(database, table_id))[0] == 2


async def test_events_announce_tricks_deals_and_the_end(service: TableService) -> None:
    outcome = await started(service, "just-make", players=4, options={"target": 3})
    outcomes = await play_to_end(service, outcome.table, seed=3)
    kinds = [kind for o in outcomes for kind in o.kinds()]
    assert "trick" in kinds and "deal" in kinds and kinds[-1] == "match_over"
    final = outcomes[-1]
    assert final.table.status == "finished" and final.public["phase"] == "over"
    over = next(e for e in final.events if e["kind"] == "match_over")
    assert over["winners"] == final.public["winners"]
    deal_events = [e for o in outcomes for e in o.events if e["kind"] == "deal"]
    assert [e["sheet"]["deal"] for e in deal_events] == list(range(1, len(deal_events) + 1))
    with pytest.raises(WrongStatus):
        await service.act(final.table.id, HOST, "play AS")


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("ninety-nine", 2, {"format": "nine-deals"}),
        ("ninety-nine", 4, {"format": "nine-deals"}),
        ("five-hundred", 4, {}),
        ("five-hundred", 5, {}),
        ("just-make", 6, {"target": 5}),
    ],
)
async def test_whole_matches_land_on_the_leaderboard(
    service: TableService, game: str, players: int, options: dict[str, object]
) -> None:
    outcome = await started(service, game, players=players, options=options)
    final = (await play_to_end(service, outcome.table, seed=players))[-1]
    assert final.table.status == "finished"
    board = await service.leaderboard(1, game, limit=10)
    assert sorted(row["user_id"] for row in board) == [HOST + n for n in range(players)]
    assert [row["rating"] for row in board] == sorted((row["rating"] for row in board), reverse=True)
    winners = {HOST + seat for seat in final.public["winners"]}
    assert {row["user_id"] for row in board if row["wins"]} == winners
    recent = await service.recent_matches(1)
    assert len(recent) == 1 and recent[0]["game"] == game
    sheet = await service.score_sheet(recent[0]["match_id"])
    assert sheet is not None and sheet["winners"] == final.public["winners"]
    assert len(sheet["sheets"]) >= sheet["deals"] >= 1  # Five Hundred's thrown-in hands have a sheet too
    assert [row["seat"] for row in sheet["seats"]] == list(range(players))


async def test_partners_are_rated_as_a_team(service: TableService) -> None:
    outcome = await started(service, "five-hundred", players=4)
    final = (await play_to_end(service, outcome.table, seed=11))[-1]
    over = next(e for e in final.events if e["kind"] == "match_over")
    ratings = over["ratings"]
    assert ratings[str(HOST)] == ratings[str(HOST + 2)] and ratings[str(HOST + 1)] == ratings[str(HOST + 3)]
    winners = set(final.public["winners"])
    assert winners in ({0, 2}, {1, 3})
    for seat in range(4):
        change = ratings[str(HOST + seat)]
        assert (change["after"] > change["before"]) == (seat in winners)


async def test_a_restarted_service_resumes_every_table_exactly(database: Database, clock: Clock) -> None:
    first = TableService(database, clock=clock)
    tables = []
    for number, (game, players) in enumerate([("ninety-nine", 3), ("five-hundred", 4), ("just-make", 5)]):
        outcome = await started(first, game, players=players, channel=700 + number, first_user=1000 * (number + 1))
        rng = random.Random(number)
        info = outcome.table
        for _ in range(25):
            info = (await play_one(first, info, rng)).table
        tables.append(info.id)
    lobby = await seated(first, players=2, channel=799, first_user=9000)
    second = TableService(database, clock=clock)
    assert await second.load_open_tables() == 4
    for table_id in tables:
        assert await second.public_view(table_id) == await first.public_view(table_id)
        before, after = await first.table(table_id), await second.table(table_id)
        assert before == after
        for seat in after.seats:
            assert seat.user_id is not None
            assert await second.seat_view(table_id, seat.user_id) == await first.seat_view(table_id, seat.user_id)
    assert (await second.table(lobby.id)).seats == lobby.seats
    final = (await play_to_end(second, await second.table(tables[0]), seed=5))[-1]
    assert final.table.status == "finished"


async def test_resigning_is_a_loss_and_the_seat_plays_on(service: TableService) -> None:
    outcome = await started(service, "just-make", players=4, options={"target": 5})
    table_id = outcome.table.id
    resigned = await service.resign(table_id, HOST + 1)
    assert resigned.table.seats[1].resigned and resigned.table.status == "playing"
    await service.settle(table_id)
    assert 1 not in (await service.table(table_id)).to_act  # the computer plays its turns
    with pytest.raises(NotAllowed) as again:
        await service.act(table_id, HOST + 1, "play AS")
    assert again.value.key == "resigned"
    final = (await play_to_end(service, resigned.table, seed=2))[-1]
    over = next(e for e in final.events if e["kind"] == "match_over")
    assert over["placements"]["1"] == 4 and 1 not in over["winners"]
    stats = await service.player_stats(1, HOST + 1, "just-make")
    assert stats["matches"] == 1 and stats["wins"] == 0


async def test_when_one_side_is_left_the_match_ends_for_it(service: TableService) -> None:
    outcome = await started(service, "ninety-nine", players=2)
    final = await service.resign(outcome.table.id, HOST)
    assert final.table.status == "finished"
    over = next(e for e in final.events if e["kind"] == "match_over")
    assert over["winners"] == [1] and over["placements"] == {"0": 2, "1": 1}
    assert over["ratings"][str(HOST + 1)]["after"] > over["ratings"][str(HOST)]["after"]
    assert await service.table_in_channel(outcome.table.channel_id) is None


async def test_abandoning_rates_nobody(service: TableService, database: Database) -> None:
    outcome = await started(service, players=3)
    with pytest.raises(NotAllowed) as refused:
        await service.abandon(outcome.table.id, HOST + 1)
    assert refused.value.key == "not_allowed_abandon"
    done = await service.abandon(outcome.table.id, HOST + 1, can_manage=True)
    assert done.table.status == "abandoned" and done.kinds() == ["abandoned"]
    async with database.engine.connect() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM matches"))).scalar() == 0
        assert (await connection.execute(text("SELECT count(*) FROM ratings"))).scalar() == 0
        assert (await connection.execute(text("SELECT count(*) FROM deadlines"))).scalar() == 0
    with pytest.raises(WrongStatus):
        await service.abandon(outcome.table.id, HOST)
    lobby = await seated(service, players=1)
    assert (await service.abandon(lobby.id, HOST)).table.status == "abandoned"


async def test_a_seats_turn_marker_refuses_only_its_own_old_choices(service: TableService, database: Database) -> None:
    """Ninety-Nine bids are simultaneous: others bidding does not spoil a hand; one's own bid does."""
    outcome = await started(service, "ninety-nine", players=3)
    table = outcome.table
    marker = {seat.user_id: seat.acted for seat in table.seats}
    assert set(marker.values()) == {0}
    first = (await service.legal(table.id, HOST))[0]
    after = await service.act(table.id, HOST, first, expected_turn=marker[HOST])
    assert next(s.acted for s in after.table.seats if s.user_id == HOST) == 1
    other = HOST + 1
    bid = (await service.legal(table.id, other))[0]
    applied = await service.act(table.id, other, bid, expected_turn=marker[other])  # still right
    assert applied.table.version == after.table.version + 1
    third = HOST + 2
    with pytest.raises(StaleAction):  # a hand shown before this seat's own last action
        await service.act(table.id, other, bid, expected_turn=marker[other])
    assert (await _log_size(database, table.id))[0] == 2
    restarted = TableService(database)
    info = await restarted.table(table.id)  # the marker is the replayed log, so it survives a restart
    assert {s.user_id: s.acted for s in info.seats} == {HOST: 1, other: 1, third: 0}
    await restarted.close()


async def test_a_hand_is_one_read_of_one_version(service: TableService) -> None:
    lobby = await seated(service, "five-hundred", players=4)
    with pytest.raises((NotAllowed, WrongStatus)):
        await service.hand(lobby.id, HOST)  # no match yet: no seat has a place at a deal
    outcome = await started(service, "five-hundred", players=4, channel=lobby.channel_id + 1)
    table = outcome.table
    with pytest.raises(NotAllowed):
        await service.hand(table.id, HOST + 50)  # a watcher
    bidder = table.to_act[0]
    for position in range(4):
        hand = await service.hand(table.id, HOST + position)
        assert hand.table == await service.table(table.id) and hand.version == table.version
        assert hand.seat.index == position and hand.seat.user_id == HOST + position
        assert hand.view == outcome.views[position]
        assert hand.legal == (await service.legal(table.id, HOST + position))
        assert bool(hand.legal) == (position == bidder)
    after = await service.act(table.id, HOST + bidder, "pass")
    moved = await service.hand(table.id, HOST + bidder)
    assert moved.version == after.table.version and moved.legal == [] and moved.seat.acted == 1


async def test_an_action_returns_the_seat_as_it_left_it(service: TableService) -> None:
    outcome = await started(service, "oh-hell", players=4)
    table = outcome.table
    bidder = table.to_act[0]
    after = await service.act(table.id, HOST + bidder, (await service.legal(table.id, HOST + bidder))[0])
    assert after.hand is not None
    assert after.hand == await service.hand(table.id, HOST + bidder)  # what one read now gives
    assert after.hand.seat.acted == 1 and after.hand.legal == [] and after.hand.version == after.table.version
