"""The read side of records: leaderboards, stats, match history and score sheets (rows from storage)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime

from bot.storage import leaderboard as board
from bot.storage import repository as repo
from bot.storage import tournaments as trepo
from bot.storage.models import MAX_ROW_ID, OPEN_STATUSES, TableStatus
from bot.storage.record_rows import BoardRow, MatchSheet, MatchSummary, PlayerProfile, PlayerStats

from .errors import NotAllowed, TableNotFound, WrongStatus
from .records import TableInfo
from .review import DealReview, review_deals
from .store import Store
from .tournament_records import DUPLICATE


@dataclass(frozen=True)
class _Shared:
    """The deals every other open table of a duplicate round has played (``everything``: none is still open)."""

    deals: set[int]
    everything: bool

    def __contains__(self, deal: int) -> bool:
        return self.everything or deal in self.deals


def held_back(match: MatchSummary) -> MatchSummary:
    """A match as listed while its duplicate round goes on: who played, not how they scored."""
    listed = match.copy()
    listed["seats"] = []
    for seat in match["seats"]:
        hidden = seat.copy()
        hidden["score"], hidden["placement"], hidden["won"] = None, None, False
        listed["seats"].append(hidden)
    listed["held"] = True
    return listed


class Records:
    """The read side of records: the leaderboard, stats, match history, score sheets and deal reviews,
    as typed rows read from the database (the live tables are read only for a review's table)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10, offset: int = 0) -> list[BoardRow]:
        async with self.store.db.engine.connect() as connection:
            return await board.top(connection, guild_id, game, limit, offset)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        async with self.store.db.engine.connect() as connection:
            return await board.board_size(connection, guild_id, game)

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> int | None:
        async with self.store.db.engine.connect() as connection:
            return await board.rank_of(connection, guild_id, game, user_id)

    async def player_stats(self, guild_id: int, user_id: int, game: str) -> PlayerStats:
        """A player's record in a game, but a duplicate night's table whose round other tables still play (see
        ``player_profile``)."""
        async with self.store.db.engine.connect() as connection:
            held = await trepo.matches_of_open_rounds(connection, guild_id, user_id, game, DUPLICATE)
            return await board.player_stats(connection, guild_id, user_id, game, held)

    async def recent_matches(
        self, guild_id: int, limit: int = 10, user_id: int | None = None, game: str | None = None, offset: int = 0
    ) -> list[MatchSummary]:
        """The server's latest matches, newest first; a duplicate night's table whose round other tables still
        play is listed ``held``, without its scores (they would tell those tables how the same cards scored)."""
        async with self.store.db.engine.connect() as connection:
            matches = await board.recent_matches(connection, guild_id, limit, user_id, game, offset)
        return [held_back(match) if await self._round_open(match["table_id"]) else match for match in matches]

    async def _round_open(self, table_id: int) -> bool:
        """Whether the table is a duplicate night's and another table of its round is still open (statuses only:
        one query for a table of no tournament)."""
        return bool(await self._others_of_round(table_id))

    async def _others_of_round(self, table_id: int) -> list[int] | None:
        """The other tables of a duplicate night's round still open (None: not a duplicate night's table)."""
        async with self.store.db.engine.connect() as connection:
            tournament_id = await trepo.tournament_of_table(connection, table_id)
            if tournament_id is None:
                return None
            row = await trepo.tournament(connection, tournament_id)
            if row is None or row.format != DUPLICATE:
                return None
            tables = await trepo.event_tables(connection, tournament_id)
        mine = next((t for t in tables if t.table_id == table_id), None)
        if mine is None:
            return None
        return [t.table_id for t in tables if t.round == mine.round and t.table_id != table_id
                and t.status in OPEN_STATUSES]  # fmt: skip

    async def match_count(self, guild_id: int, user_id: int | None = None, game: str | None = None) -> int:
        async with self.store.db.engine.connect() as connection:
            return await board.match_count(connection, guild_id, user_id, game)

    async def period_board(self, guild_id: int, game: str, since: datetime) -> list[BoardRow]:
        """Players active in a game since ``since``, ranked by the rating they gained in that time."""
        async with self.store.db.engine.connect() as connection:
            return await board.period_board(connection, guild_id, game, since)

    async def player_profile(self, guild_id: int, user_id: int, game: str) -> PlayerProfile:
        """Everything /stats shows of one game: the stats, the best deal, partners (sides of two or more). A
        match at a duplicate night's table counts once every other table of its round is over: until then its
        scores, its place, its bids made and its best deal would tell those tables how the same cards went (the
        rating already moved with it: the leaderboard shows it)."""
        async with self.store.db.engine.connect() as connection:
            held = await trepo.matches_of_open_rounds(connection, guild_id, user_id, game, DUPLICATE)
            stats = await board.player_stats(connection, guild_id, user_id, game, held)
            best = await board.best_deal(connection, guild_id, user_id, game, held)
            partners = await board.partners(connection, guild_id, user_id, game, held)
            return {**stats, "best_deal": best, "partners": partners}

    async def games_played(self, guild_id: int, user_id: int) -> list[str]:
        async with self.store.db.engine.connect() as connection:
            return await board.games_played(connection, guild_id, user_id)

    async def guild_languages(self) -> dict[int, str]:
        async with self.store.db.engine.connect() as connection:
            return await board.guild_languages(connection)

    async def score_sheet(self, match_id: int) -> MatchSheet | None:
        if not 1 <= match_id <= MAX_ROW_ID:
            return None
        async with self.store.db.engine.connect() as connection:
            return await board.score_sheet(connection, match_id)

    async def history_sheet(self, match_id: int) -> MatchSheet | None:
        """A stored match's score sheet as the server's history shows it to anyone (None: no such match). A
        duplicate night's table is refused (``NotAllowed``) while another table of its round has not played all its
        deals: each deal's points say the bids made, which the comparison holds back until every table has played
        the deal (its players already saw them, on their own table)."""
        sheet = await self.score_sheet(match_id)
        table_id = await self.match_table(match_id) if sheet is not None else None
        if sheet is None or table_id is None:
            return sheet
        shared = await self._shared_deals(table_id)
        if shared is None or shared.everything:  # not a duplicate night's, or every other table is over
            return sheet
        if any(int(deal["deal"]) not in shared.deals for deal in sheet["sheets"]):
            raise NotAllowed("review_after_other_tables")
        return sheet

    async def table_result(self, table_id: int) -> MatchSheet | None:
        """The score sheet of the match a finished table produced (with each seat's rating change)."""
        if not 1 <= table_id <= MAX_ROW_ID:
            return None
        async with self.store.db.engine.connect() as connection:
            match_id = await board.match_of_table(connection, table_id)
            return None if match_id is None else await board.score_sheet(connection, match_id)

    async def deal_reviews(self, table_id: int) -> tuple[TableInfo, list[DealReview]]:
        """The scored deals of a table's match, trick by trick, replayed from its log (off the event
        loop). Each seat's cards as dealt come only once the match is over; before that, what the
        table showed as it was played."""
        info = (await self.store.get(table_id)).info()
        if info.status not in (TableStatus.PLAYING, TableStatus.FINISHED, TableStatus.ABANDONED):
            raise WrongStatus("not_in_play")
        async with self.store.db.engine.connect() as connection:
            stored = await repo.load_table(connection, table_id)
        if stored is None:
            raise TableNotFound("table_not_found", table=table_id)
        row = stored.table
        if row.started_at is None:
            raise WrongStatus("not_in_play")
        players = len([seat for seat in stored.seats if seat.left_at is None])
        log = [(action.seat, action.action) for action in stored.actions]
        deals = await asyncio.to_thread(review_deals, row.game, players, dict(row.options), row.seed, log)
        scored = [deal for deal in deals if deal.sheet is not None]
        if info.status != TableStatus.FINISHED:  # the match goes on (or was abandoned): no hand is shown
            scored = [deal.public() for deal in scored]
        shared = await self._shared_deals(table_id)
        if shared is not None and scored and scored[-1].deal not in shared:
            # the newest deal is not the others' yet: "Last deal" would show an older one as the last
            raise NotAllowed("review_after_other_tables")
        return info, scored

    async def _shared_deals(self, table_id: int) -> _Shared | None:
        """At a duplicate night every table of a round is dealt the same cards: a deal of this table may be
        reviewed only once every other table of its round still playing has played it too (its tricks name
        the cards the others still hold). None: not a duplicate night's table."""
        still = await self._others_of_round(table_id)
        if still is None:
            return None
        played: set[int] | None = None
        for other in still:
            dealt = {int(sheet["deal"]) for sheet in (await self.store.get(other)).sheets}
            played = dealt if played is None else played & dealt
        return _Shared(played or set(), everything=played is None)

    async def match_table(self, match_id: int) -> int | None:
        """The table a stored match was played at."""
        if not 1 <= match_id <= MAX_ROW_ID:
            return None
        async with self.store.db.engine.connect() as connection:
            return await board.table_of_match(connection, match_id)
