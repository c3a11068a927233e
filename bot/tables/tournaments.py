"""Tournaments and duplicate nights: sign-up, rounds of ordinary tables, standings, the end.

A part of the service like the lobby (it receives the store, and reaches the lobby and play only through
the two small protocols below). Everything is in the database: the tournament row holds the round under
way, a round's row and its tables are written in one transaction, guarded by a compare-and-set of that
round number and by the round's primary key, so a round is opened exactly once however many processes
(or restarts) try. A round's tables are then started (:meth:`Starter.start_seated`, which does nothing
to a table already started), so a crash between the two is mended by :meth:`Tournaments.recheck` at
start-up. The next round follows the last table's :class:`~bot.tables.events.MatchEnded`, and is
re-checked at start-up too. Seating, standings and duplicate scoring are the pure logic of
:mod:`bot.tournaments`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.games import GAMES
from bot.storage import repository as repo
from bot.storage import tournaments as trepo
from bot.storage.database import BatchRollback
from bot.storage.models import (
    ABANDONED,
    LOBBY,
    MAX_ENTRANTS,
    MAX_OPEN_TOURNAMENTS,
    MAX_ROUNDS,
    OPEN_STATUSES,
    PLAYING,
    TournamentStatus,
)
from bot.tournaments.duplicate import compare, round_seed
from bot.tournaments.knockout import advancing, advancing_without, is_final, knockout_round
from bot.tournaments.standings import Standing, TablePlaces, shown, standings
from bot.tournaments.swiss import RoundPlan, first_round_order, pair_key, swiss_round

from .errors import BadOptions, LogDoesNotReplay, NotAllowed, TableError, TableNotFound, TooMany, WrongStatus
from .events import Event, MatchEnded, TableChanged
from .names import readable_name
from .records import Outcome
from .settings import checked_options
from .store import Store
from .tournament_comparisons import DealComparisons, sheets_so_far, side_by_side
from .tournament_history import TournamentHistory
from .tournament_records import (
    AFTER_ROUND,
    COMPARE_TIMES,
    DUPLICATE,
    FORMATS,
    KNOCKOUT,
    LANGUAGE_CHANGED,
    REPOST_AFTER,
    SWISS,
    ComparedDeal,
    EntrantInfo,
    Reposts,
    RoundTable,
    StandingLine,
    TournamentChanged,
    TournamentEvents,
    TournamentInfo,
    TournamentResult,
    TournamentTotals,
)

log = logging.getLogger(__name__)

SIGNUP, RUNNING, DONE, CANCELLED = (
    TournamentStatus.SIGNUP,
    TournamentStatus.RUNNING,
    TournamentStatus.DONE,
    TournamentStatus.CANCELLED,
)
LONGEST_WAIT = timedelta(days=30)  # a start time at most this far ahead


class Starter(Protocol):
    """Starting a table seated by a round (the lobby's door)."""

    def start_seated(self, table_id: int, /) -> Awaitable[Outcome | None]: ...


class Abandoner(Protocol):
    """Ending a table of a cancelled tournament (play's door)."""

    def abandon(self, table_id: int, /, by_user: int, *, can_manage: bool = False) -> Awaitable[Outcome]: ...

    def close_unreadable(self, table_id: int, /) -> Awaitable[bool]: ...


def _info(row: Any, entrants: Sequence[trepo.EntrantRow]) -> TournamentInfo:
    return TournamentInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        host_id=row.host_id,
        game=row.game,
        options=dict(row.options),
        format=row.format,
        table_size=row.table_size,
        rounds=row.rounds,
        advance=row.advance,
        computers=row.computers,
        rated=row.rated,
        starts_at=row.starts_at,
        seed=row.seed,
        status=TournamentStatus(row.status),
        round=row.round,
        entrants=tuple(EntrantInfo(e.id, e.user_id, e.name, e.withdrawn) for e in entrants),
        compare_after=row.compare_after,
    )


def _final_first(lines: list[Standing], final: trepo.EventTableRow) -> list[Standing]:
    """The standings with a knockout final's players first, in their places at the final (a tie by the
    standings), then everyone else as they stand; ranked 1.. again."""
    place = {seat: p for seat, p in zip(final.seats, _places(final), strict=True) if seat is not None}
    order = {line.entrant: index for index, line in enumerate(lines)}
    ranked = sorted(
        lines, key=lambda line: (line.entrant not in place, place.get(line.entrant, 0), order[line.entrant])
    )
    for rank, line in enumerate(ranked, start=1):
        line.rank = rank
    return ranked


def _first(lines: list[Standing], entrant: int) -> list[Standing]:
    """The standings with ``entrant`` first, then everyone else as they stand; ranked 1.. again."""
    ranked = sorted(lines, key=lambda line: line.entrant != entrant)
    for rank, line in enumerate(ranked, start=1):
        line.rank = rank
    return ranked


def fits(game: str, options: Mapping[str, Any], players: int) -> bool:
    """Whether a table of ``players`` can be opened with these options."""
    try:
        checked_options(game, dict(options), players)
    except BadOptions:
        return False
    return True


def _places(row: trepo.EventTableRow) -> tuple[int, ...]:
    """Each seat's place; a table abandoned, or lost, counts as all its seats tied, but those who were away when
    it was abandoned (a table whose people all were away for a whole deal is abandoned so), tied last: someone
    who never came, seated alone with computers, does not go on or earn a first place by staying away."""
    if len(row.places) == len(row.seats):
        return tuple(row.places[seat] for seat in range(len(row.seats)))
    away = {seat for seat in row.absent if seat < len(row.seats) and row.seats[seat] is not None}
    last = len(row.seats) - len(away) + 1
    return tuple(last if seat in away else 1 for seat in range(len(row.seats)))


def _with_sheets(rows: Sequence[trepo.EventTableRow], sheets: Mapping[int, list[Any]]) -> list[trepo.EventTableRow]:
    """The rows, each abandoned table's with the deals it scored before it was abandoned (``sheets``)."""
    return [replace(row, sheets=sheets[row.table_id]) if row.table_id in sheets else row for row in rows]


def _round_table(row: trepo.EventTableRow) -> RoundTable:
    over = row.status not in OPEN_STATUSES
    places = _places(row) if over else None
    return RoundTable(row.round, row.number, row.table_id, row.seats, row.status, row.message_id, places, row.private)


class Tournaments:
    """Tournaments of one process; every state is read from and written to the database."""

    def __init__(self, store: Store, starter: Starter, abandoner: Abandoner) -> None:
        self.store = store
        self.starter = starter
        self.abandoner = abandoner
        self.events = TournamentEvents()
        self.comparisons = DealComparisons(store, self.events)
        self.history = TournamentHistory(store, self.standings)
        self._advancing: dict[int, asyncio.Lock] = {}
        self._announced = Reposts()  # rounds whose opening this process announced, and when to again
        self._born = store.clock()
        self._loop: asyncio.Task[None] | None = None
        self._hearing = store.events.subscribe(self._heard, (MatchEnded, TableChanged))

    # Reads -----------------------------------------------------------------------

    async def tournament(self, tournament_id: int) -> TournamentInfo:
        if not 1 <= tournament_id <= 2**31 - 1:
            raise TableNotFound("tournament_not_found", tournament=tournament_id)
        async with self.store.db.engine.connect() as connection:
            row = await trepo.tournament(connection, tournament_id)
            if row is None:
                raise TableNotFound("tournament_not_found", tournament=tournament_id)
            return _info(row, await trepo.entrants(connection, tournament_id))

    async def round_tables(self, tournament_id: int, round_no: int | None = None) -> list[RoundTable]:
        async with self.store.db.engine.connect() as connection:
            return [_round_table(row) for row in await trepo.event_tables(connection, tournament_id, round_no)]

    async def finished(
        self, guild_id: int, user_id: int | None = None, game: str | None = None, limit: int = 5
    ) -> list[TournamentResult]:
        """The server's finished tournaments, newest first (with ``user_id``: those they entered, and their
        place), for /history."""
        return await self.history.finished(guild_id, user_id, game, limit)

    async def totals(self, guild_id: int, user_id: int, game: str | None = None) -> TournamentTotals:
        """A player's finished tournaments of the server (of one game): played, podiums, wins, for /stats."""
        return await self.history.totals(guild_id, user_id, game)

    async def tournament_of_table(self, table_id: int) -> int | None:
        async with self.store.db.engine.connect() as connection:
            return await trepo.tournament_of_table(connection, table_id)

    async def standings(self, tournament_id: int) -> list[StandingLine]:
        """The standings after the rounds finished so far (see :mod:`bot.tournaments.standings`)."""
        return (await self.standings_after(tournament_id))[0]

    async def standings_after(self, tournament_id: int) -> tuple[list[StandingLine], int]:
        """The standings, and the last round they count (0 before any round has finished: in sign-up, or
        while the first round is played; the round before the one under way while it is played)."""
        async with self.store.db.engine.connect() as connection:
            row = await trepo.tournament(connection, tournament_id)
            if row is None:
                raise TableNotFound("tournament_not_found", tournament=tournament_id)
            info = _info(row, await trepo.entrants(connection, tournament_id))
            tables = await trepo.event_tables(connection, tournament_id)
            rounds = await trepo.rounds(connection, tournament_id)
        tables = _with_sheets(tables, await self._abandoned_sheets(info, tables))
        lines = self._standings(info, tables, rounds)
        names = {entrant.id: entrant for entrant in info.entrants}
        after = max(self._finished_rounds(tables), default=0)
        shown_lines = [
            StandingLine(
                line.rank,
                names[line.entrant],
                shown(line.points),
                shown(line.opponents_points),
                line.firsts,
                len(line.places),
                line.byes,
            )
            for line in lines
        ]
        return shown_lines, after

    async def deal_comparison(self, tournament_id: int, round_no: int, deal: int) -> ComparedDeal | None:
        """One deal of a duplicate round side by side, once every table of the round has scored it (None
        before, or for a deal no table reached)."""
        info = await self.tournament(tournament_id)
        return await self.comparisons.deal(info, round_no, deal)

    async def deal_needs_posting(self, tournament_id: int, round_no: int, deal: int) -> bool:
        """Whether a deal's comparison is claimed and not marked posted yet: one published again while the first
        publication still waited in the presentation's queue (Discord slow) is posted once, not twice."""
        async with self.store.db.engine.connect() as connection:
            unposted = await trepo.unposted_deals(connection, tournament_id, round_no)
        return any(unposted_deal == deal for unposted_deal, _ in unposted)

    async def deal_posted(self, tournament_id: int, round_no: int, deal: int) -> None:
        """The presentation posted a deal's comparison (one claimed and never marked so is posted again by
        the re-check, as a round left unposted is)."""
        await self.comparisons.posted(tournament_id, round_no, deal)

    async def comparison(self, tournament_id: int, round_no: int) -> list[ComparedDeal]:
        """A duplicate round's deals side by side: per deal, per seat position, every table's seat (what it
        bid, took and scored, and its matchpoints). Empty unless every table of the round is over."""
        info = await self.tournament(tournament_id)
        async with self.store.db.engine.connect() as connection:
            rows = await trepo.event_tables(connection, tournament_id, round_no)
        if not rows or any(row.status in OPEN_STATUSES for row in rows):
            return []
        rows = _with_sheets(rows, await self._abandoned_sheets(info, rows))
        sheets = [row.sheets for row in rows]
        return side_by_side(info, rows, sheets, compare(sheets, info.table_size).deals)

    async def _abandoned_sheets(
        self, info: TournamentInfo, rows: Sequence[trepo.EventTableRow]
    ) -> dict[int, list[Any]]:
        """At a duplicate night, each abandoned table's deals scored before it was abandoned: no match was
        recorded for it, so they are the table's own, replayed from its log. Those deals are compared with the
        other tables' (a deal it never reached is not, as one a table ended sooner never reached)."""
        if info.format != DUPLICATE:
            return {}
        out: dict[int, list[Any]] = {}
        for row in rows:
            if row.status == ABANDONED:
                out[row.table_id] = await sheets_so_far(self.store, row.table_id)
        return out

    @staticmethod
    def _finished_rounds(tables: Sequence[trepo.EventTableRow]) -> set[int]:
        by_round: dict[int, list[trepo.EventTableRow]] = {}
        for table in tables:
            by_round.setdefault(table.round, []).append(table)
        return {n for n, rows in by_round.items() if all(row.status not in OPEN_STATUSES for row in rows)}

    def _standings(
        self, info: TournamentInfo, tables: Sequence[trepo.EventTableRow], rounds: Sequence[Any]
    ) -> list[Standing]:
        done = self._finished_rounds(tables)
        results: list[TablePlaces] = []
        for number in sorted(done):
            rows = [row for row in tables if row.round == number]
            points: list[tuple[Fraction, ...] | None] = [None] * len(rows)
            if info.format == DUPLICATE and len(rows) > 1:
                comparison = compare([row.sheets for row in rows], info.table_size)
                points = [tuple(Fraction(mp, 2) for mp in seats) for seats in comparison.matchpoints]
            elif info.format == DUPLICATE:  # one table alone has nothing to compare: every seat earns 0
                points = [tuple(Fraction(0) for _ in row.seats) for row in rows]
            for row, earned in zip(rows, points, strict=True):
                results.append(TablePlaces(number, row.seats, _places(row), earned))
        byes = {r.round: [(entrant, info.table_size) for entrant in r.byes] for r in rounds if r.round in done}
        if info.format == DUPLICATE:
            byes = {}  # a duplicate bye earns nothing: there is no deal to compare it with
        lines = standings([e.id for e in info.entrants], results, byes)
        if info.format == KNOCKOUT and tables:
            last = max(row.round for row in tables)
            final = [row for row in tables if row.round == last]
            if len(final) == 1 and last in done:  # a knockout's final was played: its places are the podium
                lines = _final_first(lines, final[0])
            elif last in done:  # over without a final when one person alone went on: the last one standing wins
                playing = {entrant.id for entrant in info.playing}
                going = [e for e in self._knockout_seeds(info, last + 1, tables) if e in playing]
                if len(going) == 1:
                    lines = _first(lines, going[0])
        return lines

    def _knockout_seeds(self, info: TournamentInfo, round_no: int, tables: Sequence[trepo.EventTableRow]) -> list[int]:
        """Round ``round_no``'s seed order in a knockout: round 1 drawn from the event's seed, each later round
        by the places of the round before, a tie by that round's seeds (so a tie across the cut goes to the
        higher seed, as the standings' tie-breaks, level for two people tied at one table, would not)."""
        seeds = first_round_order([entrant.id for entrant in info.entrants], info.seed)
        for number in range(1, round_no):
            results = [TablePlaces(number, row.seats, _places(row)) for row in tables if row.round == number]
            seeds = advancing(results, info.advance, seeds)
        return seeds

    # Sign-up ---------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: dict[str, Any] | None = None,
        *,
        format: str = SWISS,
        table_size: int | None = None,
        rounds: int = 3,
        advance: int = 1,
        computers: bool = True,
        rated: bool = True,
        starts_at: datetime | None = None,
        compare_after: str | None = None,
    ) -> TournamentInfo:
        """A tournament in sign-up, its host the first entrant. Every argument is checked first: a refusal
        writes nothing. ``compare_after`` (a duplicate night only): its comparison after each ``deal``, or at
        the end of each ``round`` (the default)."""
        if game not in GAMES:
            raise BadOptions("unknown_game", game=game, allowed=", ".join(GAMES))
        if format not in FORMATS:
            raise BadOptions("bad_format", value=format, allowed=", ".join(FORMATS))
        allowed = GAMES[game].players
        size = table_size if table_size is not None else max(allowed)
        if size not in allowed:
            raise BadOptions(
                "bad_table_size",
                game=game,
                allowed=", ".join(map(str, allowed)),
                allowed_counts=tuple(allowed),
                players=size,
            )
        options = checked_options(game, options, size)
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadOptions("bad_rounds", value=rounds, most=MAX_ROUNDS)
        if format == KNOCKOUT and not 1 <= advance < size:
            raise BadOptions("bad_advance", value=advance, most=size - 1)
        if compare_after is not None and format != DUPLICATE:
            raise BadOptions("compare_duplicate_only")
        if compare_after is not None and compare_after not in COMPARE_TIMES:
            raise BadOptions("bad_compare_after", value=compare_after, allowed=", ".join(COMPARE_TIMES))
        now = self.store.clock()
        if starts_at is not None and (starts_at <= now or starts_at - now > LONGEST_WAIT):
            raise BadOptions("bad_start_time", days=LONGEST_WAIT.days)
        seed = secrets.randbits(62)

        async def work(connection: AsyncConnection) -> int:
            await repo.ensure_guild(connection, guild_id)
            await repo.remember_player(connection, guild_id, host_id, readable_name(host_name))
            if await trepo.open_in_guild(connection, guild_id) >= MAX_OPEN_TOURNAMENTS:
                raise BatchRollback(TooMany("server_tournaments_full", limit=MAX_OPEN_TOURNAMENTS))
            tournament_id = await trepo.insert_tournament(
                connection,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=game,
                options=options,
                format=format,
                table_size=size,
                rounds=rounds,
                advance=advance if format == KNOCKOUT else 1,
                computers=computers,
                rated=rated,
                starts_at=starts_at,
                seed=seed,
                status=SIGNUP,
                round=0,
                created_at=now,
                compare_after=compare_after or AFTER_ROUND,
            )
            await trepo.insert_entrant(connection, tournament_id, host_id, now)
            return tournament_id

        tournament_id = await self.store.db.write(work)
        return await self._changed(tournament_id, "signup")

    async def set_message(self, tournament_id: int, message_id: int | None, *, podium: bool = False) -> None:
        """Where the presentation posted the sign-up message (``podium``: the podium, once finished); None: it is
        gone (deleted in the channel)."""
        column = "podium_message_id" if podium else "message_id"

        async def work(connection: AsyncConnection) -> None:
            await trepo.update_tournament(connection, tournament_id, {}, **{column: message_id})

        await self.store.db.write(work)

    async def language_changed(self, guild_id: int) -> None:
        """The server's language changed: each of its open tournaments says so, for its sign-up to be drawn again."""
        async with self.store.db.engine.connect() as connection:
            open_now = await trepo.open_ids_in_guild(connection, guild_id)
        for tournament_id, round_no in open_now:
            self.events.publish(TournamentChanged(tournament_id, guild_id, LANGUAGE_CHANGED, round_no))

    async def _changed(self, tournament_id: int, what: str, refusal: TableError | None = None) -> TournamentInfo:
        info = await self.tournament(tournament_id)
        self.events.publish(TournamentChanged(info.id, info.guild_id, what, info.round, refusal=refusal))
        return info

    async def join(self, tournament_id: int, guild_id: int, user_id: int, name: str) -> TournamentInfo:
        """Sign up (only in sign-up, only from the tournament's own server, once)."""
        info = await self.tournament(tournament_id)
        if info.guild_id != guild_id:
            raise NotAllowed("tournament_elsewhere")
        self._in_signup(info)
        if info.entrant_of(user_id) is not None:
            raise NotAllowed("already_entered")
        if len(info.entrants) >= MAX_ENTRANTS:
            raise TooMany("tournament_full", limit=MAX_ENTRANTS)
        now = self.store.clock()

        async def work(connection: AsyncConnection) -> None:
            if not await trepo.update_tournament(connection, tournament_id, {"status": SIGNUP}):
                raise BatchRollback(WrongStatus("tournament_started"))
            await repo.remember_player(connection, guild_id, user_id, readable_name(name))
            try:
                await trepo.insert_entrant(connection, tournament_id, user_id, now)
            except IntegrityError:  # the unique key: signed up a moment ago in another process
                raise BatchRollback(NotAllowed("already_entered")) from None

        await self.store.db.write(work)
        return await self._changed(tournament_id, "signup")

    @staticmethod
    def _in_signup(info: TournamentInfo) -> None:
        if info.status == RUNNING:
            raise WrongStatus("tournament_started")
        if info.status != SIGNUP:
            raise WrongStatus("tournament_closed")

    @staticmethod
    def _host_only(info: TournamentInfo, user_id: int, can_manage: bool = False) -> None:
        if user_id != info.host_id and not can_manage:
            raise NotAllowed("not_tournament_host")

    async def leave(self, tournament_id: int, user_id: int) -> TournamentInfo:
        """Leave in sign-up, or withdraw between rounds (not seated in the rounds to come)."""
        info = await self.tournament(tournament_id)
        entrant = info.entrant_of(user_id)
        if entrant is None:
            raise NotAllowed("not_entered_you")  # said to the one who pressed Leave: "you", not "that person"
        return await self._drop(info, entrant)

    async def remove(
        self, tournament_id: int, by_user: int, entrant_id: int, *, can_manage: bool = False
    ) -> TournamentInfo:
        """The host (or someone who can manage the server) takes an entrant (a person or a computer) out: in
        sign-up, or before the next round."""
        info = await self.tournament(tournament_id)
        self._host_only(info, by_user, can_manage)
        entrant = next((e for e in info.playing if e.id == entrant_id), None)
        if entrant is None:
            raise NotAllowed("not_entered")
        return await self._drop(info, entrant)

    async def replace(
        self, tournament_id: int, by_user: int, entrant_id: int, user_id: int, name: str, *, can_manage: bool = False
    ) -> TournamentInfo:
        """The host (or someone who can manage the server) puts someone in a no-show's place (a person or a
        computer entrant): in sign-up, or during the tournament for the rounds to come, with the standing so far.
        Not someone already entered."""
        info = await self.tournament(tournament_id)
        self._host_only(info, by_user, can_manage)
        if not info.is_open:
            raise WrongStatus("tournament_closed")
        entrant = next((e for e in info.playing if e.id == entrant_id), None)
        if entrant is None:
            raise NotAllowed("not_entered")
        if info.entrant_of(user_id) is not None:
            raise NotAllowed("already_entered")

        async def work(connection: AsyncConnection) -> None:
            if not await trepo.update_tournament(connection, info.id, {"status": info.status, "round": info.round}):
                raise BatchRollback(WrongStatus("tournament_moved_on"))
            await repo.remember_player(connection, info.guild_id, user_id, readable_name(name))
            try:
                await trepo.replace_entrant(connection, entrant.id, user_id)
            except IntegrityError:  # entered a moment ago in another process
                raise BatchRollback(NotAllowed("already_entered")) from None

        await self.store.db.write(work)
        return await self._changed(info.id, "signup")

    async def _drop(self, info: TournamentInfo, entrant: EntrantInfo) -> TournamentInfo:
        if not info.is_open:
            raise WrongStatus("tournament_closed")
        now, status = self.store.clock(), info.status

        async def work(connection: AsyncConnection) -> None:
            if not await trepo.update_tournament(connection, info.id, {"status": status, "round": info.round}):
                raise BatchRollback(WrongStatus("tournament_moved_on"))
            if status == SIGNUP:
                await trepo.delete_entrant(connection, entrant.id)
            else:
                await trepo.withdraw_entrant(connection, entrant.id, now)

        await self.store.db.write(work)
        return await self._changed(info.id, "signup")

    async def add_computer(self, tournament_id: int, by_user: int, *, can_manage: bool = False) -> TournamentInfo:
        """The host (or someone who can manage the server) signs up a computer player (the strong level), in
        sign-up only."""
        info = await self.tournament(tournament_id)
        self._host_only(info, by_user, can_manage)
        self._in_signup(info)
        if not info.computers:
            raise NotAllowed("computers_off")
        if len(info.entrants) >= MAX_ENTRANTS:
            raise TooMany("tournament_full", limit=MAX_ENTRANTS)
        now = self.store.clock()

        async def work(connection: AsyncConnection) -> None:
            if not await trepo.update_tournament(connection, tournament_id, {"status": SIGNUP}):
                raise BatchRollback(WrongStatus("tournament_started"))
            await trepo.insert_entrant(connection, tournament_id, None, now)

        await self.store.db.write(work)
        return await self._changed(tournament_id, "signup")

    async def cancel(
        self, tournament_id: int, by_user: int, *, can_manage: bool = False, refusal: TableError | None = None
    ) -> TournamentInfo:
        """The host (or someone who can manage the server) cancels; the open tables of the round end. ``refusal``:
        the start's, when its start time came with too few entrants (the channel is told why)."""
        info = await self.tournament(tournament_id)
        self._host_only(info, by_user, can_manage)
        if not info.is_open:
            raise WrongStatus("tournament_closed")
        now = self.store.clock()

        async def work(connection: AsyncConnection) -> None:
            if not await trepo.update_tournament(
                connection, tournament_id, {"status": (SIGNUP, RUNNING)}, status=CANCELLED, finished_at=now
            ):
                raise BatchRollback(WrongStatus("tournament_closed"))

        await self.store.db.write(work)
        for table in await self.round_tables(tournament_id):  # every round's: one may have opened since the read
            if table.status in OPEN_STATUSES:
                try:
                    await self.abandoner.abandon(table.table_id, info.host_id, can_manage=True)
                except TableError:
                    log.info("table %s of tournament %s had already ended", table.table_id, tournament_id)
                except LogDoesNotReplay:  # no move can be made there: closed by its row, the others go on
                    log.exception("table %s of tournament %s could not be read; closed", table.table_id, tournament_id)
                    await self.abandoner.close_unreadable(table.table_id)
                except Exception:
                    log.exception("table %s of tournament %s failed to end", table.table_id, tournament_id)
        return await self._changed(tournament_id, "cancelled", refusal)

    # Rounds ----------------------------------------------------------------------

    async def start(self, tournament_id: int, by_user: int | None, *, can_manage: bool = False) -> TournamentInfo:
        """The host (or someone who can manage the server: a host gone home) starts it (``by_user`` None: its
        start time came): round 1's tables open."""
        info = await self.tournament(tournament_id)
        if by_user is not None:
            self._host_only(info, by_user, can_manage)
        self._in_signup(info)
        self._enough_to_start(info)
        opened = await self._open_round(info, 1)
        if not opened:
            raise WrongStatus("tournament_started")
        return await self._changed(tournament_id, "started")

    def _enough_to_start(self, info: TournamentInfo) -> None:
        """BadOptions unless the entrants can start it: two at least; enough for a table without computers; for a
        duplicate night, enough for two tables (one would compare nothing)."""
        people = len(info.playing)
        if info.format == DUPLICATE:
            least = info.table_size + 1 if info.computers else 2 * info.table_size
            if people < least:
                raise BadOptions("too_few_for_duplicate", least=least, entrants=people, size=info.table_size)
        elif people < 2:
            raise BadOptions("too_few_entrants", least=2, entrants=people)
        elif not info.computers and people < (least := min(self._allowed(info))):
            raise BadOptions("too_few_entrants", least=least, entrants=people)

    def _allowed(self, info: TournamentInfo) -> list[int]:
        """The table sizes a round may seat: up to the tournament's, those the game plays with its options (Oxford
        Ninety-Nine is for three: a table of two would never start, and the round never close)."""
        if info.format == DUPLICATE:  # every table of a round the same size: the same deals
            return [info.table_size]
        return [
            size for size in GAMES[info.game].players if size <= info.table_size and fits(info.game, info.options, size)
        ]

    def _plan(
        self,
        info: TournamentInfo,
        round_no: int,
        tables: Sequence[trepo.EventTableRow],
        rounds: Sequence[Any],
    ) -> RoundPlan | None:
        """The next round's seating, or None when the tournament is over."""
        playing = [entrant.id for entrant in info.playing]
        if info.format == KNOCKOUT:
            if round_no == 1:
                order = first_round_order(playing, info.seed)
            else:
                last = [row for row in tables if row.round == round_no - 1]
                seated = [seat for row in last for seat in row.seats if seat is not None]
                if len(last) == 1:
                    return None  # the final was played
                left = {seat for row in last for seat in row.seats if seat is not None} - set(playing)
                results = [TablePlaces(round_no - 1, row.seats, _places(row)) for row in last]
                seeds = self._knockout_seeds(info, round_no - 1, tables)
                order = [e for e in advancing_without(results, info.advance, seeds, left) if e in set(playing)]
                fewest = min(self._allowed(info) or GAMES[info.game].players)
                if is_final(len(order), info.table_size) and not info.computers and len(order) < fewest:
                    # A final the game cannot seat (two going on to a game of three or more): the next best of
                    # the round before go on too, by place, then seed, until it can be played.
                    rank = {entrant: index for index, entrant in enumerate(seeds)}
                    place = {e: p for r in results for e, p in zip(r.seats, r.places, strict=True) if e is not None}
                    rest = sorted(
                        (e for e in place if e not in order and e in set(playing)),
                        key=lambda e: (place[e], rank.get(e, len(rank))),
                    )
                    order += rest[: fewest - len(order)]
                if len(order) < 2 or len(seated) < 2:
                    return None
            if is_final(len(order), info.table_size):
                return RoundPlan(
                    ((*order, *([None] * (info.table_size - len(order)))),) if info.computers else (tuple(order),)
                )
            return knockout_round(order, info.table_size, self._allowed(info), info.computers)
        if round_no > info.rounds:
            return None
        if round_no == 1:
            order = first_round_order(playing, info.seed)
        else:
            ranked = [line.entrant for line in self._standings(info, tables, rounds)]
            order = [entrant for entrant in ranked if entrant in set(playing)]
        met: Counter[tuple[int, int]] = Counter()
        for row in tables:
            people = [seat for seat in row.seats if seat is not None]
            for i, a in enumerate(people):
                for b in people[i + 1 :]:
                    met[pair_key(a, b)] += 1
        byes: Counter[int] = Counter(entrant for r in rounds for entrant in r.byes)
        return swiss_round(order, met, byes, info.table_size, self._allowed(info), info.computers)

    async def _open_round(self, info: TournamentInfo, round_no: int) -> bool:
        """Write round ``round_no`` and its tables once (False if another process or call did, or the
        tournament is over, which is then marked finished), then start its tables."""
        now = self.store.clock()
        seed = round_seed(info.seed, round_no)
        async with self.store.db.engine.connect() as connection:  # read before the write: an abandoned table
            abandoned = await self._abandoned_sheets(info, await trepo.event_tables(connection, info.id))  # stays so

        async def work(connection: AsyncConnection) -> list[int] | None:
            # The row locked first, then read: a Leave (or Cancel) committed before is seen, one after waits and
            # then finds the round moved on (read first, a Leave between the read and the write was seated anyway).
            if not await trepo.update_tournament(
                connection, info.id, {"status": (SIGNUP, RUNNING), "round": round_no - 1}
            ):
                return None
            tables = _with_sheets(await trepo.event_tables(connection, info.id), abandoned)
            rounds = await trepo.rounds(connection, info.id)
            fresh = _info(await trepo.tournament(connection, info.id), await trepo.entrants(connection, info.id))
            if round_no == 1:  # checked again under the lock: a Leave committed since the start's read
                try:
                    self._enough_to_start(fresh)
                except BadOptions as short:
                    raise BatchRollback(short) from None
            plan = self._plan(fresh, round_no, tables, rounds)
            humans = {entrant.id: entrant.user_id for entrant in fresh.entrants}
            if plan is None or not plan.tables:
                if await trepo.update_tournament(
                    connection, info.id, {"status": RUNNING, "round": round_no - 1}, status=DONE, finished_at=now
                ):  # the final standings' places, as the podium shows them, kept for /history and /stats
                    places = {line.entrant: line.rank for line in self._standings(fresh, tables, rounds)}
                    await trepo.set_places(connection, places)
                    return []
                return None
            values: dict[str, Any] = {"round": round_no, "status": RUNNING}
            if round_no == 1:
                values["started_at"] = now
            if not await trepo.update_tournament(
                connection, info.id, {"status": (SIGNUP, RUNNING), "round": round_no - 1}, **values
            ):
                return None
            await trepo.insert_round(connection, info.id, round_no, seed, plan.byes, now)
            opened = []
            for number, seats in enumerate(plan.tables, start=1):
                table_seed = seed if info.format == DUPLICATE else secrets.randbits(62)
                table_id = await repo.insert_table(
                    connection,
                    guild_id=info.guild_id,
                    channel_id=info.channel_id,
                    thread_id=None,
                    channel_slot=None,
                    game=info.game,
                    options=info.options,
                    players=len(seats),
                    seed=table_seed,
                    status=LOBBY,
                    host_id=info.host_id,
                    turn_seconds=None,
                    hints=not info.rated,
                    private=info.format == DUPLICATE,  # the same cards at every table: each seen by its own only
                    created_at=now,
                    version=0,
                    action_count=0,
                )
                for seat in seats:
                    user = humans.get(seat) if seat is not None else None
                    await repo.insert_seat(connection, table_id, user, now, "strong" if user is None else None)
                await trepo.insert_event_table(connection, info.id, round_no, number, table_id, seats)
                opened.append(table_id)
            return opened

        opened = await self.store.db.write(work)
        if opened is None:
            return False
        if round_no > 1:  # the round before is over: its standings (and comparison) come first
            self.events.publish(TournamentChanged(info.id, info.guild_id, "round_done", round_no - 1))
        if not opened:
            await self._changed(info.id, "finished")
            return True
        await self._start_tables(opened)
        self._announced.published((info.id, round_no), self.store.clock())
        self.events.publish(TournamentChanged(info.id, info.guild_id, "round_opened", round_no))
        return True

    async def _start_tables(self, table_ids: Sequence[int]) -> None:
        for table_id in table_ids:
            try:
                await self.starter.start_seated(table_id)
            except TableError as error:  # the next re-check tries again
                log.warning("table %s of a tournament could not start: %s", table_id, error)

    async def _heard(self, event: Event) -> None:
        if isinstance(event, MatchEnded):
            tournament_id = await self.tournament_of_table(event.table_id)
            if tournament_id is not None:
                await self.advance(tournament_id)
        elif isinstance(event, TableChanged) and "deal" in event.kinds() and event.table.status == PLAYING:
            tournament_id = await self.tournament_of_table(event.table_id)
            if tournament_id is not None:
                await self.compare_deals(tournament_id)

    async def compare_deals(self, tournament_id: int) -> list[int]:
        """A duplicate night compared after each deal: claim and publish the comparison of every deal of the
        round under way that every table has scored and nobody compared yet (see
        :mod:`bot.tables.tournament_comparisons`). The deals this call claimed."""
        lock = self._advancing.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            info = await self.tournament(tournament_id)
            if info.status != RUNNING:
                return []
            return await self.comparisons.catch_up(info, info.round)

    async def advance(self, tournament_id: int) -> bool:
        """If every table of the round under way is over: its standings, then the next round (or the end).
        True if this call moved the tournament on. Safe to call any number of times, anywhere."""
        lock = self._advancing.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            info = await self.tournament(tournament_id)
            if info.status != RUNNING:
                return False
            tables = await self.round_tables(tournament_id, info.round)
            waiting = [table.table_id for table in tables if table.status == LOBBY]
            if waiting:  # written, never started (a crash in between): start them now
                await self._start_tables(waiting)
                return False
            await self.comparisons.catch_up(info, info.round)  # a deal's comparison before the standings
            unshown = [table for table in tables if table.status in OPEN_STATUSES and table.message_id is None]
            if unshown and await self._post_again(info):
                self.events.publish(TournamentChanged(info.id, info.guild_id, "round_opened", info.round))
            elif not unshown:
                self._announced.shown((info.id, info.round))
            if not tables or any(table.status in OPEN_STATUSES for table in tables):
                return False
            return await self._open_round(info, info.round + 1)

    async def _post_again(self, info: TournamentInfo) -> bool:
        """Whether the round under way, some of whose tables are not posted, is to be announced again now: by
        this process, if it announced it (Discord failed to take a table's message: a 5xx, the network) and the
        time has come (``Reposts``); else if it was left unposted by another."""
        key, now = (info.id, info.round), self.store.clock()
        if self._announced.known(key):
            return self._announced.due(key, now)
        if await self._left_unposted(info):
            self._announced.published(key, now)
            return True
        return False

    async def _left_unposted(self, info: TournamentInfo) -> bool:
        """Whether the round's tables not posted yet were left so (by a process that stopped), rather than
        being posted right now by the process that opened the round: the round was opened before this
        process started, or longer ago than ``REPOST_AFTER``."""
        async with self.store.db.engine.connect() as connection:
            opened = next(
                (r.created_at for r in await trepo.rounds(connection, info.id) if r.round == info.round), None
            )
        return opened is not None and (opened < self._born or self.store.clock() - opened > REPOST_AFTER)

    async def recheck(self) -> None:
        """At start-up and now and then: start what is due, mend a round half opened, advance what finished."""
        async with self.store.db.engine.connect() as connection:
            rows = await trepo.running(connection)
        now = self.store.clock()
        for row in rows:
            if not self.store.shards.owns(row.guild_id):
                continue
            try:
                if row.status == SIGNUP and row.starts_at is not None and row.starts_at <= now:
                    await self._start_when_due(row.id)
                elif row.status == RUNNING:
                    await self.advance(row.id)
            except TableError as error:
                log.info("tournament %s: %s", row.id, error)
        # a deal's comparison Discord failed to take in a round since closed (its last deal: the standings went out
        # after it), or of a tournament over: tried again too
        await self.comparisons.repost_left(self.store.shards.owns)

    async def _start_when_due(self, tournament_id: int) -> None:
        try:
            await self.start(tournament_id, None)
        except BadOptions as short:  # too few signed up by the start time: it is called off, saying why
            info = await self.tournament(tournament_id)
            await self.cancel(tournament_id, info.host_id, refusal=short)

    async def run_forever(self, every: float = 15.0) -> None:
        """Re-check every ``every`` seconds (scheduled starts; a round whose last MatchEnded was heard by a
        process that stopped before advancing)."""
        while True:
            try:
                await self.recheck()
            except Exception:
                log.exception("the tournaments' re-check failed")
            await asyncio.sleep(every)

    def start_loop(self, every: float = 15.0) -> None:
        if self._loop is None or self._loop.done():
            self._loop = asyncio.get_running_loop().create_task(self.run_forever(every), name="tournaments")

    async def close(self) -> None:
        """Stop hearing the tables (a round half opened is mended by the next re-check), the loop, the events."""
        await self._hearing.close()
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
            self._loop = None
        await self.events.close()
