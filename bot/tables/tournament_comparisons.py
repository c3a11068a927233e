"""A duplicate round's deals side by side, at the end of the round or after each deal (the host's choice).

After each deal: when a deal has been scored at every table of the round, its comparison is *claimed* by
writing ``(tournament, round, deal)`` to ``tournament_deals``, whose primary key lets only one writer win
however many processes (or restarts) try; the winner publishes ``deal_compared`` once, and the presentation
posts it, then marks it posted. Who tries: the process that heard a table's deal end (its
:class:`~bot.tables.events.TableChanged`), the round's advance before the standings (so the last deal's
comparison comes first), and the re-check (a deal whose last table ended while no process was there to claim
it). A table's deals so far are its live score sheets (a table of a tournament is held by the process serving
its server), or the match's sheets once it finished. A deal claimed and never marked posted is published again
(as a round left unposted is): by a process started since, or once the claim is older than ``REPOST_AFTER`` (its
claimer stopped in between); by the process that published it, when Discord failed to take it, after
``REPOST_AFTER`` and then at longer and longer gaps (``Reposts``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import tournaments as trepo
from bot.storage.database import BatchRollback
from bot.storage.models import ABANDONED, OPEN_STATUSES, TournamentStatus
from bot.tournaments.duplicate import compare, deal_scores

from .errors import LogDoesNotReplay, TableError
from .store import Store
from .tournament_records import (
    AFTER_DEAL,
    DUPLICATE,
    REPOST_AFTER,
    ComparedDeal,
    ComparedSeat,
    Reposts,
    TournamentChanged,
    TournamentEvents,
    TournamentInfo,
)

log = logging.getLogger(__name__)

LEFT_FOR = timedelta(hours=24)  # how long a deal Discord failed to take, of a round no longer under way, is tried


class _Claimed(Exception):
    """Another process or call claimed the deal's comparison first."""


def side_by_side(
    info: TournamentInfo,
    rows: Sequence[trepo.EventTableRow],
    sheets: Sequence[Sequence[Any]],
    deals: Sequence[int],
) -> list[ComparedDeal]:
    """Per deal, per seat position, every table's seat: what it bid, took and scored, and its matchpoints
    for the deal against the same seat at the other tables (2 each it beat, 1 each tie)."""
    names = {entrant.id: entrant for entrant in info.entrants}
    by_deal = [{int(sheet["deal"]): sheet for sheet in table} for table in sheets]
    scores = [deal_scores(table) for table in sheets]
    out = []
    for deal in deals:
        positions = []
        for position in range(info.table_size):
            seats = []
            for index, row in enumerate(rows):
                line = next(r for r in by_deal[index][deal]["rows"] if int(r["seat"]) == position)
                mine = scores[index][deal][position]
                others = [score[deal][position] for other, score in enumerate(scores) if other != index]
                points = sum(2 if mine > theirs else 1 if mine == theirs else 0 for theirs in others)
                entrant = row.seats[position]
                seats.append(
                    ComparedSeat(
                        row.number,
                        names.get(entrant) if entrant is not None else None,
                        int(line["bid"]) if "bid" in line else None,
                        int(line["tricks"]),
                        int(line["change"]),
                        points,
                    )
                )
            positions.append(tuple(seats))
        out.append(ComparedDeal(deal, tuple(positions)))
    return out


async def sheets_so_far(store: Store, table_id: int) -> list[Any]:
    """The deals a table has scored so far, read from the table itself (its log replayed): those of one still
    playing, or of one abandoned, for which no match was recorded. Empty if the table is gone or its log no
    longer replays: nothing of it can be compared."""
    try:
        return list((await store.get(table_id)).sheets)
    except (TableError, LogDoesNotReplay):
        log.warning("the scored deals of table %s cannot be read: it is compared with nothing", table_id)
        return []


class DealComparisons:
    """The comparison after each deal of a duplicate round, claimed once in the database."""

    def __init__(self, store: Store, events: TournamentEvents) -> None:
        self.store = store
        self.events = events
        self._born = store.clock()
        self._again = Reposts()  # deals published by this process, and when to again while not posted

    async def _sheets(self, rows: Sequence[trepo.EventTableRow]) -> list[list[Any]]:
        """Each table's score sheets so far: the live table's while it plays (or once abandoned: no match was
        recorded, and the deals it scored before are compared), the match's once it finished."""
        out = []
        for row in rows:
            if row.status in OPEN_STATUSES or row.status == ABANDONED:
                out.append(await sheets_so_far(self.store, row.table_id))
            else:
                out.append(list(row.sheets))
        return out

    async def _scored(
        self, info: TournamentInfo, round_no: int
    ) -> tuple[list[trepo.EventTableRow], list[list[Any]], tuple[int, ...]]:
        """The round's tables, their sheets so far, and the deals scored at every one of them."""
        async with self.store.db.engine.connect() as connection:
            rows = await trepo.event_tables(connection, info.id, round_no)
        if len(rows) < 2:  # one table alone has nothing to compare
            return rows, [], ()
        sheets = await self._sheets(rows)
        return rows, sheets, compare(sheets, info.table_size).deals

    async def catch_up(self, info: TournamentInfo, round_no: int) -> list[int]:
        """Claim every deal of the round scored at every table and not compared yet, and publish each one
        this call claimed (``deal_compared``); the deals claimed. Nothing unless the host chose after each deal."""
        if info.format != DUPLICATE or info.compare_after != AFTER_DEAL or round_no < 1:
            return []
        _, _, deals = await self._scored(info, round_no)
        if not deals:
            return []
        async with self.store.db.engine.connect() as connection:
            done = await trepo.compared_deals(connection, info.id, round_no)
            unposted = await trepo.unposted_deals(connection, info.id, round_no)
        claimed = []
        now = self.store.clock()
        for deal in deals:
            if deal not in done and await self._claim(info.id, round_no, deal):
                claimed.append(deal)
                self._again.published((info.id, round_no, deal), now)
                self.events.publish(TournamentChanged(info.id, info.guild_id, "deal_compared", round_no, deal))
        for deal, at in sorted(unposted):
            if self._again_now((info.id, round_no, deal), at, now):
                self.events.publish(TournamentChanged(info.id, info.guild_id, "deal_compared", round_no, deal))
        return claimed

    def _again_now(self, key: tuple[int, int, int], claimed_at: datetime, now: datetime) -> bool:
        """Whether a deal claimed at ``claimed_at`` and not posted is to be published again now."""
        if self._again.known(key):
            return self._again.due(key, now)  # published here, and Discord failed to take it
        again = claimed_at < self._born or now - claimed_at > REPOST_AFTER  # its claimer stopped before posting it
        if again:
            self._again.published(key, now)
        return again

    async def repost_left(self, owns: Callable[[int], bool]) -> None:
        """The deals Discord failed to take in a round no longer under way (the round's last deal, whose standings
        went out after it; a tournament over), claimed in the last ``LEFT_FOR`` and still not posted: published
        again as the round under way's are (``catch_up``), on the same schedule. ``owns``: a guild this process
        presents."""
        now = self.store.clock()
        async with self.store.db.engine.connect() as connection:
            left = await trepo.unposted_deals_since(connection, now - LEFT_FOR)
        for tournament_id, guild_id, round_no, deal, at, status, current in left:
            if not owns(guild_id) or (status == TournamentStatus.RUNNING and round_no == current):
                continue  # another process's, or the round under way's (``catch_up``)
            if self._again_now((tournament_id, round_no, deal), at, now):
                self.events.publish(TournamentChanged(tournament_id, guild_id, "deal_compared", round_no, deal))

    async def posted(self, tournament_id: int, round_no: int, deal: int) -> None:
        now = self.store.clock()

        async def work(connection: AsyncConnection) -> None:
            await trepo.mark_deal_posted(connection, tournament_id, round_no, deal, now)

        await self.store.db.write(work)
        self._again.shown((tournament_id, round_no, deal))

    async def _claim(self, tournament_id: int, round_no: int, deal: int) -> bool:
        now = self.store.clock()

        async def work(connection: AsyncConnection) -> None:
            if deal in await trepo.compared_deals(connection, tournament_id, round_no):
                raise BatchRollback(_Claimed())
            try:
                await trepo.insert_compared_deal(connection, tournament_id, round_no, deal, now)
            except IntegrityError:  # claimed a moment ago by another process
                raise BatchRollback(_Claimed()) from None

        try:
            await self.store.db.write(work)
        except _Claimed:
            log.debug("deal %s of round %s of tournament %s was compared elsewhere", deal, round_no, tournament_id)
            return False
        return True

    async def deal(self, info: TournamentInfo, round_no: int, deal: int) -> ComparedDeal | None:
        """One deal of a duplicate round side by side, once every table of the round has scored it."""
        rows, sheets, deals = await self._scored(info, round_no)
        if deal not in deals:
            return None
        return side_by_side(info, rows, sheets, [deal])[0]
