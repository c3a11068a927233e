"""The read side of records: leaderboards, stats, match history and score sheets (rows from storage)."""

from __future__ import annotations

from datetime import datetime

from bot.storage import leaderboard as board
from bot.storage.models import MAX_ROW_ID
from bot.storage.record_rows import BoardRow, MatchSheet, MatchSummary, PlayerProfile, PlayerStats

from .reads import TableReads


class RecordReads(TableReads):
    """The leaderboard and records, read from the database."""

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10, offset: int = 0) -> list[BoardRow]:
        async with self.db.engine.connect() as connection:
            return await board.top(connection, guild_id, game, limit, offset)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        async with self.db.engine.connect() as connection:
            return await board.board_size(connection, guild_id, game)

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> int | None:
        async with self.db.engine.connect() as connection:
            return await board.rank_of(connection, guild_id, game, user_id)

    async def player_stats(self, guild_id: int, user_id: int, game: str) -> PlayerStats:
        async with self.db.engine.connect() as connection:
            return await board.player_stats(connection, guild_id, user_id, game)

    async def recent_matches(
        self, guild_id: int, limit: int = 10, user_id: int | None = None, game: str | None = None, offset: int = 0
    ) -> list[MatchSummary]:
        async with self.db.engine.connect() as connection:
            return await board.recent_matches(connection, guild_id, limit, user_id, game, offset)

    async def match_count(self, guild_id: int, user_id: int | None = None, game: str | None = None) -> int:
        async with self.db.engine.connect() as connection:
            return await board.match_count(connection, guild_id, user_id, game)

    async def period_board(self, guild_id: int, game: str, since: datetime) -> list[BoardRow]:
        """Players active in a game since ``since``, ranked by the rating they gained in that time."""
        async with self.db.engine.connect() as connection:
            return await board.period_board(connection, guild_id, game, since)

    async def player_profile(self, guild_id: int, user_id: int, game: str) -> PlayerProfile:
        """Everything /stats shows of one game: the stats, the best deal, partners (sides of two or more)."""
        async with self.db.engine.connect() as connection:
            stats = await board.player_stats(connection, guild_id, user_id, game)
            best = await board.best_deal(connection, guild_id, user_id, game)
            partners = await board.partners(connection, guild_id, user_id, game)
            return {**stats, "best_deal": best, "partners": partners}

    async def games_played(self, guild_id: int, user_id: int) -> list[str]:
        async with self.db.engine.connect() as connection:
            return await board.games_played(connection, guild_id, user_id)

    async def guild_languages(self) -> dict[int, str]:
        async with self.db.engine.connect() as connection:
            return await board.guild_languages(connection)

    async def score_sheet(self, match_id: int) -> MatchSheet | None:
        if not 1 <= match_id <= MAX_ROW_ID:
            return None
        async with self.db.engine.connect() as connection:
            return await board.score_sheet(connection, match_id)

    async def table_result(self, table_id: int) -> MatchSheet | None:
        """The score sheet of the match a finished table produced (with each seat's rating change)."""
        if not 1 <= table_id <= MAX_ROW_ID:
            return None
        async with self.db.engine.connect() as connection:
            match_id = await board.match_of_table(connection, table_id)
            return None if match_id is None else await board.score_sheet(connection, match_id)
