"""The plain data the service hands to the presentation: no ORM rows, no engine states."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.games.views import View
from bot.players.inference import Reading
from bot.storage.models import (
    DEFAULT_COMPUTER_PACE_MS,
    DEFAULT_MAX_LOBBIES_PER_HOST,
    DEFAULT_MAX_OPEN_TABLES,
    DEFAULT_PLAY_COOLDOWN_SECONDS,
    TableStatus,
)

MIN_ABSENT_TURN_SECONDS = 15  # the least time to act someone away is given, whatever the grace


@dataclass(frozen=True)
class SeatInfo:
    """A seat: its place (the engine's seat once the match starts, the join order before)."""

    index: int
    user_id: int | None  # None: a computer player
    name: str
    absent: bool = False
    resigned: bool = False
    acted: int = 0  # actions this seat has made so far: a button's "turn" (see TableService.act)
    level: str | None = None  # a computer's level ("easy", "strong"); None for a person
    key: int = 0  # the seat's own id, which no other seat ever takes (a lobby's order shifts as people leave)

    @property
    def computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class TableInfo:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    game: str
    options: dict[str, Any]
    players: int | None  # the player count asked for, or None for any count the game allows
    status: TableStatus
    host_id: int
    version: int
    seats: tuple[SeatInfo, ...]
    turn_seconds: int  # 0: no turn timer
    grace_seconds: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    to_act: tuple[int, ...] = ()  # seats whose turn it is
    actions: int = 0  # actions in the log so far
    hints: bool = False  # players may ask the strong computer player for a hint; the match is then unrated
    turn_ends: datetime | None = None  # when the seats on turn are reminded, or after that played for
    # Shown only to its players: its message in a private thread of its own (thread_id), never in its channel,
    # and on the Activity's screens only theirs (a duplicate night's table: its round's tables hold the same cards)
    private: bool = False

    def seat_of(self, user_id: int) -> int | None:
        return next((seat.index for seat in self.seats if seat.user_id == user_id), None)

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)

    @property
    def resigned(self) -> frozenset[int]:
        """The seats whose people resigned (a computer played them on)."""
        return frozenset(seat.index for seat in self.seats if seat.resigned)


@dataclass(frozen=True)
class HandSnapshot:
    """One person's seat at one committed moment of a table, read in one go under its lock: the table,
    the seat, everything it may see, and its legal actions now (none when it is not on turn)."""

    table: TableInfo
    seat: SeatInfo
    view: View
    legal: list[str]
    version: int


@dataclass(frozen=True)
class SeatView:
    """One seat's view (or the public one, ``seat`` None) of a table at ``version``."""

    table_id: int
    seat: int | None
    version: int
    view: View


@dataclass(frozen=True)
class Outcome:
    """What one service call changed: the table, every view, and the events worth announcing.

    ``events`` are dicts with a ``kind``: ``started``, ``action`` (seat, action, source),
    ``trick`` (winner, cards), ``deal`` (the score sheet), ``reminder`` (seats),
    ``timeout`` (seat, action), ``resigned`` (seat), ``match_over`` (winners, placements,
    ratings, rated) and ``abandoned`` (reason). An action's ``source`` is ``player``,
    ``computer``, ``timeout`` (a person's turn played for them) or ``resigned``.
    """

    table: TableInfo
    public: View | None  # None before the match begins
    views: dict[int, View]  # each person's seat's view (already computed: the dict is copied, not the views)
    changed: tuple[int, ...]
    events: tuple[dict[str, Any], ...]
    actor: int | None = None
    hand: HandSnapshot | None = None  # the actor's seat after its action, for its own hand to be redrawn from

    @property
    def actor_view(self) -> View | None:
        return None if self.actor is None else self.views.get(self.actor)

    def kinds(self) -> list[str]:
        return [event["kind"] for event in self.events]


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    turn_seconds: int
    grace_seconds: int
    thread_per_table: bool
    language: str | None
    default_options: dict[str, Any] = field(default_factory=dict)
    computer_pace_ms: int = DEFAULT_COMPUTER_PACE_MS  # between computer moves; half as long again after a trick
    max_open_tables: int = DEFAULT_MAX_OPEN_TABLES  # lobbies and matches in play, at once
    max_lobbies_per_host: int = DEFAULT_MAX_LOBBIES_PER_HOST
    play_cooldown_seconds: int = DEFAULT_PLAY_COOLDOWN_SECONDS  # between two tables one person opens
    turn_pings: bool = True  # a short line mentioning the people whose turn it now is
    table_picture: bool = True  # the table drawn as a picture above its text (else the text alone)

    @property
    def absent_seconds(self) -> int:
        """The time to act of someone away (their time ran out before): the grace, never under a floor."""
        return absent_turn_seconds(self.turn_seconds, self.grace_seconds)

    @property
    def absent_basis(self) -> str:
        """Where :attr:`absent_seconds` comes from, for the words that explain it (see :func:`absent_basis`)."""
        return absent_basis(self.turn_seconds, self.grace_seconds)


def absent_turn_seconds(turn_seconds: int, grace_seconds: int) -> int:
    """The time to act of a seat whose person is away: the grace, but :data:`MIN_ABSENT_TURN_SECONDS` at least
    (or the whole turn time, where that is shorter: never longer than someone present waits for the reminder), so
    that with a grace of 0 someone who timed out once can still come back (else the computer would play for them
    the moment each of their turns began, and they could never act again)."""
    return max(grace_seconds, min(turn_seconds, MIN_ABSENT_TURN_SECONDS))


def absent_basis(turn_seconds: int, grace_seconds: int) -> str:
    """Which rule :func:`absent_turn_seconds` applies, so that what /settings says of it is true of every setting:
    ``"off"`` (no turn timer: nobody's time runs out), ``"grace"`` (the grace itself), ``"least"``
    (:data:`MIN_ABSENT_TURN_SECONDS`, the grace being shorter) or ``"turn"`` (the whole turn time, shorter than
    both: a turn timer under :data:`MIN_ABSENT_TURN_SECONDS` with a shorter grace)."""
    if turn_seconds <= 0:
        return "off"
    absent = absent_turn_seconds(turn_seconds, grace_seconds)
    if absent == grace_seconds:
        return "grace"
    return "least" if absent == MIN_ABSENT_TURN_SECONDS else "turn"


@dataclass(frozen=True)
class Hint:
    """The strong computer player's advice to the seat on turn, from what that seat may know."""

    action: str  # one of the seat's legal actions
    aim: str | None  # what the advice aims at: "bid" (the seat's own), "contract" (its side's), "defence"
    rate: float | None  # the share of the deals tried in which that aim was reached
    samples: int  # deals tried (0: there was only one sensible choice)
    reading: Reading | None = None  # what the others' bids and plays say of one of them, where the game reads it
