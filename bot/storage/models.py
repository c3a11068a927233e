"""The database schema: typed SQLAlchemy 2.0 models.

Discord ids are 64-bit, so they are ``BigInteger`` and never auto-increment;
the project's own ids (tables, matches) are plain auto-increment integers.
Every constraint is named by the convention below so Alembic can alter them
on SQLite (batch mode) and PostgreSQL alike.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class TableStatus(StrEnum):
    """Where a table is in its life; stored as its text, and equal to it."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


LOBBY, PLAYING, FINISHED, ABANDONED = TableStatus  # as each status is written in the service
OPEN_STATUSES = (LOBBY, PLAYING)
# A server's turn timer until it sets its own (/settings): a reminder after a minute, then 30 s of grace before the
# strong computer plays for whoever is away, so a casual table waits 90 s for someone who left, then 30 s a turn.
DEFAULT_TURN_SECONDS, DEFAULT_GRACE_SECONDS = 60, 30
# What a table gives up as it closes: its channel's one place for an open table, and its place as a rematch.
SLOTS_FREED: dict[str, None] = {"channel_slot": None, "rematch_slot": None}
MAX_ROW_ID = 2**31 - 1  # our own ids (tables, matches) are 32-bit integers on PostgreSQL
DEFAULT_COMPUTER_PACE_MS = 1000  # between consecutive computer moves (half as long again after a trick)
# Limits against abuse, per server: open tables (lobbies and matches in play), lobbies one person
# hosts at once, and the seconds between two tables one person opens.
DEFAULT_MAX_OPEN_TABLES, DEFAULT_MAX_LOBBIES_PER_HOST, DEFAULT_PLAY_COOLDOWN_SECONDS = 25, 2, 10


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use datetime.now(UTC)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime(), dict[str, Any]: JSON(), list[Any]: JSON()}


class Guild(Base):
    """A Discord server and its settings."""

    __tablename__ = "guilds"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    turn_seconds: Mapped[int] = mapped_column(Integer, default=DEFAULT_TURN_SECONDS)  # 0: no turn timer
    grace_seconds: Mapped[int] = mapped_column(Integer, default=DEFAULT_GRACE_SECONDS)
    thread_per_table: Mapped[bool] = mapped_column(Boolean, default=True)
    language: Mapped[str | None] = mapped_column(String(16))
    default_options: Mapped[dict[str, Any]] = mapped_column(default=dict)  # game name -> options
    computer_pace_ms: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_COMPUTER_PACE_MS, server_default=text(str(DEFAULT_COMPUTER_PACE_MS))
    )
    max_open_tables: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_MAX_OPEN_TABLES, server_default=text(str(DEFAULT_MAX_OPEN_TABLES))
    )
    max_lobbies_per_host: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_MAX_LOBBIES_PER_HOST, server_default=text(str(DEFAULT_MAX_LOBBIES_PER_HOST))
    )
    play_cooldown_seconds: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_PLAY_COOLDOWN_SECONDS, server_default=text(str(DEFAULT_PLAY_COOLDOWN_SECONDS))
    )
    turn_pings: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())  # a line when a turn comes
    table_picture: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())  # else text only
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Player(Base):
    """A Discord user who has sat at a table (their name on each server is a ``GuildPlayer``)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class GuildPlayer(Base):
    """The name a player goes by on one server: their nickname there when they last sat down, entered an
    event or hosted one. Everything a server shows names its players by this, never by a name they go by
    elsewhere (``players.display_name`` is only the name they were first seen by, for rows made before
    names were kept per server)."""

    __tablename__ = "guild_players"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Table(Base):
    """One table: a lobby, then a match, then a result."""

    __tablename__ = "tables"
    __table_args__ = (
        Index(None, "status"),
        Index(None, "guild_id", "status"),
        Index(None, "rematch_slot", unique=True),
        Index(None, "thread_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    # Set while the table is open and has no thread of its own, so the unique
    # constraint allows one open table per channel across processes; NULL otherwise.
    channel_slot: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    # Set while the table is open and is the rematch of a finished table (that table's id), so the unique
    # index allows one open rematch of a table across processes; NULL otherwise. (An index, not a constraint:
    # SQLite adds one without copying the table, which would cascade-delete its seats and actions.)
    rematch_slot: Mapped[int | None] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    players: Mapped[int | None] = mapped_column(Integer)  # a required player count, or any valid count
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default=LOBBY)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    turn_seconds: Mapped[int | None] = mapped_column(Integer)  # overrides the guild's; 0 = off
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # a match with hints is unrated
    # Shown only to its players, in a private thread of its own that holds its message (a duplicate night's
    # table: the other tables of its round are dealt the same cards).
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    version: Mapped[int] = mapped_column(Integer, default=0)  # bumped by every write: optimistic concurrency
    action_count: Mapped[int] = mapped_column(Integer, default=0)


class Seat(Base):
    """A place at a table: a user or a computer player."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "position"), Index(None, "user_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int | None] = mapped_column(Integer)  # engine seat, set at start
    user_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))  # None: a computer
    computer_level: Mapped[str | None] = mapped_column(String(16))  # a computer's level ("easy", "strong")
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    left_at: Mapped[datetime | None]
    absent: Mapped[bool] = mapped_column(Boolean, default=False)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)


class Action(Base):
    """The append-only action log: the match is the replay of the seed and these."""

    __tablename__ = "actions"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(String(16))  # player, timeout, computer, resigned
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Deadline(Base):
    """The turn timer of a table in play: one row, replaced after every action."""

    __tablename__ = "deadlines"
    __table_args__ = (Index(None, "due_at"),)

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)  # the table version the timer was set for
    remind_at: Mapped[datetime | None]  # None once reminded, or when the seats are already absent
    act_at: Mapped[datetime]
    due_at: Mapped[datetime]  # the earlier of the two still pending: what the timer loop polls


class Match(Base):
    """A finished match, written once in the same transaction as its final action."""

    __tablename__ = "matches"
    __table_args__ = (Index(None, "guild_id", "finished_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), unique=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    deals: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime]
    duration_seconds: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any]] = mapped_column(default=dict)  # the engine's result: scores and every sheet


class MatchPlayer(Base):
    """One seat's result in a match."""

    __tablename__ = "match_players"
    __table_args__ = (Index(None, "guild_id", "game", "user_id"), Index(None, "user_id"))

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))  # None: a computer
    guild_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    side: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    placement: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)
    bids: Mapped[int] = mapped_column(Integer, default=0)  # deals with a bid of this seat's own
    bids_made: Mapped[int] = mapped_column(Integer, default=0)
    rating_before: Mapped[float | None] = mapped_column(Float)  # the conservative ordinal
    rating_after: Mapped[float | None] = mapped_column(Float)


class Rating(Base):
    """A player's openskill rating in one guild and game."""

    __tablename__ = "ratings"
    __table_args__ = (Index(None, "guild_id", "game", "ordinal"),)

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, autoincrement=False)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentStatus(StrEnum):
    """Where a tournament is in its life: sign-up, rounds under way, then finished or cancelled."""

    SIGNUP = "signup"
    RUNNING = "running"
    DONE = "finished"
    CANCELLED = "cancelled"


# Limits against abuse, per server and per tournament.
MAX_OPEN_TOURNAMENTS, MAX_ENTRANTS, MAX_ROUNDS = 3, 256, 15


class Tournament(Base):
    """A tournament or a duplicate night: its settings, where it is shown, and the round under way."""

    __tablename__ = "tournaments"
    __table_args__ = (Index(None, "guild_id", "status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int | None] = mapped_column(BigInteger)  # the sign-up message
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    format: Mapped[str] = mapped_column(String(16))  # swiss, knockout, duplicate
    table_size: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)  # Swiss and duplicate: how many; knockout: until the final
    advance: Mapped[int] = mapped_column(Integer, default=1)  # knockout: the top k of each table go on
    computers: Mapped[bool] = mapped_column(Boolean, default=True)  # computers may fill seats
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    starts_at: Mapped[datetime | None]  # None: when the host starts it
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default=TournamentStatus.SIGNUP)
    round: Mapped[int] = mapped_column(Integer, default=0)  # the round under way (0 before the start)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # a duplicate night's comparison message: after each deal ("deal") or at the end of each round ("round")
    compare_after: Mapped[str] = mapped_column(String(8), default="round", server_default="round")
    podium_message_id: Mapped[int | None] = mapped_column(BigInteger)  # the podium, once posted


class TournamentEntrant(Base):
    """An entrant of a tournament, in sign-up order (``id``, also its id in the standings): a person, or
    a computer the host added (``user_id`` None)."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    withdrawn_at: Mapped[datetime | None]  # left before the start (then the row is gone) or between rounds
    place: Mapped[int | None] = mapped_column(Integer)  # the final standings' rank, written when it finished


class TournamentRound(Base):
    """One round, written once with its tables (the primary key makes a second writer fail)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seed: Mapped[int] = mapped_column(BigInteger)  # a duplicate round's tables all have it
    byes: Mapped[list[Any]] = mapped_column(default=list)  # entrants who sat the round out
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentTable(Base):
    """A table of a round: an ordinary table, and who sat where (None for a computer)."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)  # from 1
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), unique=True)
    seats: Mapped[list[Any]] = mapped_column(default=list)  # entrant id per seat position, None: a computer filling it


class TournamentDeal(Base):
    """A deal of a duplicate round compared (every table of the round has played it), written once: the
    primary key makes a second writer fail, so its comparison message is posted exactly once."""

    __tablename__ = "tournament_deals"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)  # when it was claimed
    posted_at: Mapped[datetime | None]  # when the presentation posted it (None: not yet, or lost in a crash)


class SeasonPlan(Base):
    """A server's seasons of one game, turned on by an admin: how long each lasts, where its standings go."""

    __tablename__ = "season_plans"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    length: Mapped[str] = mapped_column(String(16))  # "month", "quarter", or "dates" (then span_days)
    span_days: Mapped[int | None] = mapped_column(Integer)  # a season of explicit dates: the length of each
    channel_id: Mapped[int] = mapped_column(BigInteger)  # where each season's final standings are posted
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    top_role_id: Mapped[int | None] = mapped_column(BigInteger)  # given to the season's best players (optional)
    top_count: Mapped[int] = mapped_column(Integer, default=3)
    changed_by: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Season(Base):
    """One season of a game in a server: [starts_at, ends_at) in UTC. A match counts in the season it finished in."""

    __tablename__ = "seasons"
    __table_args__ = (
        UniqueConstraint("guild_id", "game", "number"),
        UniqueConstraint("guild_id", "game", "name"),
        Index(None, "ends_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, … within the server and game
    name: Mapped[str] = mapped_column(String(32))  # "2026-11", "2026-Q4", "2026-11-25"
    starts_at: Mapped[datetime]
    ends_at: Mapped[datetime]
    # The post of its final standings: claimed by one process (a lease), then done.
    announce_claimed_at: Mapped[datetime | None]
    announced_message_id: Mapped[int | None] = mapped_column(BigInteger)


class SeasonRating(Base):
    """A player's openskill rating within one season (from scratch at its start)."""

    __tablename__ = "season_ratings"
    __table_args__ = (Index(None, "season_id", "ordinal"),)

    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, autoincrement=False)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameNight(Base):
    """A game night scheduled as a Discord Scheduled Event: its people are pinged before it, its lobby opens at
    its start. ``status``: scheduled, open (the lobby was opened), cancelled, failed (the lobby could not open),
    missed (its start passed over an hour before the bot could open it)."""

    __tablename__ = "game_nights"
    __table_args__ = (Index(None, "status", "starts_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    event_id: Mapped[int] = mapped_column(BigInteger, unique=True)  # the Discord Scheduled Event
    kind: Mapped[str] = mapped_column(String(16), default="game")  # "game": a lobby; "tournament": its sign-up
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    players: Mapped[int | None] = mapped_column(Integer)
    host_id: Mapped[int] = mapped_column(BigInteger)
    host_name: Mapped[str] = mapped_column(String(100))
    starts_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16), default="scheduled")
    pinged_at: Mapped[datetime | None]
    # Its ping went out (or can never go: its channel refuses it). A ping claimed and not sent within its lease
    # (the claiming process stopped, or Discord failed) is claimed again while the night is still ahead.
    ping_sent: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    opened_at: Mapped[datetime | None]
    table_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
