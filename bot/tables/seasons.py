"""Seasons: a server admin turns them on per game; each has its own ratings and board from scratch, while the
all-time ratings go on. Seasons change at exact UTC instants (:mod:`.season_calendar`); a match counts in the
season it finished in (:mod:`.season_record`). At a season's end one process claims the post of its standings
(``roll``), and the next season is already there, created by whoever first needed it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Row

from bot.games import GAMES
from bot.storage import seasons as stored
from bot.storage.models import MAX_ROW_ID
from bot.storage.record_rows import BoardRow

from .errors import BadOptions, NotAllowed, TableError
from .season_calendar import LENGTHS, MAX_AHEAD_DAYS, MAX_SPAN_DAYS, midnight, parse_day
from .season_record import add_season, ensure_season
from .store import Store

ANNOUNCE_LEASE = timedelta(minutes=2)  # a claim older than this was a process that died before posting
ANNOUNCE_BATCH = 20  # seasons claimed by one roll: posted (a few calls each) well within the lease
# A season's standings are read this long after it ends: a match that finished in its last moments (its time
# read before its write committed, behind a merged batch or a deadlock's retry, or on another process whose
# clock is a little behind) is in them: a rating lands in a season after its standings were read only where a
# write took longer than this to commit, or a process's clock is more than this behind.
ANNOUNCE_AFTER = timedelta(seconds=30)
STANDINGS_SHOWN = 10
TOP_COUNTS = range(1, 11)  # how many of a season's best may get its role


class SeasonRefused(TableError):
    """A season turned on or off, or read, with input at the door refused; nothing was written."""


@dataclass(frozen=True)
class SeasonInfo:
    id: int
    guild_id: int
    game: str
    number: int
    name: str
    starts_at: datetime
    ends_at: datetime

    @classmethod
    def of(cls, row: Row[Any]) -> SeasonInfo:
        return cls(row.id, row.guild_id, row.game, row.number, row.name, row.starts_at, row.ends_at)


@dataclass(frozen=True)
class SeasonEnded:
    """A season whose end this process claimed to announce: post ``standings`` in ``channel_id``, then
    :meth:`Seasons.announced` (or :meth:`Seasons.release` to let the next round of ``roll`` try again)."""

    season: SeasonInfo
    channel_id: int
    standings: list[BoardRow]
    players: int  # everyone rated in the season
    following: SeasonInfo | None  # the season that began at its end (None: seasons were turned off)
    top_role_id: int | None  # a role for the season's best players (None: none)
    top_count: int
    previous_top: list[int]  # who may hold the role from the season before (the role moves on)
    claimed_at: datetime | None = None  # this process's claim (see :meth:`Seasons.still_mine`)


@dataclass(frozen=True)
class PlayerSeason:
    season: SeasonInfo
    rating: float
    rank: int | None
    matches: int
    wins: int


class Seasons:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def turn_on(
        self,
        guild_id: int,
        game: str,
        *,
        by_user: int,
        can_manage: bool,
        length: str,
        channel_id: int,
        starts: str | None = None,
        ends: str | None = None,
        top_role_id: int | None = None,
        top_count: int = 3,
    ) -> SeasonInfo:
        """Seasons of ``game`` from now (or from ``starts``, a date), each ``length`` long ("month", "quarter",
        or "dates": from ``starts`` to ``ends`` inclusive, and the following ones as long)."""
        if not can_manage:
            raise NotAllowed("season_not_admin")
        if game not in GAMES:
            raise BadOptions("unknown_game", game=game, allowed=", ".join(GAMES))
        if length not in LENGTHS:
            raise SeasonRefused("season_bad_length", length=length)
        if top_count not in TOP_COUNTS:
            raise BadOptions(
                "bad_setting", setting="top", value=top_count, allowed=f"{min(TOP_COUNTS)} to {max(TOP_COUNTS)}",
                low=min(TOP_COUNTS), high=max(TOP_COUNTS), unit="places",
            )  # fmt: skip
        now = self.store.clock()
        today = now.date()
        first = parse_day(starts) if starts else None
        if starts and first is None:
            raise SeasonRefused("season_bad_date", value=starts)
        last = parse_day(ends) if ends else None
        if ends and last is None:
            raise SeasonRefused("season_bad_date", value=ends)
        if length == "dates" and (first is None or last is None):
            raise SeasonRefused("season_needs_dates")
        if length != "dates" and last is not None:
            raise SeasonRefused("season_dates_unused")
        if first is not None and first < today:
            raise SeasonRefused("season_starts_in_past", starts=first.isoformat(), today=today.isoformat())
        if first is not None and (first - today).days > MAX_AHEAD_DAYS:  # (and no season runs past the calendar)
            raise SeasonRefused("season_too_far", days=MAX_AHEAD_DAYS)
        span_days = None
        if last is not None:
            assert first is not None
            if last < first:
                raise SeasonRefused("season_ends_before_start", starts=first.isoformat(), ends=last.isoformat())
            span_days = (last - first).days + 1
            if span_days > MAX_SPAN_DAYS:
                raise SeasonRefused("season_too_long", days=MAX_SPAN_DAYS)
        start = now if first is None or first == today else midnight(first)
        if length == "dates" and first is not None:
            start = midnight(first)
        async with self.store.db.engine.begin() as connection:
            claimed = await stored.claim_plan(
                connection,
                guild_id=guild_id,
                game=game,
                length=length,
                span_days=span_days,
                channel_id=channel_id,
                top_role_id=top_role_id,
                top_count=top_count,
                changed_by=by_user,
                updated_at=now,
            )
            if not claimed:
                raise SeasonRefused("season_already_on", game=game)
            latest = await stored.latest_season(connection, guild_id, game)
            if latest is not None and latest.ends_at > start:  # turned off and on again before its end
                start = max(start, latest.ends_at)
            number = (latest.number if latest is not None else 0) + 1
            ends_at: datetime | None = None
            if length == "dates" and last is not None:  # to the end of ``last`` (UTC), whenever this one begins
                ends_at = midnight(last) + timedelta(days=1)
                if ends_at <= start:  # (begun after it: to the next midnight, so later seasons keep the dates' cut)
                    ends_at = midnight(start.date()) + timedelta(days=1)
            await add_season(connection, guild_id, game, number, start, length, span_days, ends_at)
            created = await stored.latest_season(connection, guild_id, game)
            assert created is not None
            return SeasonInfo.of(created)

    async def turn_off(self, guild_id: int, game: str, *, by_user: int, can_manage: bool) -> SeasonInfo | None:
        """No more seasons of ``game``: the season under way ends now (its standings are posted as at any
        end); one that had not begun is dropped. Returns the season that ended, if one was under way."""
        if not can_manage:
            raise NotAllowed("season_not_admin")
        now = self.store.clock()
        async with self.store.db.engine.begin() as connection:
            plan = await stored.hold_plan(connection, guild_id, game, changed_by=by_user, updated_at=now)
            if plan is None:
                raise SeasonRefused("season_not_on", game=game)
            current = await ensure_season(connection, guild_id, game, now)
            await stored.save_plan(
                connection,
                guild_id=guild_id,
                game=game,
                length=plan.length,
                span_days=plan.span_days,
                channel_id=plan.channel_id,
                active=False,
                top_role_id=plan.top_role_id,
                top_count=plan.top_count,
                changed_by=by_user,
                updated_at=now,
            )
            latest = await stored.latest_season(connection, guild_id, game)
            if latest is not None and latest.starts_at > now:
                await stored.drop_season(connection, latest.id)
            if current is not None and current.starts_at >= now:
                # turned off at the very instant a season ended: the one made to follow it has not begun (it would
                # be ended empty, its standings posted and its role taken back from the winners just given it)
                await stored.drop_season(connection, current.id)
                current = None
            if current is None:
                return None
            await stored.end_season(connection, current.id, now)
            ended = await stored.season_by_id(connection, current.id)
            assert ended is not None
            return SeasonInfo.of(ended)

    async def current(self, guild_id: int, game: str) -> SeasonInfo | None:
        """The season of ``game`` under way now (created if one is due)."""
        async with self.store.db.engine.begin() as connection:
            found = await ensure_season(connection, guild_id, game, self.store.clock())
            return None if found is None else SeasonInfo.of(found)

    async def roll(self) -> list[SeasonEnded]:
        """Every season due is created, and the seasons ended ``ANNOUNCE_AFTER`` ago or more that nobody announced
        are claimed by this call (one process each, however many call it at once): post each one's standings,
        then :meth:`announced`."""
        now = self.store.clock()
        async with self.store.db.engine.begin() as connection:
            for active in await stored.plans_due(connection, now):
                await ensure_season(connection, active.guild_id, active.game, now)
        async with self.store.db.engine.begin() as connection:
            claimed = await stored.claim_announcements(
                connection,
                now,
                now - ANNOUNCE_LEASE,
                ended_by=now - ANNOUNCE_AFTER,
                limit=ANNOUNCE_BATCH,
                shards=self.store.shards,
            )
        ended = []
        async with self.store.db.engine.connect() as connection:
            for season_id in claimed:
                row = await stored.season_by_id(connection, season_id)
                assert row is not None
                season = SeasonInfo.of(row)
                plan = await stored.plan(connection, season.guild_id, season.game)
                following = await stored.season_at(connection, season.guild_id, season.game, season.ends_at)
                count = plan.top_count if plan is not None else 0
                before = await stored.season_numbered(connection, season.guild_id, season.game, season.number - 1)
                # Everyone who may hold the role from the season before: its best as many as any count allows (the
                # count may have been larger then: seasons turned off and on again with fewer for the role)
                held = max(TOP_COUNTS)
                previous = [] if before is None else await stored.season_top(connection, before.id, held)
                ended.append(
                    SeasonEnded(
                        season,
                        plan.channel_id if plan is not None else 0,
                        await stored.season_top(connection, season_id, STANDINGS_SHOWN),
                        await stored.season_size(connection, season_id),
                        None if following is None else SeasonInfo.of(following),
                        plan.top_role_id if plan is not None else None,
                        count,
                        [row["user_id"] for row in previous],
                        now,
                    )
                )
        return ended

    async def still_mine(self, ended: SeasonEnded) -> bool:
        """Just before its post: this process's claim holds (and is renewed for the post). False when its lease
        ran out while earlier posts waited on Discord and another process claimed it: that one posts it."""
        if ended.claimed_at is None:
            return True
        async with self.store.db.engine.begin() as connection:
            return await stored.renew_announcement(connection, ended.season.id, ended.claimed_at, self.store.clock())

    async def announced(self, season_id: int, message_id: int) -> None:
        async with self.store.db.engine.begin() as connection:
            await stored.announced(connection, season_id, message_id)

    async def release(self, season_id: int) -> None:
        """The post failed: the next ``roll`` (of any process) tries again."""
        async with self.store.db.engine.begin() as connection:
            await stored.release_announcement(connection, season_id)

    async def season(self, guild_id: int, game: str, name: str) -> SeasonInfo:
        if not 1 <= len(name) <= 32:
            raise SeasonRefused("season_unknown", name=name[:40], game=game)
        async with self.store.db.engine.connect() as connection:
            row = await stored.season_named(connection, guild_id, game, name.strip())
        if row is None:
            raise SeasonRefused("season_unknown", name=name, game=game)
        return SeasonInfo.of(row)

    async def season_by_id(self, guild_id: int, season_id: int) -> SeasonInfo | None:
        """A season of this server by its id (a page button's), None for another server's or none."""
        if not 1 <= season_id <= MAX_ROW_ID:  # no such row: PostgreSQL would refuse the number itself
            return None
        async with self.store.db.engine.connect() as connection:
            row = await stored.season_by_id(connection, season_id)
        return None if row is None or row.guild_id != guild_id else SeasonInfo.of(row)

    async def seasons(self, guild_id: int, game: str | None = None, starting: str = "") -> list[SeasonInfo]:
        """A server's seasons, newest first (at most 25: a choice list's most); with ``starting``, those whose
        name starts so, however old."""
        async with self.store.db.engine.connect() as connection:
            rows = await stored.seasons_of(connection, guild_id, game, starting=starting)
            return [SeasonInfo.of(row) for row in rows]

    async def board(self, season_id: int, limit: int = 10, offset: int = 0) -> list[BoardRow]:
        async with self.store.db.engine.connect() as connection:
            return await stored.season_top(connection, season_id, limit, offset)

    async def board_size(self, season_id: int) -> int:
        async with self.store.db.engine.connect() as connection:
            return await stored.season_size(connection, season_id)

    async def rank_of(self, season_id: int, user_id: int) -> int | None:
        async with self.store.db.engine.connect() as connection:
            return await stored.season_rank(connection, season_id, user_id)

    async def player_seasons(self, guild_id: int, game: str, user_id: int) -> list[PlayerSeason]:
        """The seasons of a game a player was rated in (newest first, up to five), with their place in each."""
        async with self.store.db.engine.connect() as connection:
            rows = await stored.player_seasons(connection, guild_id, game, user_id)
            return [
                PlayerSeason(
                    SeasonInfo.of(row),
                    round(row.ordinal, 2),
                    await stored.season_rank(connection, row.id, user_id),
                    int(row.matches),
                    int(row.wins),
                )
                for row in rows
            ]
