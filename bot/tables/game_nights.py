"""Scheduled game nights: a night stored beside its Discord Scheduled Event; its interested people are pinged
a little before it begins and its lobby opens at its start, each claimed by one process (a conditional update),
so several processes ping and open it once. Edits and cancellations made in Discord are followed."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Row

from bot.games import GAMES
from bot.games.options import whole_number
from bot.storage import seasons as stored
from bot.storage.models import MAX_ROW_ID

from .errors import BadOptions, TableError
from .names import readable_name
from .season_calendar import parse_instant
from .settings import checked_options
from .store import Store
from .tournament_records import FORMATS

log = logging.getLogger(__name__)

PING_BEFORE = timedelta(minutes=10)  # the interested are pinged this long before the start
LATE_GRACE = timedelta(hours=1)  # a night the bot was away for: opened this late at most, else missed
OPEN_LEASE = timedelta(minutes=2)  # a night whose opening was claimed this long ago and never done: claimed again
PING_LEASE = timedelta(minutes=2)  # a ping claimed this long ago and not sent: claimed again, if still ahead
MAX_AHEAD_DAYS = 365
MAX_WAITING = 25  # nights to come a server may have at once (all of them fit /gamenight list and its choices)
MAX_OPTIONS_TEXT = 200
SCHEDULED, OPEN, CANCELLED, FAILED, MISSED = "scheduled", "open", "cancelled", "failed", "missed"
KINDS = ("game", "tournament")  # "tournament": its sign-up opens, through the tournaments' own hook
# A tournament night's format (swiss, knockout, duplicate) is kept in its stored options under this reserved
# name: ``NightInfo.of`` takes it out into ``NightInfo.tournament_format``, so ``NightInfo.options`` holds the
# game's options alone. No game has an option of this name (``checked_options`` refuses one typed in).
FORMAT_KEY = "_tournament_format"


class NightRefused(TableError):
    """A game night refused at the door; nothing was written (and no Discord event created)."""


@dataclass(frozen=True)
class NightInfo:
    id: int
    guild_id: int
    channel_id: int
    event_id: int
    kind: str
    game: str
    options: dict[str, Any]
    players: int | None
    host_id: int
    host_name: str
    starts_at: datetime
    status: str
    table_id: int | None
    tournament_format: str | None = None  # a night of kind "tournament": swiss, knockout or duplicate
    opened_at: datetime | None = None  # when its opening was claimed (the claim's mark: see ``GameNights.renew``)
    pinged_at: datetime | None = None  # when its ping was claimed
    ping_sent: bool = False  # its ping went out (or never can)

    @classmethod
    def of(cls, row: Row[Any]) -> NightInfo:
        options = dict(row.options)
        tournament_format = options.pop(FORMAT_KEY, None)
        return cls(
            row.id,
            row.guild_id,
            row.channel_id,
            row.event_id,
            row.kind,
            row.game,
            options,
            row.players,
            row.host_id,
            row.host_name,
            row.starts_at,
            row.status,
            row.table_id,
            tournament_format if isinstance(tournament_format, str) else None,
            row.opened_at,
            row.pinged_at,
            row.ping_sent,
        )


@dataclass(frozen=True)
class NightPlan:
    """A night's game, options, player count and start, checked: what the Discord event is created for."""

    game: str
    options: dict[str, Any]
    players: int | None
    starts_at: datetime
    tournament_format: str | None = None  # a tournament night's format; None: a game's lobby


def parse_options(game: str, given: str) -> dict[str, Any]:
    """``target=3 jokers=off`` as options of ``game`` (numbers as numbers, on/off and true/false as truths); the
    names are checked by the game (``checked_options``). Refused as no list of options, naming the game's. Pairs
    are parted by spaces (a Japanese keyboard's full-width one too) or commas, as a tournament's options are."""
    given = given.replace("\u3000", " ").replace(",", " ")
    if len(given) > MAX_OPTIONS_TEXT or not given.isprintable():
        raise NightRefused("night_bad_options", value=given[:40], game=game, names=GAMES[game].option_names)
    options: dict[str, Any] = {}
    for part in given.split():
        name, equals, value = part.partition("=")
        if not equals or not name or not value:
            raise NightRefused("night_bad_options", value=part[:40], game=game, names=GAMES[game].option_names)
        lowered = value.lower()
        if lowered in ("on", "true", "yes"):
            options[name] = True
        elif lowered in ("off", "false", "no"):
            options[name] = False
        elif (number := whole_number(value)) is not None:
            options[name] = number
        else:
            options[name] = value
    return options


class GameNights:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._channel_gone: list[Callable[[list[NightInfo]], Awaitable[None]]] = []

    def when_channel_gone(self, listener: Callable[[list[NightInfo]], Awaitable[None]]) -> None:
        """``listener`` hears the nights cancelled because their channel was deleted (their Discord events are
        external: Discord would still begin them, and tell those interested, with no lobby to come)."""
        self._channel_gone.append(listener)

    def check(
        self, game: str, options: str | None, players: int | None, starts: str, tournament: str | None = None
    ) -> NightPlan:
        """The night as asked, or a refusal (a start in the past or not a time, options the game refuses, a
        tournament format that is not one). ``tournament``: the night opens a tournament's sign-up of that
        format instead of a lobby."""
        if game not in GAMES:
            raise BadOptions("unknown_game", game=game, allowed=", ".join(GAMES))
        if tournament is not None and tournament not in FORMATS:
            raise NightRefused(
                "night_bad_tournament", value=tournament[:40], allowed=", ".join(FORMATS),
                allowed_keys=tuple(f"choice.format_{name}" for name in FORMATS),
            )  # fmt: skip
        starts_at = self._start(starts)
        # A tournament night's tables are of its players, else of the game's largest (as its sign-up opens them):
        # its options are checked for that size now, not refused at the start, hours after it was announced.
        size = players if players is not None or tournament is None else max(GAMES[game].players)
        chosen = checked_options(game, parse_options(game, options or ""), size)
        return NightPlan(game, chosen, players, starts_at, tournament)

    def _start(self, starts: str) -> datetime:
        """A night's start as typed: a time (UTC unless it names its offset), not past, at most a year ahead."""
        now = self.store.clock()
        starts_at = parse_instant(starts)
        if starts_at is None:
            raise NightRefused("night_bad_time", value=starts[:40])
        if starts_at <= now:
            shown = "%Y-%m-%d %H:%M"
            raise NightRefused("night_in_past", starts=starts_at.strftime(shown), now=now.strftime(shown))
        if starts_at > now + timedelta(days=MAX_AHEAD_DAYS):
            raise NightRefused("night_too_far", days=MAX_AHEAD_DAYS)
        return starts_at

    async def room_for(self, guild_id: int) -> None:
        """Refused (``night_too_many``) where the server already has ``MAX_WAITING`` nights to come: asked before
        its Discord event is made (Discord keeps at most 100 events a server, and they are everyone's)."""
        async with self.store.db.engine.connect() as connection:
            if await stored.nights_waiting(connection, guild_id) >= MAX_WAITING:
                raise NightRefused("night_too_many", count=MAX_WAITING)

    async def schedule(
        self,
        plan: NightPlan,
        *,
        guild_id: int,
        channel_id: int,
        event_id: int,
        host_id: int,
        host_name: str,
    ) -> NightInfo:
        """Store a night whose Discord event was created (``event_id``): of kind "tournament" when the plan
        has a tournament format (kept under ``FORMAT_KEY`` in its options), else "game". Refused
        (``night_too_many``, nothing stored) where the server's nights to come reached ``MAX_WAITING`` since
        :meth:`room_for` was asked (another schedule at the same moment): counted again with this one written."""
        kind, options = "game", dict(plan.options)
        if plan.tournament_format is not None:
            kind, options[FORMAT_KEY] = "tournament", plan.tournament_format
        async with self.store.db.engine.begin() as connection:
            await stored.hold_server_nights(connection, guild_id)
            night_id = await stored.insert_night(
                connection,
                guild_id=guild_id,
                channel_id=channel_id,
                event_id=event_id,
                kind=kind,
                game=plan.game,
                options=options,
                players=plan.players,
                host_id=host_id,
                host_name=readable_name(host_name),
                starts_at=plan.starts_at,
                status=SCHEDULED,
                created_at=self.store.clock(),
            )
            if await stored.nights_waiting(connection, guild_id) > MAX_WAITING:
                raise NightRefused("night_too_many", count=MAX_WAITING)  # (the transaction rolls back)
            row = await stored.night(connection, night_id)
        assert row is not None
        return NightInfo.of(row)

    async def due(self) -> tuple[list[NightInfo], list[NightInfo]]:
        """The nights of this process's servers (those on its shards, whose tables it drives) whose people are
        to be pinged now, and those whose lobby is to open now, each claimed by this call alone (however many
        processes ask at once)."""
        now, shards = self.store.clock(), self.store.shards
        async with self.store.db.engine.begin() as connection:
            await stored.miss_nights(connection, now - LATE_GRACE)
            # a ping claimed by a process that stopped (or that Discord failed) before it went out: claimed again
            # while its night is still ahead (never pinged "starting in…" once it began)
            pings = await stored.claim_nights(
                connection,
                now + PING_BEFORE,
                now - LATE_GRACE,
                "pinged_at",
                now,
                stale_before=now - PING_LEASE,
                stale_if=(stored.NIGHTS.c.ping_sent.is_(False), stored.NIGHTS.c.starts_at > now),
                shards=shards,
            )
        async with self.store.db.engine.begin() as connection:
            # a process that claimed an opening and stopped before it was done: another opens it, a little late
            opens = await stored.claim_nights(
                connection, now, now - LATE_GRACE, "opened_at", now, stale_before=now - OPEN_LEASE, shards=shards
            )
        return [NightInfo.of(row) for row in pings], [NightInfo.of(row) for row in opens]

    async def renew_ping(self, night: NightInfo) -> NightInfo | None:
        """Just before a claimed night's ping is sent: is it still this claim's (not taken again by another
        process after its lease, not moved or cancelled, not sent)? The night under its renewed claim if so;
        None if not (not to be sent here)."""
        if night.pinged_at is None:
            return None
        now = self.store.clock()
        async with self.store.db.engine.begin() as connection:
            if not await stored.renew_ping(connection, night.id, night.pinged_at, now):
                return None
        return replace(night, pinged_at=now)

    async def pinged(self, night: NightInfo) -> bool:
        """The ping of a claimed night went out (or can never go: its channel refuses it): not claimed again.
        False: it was no longer this claim's (taken again after its lease, or the night moved meanwhile)."""
        if night.pinged_at is None:
            return False
        async with self.store.db.engine.begin() as connection:
            return await stored.ping_sent(connection, night.id, night.pinged_at)

    async def renew(self, night: NightInfo) -> bool:
        """Just before a claimed night's lobby (or sign-up) is opened, the one step that cannot be taken back: is
        the opening still this claim's? Renewed if so (its lease starts again), so a process that claimed a
        batch of nights and opens them one after another does not find the last ones taken by another, which
        saw them claimed over two minutes ago. False: another process took it again (this one was too slow),
        or it no longer waits (cancelled, or moved, meanwhile): not to be opened here."""
        if night.opened_at is None:
            return False
        async with self.store.db.engine.begin() as connection:
            return await stored.renew_claim(connection, night.id, night.opened_at, self.store.clock())

    async def opened(self, night_id: int, *, table_id: int | None = None, failed: bool = False) -> None:
        """The lobby (``table_id``) or the sign-up of a night is open; ``failed``: it could not open. A night no
        longer waiting is left as it is (cancelled meanwhile, or already marked open by another opening)."""
        async with self.store.db.engine.begin() as connection:
            await stored.finish_night(connection, night_id, status=FAILED if failed else OPEN, table_id=table_id)

    async def edited(
        self, event_id: int, starts_at: datetime, *, cancelled: bool, claim: datetime | None = None
    ) -> NightInfo | None:
        """Its Discord event was edited: a new start (pinged again if it moved later), or cancelled. None: no
        night of ours, one already open, or (cancelled) one whose opening another is about, claimed less than
        ``OPEN_LEASE`` ago; ``claim``: the caller's own claim of its opening (it read the event before opening
        it), which does not stand in the way."""
        async with self.store.db.engine.begin() as connection:
            row = await stored.night_of_event(connection, event_id)
            if row is None or row.status != SCHEDULED:
                return None
            if cancelled:  # conditional: a /gamenight cancel at the same moment tells the channel, not both; and
                # as that, not while its opening is under way (the lobby would open after "cancelled" was said)
                stale_before = self.store.clock() - OPEN_LEASE
                if await stored.cancel_night(connection, row.id, stale_before=stale_before, claim=claim) is None:
                    return None
            elif starts_at != row.starts_at:
                values: dict[str, Any] = {"starts_at": starts_at}
                if starts_at > row.starts_at:
                    values.update(pinged_at=None, ping_sent=False)
                await stored.update_night(connection, row.id, **values)
            found = await stored.night(connection, row.id)
        assert found is not None
        return NightInfo.of(found)

    async def moved(self, night_id: int, starts_at: datetime) -> NightInfo | None:
        """Its Discord event was found starting at ``starts_at`` when the night came due (moved while nobody
        heard it): the night starts then, pinged and opened again as it comes. None: it is no longer scheduled."""
        now = self.store.clock()
        async with self.store.db.engine.begin() as connection:
            row = await stored.night(connection, night_id)
            if row is None or row.status != SCHEDULED:
                return None
            values: dict[str, Any] = {"starts_at": starts_at, "opened_at": None}
            if starts_at > now:  # pinged again before the new start (at once if it is near: this ping was not sent)
                values.update(pinged_at=None, ping_sent=False)
            await stored.update_night(connection, night_id, **values)
            found = await stored.night(connection, night_id)
        assert found is not None
        return NightInfo.of(found)

    async def waiting_night(self, guild_id: int, night_id: int, user_id: int, *, may_manage: bool) -> NightInfo:
        """The night of server ``guild_id`` that its host (or someone who may manage the server's events) may
        still change: it waits for its start, its opening not under way. Refused as ``cancel`` refuses."""
        if not 1 <= night_id <= MAX_ROW_ID:
            raise NightRefused("night_not_found", night=night_id)
        async with self.store.db.engine.connect() as connection:
            row = await stored.night(connection, night_id)
        if row is None or row.guild_id != guild_id:
            raise NightRefused("night_not_found", night=night_id)
        if row.host_id != user_id and not may_manage:
            raise NightRefused("night_not_yours", host=f"<@{row.host_id}>")
        if row.status != SCHEDULED:
            raise NightRefused("night_not_waiting")
        now = self.store.clock()
        if row.opened_at is not None and row.opened_at >= now - OPEN_LEASE:
            raise NightRefused("night_opening")
        if row.pinged_at is not None and not row.ping_sent and row.pinged_at >= now - PING_LEASE:
            raise NightRefused("night_pinging")  # its ping is being sent: a move would undo or repeat it
        return NightInfo.of(row)

    async def may_move(
        self, guild_id: int, night_id: int, user_id: int, starts: str, *, may_manage: bool
    ) -> tuple[NightInfo, datetime]:
        """``/gamenight move``: the night as it is and its new start, both checked (the start as a new night's
        is); nothing is written: its Discord event is moved first, and the night follows it (``edited``)."""
        night = await self.waiting_night(guild_id, night_id, user_id, may_manage=may_manage)
        return night, self._start(starts)

    async def cancel(self, guild_id: int, night_id: int, user_id: int, *, may_manage: bool) -> NightInfo:
        """``/gamenight cancel``: the night of server ``guild_id`` cancelled by its host, or by someone who may
        manage the server's events (``may_manage``), while it still waits for its start. Refused (nothing
        changed): no such night here (another server's too), not theirs to cancel, or no longer waiting (it
        opened, or is opening now; was cancelled or missed). The night as cancelled: its Discord event is the
        caller's to cancel."""
        await self.waiting_night(guild_id, night_id, user_id, may_manage=may_manage)
        # conditional: an opening claimed within its lease is under way (one older was left by a process that
        # failed); a night that opened, or was cancelled, since it was read is left as it is
        async with self.store.db.engine.begin() as connection:
            cancelled = await stored.cancel_night(connection, night_id, stale_before=self.store.clock() - OPEN_LEASE)
        if cancelled is None:
            raise NightRefused("night_not_waiting")
        return NightInfo.of(cancelled)

    async def begin_move(self, night: NightInfo, starts_at: datetime) -> datetime | None:
        """``/gamenight move``, before its Discord event is moved: the night (still as ``night`` was read: not
        claimed for its opening since, not moved) takes its new start, its ping and its opening claimed by the
        move meanwhile (so the due loop neither pings nor opens it while the event is being edited, nor reads
        the event still at its old start and moves the night back). The move's claim (its mark), or None: the
        night changed meanwhile (its opening began, it was moved or cancelled), nothing written."""
        claim = self.store.clock()
        values = {"starts_at": starts_at, "pinged_at": claim, "ping_sent": True, "opened_at": claim}
        async with self.store.db.engine.begin() as connection:
            moved = await stored.change_night(
                connection,
                night.id,
                starts_at=night.starts_at,
                opened_at=night.opened_at,
                values=values,
                pinged=(night.pinged_at, night.ping_sent),  # nor its ping claimed or sent since it was read
            )
        return claim if moved else None

    async def end_move(self, night: NightInfo, starts_at: datetime, claim: datetime) -> NightInfo | None:
        """The Discord event moved: the night pinged and opened as its new start comes (pinged at once if that is
        near). None: it changed meanwhile (cancelled), so no move is to be told."""
        values = {"pinged_at": None, "ping_sent": False, "opened_at": None}
        async with self.store.db.engine.begin() as connection:
            if not await stored.change_night(connection, night.id, starts_at=starts_at, opened_at=claim, values=values):
                return None
            row = await stored.night(connection, night.id)
        return None if row is None else NightInfo.of(row)

    async def put_back(self, night: NightInfo, starts_at: datetime, claim: datetime) -> bool:
        """A move undone (its Discord event could not be moved): the night as ``night`` was (its start, its ping
        already sent, its opening's claim), if it is still as the move left it. False: it changed meanwhile."""
        values = {
            "starts_at": night.starts_at,
            "pinged_at": night.pinged_at,
            "ping_sent": night.ping_sent,
            "opened_at": night.opened_at,
        }
        async with self.store.db.engine.begin() as connection:
            return await stored.change_night(connection, night.id, starts_at=starts_at, opened_at=claim, values=values)

    async def deleted(self, event_id: int) -> NightInfo | None:
        return await self.edited(event_id, datetime.min, cancelled=True)

    async def server_left(self, guild_id: int) -> list[int]:
        """The bot was removed from the server: its nights still to come are cancelled (never pinged nor opened).
        The ids of those cancelled."""
        async with self.store.db.engine.begin() as connection:
            return [int(row.id) for row in await stored.cancel_nights_in(connection, guild_id=guild_id)]

    async def channel_deleted(self, channel_id: int) -> list[int]:
        """The channel was deleted: its nights still to come are cancelled (their lobby could not be posted there),
        and told to the listeners (:meth:`when_channel_gone`). The ids of those cancelled."""
        async with self.store.db.engine.begin() as connection:
            nights = [NightInfo.of(row) for row in await stored.cancel_nights_in(connection, channel_id=channel_id)]
        if nights:
            for listener in self._channel_gone:
                try:
                    await listener(nights)
                except Exception:
                    log.exception("the nights of deleted channel %s: a listener failed", channel_id)
        return [night.id for night in nights]

    async def night_of_event(self, event_id: int) -> NightInfo | None:
        async with self.store.db.engine.connect() as connection:
            row = await stored.night_of_event(connection, event_id)
        return None if row is None else NightInfo.of(row)

    async def upcoming(self, guild_id: int, limit: int = 25) -> list[NightInfo]:
        """The server's nights still waiting for their start, soonest first (``limit`` of them)."""
        async with self.store.db.engine.connect() as connection:
            return [NightInfo.of(row) for row in await stored.nights_in(connection, guild_id, limit)]
