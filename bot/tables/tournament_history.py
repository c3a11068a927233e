"""Finished tournaments as /history and /stats show them: each one's game, format, end, podium and the
player's place; a player's tournaments played, podiums and wins.

The places are the final standings' ranks, written with each entrant when the tournament finishes (the
same standings as the podium message). A tournament that finished before places were kept has none
written: its standings are worked out again when it is read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage import tournaments as trepo

from .store import Store
from .tournament_records import StandingLine, TournamentResult, TournamentTotals

Standings = Callable[[int], Awaitable[list[StandingLine]]]
PODIUM = 3


class TournamentHistory:
    """The read side of finished tournaments."""

    def __init__(self, store: Store, standings: Standings) -> None:
        self.store = store
        self.standings = standings

    async def finished(
        self, guild_id: int, user_id: int | None = None, game: str | None = None, limit: int = 5
    ) -> list[TournamentResult]:
        """The server's finished tournaments, newest first (those ``user_id`` entered, with their place)."""
        if not 0 <= guild_id <= 2**63 - 1 or (user_id is not None and not 0 <= user_id <= 2**63 - 1):
            return []
        async with self.store.db.engine.connect() as connection:
            rows = await trepo.finished(connection, guild_id, user_id, game, max(1, min(limit, 25)))
            firsts = await trepo.winners(connection, [row.id for row in rows])
        out = []
        for row in rows:
            place, winners = row.place, firsts.get(row.id)
            if winners is None or (user_id is not None and place is None):  # finished before places were kept
                lines = await self.standings(row.id)
                winners = [line.entrant.user_id for line in lines if line.rank == 1]
                place = next((line.rank for line in lines if line.entrant.id == row.entrant_id), None)
            out.append(
                TournamentResult(
                    row.id,
                    row.game,
                    row.format,
                    row.finished_at,
                    guild_id,
                    row.channel_id,
                    row.podium_message_id,
                    row.message_id,
                    row.entrants,
                    tuple(winners),
                    place,
                )
            )
        return out

    async def totals(self, guild_id: int, user_id: int, game: str | None = None) -> TournamentTotals:
        """How many of the server's finished tournaments the player entered, ended in the top three, won."""
        if not 0 <= guild_id <= 2**63 - 1 or not 0 <= user_id <= 2**63 - 1:
            return TournamentTotals()
        async with self.store.db.engine.connect() as connection:
            rows = await trepo.finished(connection, guild_id, user_id, game)
        places = []
        for row in rows:
            place = row.place
            if place is None:  # finished before places were kept
                lines = await self.standings(row.id)
                place = next((line.rank for line in lines if line.entrant.id == row.entrant_id), None)
            if place is not None:
                places.append(place)
        return TournamentTotals(len(rows), sum(p <= PODIUM for p in places), sum(p == 1 for p in places))
