"""The rows the records' read side returns (leaderboards, stats, history, score sheets), typed."""

from datetime import datetime
from typing import Any, NotRequired, TypedDict

from bot.games.views import DealSheet


class BoardRow(TypedDict):
    """A player's line on a leaderboard: all time, or a period's (which adds the rating ``gained``)."""

    rank: int
    user_id: int
    name: str | None
    rating: float
    matches: int
    wins: int
    win_rate: float
    gained: NotRequired[float]


class RatingPoint(TypedDict):
    """One finished match in a player's rating history, oldest first."""

    match_id: int
    finished_at: datetime
    rating: float | None  # after the match; None if it was not rated
    placement: int | None
    score: int | None


class PlayerStats(TypedDict):
    user_id: int
    game: str
    matches: int
    wins: int
    win_rate: float
    average_score: float | None
    best_score: int | None
    bids: int  # the aims the game counts (own bids, or contracts won)
    bids_made: int
    bid_rate: float | None
    rating: float | None
    rank: int | None
    history: list[RatingPoint]


class BestDeal(TypedDict):
    points: int
    deal: int
    match_id: int


class Partner(TypedDict):
    user_id: int
    name: str | None
    matches: int
    wins: int


class PlayerProfile(PlayerStats):
    """Everything /stats shows of one game."""

    best_deal: BestDeal | None
    partners: list[Partner]


class MatchSeat(TypedDict):
    seat: int
    user_id: int | None  # None for a computer
    name: str | None
    side: int | None
    score: int | None
    placement: int | None
    won: bool
    resigned: bool
    rating_before: float | None
    rating_after: float | None


class MatchSummary(TypedDict):
    """A finished match as history lists it."""

    match_id: int
    game: str
    players: int
    deals: int
    finished_at: datetime
    duration_seconds: int | None
    seats: list[MatchSeat]
    table_id: int
    # a duplicate night's table whose round other tables still play: its seats' scores, places and wins are held
    # back (None, None, False) until the round is over, as its score sheet is
    held: bool


class MatchSheet(TypedDict):
    """One match in full: its seats, final scores and every deal's score sheet."""

    match_id: int
    guild_id: int
    game: str
    options: dict[str, Any]
    players: int
    deals: int
    started_at: datetime | None
    finished_at: datetime
    duration_seconds: int | None
    seats: list[MatchSeat]
    scores: dict[str, Any] | None
    winners: list[int] | None
    sheets: list[DealSheet]
