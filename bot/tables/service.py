"""The table service: lobby → play → result, between the engines and the database.

It never imports discord: every call takes user ids and returns plain data
(:mod:`bot.tables.records`). Every write is committed before the call returns,
and every refusal is a :class:`~bot.tables.errors.TableError` with nothing
written. Every change also leaves as events (:mod:`bot.tables.events`) on
``service.events``, which each presentation subscribes to.

:class:`TableService` is a thin façade: it composes the parts, each an object of
its own that receives the store (and what else it needs) and never touches
another part:

- :class:`~bot.tables.store.TableStore`: live tables, the table lock, commits, the durable log, the events bus
- :class:`~bot.tables.reads.TableReads`: one table as it is now (info, views, a seat's hand)
- :class:`~bot.tables.lobby.Lobby`: opening a table, seats, options, the start
- :class:`~bot.tables.play.Play`: actions, resignations, abandoning, turn timers, computer seats, hints
- :class:`~bot.tables.record_reads.Records`: leaderboards, stats, history, score sheets, deal reviews
- :class:`~bot.tables.settings.Settings`: each server's settings, and what other processes tell
- :class:`~bot.tables.tournaments.Tournaments`: tournaments and duplicate nights, their rounds of tables
- :class:`~bot.tables.seasons.Seasons`: seasons per game, their ratings and boards, their ends announced once
- :class:`~bot.tables.game_nights.GameNights`: scheduled game nights, pinged and opened once
- :class:`~bot.tables.departures.Departures`: the bot removed from a server, a table's channel or thread deleted

Callers may use the parts directly (``service.lobby.join(...)``) or the same calls on the façade.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.shards import Shards
from bot.storage.database import Database
from bot.storage.models import utcnow

from .autoplay import Sleep
from .deal_ends import DealEnds
from .departures import Departures
from .game_nights import GameNights
from .lobby import Lobby
from .play import Play
from .reads import TableReads
from .record_reads import Records
from .seasons import Seasons
from .settings import Settings
from .store import UNSHOWN_LOBBY_GRACE, TableStore
from .thinking import Thinker
from .tournaments import Tournaments


class TableService:
    """Tables by id, for people by Discord user id. One instance per process.

    ``thinker`` makes the computer players' decisions (None: a :class:`Thinker` with a
    worker process per CPU, started on the first decision and stopped by :meth:`close`;
    one passed in is the caller's to close). ``sleep`` waits out the computers' pace
    (tests pass one that moves their clock instead). ``announce_every_change``: with several
    processes on PostgreSQL, tell the others of every commit here (their subscribers hear it as
    ``TableMovedElsewhere``), not only of moves at another shard's tables (whose owner must read
    them again): for a presentation that shows a table in any process.
    """

    def __init__(
        self,
        database: Database,
        *,
        clock: Callable[[], datetime] = utcnow,
        thinker: Thinker | None = None,
        sleep: Sleep = asyncio.sleep,
        lobby_grace: timedelta = UNSHOWN_LOBBY_GRACE,
        shards: Shards | None = None,
        announce_every_change: bool = False,
    ) -> None:
        self.store = store = TableStore(
            database,
            clock=clock,
            lobby_grace=lobby_grace,
            shards=shards,
            announce_every_change=announce_every_change,
        )
        self.db, self.shards, self.events = store.db, store.shards, store.events
        self.reads = reads = TableReads(store)
        self.records = records = Records(store)
        self.settings = settings = Settings(store)
        self.lobby = lobby = Lobby(store)
        self.play = play = Play(store, thinker=thinker, sleep=sleep)
        self.tournaments = Tournaments(store, lobby, play)
        settings.language_listeners.append(self.tournaments.language_changed)
        self.seasons = Seasons(store)  # seasons per game: their ratings, boards and ends (callers use the part)
        self.game_nights = GameNights(store)  # scheduled game nights (callers use the part)
        self.departures = departures = Departures(store, lobby, play, self.tournaments, self.game_nights)
        # The store's tables and the drivers, for tests that look inside.
        self._live = store.live
        self._drivers = play.computers.drivers

        # the store
        self.load_open_tables = store.load_open_tables
        self.close_unshown_lobbies = store.close_unshown_lobbies
        # one table
        self.table = reads.table
        self.table_in_channel = reads.table_in_channel
        self.tables_in_channel = reads.tables_in_channel
        self.private_tables_open = reads.private_tables_open
        self.snapshot = reads.snapshot
        self.public_view = reads.public_view
        self.view = reads.view
        self.hand = reads.hand
        self.seat_view = reads.seat_view
        self.legal = reads.legal
        # records
        self.leaderboard = records.leaderboard
        self.leaderboard_size = records.leaderboard_size
        self.rank_of = records.rank_of
        self.player_stats = records.player_stats
        self.recent_matches = records.recent_matches
        self.match_count = records.match_count
        self.period_board = records.period_board
        self.player_profile = records.player_profile
        self.games_played = records.games_played
        self.guild_languages = records.guild_languages
        self.score_sheet = records.score_sheet
        self.history_sheet = records.history_sheet
        self.table_result = records.table_result
        self.deal_reviews = records.deal_reviews
        # the last trick of the deal just scored, until the new deal's first card (both presentations show it)
        self.deal_end = DealEnds(records.deal_reviews)
        self.match_table = records.match_table
        # settings
        self.guild_settings = settings.guild_settings
        self.update_guild_settings = settings.update_guild_settings
        self.follow_others = settings.follow_others
        # the lobby
        self.open_table = lobby.open_table
        self.set_location = lobby.set_location
        self.join = lobby.join
        self.add_computer = lobby.add_computer
        self.set_hints = lobby.set_hints
        self.remove_computer = lobby.remove_computer
        self.leave = lobby.leave
        self.remove_seat = lobby.remove_seat
        self.set_options = lobby.set_options
        self.start = lobby.start
        # play
        self.act = play.act
        self.resign = play.resign
        self.abandon = play.abandon
        self.hint = play.hint
        self.gateway = play.gateway  # turn clocks stopped while a shard has lost Discord's gateway
        self.run_timers = play.run_timers
        self.run_timers_forever = play.run_timers_forever
        self.listen = play.listen
        self.settle = play.settle
        # what goes when Discord takes a server, a channel or a thread away
        self.server_left = departures.server_left
        self.servers_missing = departures.servers_missing
        self.channels_missing = departures.channels_missing
        self.channel_deleted = departures.channel_deleted
        self.thread_deleted = departures.thread_deleted

    async def close(self) -> None:
        """Stop the timers, the computer players (a move half thought is thought again by the next
        process: nothing of it was written) and hints under way, stop hearing the other processes,
        and shut the pool if it is ours. Subscribers hear nothing more."""
        await self.tournaments.close()
        await self.play.close()
        await self.settings.close()
        await self.events.close()
