"""What goes when something of Discord's goes: the bot removed from a server, a table's channel or thread deleted.

A server the bot was removed from (kicked, or the server deleted) can never be written to again: its open tables
(lobbies and matches in play) end at once as abandoned (unrated, as a manager's ``/abandon``), its tournaments in
sign-up or under way are cancelled, and its game nights still to come are cancelled (never pinged nor opened). A
table's channel deleted takes the table's message with it: the tables posted there are abandoned too. A table's
thread deleted takes nothing that matters: the table goes on, its pings and notices said in its channel.

Each change is an ordinary write of the service (the same version checks, the same news to other processes, the
same events), so nothing here is kept in this process: the presentation, which heard Discord say so, is the one
that stops writing there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import repository as repo
from bot.storage import seasons as srepo
from bot.storage import tournaments as trepo

from .errors import LogDoesNotReplay, TableError
from .game_nights import GameNights
from .lobby import Lobby
from .play import Play
from .store import Store
from .tournaments import Tournaments

log = logging.getLogger(__name__)

# Why a table was abandoned, in its ``abandoned`` event (``MatchEnded.reason``).
SERVER_LEFT = "the bot was removed from the server"
CHANNEL_DELETED = "the table's channel was deleted"
NOBODY = 0  # who abandons or cancels: nobody of the server (Discord did), with a manager's right
# No Discord server has an id below this (a snowflake's time part alone is far larger): the local tables' own
# server (``activity.sessions.LOCAL_GUILD``) and any other made-up one is never a server the bot left.
SNOWFLAKE_FLOOR = 1 << 32


class Cancels(Protocol):
    async def cancel(self, tournament_id: int, by_user: int, *, can_manage: bool = False) -> object: ...


@dataclass(frozen=True)
class ServerLeft:
    """What closed when the bot left a server: the tables abandoned, the tournaments and game nights cancelled."""

    guild_id: int
    tables: tuple[int, ...]
    tournaments: tuple[int, ...]
    nights: tuple[int, ...]


class Departures:
    """The bot removed from a server, a table's channel or thread deleted (see the module's text)."""

    def __init__(self, store: Store, lobby: Lobby, play: Play, tournaments: Tournaments, nights: GameNights) -> None:
        self.store = store
        self.lobby = lobby
        self.play = play
        self.tournaments: Cancels = tournaments
        self.nights = nights

    async def server_left(self, guild_id: int) -> ServerLeft:
        """The bot was removed from server ``guild_id`` (kicked, or the server deleted; not an outage): its
        game nights still to come are cancelled, then its tournaments (their round's tables with them), then its
        other open tables are abandoned. One line in the log says what closed."""
        # Its nights first: one about to open its lobby must not open it after the tables are closed.
        nights = await self.nights.server_left(guild_id)
        async with self.store.db.engine.connect() as connection:
            tournaments = [tournament_id for tournament_id, _ in await trepo.open_ids_in_guild(connection, guild_id)]
        cancelled = await self._cancel(tournaments)
        tables = await self._abandon(await self._open(guild_id=guild_id), SERVER_LEFT)
        left = ServerLeft(guild_id, tuple(tables), tuple(cancelled), tuple(nights))
        log.info(
            "removed from server %s: %d open tables abandoned%s, %d tournaments and %d game nights cancelled",
            guild_id,
            len(left.tables),
            f" ({', '.join(map(str, left.tables))})" if left.tables else "",
            len(left.tournaments),
            len(left.nights),
        )
        return left

    async def servers_missing(self, present: Collection[int], mine: Callable[[int], bool]) -> list[int]:
        """A shard connected (READY) and listed ``present``, every server the bot is in on it, whether available or
        not: the servers of the shard (``mine``) with open tables, tournaments, nights to come or seasons (whose
        standings would be posted there) that it does not list, oldest id first. The bot was removed from each
        while it was not listening (no process ran, or the gateway was lost when Discord said so): the caller
        stops writing there, then closes each with :meth:`server_left`."""
        async with self.store.db.engine.connect() as connection:
            held = {guild for guild, _ in await self._places(connection)}
            held |= await srepo.guilds_with_seasons(connection)  # a season's standings still to post, too
        missing = sorted(g for g in held if g >= SNOWFLAKE_FLOOR and g not in present and mine(g))
        if missing:
            log.info("servers not listed by Discord at READY (the bot was removed meanwhile): %s", missing)
        return missing

    async def channels_missing(self, listed: Mapping[int, Collection[int]]) -> list[int]:
        """Servers came in whole (GUILD_CREATE at a shard's new session, or later for one still out then), each
        listing its channels in ``listed``: every channel of the server, the bot's to see or not, and its active
        threads. The channels of those servers where a table is open, a tournament is shown, a night will open
        its lobby or a season will post its standings that are not listed, lowest id first: each was deleted while
        nobody listened (no process ran, the gateway was lost, or the server was out), and the caller stops writing
        there and closes each with :meth:`channel_deleted`."""
        async with self.store.db.engine.connect() as connection:
            places = await self._places(connection)
        missing = sorted({channel for guild, channel in places if guild in listed and channel not in listed[guild]})
        if missing:
            log.info("channels not listed by Discord with their servers (deleted meanwhile): %s", missing)
        return missing

    @staticmethod
    async def _places(connection: AsyncConnection) -> set[tuple[int, int]]:
        """Every (server, channel) where something is still to be shown: open tables, tournaments, nights to come,
        seasons turned on."""
        places = await repo.open_table_places(connection)
        places |= await trepo.open_places(connection)
        places |= await srepo.night_places(connection)
        places |= await srepo.season_places(connection)
        return places

    async def channel_deleted(self, channel_id: int) -> list[int]:
        """The channel ``channel_id`` was deleted in Discord: its game nights still to come and its tournaments are
        cancelled (their lobbies, sign-ups and rounds could never be posted there), and the open tables posted in
        it (in threads of their own or not) can never be shown again, and are abandoned. The tables' ids."""
        nights = await self.nights.channel_deleted(channel_id)
        async with self.store.db.engine.connect() as connection:
            tournaments = await self._cancel(await trepo.open_ids_in_channel(connection, channel_id))
        tables = await self._abandon(await self._open(channel_id=channel_id), CHANNEL_DELETED)
        if tables or tournaments or nights:
            log.info(
                "channel %s was deleted: open tables %s abandoned, %d tournaments and %d game nights cancelled",
                channel_id,
                ", ".join(map(str, tables)) or "none",
                len(tournaments),
                len(nights),
            )
        return tables

    async def _cancel(self, tournaments: list[int]) -> list[int]:
        """Cancel each tournament (as a manager would), but those that ended meanwhile: the ids cancelled here."""
        cancelled = []
        for tournament_id in tournaments:
            try:
                await self.tournaments.cancel(tournament_id, NOBODY, can_manage=True)
            except TableError:  # it ended meanwhile
                continue
            cancelled.append(tournament_id)
        return cancelled

    async def thread_deleted(self, thread_id: int) -> list[int]:
        """The thread ``thread_id`` was deleted in Discord: the open tables that lived in it go on, their pings and
        notices said in their channel from now on. Their ids."""
        held = await self._open(thread_id=thread_id)
        moved = [table_id for table_id in held if await self._forget(table_id, thread_id)]
        if moved:
            log.info("thread %s was deleted: tables %s go on in their channel", thread_id, ", ".join(map(str, moved)))
        return moved

    async def _forget(self, table_id: int, thread_id: int) -> bool:
        try:
            return await self.lobby.forget_thread(table_id, thread_id)
        except TableError:
            return False

    async def _open(self, **where: int) -> list[int]:
        async with self.store.db.engine.connect() as connection:
            return await repo.open_table_ids_at(connection, **where)

    async def _abandon(self, table_ids: list[int], reason: str) -> list[int]:
        """Abandon each table (as a manager would), but those that ended meanwhile: the ids abandoned here. One
        that fails does not keep the others open: a table whose log no longer replays is closed by its row alone
        (nobody is left to show it to), any other failure is logged and the next table goes on."""
        abandoned = []
        for table_id in table_ids:
            try:
                await self.play.abandon(table_id, NOBODY, can_manage=True, reason=reason)
            except TableError:
                continue
            except LogDoesNotReplay:
                self.store.troubled(table_id, f"abandoning ({reason})")
                if not await self.play.close_unreadable(table_id):
                    continue
            except Exception:
                self.store.troubled(table_id, f"abandoning ({reason})")
                continue
            abandoned.append(table_id)
        return abandoned
