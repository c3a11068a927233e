"""The table service: lobbies, play, durable logs, turn timers and the leaderboard (no discord here)."""

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
from .records import GuildSettings, Outcome, SeatInfo, TableInfo
from .service import TableService

__all__ = [
    "ActionRefused",
    "BadOptions",
    "ChannelBusy",
    "GuildSettings",
    "NotAllowed",
    "Outcome",
    "SeatInfo",
    "StaleAction",
    "TableError",
    "TableInfo",
    "TableNotFound",
    "TableService",
    "WrongStatus",
]
