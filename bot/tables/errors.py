"""Typed refusals of the table service.

Each carries a message ``key`` and its ``params``, never English for the
player: the presentation looks the key up in the reader's language. Engine
refusals keep the engine's own key (``must_follow``, ``card_not_held``, …).
``str(error)`` is English, for logs and tests.
"""

from __future__ import annotations

from typing import Any

from bot.games.errors import ENGLISH as GAME_ENGLISH
from bot.games.errors import GameError

ENGLISH: dict[str, str] = {
    "table_not_found": "There is no table {table}.",
    "not_seated": "You are not seated at this table.",
    "already_seated": "You are already seated at this table.",
    "table_full": "This table is full: {players} seats.",
    "not_host": "Only the host can do that.",
    "not_in_lobby": "The match has already started.",
    "not_in_play": "This table is not in play.",
    "lobby_not_ready": "This table is still being set up; press Start again in a moment.",
    "table_closed": "This table is closed: the match is {status}.",
    "channel_busy": "This channel already has an open table.",
    "bad_player_count": "{game} is played by {allowed} players; seated: {players}.",
    "stale": "The table has moved on since you looked; here it is again.",
    "not_your_turn": "It is not your turn.",
    "resigned": "You have resigned from this match.",
    "not_allowed_abandon": "Only the host or someone who can manage the server can abandon a table.",
    "not_a_seat": "There is no such seat at this table.",
    "not_a_computer": "That computer player is no longer at this table.",
    "host_stays": "The host cannot be removed; the host can leave instead.",
    "bad_setting": "{setting} cannot be {value!r}: {allowed}.",
    "bad_level": "There is no computer level {level!r}: {allowed}.",
    "hints_off": "Hints are off at this table.",
    "hint_failed": "No hint could be worked out just now; try again in a moment.",
    "hint_moved_on": "Your turn moved on while the hint was being worked out; ask again when it is your turn.",
    "server_tables_full": "This server already has {limit} open tables, its most at once.",
    "host_lobbies_full": "You already host {limit} lobbies here, the most at once.",
    "play_cooldown": "You opened a table a moment ago; you can open another in {seconds} s.",
    "season_not_admin": "Only someone who can manage the server can turn seasons on or off.",
    "season_bad_length": "A season lasts a month, three months, or chosen dates, not {length!r}.",
    "season_bad_date": "{value!r} is not a date: write it as YYYY-MM-DD.",
    "season_needs_dates": "A season of chosen dates needs its first and its last day.",
    "season_dates_unused": "A last day is only for a season of chosen dates.",
    "season_ends_before_start": "A season cannot end ({ends}) before it starts ({starts}).",
    "season_starts_in_past": "A season cannot start in the past ({starts}); today is {today} (UTC).",
    "season_too_long": "A season lasts at most {days} days.",
    "season_too_far": "A season can start at most {days} days from today.",
    "season_already_on": "Seasons of {game} are already on here: turn them off first to change them.",
    "season_not_on": "Seasons of {game} are not on here.",
    "season_unknown": "There is no season {name!r} of {game} here.",
    "night_bad_time": "{value!r} is not a time: write it as YYYY-MM-DD HH:MM in UTC.",
    "night_in_past": "A game night cannot start in the past ({starts}); it is now {now} (UTC).",
    "night_too_far": "A game night can be scheduled at most {days} days ahead.",
    "night_bad_options": (
        "{value!r} is not a list of options: write them as name=value, separated by spaces. {game}'s options: {names}."
    ),
}


class TableError(ValueError):
    """A refusal of the table service. Nothing was written."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        template = ENGLISH.get(key) or GAME_ENGLISH.get(key) or key
        super().__init__(template.format(**params))

    @classmethod
    def from_game(cls, error: GameError) -> TableError:
        return cls(error.key, **error.params)


class TableNotFound(TableError):
    """No such table."""


class NotAllowed(TableError):
    """The person may not do this here: not seated, not the host, not their turn."""


class WrongStatus(TableError):
    """The table is not in the status this needs (a lobby, a match in play)."""


class StaleAction(TableError):
    """The table moved on before this action: another click or another process won."""


class ActionRefused(TableError):
    """The rules refuse this action now (the engine's key and params)."""


class BadOptions(TableError):
    """Options, player count or settings the game cannot be set up with."""


class ChannelBusy(TableError):
    """The channel already has an open table."""


class TooMany(TableError):
    """A limit against abuse: the server's open tables, one host's lobbies, the cooldown of /play."""


class LogDoesNotReplay(Exception):
    """The table's stored log no longer replays (an engine changed since, a row edited by hand): unlike a
    passing fault of the database, trying again at once cannot mend it. Not a refusal: nothing was asked of the
    table that it could refuse."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"the log of table {table_id} no longer replays")
        self.table_id = table_id
