"""The table service: lobbies, play, computer players, durable logs, timers and the leaderboard (no discord)."""

from bot.storage.models import TableStatus

from .errors import (
    ActionRefused,
    BadOptions,
    ChannelBusy,
    NotAllowed,
    StaleAction,
    TableError,
    TableNotFound,
    WrongStatus,
)
from .records import GuildSettings, HandSnapshot, Hint, Outcome, SeatInfo, TableInfo
from .service import TableService

__all__ = [
    "ActionRefused",
    "BadOptions",
    "ChannelBusy",
    "GuildSettings",
    "HandSnapshot",
    "Hint",
    "NotAllowed",
    "Outcome",
    "SeatInfo",
    "StaleAction",
    "TableError",
    "TableInfo",
    "TableNotFound",
    "TableService",
    "TableStatus",
    "WrongStatus",
]
