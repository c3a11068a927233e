"""A finished match's record: standings, bid statistics and ratings, written once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.games import presentation_of
from bot.games.views import DealSheet
from bot.storage import repository as repo

from .live import LiveTable, sides_of
from .season_record import rate_in_season
from .standings import SkillRating, match_winners, placements, rate


def bid_counts(game: str, sheets: Sequence[DealSheet], seat: int) -> tuple[int, int]:
    """(aims, aims reached) for one seat, as the game counts them (its own bids, or the contracts it won)."""
    presentation = presentation_of(game)
    bids = made = 0
    for sheet in sheets:
        reached = presentation.aim(sheet, seat)
        if reached is not None:
            bids += 1
            made += reached
    return bids, made


@dataclass
class MatchRecord:
    live: LiveTable
    now: datetime
    result: dict[str, Any]
    sides: list[list[int]]
    places: list[int]
    resigned: set[int]

    async def write(self, connection: AsyncConnection) -> dict[str, Any]:
        """Insert the match, its players and their new ratings; return what the table should announce."""
        live = self.live
        winners = match_winners(self.sides, self.places, set(self.result["winners"]), self.resigned)
        totals = self.result["scores"]["total"]
        users = {seat.position: seat.user_id for seat in live.seats if seat.user_id is not None}
        stored = await repo.ratings_for(connection, live.guild_id, live.game, users.values())
        current = {
            user: SkillRating(stored[user].mu, stored[user].sigma) if user in stored else SkillRating.initial()
            for user in users.values()
        }
        teams = [[users.get(p) for p in side] for side in self.sides]  # None: a computer's seat
        # A match played with hints is recorded but rates nobody.
        updated = {} if live.hints else rate(teams, self.places, current)
        place_of = {p: place for side, place in zip(self.sides, self.places, strict=True) for p in side}
        side_of = {p: index for index, side in enumerate(self.sides) for p in side}
        rows = []
        changes: dict[str, dict[str, float]] = {}
        for seat in live.seats:
            assert seat.position is not None
            user, position = seat.user_id, seat.position
            won = position in winners
            bids, made = bid_counts(live.game, self.result.get("sheets", []), position)
            before = after = None
            if user is not None and user in updated:
                before, after = current[user].ordinal, updated[user].ordinal
                changes[str(user)] = {"before": round(before, 2), "after": round(after, 2)}
                old = stored.get(user)
                await repo.save_rating(
                    connection,
                    guild_id=live.guild_id,
                    game=live.game,
                    user_id=user,
                    mu=updated[user].mu,
                    sigma=updated[user].sigma,
                    ordinal=after,
                    matches=(old.matches if old else 0) + 1,
                    wins=(old.wins if old else 0) + int(won),
                    updated_at=self.now,
                )
            rows.append(
                {
                    "seat": position,
                    "user_id": user,
                    "guild_id": live.guild_id,
                    "game": live.game,
                    "side": side_of[position],
                    "score": int(totals[position]),
                    "placement": place_of[position],
                    "won": won,
                    "resigned": position in self.resigned,
                    "bids": bids,
                    "bids_made": made,
                    "rating_before": before,
                    "rating_after": after,
                }
            )
        season = None
        if updated:  # the season's ratings, from scratch at its start (an unrated match counts in no season)
            won_by = {users[p]: p in winners for p in users}
            season = await rate_in_season(connection, live.guild_id, live.game, self.now, teams, self.places, won_by)
        started = live.started_at or self.now
        match_id = await repo.insert_match(
            connection,
            rows,
            table_id=live.id,
            guild_id=live.guild_id,
            game=live.game,
            players=len(live.seats),
            options=live.options,
            deals=int(self.result.get("deals", len(self.result.get("sheets", [])))),
            started_at=started,
            finished_at=self.now,
            duration_seconds=max(0, int((self.now - started).total_seconds())),
            result=self.result,
        )
        return {
            "match_id": match_id,
            "winners": sorted(winners),
            "placements": {str(p): place_of[p] for p in sorted(place_of)},
            "ratings": changes,
            "rated": bool(changes),
            "season": season,
        }


def match_record(live: LiveTable, now: datetime, ended: dict[str, Any] | None) -> MatchRecord:
    """The record of a match that the engine ended, or that resignations ended (``ended``)."""
    state = live.state
    assert state is not None
    resigned = {seat.position for seat in live.seats if seat.resigned and seat.position is not None}
    if ended is None:
        result = dict(state.result())
    else:
        result = {
            "winners": ended["winners"],
            "scores": state.scores(),
            "deals": len(live.sheets),
            "sheets": list(live.sheets),
            "ended_by": "resignation",
        }
    sides = sides_of(live.public, len(live.seats))
    totals = result["scores"]["total"]
    places = placements(sides, totals, set(result["winners"]), resigned)
    return MatchRecord(live, now, result, sides, places, resigned)
