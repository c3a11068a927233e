"""The lobby: opening a table, seats (people and computers), options, hints, and the start."""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.games import GAMES, GameError, new_game
from bot.players import LEVELS
from bot.storage import repository as repo
from bot.storage.database import BatchRollback
from bot.storage.models import (
    ABANDONED,
    LOBBY,
    PLAYING,
    SLOTS_FREED,
)

from .computers import STRONG
from .errors import BadOptions, ChannelBusy, NotAllowed, TableError, TooMany, WrongStatus
from .events import LobbyChanged
from .live import LiveSeat, LiveTable, Step
from .names import readable_name
from .records import GuildSettings, Outcome, TableInfo
from .settings import checked_options, read_guild_settings
from .store import UNSET, Store, nothing_more, read_again_if_behind


def within_limits(
    limits: GuildSettings, open_tables: int, hosted: int, last_opened: datetime | None, now: datetime
) -> TableError | None:
    """Why the server's limits refuse one more table by this host now, or None."""
    if open_tables >= limits.max_open_tables:
        return TooMany("server_tables_full", limit=limits.max_open_tables)
    if hosted >= limits.max_lobbies_per_host:
        return TooMany("host_lobbies_full", limit=limits.max_lobbies_per_host)
    if last_opened is not None:
        wait = limits.play_cooldown_seconds - (now - last_opened).total_seconds()
        if wait > 0:
            return TooMany("play_cooldown", seconds=math.ceil(wait))
    return None


class Lobby:
    """Lobbies: seats, options and the start. Each change of a lobby is published as :class:`LobbyChanged`;
    the start, as the store's commit publishes it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _changed(self, live: LiveTable, *, announce: bool = False) -> TableInfo:
        """The lobby as it is now, published to the subscribers (the caller holds the table's lock)."""
        info = live.info()
        self.store.events.publish(LobbyChanged(info, announce=announce))
        return info

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
        computers: Sequence[str] = (),
        announce: bool = False,
        rematch_of: int | None = None,
        scheduled: bool = False,
    ) -> TableInfo:
        """A new lobby with the host seated. One open table per channel unless it has its own thread
        (``thread_id``, or ``own_thread`` when the thread is made after the lobby is posted).
        ``hints``: players may ask for hints, and the match is not rated. ``computers``: the levels of
        computer players seated at once with the host (all or none). ``announce``: the lobby was opened
        away from the channel (an Activity's screen), and a presentation of the channel posts it there
        when it hears it (:class:`LobbyChanged` says so). ``rematch_of``: the finished table this one is the
        rematch of; a table has one open rematch at a time (NotAllowed ``rematch_taken`` for a second).
        ``scheduled``: a game night's lobby, opened by the bot at its time: the host's own pace (the cooldown
        between their tables, how many lobbies they hold) does not hold it back, the server's limit of open
        tables does; and the name the night kept for its host (from when it was scheduled) does not replace
        a newer one."""
        own_thread = own_thread or thread_id is not None
        host_name = readable_name(host_name)
        options = checked_options(game, options, players)
        for level in computers:
            if level not in LEVELS:
                raise BadOptions("bad_level", level=level, allowed=", ".join(LEVELS))
        most = players or max(GAMES[game].players)
        if 1 + len(computers) > most:
            raise NotAllowed("table_full", players=most)
        if turn_seconds is not None and not 0 <= turn_seconds <= 86_400:
            raise BadOptions(
                "bad_setting", setting="turn_seconds", value=turn_seconds, allowed="0 to 86400 seconds", low=0,
                high=86_400, unit="seconds",
            )  # fmt: skip
        now = self.store.clock()
        seed = secrets.randbits(62)

        limits = await read_guild_settings(self.store.db, guild_id)

        async def work(connection: AsyncConnection) -> tuple[int, int]:
            await repo.ensure_guild(connection, guild_id)
            await repo.remember_player(connection, guild_id, host_id, host_name, replace=not scheduled)
            if await repo.is_table_thread(connection, channel_id):  # an Activity launched from a table's message
                raise BatchRollback(NotAllowed("not_in_thread"))  # there; /play refuses any thread itself
            if not own_thread and await repo.table_in_channel(connection, channel_id, None) is not None:
                raise BatchRollback(ChannelBusy("channel_busy"))
            open_tables, hosted, last_opened = await repo.opening_limits(connection, guild_id, host_id)
            if scheduled:
                hosted, last_opened = 0, None
            refusal = within_limits(limits, open_tables, hosted, last_opened, now)
            if refusal is not None:
                raise BatchRollback(refusal)
            if rematch_of is not None and await repo.open_rematch(connection, rematch_of) is not None:
                raise BatchRollback(NotAllowed("rematch_taken"))
            try:
                table_id = await repo.insert_table(
                    connection,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    thread_id=thread_id,
                    channel_slot=None if own_thread else channel_id,
                    rematch_slot=rematch_of,
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
            except IntegrityError as error:  # another process opened one here (or the rematch) a moment ago: undo this
                rematch = "rematch_slot" in str(error.orig)  # the index named in SQLite's and PostgreSQL's message
                raise BatchRollback(NotAllowed("rematch_taken") if rematch else ChannelBusy("channel_busy")) from None
            seat_id = await repo.insert_seat(connection, table_id, host_id, now)
            for level in computers:
                await repo.insert_seat(connection, table_id, None, now, level)
            return table_id, seat_id

        table_id, _ = await self.store.db.write(work)
        async with self.store.locked(table_id) as live:
            return self._changed(live, announce=announce)

    async def set_location(
        self,
        table_id: int,
        *,
        message_id: int | None = None,
        thread_id: int | None = None,
        in_channel: bool = False,
        private: bool | None = None,
    ) -> None:
        """Where the presentation put the table (its message, its thread). ``in_channel``: a table meant
        for a thread of its own stays in its channel instead (the thread could not be made), and takes
        the channel's one place for an open table; ChannelBusy if another table holds it already.
        ``private`` False: a private table whose private thread could not be made is shown in its channel."""
        async with self.store.locked(table_id) as live:
            values: dict[str, Any] = {}
            if message_id is not None:
                values["message_id"] = message_id
            if thread_id is not None:
                values["thread_id"] = thread_id
            if private is not None and private != live.private:
                values["private"] = private
            if not values and not in_channel:
                return
            work = nothing_more
            if in_channel:

                async def work(connection: AsyncConnection) -> None:
                    try:  # a failing write is undone alone by the writer (the batch is redone without it)
                        await repo.claim_channel(connection, live.id, live.channel_id)
                    except IntegrityError:
                        raise BatchRollback(ChannelBusy("channel_busy")) from None

            await self.store.write(live, work, **values)
            live.message_id = values.get("message_id", live.message_id)
            live.thread_id = values.get("thread_id", live.thread_id)
            live.private = values.get("private", live.private)

    async def forget_thread(self, table_id: int, thread_id: int) -> bool:
        """The table's thread ``thread_id`` was deleted in Discord: the table goes on, everything it said in its
        thread (pings, notices) said in its channel from now on. False: it has no such thread (any more)."""
        async with self.store.locked(table_id) as live:
            if live.thread_id != thread_id:
                return False
            await self.store.write(live, nothing_more, thread_id=None)
            live.thread_id = None
            return True

    def _lobby(self, live: LiveTable) -> None:
        if live.status != LOBBY:
            raise (
                WrongStatus("not_in_lobby")
                if live.status == PLAYING
                else WrongStatus("table_closed", status=live.status)
            )

    def _max_seats(self, live: LiveTable) -> int:
        return live.players or max(GAMES[live.game].players)

    @read_again_if_behind
    async def join(self, table_id: int, user_id: int, name: str) -> TableInfo:
        name = readable_name(name)
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            if live.seat_of(user_id) is not None:
                raise NotAllowed("already_seated")
            if len(live.seats) >= self._max_seats(live):
                raise NotAllowed("table_full", players=self._max_seats(live))
            now = self.store.clock()

            async def work(connection: AsyncConnection) -> int:
                await repo.remember_player(connection, live.guild_id, user_id, name)
                return await repo.insert_seat(connection, live.id, user_id, now)

            seat_id = await self.store.write(live, work)
            live.seats.append(LiveSeat(seat_id, user_id, name))
            return self._changed(live)

    @read_again_if_behind
    async def add_computer(self, table_id: int, by_user: int, level: str = STRONG) -> TableInfo:
        """The host seats a computer player of ``level`` ("easy" or "strong"). Computers are not rated."""
        if level not in LEVELS:
            raise BadOptions("bad_level", level=level, allowed=", ".join(LEVELS))
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            if len(live.seats) >= self._max_seats(live):
                raise NotAllowed("table_full", players=self._max_seats(live))
            now = self.store.clock()

            async def work(connection: AsyncConnection) -> int:
                return await repo.insert_seat(connection, live.id, None, now, level)

            seat_id = await self.store.write(live, work)
            live.seats.append(LiveSeat(seat_id, None, "", level=level))
            return self._changed(live)

    @read_again_if_behind
    async def set_hints(self, table_id: int, by_user: int, on: bool) -> TableInfo:
        """The host allows hints (the match will not be rated) or not, before the match starts."""
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            if live.hints == on:
                return live.info()
            await self.store.write(live, nothing_more, hints=on)
            live.hints = on
            return self._changed(live)

    @read_again_if_behind
    async def remove_computer(self, table_id: int, by_user: int, key: int) -> TableInfo:
        """The host takes the computer player of seat ``key`` (its ``SeatInfo.key``) out of the lobby."""
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            seat = next((seat for seat in live.seats if seat.id == key and seat.user_id is None), None)
            if seat is None:
                raise NotAllowed("not_a_computer")
            return await self._unseat(live, seat)

    @staticmethod
    def _host_only(live: LiveTable, user_id: int) -> None:
        if user_id != live.host_id:
            raise NotAllowed("not_host")

    @read_again_if_behind
    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        """Leave a lobby. A host who leaves hands the table to the next person; the last one closes it."""
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotAllowed("not_seated")
            return await self._unseat(live, seat)

    @read_again_if_behind
    async def remove_seat(self, table_id: int, by_user: int, index: int) -> TableInfo:
        """The host removes the seat at ``index`` (join order) from the lobby."""
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            if not 0 <= index < len(live.seats):
                raise NotAllowed("not_a_seat")
            seat = live.seats[index]
            if seat.user_id == live.host_id:
                raise NotAllowed("host_stays")
            return await self._unseat(live, seat)

    async def _unseat(self, live: LiveTable, seat: LiveSeat) -> TableInfo:
        now = self.store.clock()
        rest = [other for other in live.seats if other is not seat]
        values: dict[str, Any] = {}
        people = [other for other in rest if other.user_id is not None]
        if seat.user_id == live.host_id:
            if people:
                values["host_id"] = people[0].user_id
            else:
                values.update(status=ABANDONED, finished_at=now, **SLOTS_FREED)

        async def work(connection: AsyncConnection) -> None:
            await repo.update_seat(connection, seat.id, left_at=now)
            if values.get("status") == ABANDONED:
                await repo.set_deadline(connection, live.id, live.version + 1, None, None)

        await self.store.write(live, work, **values)
        live.seats = rest
        live.host_id = values.get("host_id", live.host_id)
        if "status" in values:
            live.status, live.finished_at = ABANDONED, now
        return self._changed(live)

    @read_again_if_behind
    async def set_options(
        self, table_id: int, by_user: int, options: dict[str, Any] | None = None, players: int | None = UNSET
    ) -> TableInfo:
        """The host changes the options (merged into the current ones) or the player count asked for."""
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            merged = {**live.options, **(options or {})}
            count = live.players if players is UNSET else players
            merged = checked_options(live.game, merged, count)
            if count is not None and len(live.seats) > count:
                raise NotAllowed("table_full", players=count)
            await self.store.write(live, nothing_more, options=merged, players=count)
            live.options, live.players = merged, count
            return self._changed(live)

    @read_again_if_behind
    async def start(self, table_id: int, by_user: int, *, message_id: int | None = None) -> Outcome:
        """The host starts the match with the seats as they are (in join order).

        ``message_id``: the lobby's message the Start was pressed on, recorded with the start if the
        process posting the lobby has not recorded it yet; a match never starts without its message,
        so a crash cannot leave a match nobody can see."""
        async with self.store.locked(table_id) as live:
            self._lobby(live)
            self._host_only(live, by_user)
            if live.message_id is None and message_id is None:
                raise WrongStatus("lobby_not_ready")
            return await self._begin(live, message_id)

    @read_again_if_behind
    async def start_seated(self, table_id: int) -> Outcome | None:
        """Start a table whose seats were set by an event (a tournament's round), with no host's click and
        before its message is posted (the presentation posts it on hearing the round open). None if it
        has already started (another process, or before a restart): starting is done once."""
        async with self.store.locked(table_id) as live:
            if live.status != LOBBY:
                return None
            return await self._begin(live)

    async def _begin(self, live: LiveTable, message_id: int | None = None) -> Outcome:
        """The match starts with the seats as they are (in join order); the caller holds the lock."""
        info = GAMES[live.game]
        count = len(live.seats)
        if count not in info.players or (live.players is not None and count != live.players):
            counts = (live.players,) if live.players is not None else tuple(info.players)
            raise BadOptions(
                "bad_player_count",
                game=live.game,
                allowed=", ".join(map(str, counts)),
                allowed_counts=counts,
                players=count,
            )
        try:
            new_game(live.game, players=count, options=live.options, seed=live.seed)
        except GameError as error:
            raise BadOptions.from_game(error) from None
        now = self.store.clock()
        for position, seat in enumerate(live.seats):
            seat.position = position
        live.status, live.started_at = PLAYING, now
        live.begin()
        if live.message_id is None:
            live.message_id = message_id
        step = Step(live, now)
        step.events.append({"kind": "started"})
        return await self.store.commit(live, step, actor=None, positions=True)
