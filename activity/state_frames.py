"""The ``state`` frames the screens are sent: built once per table, moment, seat and language, and shared.

At each moment (a version) of a table, the part every screen shares (:func:`~activity.screen.table_screen`,
from ``view(None)``) is built once per language, and each seat's whole frame
(:func:`~activity.screen.seat_screen`, from that seat's own ``view(seat)``) once per seat and language,
encoded once: every screen of that seat (a second tab) is sent the same text, and every watcher the shared
part alone. A frame is kept under the seat it was built for, and a screen asks with the seat the service
says is its user's, so no screen can be handed another seat's frame. What is kept of a table is only its
latest moment: an older one is dropped when a newer one is read, and all of it when no screen shows the table.
A finished table's moment includes its stored result (the standings, rating changes and chart are public, so
shared too): the match stored after the table finished makes a new moment, never a stale frame.
"""

from __future__ import annotations

import json
from typing import Any

from bot.games.views import View
from bot.tables import MatchSheet, TableInfo, TrickReview

from .screen import seat_screen, table_screen


def frame_text(message: dict[str, Any]) -> str:
    """A frame as sent: compact JSON, Unicode kept (Japanese names and suit symbols)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def frame_of(table: dict[str, Any]) -> str:
    return frame_text({"type": "state", "table": table})


def _match_of(result: MatchSheet | None) -> int | None:
    """The stored match a finished table's frame shows (None: not stored yet, or not finished)."""
    return result["match_id"] if result is not None else None


class Moment:
    """What was built at one moment of one table: its version, and the table as read then (a reminder
    moves the table's clock without a new version: a table read unlike this one is another moment), and
    for a finished table its stored match (stored once, after the table finished: another moment)."""

    __slots__ = ("match", "sent", "shared", "table")

    def __init__(self, table: TableInfo, result: MatchSheet | None = None) -> None:
        self.table = table
        self.match = _match_of(result)
        self.shared: dict[str, dict[str, Any]] = {}  # language -> the shared part
        self.sent: dict[tuple[int | None, str], str] = {}  # (seat or None, language) -> the frame


class Frames:
    """The latest moment of every table some screen shows (see the module's docstring)."""

    def __init__(self) -> None:
        self._moments: dict[int, Moment] = {}

    def frame(
        self,
        table: TableInfo,
        public: View,
        seat: int | None,
        mine: View | None,
        legal: list[str],
        language: str,
        result: MatchSheet | None = None,
        deal_end: TrickReview | None = None,
    ) -> str:
        """The frame of ``seat`` (None: a watcher) at the moment ``table``, ``public`` and ``mine`` were read at
        (one version, read together); ``legal``: the seat's actions then; ``result``: a finished table's
        stored match (None while it is not stored, or the table not finished); ``deal_end``: the last trick of the
        deal just scored, while the new deal has no card played (see ``table_screen``)."""
        moment = self._moments.get(table.id)
        if moment is not None and moment.table.version > table.version:  # a reader slower than a newer one
            moment = Moment(table, result)  # built for it alone
        elif moment is None or moment.table != table or moment.match != _match_of(result):
            moment = self._moments[table.id] = Moment(table, result)
        key = (seat, language)
        text = moment.sent.get(key)
        if text is None:
            shared = moment.shared.get(language)
            if shared is None:
                shared = moment.shared[language] = table_screen(table, public, language, result, deal_end)
            text = moment.sent[key] = frame_of(
                seat_screen(shared, table, mine, seat=seat, legal=legal, language=language)
            )
        return text

    def forget(self, table_id: int) -> None:
        """No screen shows the table any more."""
        self._moments.pop(table_id, None)
