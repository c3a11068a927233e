"""The table service: lobby → play → result, between the engines and the database.

It never imports discord: every call takes user ids and returns plain data
(:mod:`bot.tables.records`). Every write is committed before the call returns,
and every refusal is a :class:`~bot.tables.errors.TableError` with nothing
written.

Computer players never hold up a call: a call commits and returns, and a
driver task per table (:mod:`bot.tables.computers`) plays the computers'
turns, thinking in worker processes (:mod:`bot.tables.thinking`) without the
table's lock, and hands each outcome to the listeners (:meth:`TableService.listen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.games import GAMES, GameError, IllegalAction, InvalidGame, new_game
from bot.games.options import resolve
from bot.players import LEVELS
from bot.storage import leaderboard as board
from bot.storage import repository as repo
from bot.storage.database import BatchRollback, Database
from bot.storage.models import (
    ABANDONED,
    DEFAULT_COMPUTER_PACE_MS,
    DEFAULT_GRACE_SECONDS,
    DEFAULT_TURN_SECONDS,
    FINISHED,
    LOBBY,
    PLAYING,
    utcnow,
)

from .computers import STRONG, Drivers, Turn, next_turn, pause_left, play_turn, stand_in
from .errors import ActionRefused, BadOptions, ChannelBusy, NotAllowed, StaleAction, TableNotFound, WrongStatus
from .live import LiveSeat, LiveTable, Step, sides_of
from .records import GuildSettings, HandSnapshot, Hint, Outcome, TableInfo
from .results import match_record
from .thinking import Choice, Thinker, decision_seed

log = logging.getLogger(__name__)

Listener = Callable[[Outcome], Awaitable[None]]
Sleep = Callable[[float], Awaitable[None]]
UNSET: Any = object()
GUILD_LIMITS = {
    "turn_seconds": (0, 86_400, "seconds"),
    "grace_seconds": (0, 86_400, "seconds"),
    "computer_pace_ms": (0, 10_000, "milliseconds"),
}


async def _nothing_more(connection: AsyncConnection) -> None:
    """A write that is only the table's own columns (set with the version bump)."""


def _stale() -> StaleAction:
    return StaleAction("stale")


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class _MovedOn(Exception):
    """The table moved on while a computer thought: its choice is dropped and it thinks again."""


class TableService:
    """Tables by id, for people by Discord user id. One instance per process.

    ``thinker`` makes the computer players' decisions (None: a :class:`Thinker` with a
    worker process per CPU, started on the first decision and stopped by :meth:`close`;
    one passed in is the caller's to close). ``sleep`` waits out the computers' pace
    (tests pass one that moves their clock instead).
    """

    def __init__(
        self,
        database: Database,
        *,
        clock: Callable[[], datetime] = utcnow,
        thinker: Thinker | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.db = database
        self.clock = clock
        self.sleep = sleep
        self._thinker = thinker
        self._own_thinker = thinker is None
        self._live: dict[int, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._timer_task: asyncio.Task[None] | None = None
        self._drivers = Drivers()
        self._listeners: list[Listener] = []
        self._hints: dict[int, tuple[int, dict[int, asyncio.Future[Choice]]]] = {}

    # ------------------------------------------------------------------ lifecycle

    async def load_open_tables(self) -> int:
        """Load every open table (replaying its log) so play resumes at once; return how many."""
        async with self.db.engine.connect() as connection:
            ids = await repo.open_table_ids(connection)
        for table_id in ids:
            await self._get(table_id)
        return len(ids)

    async def close(self) -> None:
        """Stop the timers, the computer players (a move half thought is thought again by the
        next process: nothing of it was written) and hints under way; shut the pool if it is ours."""
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task
            self._timer_task = None
        await self._drivers.close()
        for _, pending in self._hints.values():
            for future in pending.values():
                future.cancel()
        self._hints.clear()
        if self._own_thinker and self._thinker is not None:
            await self._thinker.close()
            self._thinker = None

    def listen(self, listener: Listener) -> None:
        """Send ``listener`` every outcome the service produces on its own: computer moves
        (and the moves of resigned seats and of people whose time ran out) and reminders."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    async def _notify(self, outcome: Outcome) -> None:
        for listener in list(self._listeners):
            try:
                await listener(outcome)
            except Exception:
                log.exception("a listener failed on an outcome of table %s", outcome.table.id)

    async def settle(self, table_id: int | None = None) -> None:
        """Wait until no computer player is thinking or due to move at ``table_id`` (or any table)."""
        await self._drivers.settle(table_id)

    def run_timers_forever(self, listener: Listener, interval: float = 1.0) -> asyncio.Task[None]:
        """Poll the turn deadlines every ``interval`` seconds; ``listener`` is registered with
        :meth:`listen` and hears every reminder, timeout and computer move."""
        self.listen(listener)

        async def loop() -> None:
            while True:
                try:
                    for outcome in await self.run_timers():
                        await self._notify(outcome)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("turn timers failed; retrying")
                await asyncio.sleep(interval)

        self._timer_task = asyncio.create_task(loop(), name="turn-timers")
        return self._timer_task

    # ------------------------------------------------------------------ loading

    async def _get(self, table_id: int) -> LiveTable:
        live = self._live.get(table_id)
        if live is not None:
            return live
        async with self._loading:
            live = self._live.get(table_id)
            if live is not None:
                return live
            async with self.db.engine.connect() as connection:
                stored = await repo.load_table(connection, table_id)
            if stored is None:
                raise TableNotFound("table_not_found", table=table_id)
            row, guild = stored.table, stored.guild
            seats = [
                LiveSeat(
                    id=seat.id,
                    user_id=seat.user_id,
                    name=stored.names.get(seat.user_id, "") if seat.user_id is not None else "",
                    position=seat.position,
                    absent=seat.absent,
                    resigned=seat.resigned,
                    level=seat.computer_level if seat.user_id is None else None,
                )
                for seat in stored.seats
                if seat.left_at is None
            ]
            if row.status != LOBBY:
                seats.sort(key=lambda seat: seat.position if seat.position is not None else -1)
            live = LiveTable(
                id=row.id,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                thread_id=row.thread_id,
                message_id=row.message_id,
                game=row.game,
                options=dict(row.options),
                players=row.players,
                seed=row.seed,
                status=row.status,
                host_id=row.host_id,
                turn_override=row.turn_seconds,
                guild_turn=guild.turn_seconds,
                guild_grace=guild.grace_seconds,
                guild_pace_ms=guild.computer_pace_ms,
                created_at=row.created_at,
                started_at=row.started_at,
                finished_at=row.finished_at,
                version=row.version,
                action_count=row.action_count,
                seats=seats,
                hints=row.hints,
            )
            if row.status != LOBBY and row.started_at is not None:
                live.begin([(action.seat, action.action, action.source) for action in stored.actions])
            self._live[table_id] = live
        self._wake(live)  # after a restart, a computer that was thinking thinks again
        return live

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: int) -> AsyncIterator[LiveTable]:
        """The live table, with its lock held: one call at a time per table."""
        while True:
            live = await self._get(table_id)
            await live.lock.acquire()
            if not live.evicted:
                break
            live.lock.release()
        try:
            yield live
        finally:
            live.lock.release()
            if live.status not in (LOBBY, PLAYING):
                self._evict(live)  # closed tables are read rarely: replay them when asked

    def _evict(self, live: LiveTable) -> None:
        live.evicted = True
        if self._live.get(live.id) is live:
            del self._live[live.id]
        self._hints.pop(live.id, None)

    async def _write(self, live: LiveTable, work: Callable[[AsyncConnection], Awaitable[Any]], **values: Any) -> Any:
        """Commit ``work`` with the table's version check; on any failure forget the live table."""

        async def guarded(connection: AsyncConnection) -> Any:
            if not await repo.claim_version(connection, live.id, live.version, **values):
                raise BatchRollback(_stale())
            return await work(connection)

        return await self._submit(live, guarded)

    async def _submit(self, live: LiveTable, work: Callable[[AsyncConnection], Awaitable[Any]]) -> Any:
        try:
            result = await self.db.write(work)
        except repo.StaleWrite:
            self._evict(live)
            raise _stale() from None
        except BaseException:
            self._evict(live)  # memory may be ahead of the database: replay it next time
            raise
        live.version += 1
        return result

    # ------------------------------------------------------------------ reading

    async def table(self, table_id: int) -> TableInfo:
        return (await self._get(table_id)).info()

    async def table_in_channel(self, channel_id: int, thread_id: int | None = None) -> TableInfo | None:
        async with self.db.engine.connect() as connection:
            table_id = await repo.table_in_channel(connection, channel_id, thread_id)
        return None if table_id is None else await self.table(table_id)

    async def snapshot(self, table_id: int) -> tuple[TableInfo, dict[str, Any] | None]:
        """The table and its public view at one committed moment (None before the match starts)."""
        async with self._locked(table_id) as live:
            return live.info(), (live.public if live.state is not None else None)

    async def public_view(self, table_id: int) -> dict[str, Any]:
        live = await self._get(table_id)
        if live.state is None:
            raise WrongStatus("not_in_play")
        return live.public

    async def hand(self, table_id: int, user_id: int) -> HandSnapshot:
        """The user's seat as it is now, read once under the table's lock, so the table, the view and the
        legal actions are of one version (raises NotAllowed when they have no seat, WrongStatus before play)."""
        async with self._locked(table_id) as live:
            seat = live.seat_of(user_id)
            if seat is None or seat.position is None:
                raise NotAllowed("not_seated")
            if live.state is None:
                raise WrongStatus("not_in_play")
            info = live.info()
            position = seat.position
            on_turn = live.status == PLAYING and not seat.resigned and position in live.state.to_act()
            return HandSnapshot(
                info,
                next(s for s in info.seats if s.index == position),
                live.views[position],
                live.state.legal(position) if on_turn else [],
                live.version,
            )

    async def seat_view(self, table_id: int, user_id: int) -> tuple[int, dict[str, Any]]:
        """The user's seat and everything that seat may see."""
        live = await self._get(table_id)
        seat = live.seat_of(user_id)
        if seat is None or seat.position is None:
            raise NotAllowed("not_seated")
        if live.state is None:
            raise WrongStatus("not_in_play")
        return seat.position, live.views[seat.position]

    async def legal(self, table_id: int, user_id: int) -> list[str]:
        live = await self._get(table_id)
        seat = live.seat_of(user_id)
        if live.state is None or live.status != PLAYING or seat is None or seat.position is None:
            return []
        if seat.resigned or seat.position not in live.state.to_act():
            return []
        return live.state.legal(seat.position)

    # ------------------------------------------------------------------ leaderboard

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10, offset: int = 0) -> list[dict[str, Any]]:
        async with self.db.engine.connect() as connection:
            return await board.top(connection, guild_id, game, limit, offset)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        async with self.db.engine.connect() as connection:
            return await board.board_size(connection, guild_id, game)

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> int | None:
        async with self.db.engine.connect() as connection:
            return await board.rank_of(connection, guild_id, game, user_id)

    async def player_stats(self, guild_id: int, user_id: int, game: str) -> dict[str, Any]:
        async with self.db.engine.connect() as connection:
            return await board.player_stats(connection, guild_id, user_id, game)

    async def recent_matches(
        self, guild_id: int, limit: int = 10, user_id: int | None = None, game: str | None = None, offset: int = 0
    ) -> list[dict[str, Any]]:
        async with self.db.engine.connect() as connection:
            return await board.recent_matches(connection, guild_id, limit, user_id, game, offset)

    async def match_count(self, guild_id: int, user_id: int | None = None, game: str | None = None) -> int:
        async with self.db.engine.connect() as connection:
            return await board.match_count(connection, guild_id, user_id, game)

    async def period_board(self, guild_id: int, game: str, since: datetime) -> list[dict[str, Any]]:
        """Players active in a game since ``since``, ranked by the rating they gained in that time."""
        async with self.db.engine.connect() as connection:
            return await board.period_board(connection, guild_id, game, since)

    async def player_profile(self, guild_id: int, user_id: int, game: str) -> dict[str, Any]:
        """Everything /stats shows of one game: the stats, the best deal, partners (sides of two or more)."""
        async with self.db.engine.connect() as connection:
            stats = await board.player_stats(connection, guild_id, user_id, game)
            stats["best_deal"] = await board.best_deal(connection, guild_id, user_id, game)
            stats["partners"] = await board.partners(connection, guild_id, user_id, game)
            return stats

    async def games_played(self, guild_id: int, user_id: int) -> list[str]:
        async with self.db.engine.connect() as connection:
            return await board.games_played(connection, guild_id, user_id)

    async def guild_languages(self) -> dict[int, str]:
        async with self.db.engine.connect() as connection:
            return await board.guild_languages(connection)

    async def score_sheet(self, match_id: int) -> dict[str, Any] | None:
        async with self.db.engine.connect() as connection:
            return await board.score_sheet(connection, match_id)

    async def table_result(self, table_id: int) -> dict[str, Any] | None:
        """The score sheet of the match a finished table produced (with each seat's rating change)."""
        async with self.db.engine.connect() as connection:
            match_id = await board.match_of_table(connection, table_id)
            return None if match_id is None else await board.score_sheet(connection, match_id)

    # ------------------------------------------------------------------ settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self.db.engine.connect() as connection:
            row = await repo.guild_settings(connection, guild_id)
        if row is None:
            return GuildSettings(
                guild_id, DEFAULT_TURN_SECONDS, DEFAULT_GRACE_SECONDS, True, None, {}, DEFAULT_COMPUTER_PACE_MS
            )
        return GuildSettings(
            guild_id,
            row.turn_seconds,
            row.grace_seconds,
            row.thread_per_table,
            row.language,
            row.default_options,
            row.computer_pace_ms,
        )

    async def update_guild_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        """Change ``turn_seconds``, ``grace_seconds``, ``thread_per_table``, ``language``,
        ``default_options`` or ``computer_pace_ms`` (the pause between computer moves)."""
        for key, value in values.items():
            if key in GUILD_LIMITS:
                low, high, unit = GUILD_LIMITS[key]
                if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                    raise BadOptions("bad_setting", setting=key, value=value, allowed=f"{low} to {high} {unit}")
            elif key == "thread_per_table":
                if not isinstance(value, bool):
                    raise BadOptions("bad_setting", setting=key, value=value, allowed="true or false")
            elif key == "language":
                if value is not None and (not isinstance(value, str) or not 2 <= len(value) <= 16):
                    raise BadOptions("bad_setting", setting=key, value=value, allowed="a language code")
            elif key == "default_options":
                if not isinstance(value, dict):
                    raise BadOptions("bad_setting", setting=key, value=value, allowed="options per game")
                for game, options in value.items():
                    self._check_options(game, options, None)
            else:
                raise BadOptions("bad_setting", setting=key, value=value, allowed="a known setting")

        async def work(connection: AsyncConnection) -> None:
            await repo.update_guild(connection, guild_id, **values)

        await self.db.write(work)
        for live in self._live.values():  # open tables use the new timer settings from their next turn
            if live.guild_id == guild_id:
                live.guild_turn = values.get("turn_seconds", live.guild_turn)
                live.guild_grace = values.get("grace_seconds", live.guild_grace)
                live.guild_pace_ms = values.get("computer_pace_ms", live.guild_pace_ms)
        return await self.guild_settings(guild_id)

    # ------------------------------------------------------------------ lobby

    @staticmethod
    def _check_options(game: str, options: dict[str, Any] | None, players: int | None) -> dict[str, Any]:
        info = GAMES.get(game)
        try:
            if info is None:
                raise InvalidGame("unknown_game", game=game, allowed=", ".join(GAMES))
            if players is not None:
                new_game(game, players=players, options=options or {}, seed=0)  # options that need a count
            else:
                resolve(game, info.options, options)
        except GameError as error:
            raise BadOptions.from_game(error) from None
        return dict(options or {})

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: dict[str, Any] | None = None,
        players: int | None = None,
        *,
        thread_id: int | None = None,
        turn_seconds: int | None = None,
        own_thread: bool = False,
        hints: bool = False,
    ) -> TableInfo:
        """A new lobby with the host seated. One open table per channel unless it has its own thread
        (``thread_id``, or ``own_thread`` when the thread is made after the lobby is posted).
        ``hints``: players may ask for hints, and the match is not rated."""
        own_thread = own_thread or thread_id is not None
        options = self._check_options(game, options, players)
        if turn_seconds is not None and not 0 <= turn_seconds <= 86_400:
            raise BadOptions("bad_setting", setting="turn_seconds", value=turn_seconds, allowed="0 to 86400 seconds")
        now = self.clock()
        seed = secrets.randbits(62)

        async def work(connection: AsyncConnection) -> tuple[int, int]:
            await repo.ensure_guild(connection, guild_id)
            await repo.remember_player(connection, host_id, host_name)
            if not own_thread and await repo.table_in_channel(connection, channel_id, None) is not None:
                raise BatchRollback(ChannelBusy("channel_busy"))
            try:
                table_id = await repo.insert_table(
                    connection,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    thread_id=thread_id,
                    channel_slot=None if own_thread else channel_id,
                    game=game,
                    options=options,
                    players=players,
                    seed=seed,
                    status=LOBBY,
                    host_id=host_id,
                    turn_seconds=turn_seconds,
                    hints=hints,
                    created_at=now,
                    version=0,
                    action_count=0,
                )
            except IntegrityError:  # another process opened one here a moment ago: undo only this
                raise BatchRollback(ChannelBusy("channel_busy")) from None
            seat_id = await repo.insert_seat(connection, table_id, host_id, now)
            return table_id, seat_id

        table_id, _ = await self.db.write(work)
        return await self.table(table_id)

    async def set_location(self, table_id: int, *, message_id: int | None = None, thread_id: int | None = None) -> None:
        """Where the presentation put the table (its message, its thread)."""
        async with self._locked(table_id) as live:
            values: dict[str, Any] = {}
            if message_id is not None:
                values["message_id"] = message_id
            if thread_id is not None:
                values["thread_id"] = thread_id
            if not values:
                return
            await self._write(live, _nothing_more, **values)
            live.message_id = values.get("message_id", live.message_id)
            live.thread_id = values.get("thread_id", live.thread_id)

    def _lobby(self, live: LiveTable) -> None:
        if live.status != LOBBY:
            raise (
                WrongStatus("not_in_lobby")
                if live.status == PLAYING
                else WrongStatus("table_closed", status=live.status)
            )

    @staticmethod
    def _expect(live: LiveTable, version: int | None) -> None:
        if version is not None and version != live.version:
            raise _stale()

    def _max_seats(self, live: LiveTable) -> int:
        return live.players or max(GAMES[live.game].players)

    async def join(self, table_id: int, user_id: int, name: str) -> TableInfo:
        async with self._locked(table_id) as live:
            self._lobby(live)
            if live.seat_of(user_id) is not None:
                raise NotAllowed("already_seated")
            if len(live.seats) >= self._max_seats(live):
                raise NotAllowed("table_full", players=self._max_seats(live))
            now = self.clock()

            async def work(connection: AsyncConnection) -> int:
                await repo.remember_player(connection, user_id, name)
                return await repo.insert_seat(connection, live.id, user_id, now)

            seat_id = await self._write(live, work)
            live.seats.append(LiveSeat(seat_id, user_id, name))
            return live.info()

    async def add_computer(self, table_id: int, by_user: int, level: str = STRONG) -> TableInfo:
        """The host seats a computer player of ``level`` ("easy" or "strong"). Computers are not rated."""
        if level not in LEVELS:
            raise BadOptions("bad_level", level=level, allowed=", ".join(LEVELS))
        async with self._locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            if len(live.seats) >= self._max_seats(live):
                raise NotAllowed("table_full", players=self._max_seats(live))
            now = self.clock()

            async def work(connection: AsyncConnection) -> int:
                return await repo.insert_seat(connection, live.id, None, now, level)

            seat_id = await self._write(live, work)
            live.seats.append(LiveSeat(seat_id, None, "", level=level))
            return live.info()

    async def set_hints(self, table_id: int, by_user: int, on: bool) -> TableInfo:
        """The host allows hints (the match will not be rated) or not, before the match starts."""
        async with self._locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            if live.hints != on:
                await self._write(live, _nothing_more, hints=on)
                live.hints = on
            return live.info()

    @staticmethod
    def _host_only(live: LiveTable, user_id: int) -> None:
        if user_id != live.host_id:
            raise NotAllowed("not_host")

    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        """Leave a lobby. A host who leaves hands the table to the next person; the last one closes it."""
        async with self._locked(table_id) as live:
            self._lobby(live)
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotAllowed("not_seated")
            return await self._unseat(live, seat)

    async def remove_seat(self, table_id: int, by_user: int, index: int) -> TableInfo:
        """The host removes the seat at ``index`` (join order) from the lobby."""
        async with self._locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            if not 0 <= index < len(live.seats):
                raise NotAllowed("not_a_seat")
            seat = live.seats[index]
            if seat.user_id == live.host_id:
                raise NotAllowed("host_stays")
            return await self._unseat(live, seat)

    async def _unseat(self, live: LiveTable, seat: LiveSeat) -> TableInfo:
        now = self.clock()
        rest = [other for other in live.seats if other is not seat]
        values: dict[str, Any] = {}
        people = [other for other in rest if other.user_id is not None]
        if seat.user_id == live.host_id:
            if people:
                values["host_id"] = people[0].user_id
            else:
                values.update(status=ABANDONED, finished_at=now, channel_slot=None)

        async def work(connection: AsyncConnection) -> None:
            await repo.update_seat(connection, seat.id, left_at=now)
            if values.get("status") == ABANDONED:
                await repo.set_deadline(connection, live.id, live.version + 1, None, None)

        await self._write(live, work, **values)
        live.seats = rest
        live.host_id = values.get("host_id", live.host_id)
        if "status" in values:
            live.status, live.finished_at = ABANDONED, now
        return live.info()

    async def set_options(
        self, table_id: int, by_user: int, options: dict[str, Any] | None = None, players: int | None = UNSET
    ) -> TableInfo:
        """The host changes the options (merged into the current ones) or the player count asked for."""
        async with self._locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            merged = {**live.options, **(options or {})}
            count = live.players if players is UNSET else players
            merged = self._check_options(live.game, merged, count)
            if count is not None and len(live.seats) > count:
                raise NotAllowed("table_full", players=count)
            await self._write(live, _nothing_more, options=merged, players=count)
            live.options, live.players = merged, count
            return live.info()

    async def start(self, table_id: int, by_user: int) -> Outcome:
        """The host starts the match with the seats as they are (in join order)."""
        async with self._locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            info = GAMES[live.game]
            count = len(live.seats)
            if count not in info.players or (live.players is not None and count != live.players):
                allowed = str(live.players) if live.players is not None else ", ".join(map(str, info.players))
                raise BadOptions("bad_player_count", game=live.game, allowed=allowed, players=count)
            try:
                new_game(live.game, players=count, options=live.options, seed=live.seed)
            except GameError as error:
                raise BadOptions.from_game(error) from None
            now = self.clock()
            for position, seat in enumerate(live.seats):
                seat.position = position
            live.status, live.started_at = PLAYING, now
            live.begin()
            step = Step(live, now)
            step.events.append({"kind": "started"})
            return await self._commit(live, step, actor=None, positions=True)

    # ------------------------------------------------------------------ play

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: str,
        *,
        expected_version: int | None = None,
        expected_turn: int | None = None,
    ) -> Outcome:
        """Apply ``user_id``'s action; it is committed before this returns.

        ``expected_version`` (the version the person saw) refuses a click on a table
        that has moved on since. ``expected_turn`` (the seat's ``acted`` count when its
        choices were shown) refuses only a click from before the seat's own last action
        (or a timeout's), so others' moves meanwhile do not spoil a hand that is still right.
        """
        async with self._locked(table_id) as live:
            self._expect(live, expected_version)
            if live.status != PLAYING or live.state is None:
                raise (
                    WrongStatus("not_in_play")
                    if live.status == LOBBY
                    else WrongStatus("table_closed", status=live.status)
                )
            seat = self._player_seat(live, user_id)
            if expected_turn is not None and expected_turn != seat.acted:
                raise _stale()
            if seat.position not in live.state.to_act():
                raise NotAllowed("not_your_turn")
            step = Step(live, self.clock())
            try:
                step.apply(seat.position, action, "player")
            except IllegalAction as error:
                raise ActionRefused.from_game(error) from None
            if seat.absent:
                step.change_seat(seat, absent=False)
            return await self._commit(live, step, actor=seat.position)

    @staticmethod
    def _player_seat(live: LiveTable, user_id: int) -> LiveSeat:
        """The seat the user plays at this match, refusing someone not seated or resigned."""
        seat = live.seat_of(user_id)
        if seat is None or seat.position is None:
            raise NotAllowed("not_seated")
        if seat.resigned:
            raise NotAllowed("resigned")
        return seat

    async def resign(self, table_id: int, user_id: int) -> Outcome:
        """Give up the match: a loss. The strong computer plays the seat on, unless one side of people is left."""
        async with self._locked(table_id) as live:
            if live.status != PLAYING or live.state is None:
                raise WrongStatus("not_in_play")
            seat = self._player_seat(live, user_id)
            step = Step(live, self.clock())
            step.change_seat(seat, resigned=True)
            step.events.append({"kind": "resigned", "seat": seat.position})
            sides = sides_of(live.public, len(live.seats))
            standing = [
                side
                for side in sides
                if any(live.at(p).user_id is not None for p in side) and not any(live.at(p).resigned for p in side)
            ]
            if len(standing) <= 1:
                winners = [p for side in standing for p in side]
                return await self._commit(live, step, actor=seat.position, ended={"winners": winners})
            return await self._commit(live, step, actor=seat.position)

    async def abandon(self, table_id: int, by_user: int, *, can_manage: bool = False) -> Outcome:
        """End a table without rating it: its host, or someone who can manage the server."""
        async with self._locked(table_id) as live:
            if live.status not in (LOBBY, PLAYING):
                raise WrongStatus("table_closed", status=live.status)
            if by_user != live.host_id and not can_manage:
                raise NotAllowed("not_allowed_abandon")
            step = Step(live, self.clock())
            step.abandon = True
            return await self._commit(live, step, actor=None, reason="abandoned")

    async def run_timers(self, now: datetime | None = None) -> list[Outcome]:
        """Remind, or hand to the strong computer player, every seat whose turn deadline has passed.

        Returns the reminders; the moves made for people whose time ran out reach the
        listeners (each with a ``timeout`` event) as the computer makes them.
        """
        now = now or self.clock()
        for live in list(self._live.values()):
            self._wake(live)  # a driver stopped by an error (a database hiccup) starts again
        async with self.db.engine.connect() as connection:
            due = await repo.due_deadlines(connection, now)
        outcomes = []
        for row in due:
            try:
                outcome = await self._timer(row, now)
            except (TableNotFound, StaleAction):
                continue
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def _timer(self, row: Any, now: datetime) -> Outcome | None:
        """Handle one due deadline row (table_id, version, remind_at, act_at)."""
        table_id, version = row.table_id, row.version
        async with self._locked(table_id) as live:
            if live.version != version or live.status != PLAYING or live.state is None:
                return None  # a newer action replaced this deadline, or another process moved on
            state = live.state
            waiting = [p for p in state.to_act() if not live.at(p).on_autopilot]
            if row.remind_at is not None and now < row.act_at:

                async def remind(connection: AsyncConnection) -> None:
                    await repo.mark_reminded(connection, table_id, version)

                await self.db.write(remind)
                event = {"kind": "reminder", "seats": waiting, "act_at": row.act_at.isoformat()}
                return Outcome(live.info(), live.public, dict(live.views), (), (event,))
            # Nothing is written now: the deadline stays due until the computer's move replaces
            # it, so a restart meanwhile hands these turns to the computer again.
            live.overdue.update(waiting)
            self._wake(live)
            return None

    # ------------------------------------------------------------------ computer players

    def _thinking(self) -> Thinker:
        if self._thinker is None:
            self._thinker = Thinker()
        return self._thinker

    def _wake(self, live: LiveTable) -> None:
        """Start the table's driver if a computer player is to act there and none is running."""
        if not live.evicted and next_turn(live) is not None:
            self._drivers.start(live.id, lambda: self._drive(live.id))

    async def _drive(self, table_id: int) -> None:
        """Play the computer players' turns at the table, one decision at a time, until people are awaited.

        The lock is held only to copy the state and to apply the choice: a person's
        click meanwhile is served at once, and if it moves the table on, the choice
        (made for a table that is gone) is dropped and the computer thinks again.
        """
        failures = 0
        while True:
            try:
                moved = await self._computer_move(table_id)
            except _MovedOn:
                continue  # think again about the table as it is now
            except (asyncio.CancelledError, TableNotFound):
                raise
            except Exception:
                # The database may be away for a moment: nothing was kept of the move, so
                # try again a little later rather than leave the table waiting for a touch.
                failures += 1
                log.exception("a computer move at table %s failed (%d in a row); retrying", table_id, failures)
                await asyncio.sleep(min(60.0, 0.5 * 2**failures))
                continue
            failures = 0
            if moved is None:
                return
            await self._notify(moved)
            if moved.table.status != PLAYING:
                return

    async def _computer_move(self, table_id: int) -> Outcome | None:
        """One decision and its outcome (None: no computer is to act, or the match ended meanwhile)."""
        async with self._locked(table_id) as live:
            turn = next_turn(live)
            if turn is None:
                return None
            assert live.state is not None
            state, count = live.state.to_json(), live.action_count
            seed = decision_seed(live.seed, count)
        action = await self._decide(table_id, state, turn, seed)
        if live.status != PLAYING:
            return None  # the match was ended meanwhile (abandoned, or resigned to one side)
        await self._keep_pace(live)
        async with self._locked(table_id) as current:
            if current is not live or current.action_count != count or next_turn(current) != turn:
                raise _MovedOn  # a click, a timeout or a restart came first
            try:
                return await self._commit(current, self._computer_step(current, turn, action, seed), actor=None)
            except StaleAction:
                raise _MovedOn from None  # another process moved the table on: it is reloaded

    async def _decide(self, table_id: int, state: str, turn: Turn, seed: int) -> str | None:
        try:
            return (await self._thinking().decide(state, turn.position, turn.level, seed)).action
        except Exception:
            log.exception("the computer player failed at table %s (seat %s)", table_id, turn.position)
            return None

    def _computer_step(self, live: LiveTable, turn: Turn, action: str | None, seed: int) -> Step:
        assert live.state is not None
        if action is not None and action not in live.state.legal(turn.position):
            log.error("the computer player chose %r, which is not legal, at table %s", action, live.id)
            action = None
        step = Step(live, self.clock())
        play_turn(step, turn, action or stand_in(live, turn.position, seed))  # play goes on however it failed
        return step

    async def _keep_pace(self, live: LiveTable) -> None:
        """Wait so that people can follow: the guild's pace after the last move (longer after a trick)."""
        wait = pause_left(live, self.clock(), live.guild_pace_ms)
        if wait > 0:
            await self.sleep(wait)

    async def hint(self, table_id: int, user_id: int) -> Hint:
        """What the strong computer player would do in the person's seat, from that seat's knowledge only."""
        async with self._locked(table_id) as live:
            if live.status != PLAYING or live.state is None:
                raise WrongStatus("not_in_play")
            if not live.hints:
                raise NotAllowed("hints_off")
            seat = self._player_seat(live, user_id)
            if seat.position not in live.state.to_act():
                raise NotAllowed("not_your_turn")
            count, pending = self._hints.get(table_id, (-1, {}))
            if count != live.action_count:  # hints of earlier turns are of no use now
                count, pending = live.action_count, {}
                self._hints[table_id] = (count, pending)
            future = pending.get(seat.position)
            if future is None or (future.done() and (future.cancelled() or future.exception() is not None)):
                thinking = self._thinking().decide(
                    live.state.to_json(), seat.position, STRONG, decision_seed(live.seed, count)
                )
                future = pending[seat.position] = asyncio.ensure_future(thinking)
                future.add_done_callback(_retrieved)  # its asker may have gone: no "never retrieved" warning
        choice = await asyncio.shield(future)  # a second click while thinking waits for the same hint
        return Hint(choice.action, choice.aim, choice.rate, choice.samples)

    # ------------------------------------------------------------------ committing

    async def _commit(
        self,
        live: LiveTable,
        step: Step,
        *,
        actor: int | None,
        positions: bool = False,
        ended: dict[str, Any] | None = None,
        reason: str = "everyone absent for a whole deal",
    ) -> Outcome:
        """Write the step (actions, seats, deadline, result) in one transaction, then describe it."""
        state = live.state
        now = step.now or self.clock()
        values: dict[str, Any] = {"action_count": live.action_count + len(step.records)}
        if positions:
            values.update(status=PLAYING, started_at=live.started_at)
        finished = state is not None and (state.is_over() or ended is not None) and not step.abandon
        if step.abandon:
            values.update(status=ABANDONED, finished_at=now, channel_slot=None)
            step.events.append({"kind": "abandoned", "reason": reason})
        elif finished:
            values.update(status=FINISHED, finished_at=now, channel_slot=None)
        deadline = None if step.abandon or finished else self._deadline(live, now)
        seat_positions = {seat.id: seat.position for seat in live.seats} if positions else {}
        record = match_record(live, now, ended) if finished else None

        async def work(connection: AsyncConnection) -> dict[str, Any] | None:
            await repo.append_actions(connection, step.records)
            for seat_id, position in seat_positions.items():
                await repo.update_seat(connection, seat_id, position=position)
            for seat_id, changes in step.seat_changes.items():
                await repo.update_seat(connection, seat_id, **changes)
            remind_at, act_at = deadline or (None, None)
            await repo.set_deadline(connection, live.id, live.version + 1, remind_at, act_at)
            if record is not None:
                return await record.write(connection)
            return None

        plain_move = (
            step.records
            and not step.seat_changes
            and not seat_positions
            and record is None
            and list(values) == ["action_count"]
        )
        if plain_move:
            remind_at, act_at = deadline or (None, None)
            move = repo.MoveWrite(live.id, live.version, values["action_count"], step.records, remind_at, act_at)
            summary = await self._submit(live, move)
        else:
            summary = await self._write(live, work, **values)
        live.action_count += len(step.records)
        if "status" in values:
            live.status = values["status"]
            live.finished_at = values.get("finished_at", live.finished_at)
        if summary is not None:
            step.events.append({"kind": "match_over", **summary})
        if step.records or positions:  # the computers' pace counts from here
            live.moved_at = now
            live.after_trick = any(event["kind"] in ("trick", "deal") for event in step.events)
        changed = live.refresh_views() if live.state is not None else ()
        self._wake(live)
        return Outcome(live.info(), live.public, dict(live.views), changed, tuple(step.events), actor)

    def _deadline(self, live: LiveTable, now: datetime) -> tuple[datetime | None, datetime] | None:
        """When to remind and when to play for the seats to act (None: no timer)."""
        if live.state is None or live.turn_seconds <= 0:
            return None
        waiting = [live.at(p) for p in live.state.to_act() if not live.at(p).on_autopilot]
        if not waiting:
            return None
        grace = timedelta(seconds=live.guild_grace)
        if all(seat.absent for seat in waiting):
            return None, now + grace  # someone who is away is not kept waiting for twice
        remind_at = now + timedelta(seconds=live.turn_seconds)
        return remind_at, remind_at + grace
