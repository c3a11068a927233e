"""The last trick of the deal just scored (its last card is in no view), as the service gives it to both
presentations: read once a deal from the table's log, until the new deal's first card, never before "Last deal"
may show it."""

from __future__ import annotations

import random
from dataclasses import replace

from sqlalchemy.exc import OperationalError

from bot.games.views import View
from bot.tables import NotAllowed, TableInfo, TableService, TableStatus, TrickReview
from bot.tables.deal_ends import DealEnds
from bot.tables.review import DealReview

from .helpers import play_one, started


async def first_deal_scored(service: TableService, seed: int) -> tuple[TableInfo, View]:
    """A three-player Oh Hell of three-card deals played at random until its first deal is scored."""
    outcome = await started(service, "oh-hell", 3, {"start_cards": 3})
    rng = random.Random(seed)
    info, public = await service.snapshot(outcome.table.id)
    while public is None or public["last_deal"] is None:
        await play_one(service, info, rng)
        info, public = await service.snapshot(info.id)
    return info, public


async def test_a_deals_last_trick_is_given_from_its_end_to_the_new_deals_first_card(service: TableService) -> None:
    outcome = await started(service, "oh-hell", 3, {"start_cards": 3})
    table_id = outcome.table.id
    reads: list[int] = []

    async def reviews(table: int) -> tuple[TableInfo, list[DealReview]]:
        reads.append(table)
        return await service.deal_reviews(table)

    ends = DealEnds(reviews)
    rng = random.Random(3)
    info, public = await service.snapshot(table_id)
    assert await ends(info, public) is None and reads == []  # nothing scored yet: the log is not read
    while public["last_deal"] is None:
        await play_one(service, info, rng)
        info, public = await service.snapshot(table_id)
        if public["last_deal"] is None:
            assert await ends(info, public) is None
    # the first deal was just scored: its last trick whole, as "Last deal" has it, the last card played in it
    end = await ends(info, public)
    _, deals = await service.deal_reviews(table_id)
    assert end is not None and end == deals[0].tricks[-1] and len(end.cards) == 3
    assert public["last_trick"] is None and public["trick"] == []  # what no view shows
    assert reads == [table_id]
    # the new deal's bids: the same trick, read no more
    while not public["trick"]:
        assert await ends(info, public) == end and reads == [table_id]
        await play_one(service, info, rng)
        info, public = await service.snapshot(table_id)
    assert await ends(info, public) is None  # the new deal's first card: the view's own tricks from now on
    assert await service.deal_end(info, public) is None


async def test_nothing_is_given_while_last_deal_may_not_show_it_and_it_is_asked_again_at_the_next_move(
    service: TableService,
) -> None:
    info, public = await first_deal_scored(service, 5)
    refusing = True
    reads = 0

    async def reviews(table: int) -> tuple[TableInfo, list[DealReview]]:
        nonlocal reads
        reads += 1
        if refusing:  # a duplicate night's other tables have not played this deal yet
            raise NotAllowed("review_after_other_tables")
        return await service.deal_reviews(table)

    ends = DealEnds(reviews)
    assert await ends(info, public) is None and await ends(info, public) is None
    assert reads == 1  # refused at this move: not asked again until the table moves
    refusing = False
    later = replace(info, actions=info.actions + 1)
    shown = await ends(later, public)
    assert reads == 2 and isinstance(shown, TrickReview) and len(shown.cards) == 3


async def test_a_table_no_longer_waiting_for_its_new_deals_first_card_is_forgotten(service: TableService) -> None:
    info, public = await first_deal_scored(service, 7)
    reads = 0

    async def reviews(table: int) -> tuple[TableInfo, list[DealReview]]:
        nonlocal reads
        reads += 1
        return await service.deal_reviews(table)

    ends = DealEnds(reviews)
    end = await ends(info, public)
    assert end is not None and reads == 1
    assert await ends(replace(info, status=TableStatus.ABANDONED), public) is None  # nothing kept for it
    assert await ends(info, public) == end and reads == 2  # read again: it was not kept


async def test_the_database_away_shows_the_table_without_it_and_asks_again(service: TableService) -> None:
    info, public = await first_deal_scored(service, 9)
    away = True

    async def reviews(table: int) -> tuple[TableInfo, list[DealReview]]:
        if away:
            raise OperationalError("SELECT", {}, ConnectionRefusedError())
        return await service.deal_reviews(table)

    ends = DealEnds(reviews)
    assert await ends(info, public) is None  # the table's message goes out all the same
    away = False
    assert await ends(info, public) is not None  # asked again: nothing was kept of the failure
