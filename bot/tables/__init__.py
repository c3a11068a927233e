"""The table service: lobbies, play, computer players, durable logs, timers and the leaderboard (no discord)."""

from bot.players.inference import Reading
from bot.storage.models import DEFAULT_GRACE_SECONDS, DEFAULT_TURN_SECONDS, TableStatus
from bot.storage.record_rows import (
    BestDeal,
    BoardRow,
    MatchSeat,
    MatchSheet,
    MatchSummary,
    Partner,
    PlayerProfile,
    PlayerStats,
    RatingPoint,
)

from .errors import (
    ActionRefused,
    BadOptions,
    ChannelBusy,
    NotAllowed,
    StaleAction,
    TableError,
    TableNotFound,
    TooMany,
    WrongStatus,
)
from .names import readable_name
from .records import (
    MIN_ABSENT_TURN_SECONDS,
    GuildSettings,
    HandSnapshot,
    Hint,
    Outcome,
    SeatInfo,
    TableInfo,
    absent_turn_seconds,
)
from .review import DealReview, Standing, TrickReview, final_standings, running_totals
from .service import TableService

__all__ = [
    "DEFAULT_GRACE_SECONDS",
    "DEFAULT_TURN_SECONDS",
    "MIN_ABSENT_TURN_SECONDS",
    "ActionRefused",
    "BadOptions",
    "BestDeal",
    "BoardRow",
    "ChannelBusy",
    "DealReview",
    "GuildSettings",
    "HandSnapshot",
    "Hint",
    "MatchSeat",
    "MatchSheet",
    "MatchSummary",
    "NotAllowed",
    "Outcome",
    "Partner",
    "PlayerProfile",
    "PlayerStats",
    "RatingPoint",
    "Reading",
    "SeatInfo",
    "StaleAction",
    "Standing",
    "TableError",
    "TableInfo",
    "TableNotFound",
    "TableService",
    "TableStatus",
    "TooMany",
    "TrickReview",
    "WrongStatus",
    "absent_turn_seconds",
    "final_standings",
    "readable_name",
    "running_totals",
]
