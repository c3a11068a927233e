"""Each server's settings: turn time, grace, threads, language, computer pace and each game's default options."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.games import GAMES, GameError, InvalidGame, new_game
from bot.games.options import resolve
from bot.storage import notify
from bot.storage import repository as repo
from bot.storage.database import Database
from bot.storage.models import (
    DEFAULT_COMPUTER_PACE_MS,
    DEFAULT_GRACE_SECONDS,
    DEFAULT_TURN_SECONDS,
    LOBBY,
    PLAYING,
)

from .errors import BadOptions, TableError
from .events import LobbyChanged, TableChanged
from .records import GuildSettings
from .store import Store, nothing_more

log = logging.getLogger(__name__)

RETIME_AT_ONCE = 20  # tables re-timed at once when their server's turn timer changes (a read each, at most)

GUILD_LIMITS = {
    "turn_seconds": (0, 86_400, "seconds"),
    "grace_seconds": (0, 86_400, "seconds"),
    "computer_pace_ms": (0, 10_000, "milliseconds"),
    "max_open_tables": (1, 500, "tables"),
    "max_lobbies_per_host": (1, 25, "lobbies"),
    "play_cooldown_seconds": (0, 3_600, "seconds"),
}


def checked_options(game: str, options: dict[str, Any] | None, players: int | None) -> dict[str, Any]:
    """A table's options as given, once the game accepts them (with ``players`` when it is known);
    BadOptions, with the engine's reason, when it does not."""
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


def _fits_every_table(game: str, options: dict[str, Any] | None) -> None:
    """A server's default options fill every table of the game, whatever its size: refused (BadOptions, naming
    the sizes they do not fit) when the engine would refuse them at some (Oh Hell's ``start_cards=17`` fits
    three players only: every table of four or more would be refused for an option its host never chose)."""
    misfits = []
    for players in GAMES[game].players:
        try:
            checked_options(game, options, players)
        except BadOptions:
            misfits.append(players)
    if misfits:
        raise BadOptions("default_misfits", game=game, players=", ".join(map(str, misfits)), counts=tuple(misfits))


async def read_guild_settings(database: Database, guild_id: int) -> GuildSettings:
    """A server's settings as stored (the defaults for a server that never changed one)."""
    async with database.engine.connect() as connection:
        row = await repo.guild_settings(connection, guild_id)
    if row is None:
        return GuildSettings(
            guild_id, DEFAULT_TURN_SECONDS, DEFAULT_GRACE_SECONDS, True, None, {}, DEFAULT_COMPUTER_PACE_MS
        )
    return settings_of(row)


def settings_of(row: Any) -> GuildSettings:
    """A server's settings from its stored row."""
    return GuildSettings(
        row.id,
        row.turn_seconds,
        row.grace_seconds,
        row.thread_per_table,
        row.language,
        row.default_options,
        row.computer_pace_ms,
        row.max_open_tables,
        row.max_lobbies_per_host,
        row.play_cooldown_seconds,
        row.turn_pings,
        row.table_picture,
    )


class Settings:
    """A server's settings, checked and stored; the open tables of this process follow them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._others: notify.OthersListener | None = None  # what other processes tell: settings, tables moved on
        # told a server's new language once its tables are drawn again in it (a server's id)
        self.language_listeners: list[Callable[[int], Awaitable[None]]] = []

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await read_guild_settings(self.store.db, guild_id)

    async def update_guild_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        """Change ``turn_seconds``, ``grace_seconds``, ``thread_per_table``, ``language``,
        ``default_options``, ``computer_pace_ms`` (the pause between computer moves), or the limits
        ``max_open_tables``, ``max_lobbies_per_host`` and ``play_cooldown_seconds``, or the switches
        ``turn_pings`` and ``table_picture``."""
        for key, value in values.items():
            if key in GUILD_LIMITS:
                low, high, unit = GUILD_LIMITS[key]
                if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                    raise BadOptions(
                        "bad_setting", setting=key, value=value, allowed=f"{low} to {high} {unit}", low=low, high=high,
                        unit=unit,
                    )  # fmt: skip
            elif key in ("thread_per_table", "turn_pings", "table_picture"):
                if not isinstance(value, bool):
                    raise BadOptions(
                        "bad_setting", setting=key, value=value, allowed="true or false",
                        allowed_keys=("option.on", "option.off"),
                    )  # fmt: skip
            elif key == "language":
                if value is not None and (not isinstance(value, str) or not 2 <= len(value) <= 16):
                    raise BadOptions("bad_setting", setting=key, value=value, allowed="a language code")
            elif key == "default_options":
                if not isinstance(value, dict):
                    raise BadOptions("bad_setting", setting=key, value=value, allowed="options per game")
                for game, options in value.items():
                    checked_options(game, options, None)
                    _fits_every_table(game, options)
            else:
                raise BadOptions("bad_setting", setting=key, value=value, allowed="a known setting")

        timer_changes = bool({"turn_seconds", "grace_seconds"} & values.keys())
        before = await self.guild_settings(guild_id) if timer_changes else None
        announced = self.store.db.backend == "postgresql"

        async def work(connection: AsyncConnection) -> None:
            await repo.update_guild(connection, guild_id, **values)
            if announced:  # every other process hears of it at commit
                await notify.announce(connection, guild_id)

        await self.store.db.write(work)
        settings = await self.guild_settings(guild_id)
        self._apply_settings(settings)
        if before is not None and (before.turn_seconds, before.grace_seconds) != (
            settings.turn_seconds,
            settings.grace_seconds,
        ):
            await self._retime_tables(guild_id, grace_changed=before.grace_seconds != settings.grace_seconds)
        if "language" in values:
            try:  # the setting is saved: a table not drawn again now is in the new language at its next change
                await self._redraw_tables(guild_id)
            except Exception:
                log.exception("server %s: its open tables could not all be drawn again in its new language", guild_id)
        return settings

    async def _redraw_tables(self, guild_id: int) -> None:
        """The server's language changed: its open tables' messages, public, are drawn again in it (a lobby
        moves on a version, else its message, already showing that version, would not be drawn again)."""
        async with self.store.db.engine.connect() as connection:
            ids = await repo.in_play_table_ids(connection, guild_id, (PLAYING, LOBBY))
        at_once = asyncio.Semaphore(RETIME_AT_ONCE)

        async def redraw(table_id: int) -> None:
            try:
                async with at_once, self.store.locked(table_id) as live:
                    if live.status == LOBBY:
                        await self.store.write(live, nothing_more)
                        self.store.events.publish(LobbyChanged(live.info()))
                    elif live.status == PLAYING:
                        self.store.events.publish(TableChanged(live.info(), ()))
            except TableError:
                pass  # closed, or moved on meanwhile: its next change draws it
            except Exception:
                self.store.troubled(table_id, "to show its server's new language")

        await asyncio.gather(*(redraw(table_id) for table_id in ids))
        for heard in self.language_listeners:  # the other parts with messages of their own (tournaments' sign-ups)
            await heard(guild_id)

    async def _retime_tables(self, guild_id: int, *, grace_changed: bool) -> None:
        """The server's turn timer changed: the turn in progress at each of its tables in play follows it at once,
        timed from now (turned off, nobody is played for any more; turned on, a table waiting on someone who left
        gets a clock). A table with a turn time of its own follows only a new grace. A lobby, which shows the
        timer its match will have, moves on a version so that its message is redrawn with the new one."""
        async with self.store.db.engine.connect() as connection:
            ids = await repo.in_play_table_ids(connection, guild_id, (PLAYING, LOBBY))

        at_once = asyncio.Semaphore(RETIME_AT_ONCE)

        async def retime(table_id: int) -> None:
            try:
                async with at_once, self.store.locked(table_id) as live:
                    if live.status == PLAYING and (grace_changed or live.turn_override is None):
                        await self.store.retime(live)
                    elif live.status == LOBBY and (grace_changed or live.turn_override is None):
                        await self.store.write(live, nothing_more)
                        self.store.events.publish(LobbyChanged(live.info()))
            except TableError:
                pass  # closed, or moved on meanwhile: its next move times it
            except Exception:
                self.store.troubled(table_id, "to follow its server's new turn timer")

        # Many at once, each under its own table's lock: their writes are group-committed a batch at a time, not
        # one commit after another (hundreds of tables in play could take seconds, and /settings waits for them).
        await asyncio.gather(*(retime(table_id) for table_id in ids))

    def _apply_settings(self, settings: GuildSettings) -> None:
        """Open tables of the server held here use its new timer settings and pace."""
        for live in self.store.loaded():
            if live.guild_id == settings.guild_id:
                live.guild_turn = settings.turn_seconds
                live.guild_grace = settings.grace_seconds
                live.guild_pace_ms = settings.computer_pace_ms

    async def follow_others(
        self, changed: Callable[[GuildSettings], Awaitable[None]], *, check_every: float = notify.CHECK_SECONDS
    ) -> None:
        """Hear what the other processes on the database tell (PostgreSQL: LISTEN/NOTIFY): a server's
        new settings, applied to this process's open tables and passed to ``changed`` (the bot's own
        copies, such as a server's language); a table of this process's servers moved on by another
        process, read again here so its computers play on. With SQLite, one process serves the
        database and nothing needs hearing.

        The listening connection is opened again whenever it is lost (tried every ``check_every``
        seconds, and at once when asyncpg reports it closed); news told meanwhile never arrives, so once
        it listens again every table held here is compared with the database (one query) and those
        behind are read again, and the settings of this process's servers are read again."""
        if self.store.db.backend != "postgresql" or self._others is not None:
            return

        async def settings_heard(guild_id: int) -> None:
            settings = await self.guild_settings(guild_id)
            self._apply_settings(settings)
            await changed(settings)

        async def missed() -> None:
            await self.store.catch_up_all()
            async with self.store.db.engine.connect() as connection:
                # every server's, not only this process's shards': its language serves a click Discord routes
                # here and this process's Activity screens, whichever process owns the server
                rows = await repo.guilds_on(connection, None)
            for row in rows:  # a server never changed has no row, and nothing to miss
                settings = settings_of(row)
                self._apply_settings(settings)
                try:
                    await changed(settings)
                except Exception:
                    log.exception("could not apply the settings of server %s read again", row.id)

        async with self.store.db.engine.connect() as connection:
            schema = (await connection.exec_driver_sql("SELECT current_schema()")).scalar_one()
        listener = notify.OthersListener(
            self.store.db.url,
            schema,
            settings_heard,
            self.store.moved_elsewhere,
            missed,
            reminded=self.store.reminded_elsewhere,
            check_every=check_every,
        )
        await listener.start()
        self._others = listener

    async def close(self) -> None:
        """Stop hearing the other processes."""
        if self._others is not None:
            await self._others.close()
            self._others = None
