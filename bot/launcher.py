"""Start the bot: configuration, database, the table service, cogs, commands, timers, then Discord."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Iterator
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from activity.local import ActivityRunning, PortTaken, run_local, start_activity
from bot.config import Settings
from bot.gateway import (
    Hearing,
    OneLineOutages,
    forget_servers_not_listed,
    heartbeat_interval,
    last_heard,
    out_of_reach,
    quiet_after,
    quiet_discord_logs,
    use_backoff,
)
from bot.rest_budget import RestBudget, bucket_key
from bot.shards import shard_of
from bot.stopping import STOP_AT_THE_LATEST, end_at_the_latest
from bot.storage.database import Database, QuietCancelledCloses
from bot.tables import GuildSettings, TableService
from bot.tables.thinking import Thinker
from cogs.client import TableBot
from cogs.command_errors import PoliteTree
from cogs.i18n import ServerLanguages, Translator, reader, t
from cogs.rest import limit_requests
from cogs.tables import Tables
from cogs.tables.publisher import UNKNOWN_CHANNEL

log = logging.getLogger("bot")

EXTENSIONS = (
    "cogs.tables",
    "cogs.records",
    "cogs.settings",
    "cogs.rules",
    "cogs.tournaments",
    "cogs.seasons",
    "cogs.gamenights",
)
# A stop (SIGTERM, SIGINT) closes everything within this many seconds, whatever the bot was doing; each
# part is given what is left of it, and one that takes longer is left behind (see TrickBot.close).
STOP_WITHIN = 8.0
# A new session's servers come in (GUILD_CREATE) within this many seconds, or their channels are checked without
# those still out (each is checked when it comes in): the shard's turn clocks wait for it.
SERVERS_WITHIN = 60.0
HEARING_EVERY = 1.0  # seconds between two readings of when each shard last heard from Discord

NO_TOKEN = """\
The bot needs a token to connect to Discord, and {problem}. Create an application at \
https://discord.com/developers/applications, open its "Bot" page, press "Reset Token" and copy the token; \
then put it in a file named .env next to pyproject.toml as DISCORD_TOKEN=<the token> (or set the \
DISCORD_TOKEN environment variable) and run `python -m bot` again. README.md ("Run it in your server") walks \
through the whole setup, including the invite link.

To try the card table without Discord first, run `python -m bot --local` and open \
http://127.0.0.1:8080/ in a browser (local mode: a name per browser tab, computer players, friends in \
other tabs)."""


UNREACHABLE = """\
Could not reach Discord ({reason}). The bot connects to Discord over HTTPS and a websocket: check that \
this machine is online, that its DNS and clock work, and that no firewall or proxy blocks discord.com and \
gateway.discord.gg; then run `python -m bot` again. Nothing was changed."""

DISCORD_FAILING = """\
Discord answered {status} to {call}: its side is failing for now (an outage, or maintenance), not this bot. \
Check https://discordstatus.com and run `python -m bot` again in a while."""

# Gateway close codes after which Discord says not to reconnect, and discord.py does not (DiscordWebSocket.
# _can_handle_close: it raises ConnectionClosed for these, and PrivilegedIntentsRequired for 4014; every other
# code it reconnects after by itself). 4004, the token, is explained by NO_TOKEN.
CLOSED = "Discord's gateway closed the connection{shard} with code {code} ({meaning}) and asks not to \
reconnect after it. {advice} Then run `python -m bot` again."
REFUSED_SHARDS = (
    "Check SHARD_COUNT and SHARD_IDS (now {settings}): every process of the bot needs the same SHARD_COUNT, and "
    "SHARD_IDS ranges within 0 to SHARD_COUNT - 1; or leave both unset, for one process with every shard at "
    'Discord\'s recommended count. docs/operations.md ("Production") explains them.'
)
CLOSE_CODES: dict[int, tuple[str, str]] = {
    4010: ("invalid shard", REFUSED_SHARDS),
    4011: (
        "sharding required",
        "The bot is in too many servers for its shards: Discord requires sharding from 2,500 servers, and each shard "
        "may hold 2,500 at most. Raise SHARD_COUNT (about one shard per 1,000 servers; now {settings}) and restart "
        "every process with it and new SHARD_IDS ranges, or leave SHARD_COUNT and SHARD_IDS unset for Discord's "
        'recommended count. docs/operations.md ("Production") explains them.',
    ),
    4012: (
        "invalid API version",
        "Discord no longer takes the gateway version that discord.py {library} speaks: upgrade it with "
        "`pip install -U discord.py` (or install the bot again: `pip install -e .`).",
    ),
    4013: (
        "invalid intents",
        "Discord does not know the intents the bot asked for (server channels and scheduled events, from "
        "discord.py {library}): upgrade discord.py with `pip install -U discord.py` (or install the bot again: "
        "`pip install -e .`).",
    ),
}


def closed_by_discord(error: discord.ConnectionClosed, settings: Settings) -> str:
    """What to do after the gateway closed with a code that must not be reconnected after (see CLOSE_CODES)."""
    if error.code == 4004:  # authentication failed: the token was revoked between logging in and connecting
        return NO_TOKEN.format(problem="Discord rejected the one that is set")
    meaning, advice = CLOSE_CODES.get(error.code, ("a code this bot does not know", "Check the log above."))
    shards = f"SHARD_COUNT={settings.shard_count or 'unset'}, SHARD_IDS={settings.shard_ids or 'unset'}"
    shard = "" if error.shard_id is None else f" of shard {error.shard_id}"
    advice = advice.format(settings=shards, library=discord.__version__)
    return CLOSED.format(shard=shard, code=error.code, meaning=meaning, advice=advice)


def failing_call(error: discord.DiscordServerError) -> tuple[str, str]:
    """A 5xx answer as a person reads it: ``("503 Service Unavailable", "GET /api/v10/users/@me")``."""
    response = error.response
    reason = getattr(response, "reason", None)
    status = f"{error.status} {reason}" if reason else str(error.status)
    method, url = getattr(response, "method", None), getattr(response, "url", None)
    path = getattr(url, "path", None) if url is not None else None
    return status, f"{method} {path}" if method and path else "a call at start"


NO_DATABASE = """\
Could not open the database ({reason}). With the default SQLite file, check that its folder can be \
written; with PostgreSQL, check that the server is running and that DATABASE_URL names its host, port, \
user, password and database correctly (see .env.example); then run `python -m bot` again."""


class DatabaseUnavailable(Exception):
    """The database could not be opened or upgraded at start."""


def permissions() -> discord.Permissions:
    """Exactly what the bot does: post and edit the table, open its thread (a duplicate night's tables, a private
    one each: the tables of a round hold the same cards), ping in it, attach charts, create a game night's Discord
    event (Create Events: Discord asks a bot for it since 2026-02-23, and it lets the bot edit
    and end its own events). (Manage Roles, for a season's role, is asked for only by a server that wants one.)"""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        create_private_threads=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
        create_events=True,
    )


def invite_link(application_id: int) -> str:
    return discord.utils.oauth_url(application_id, permissions=permissions(), scopes=("bot", "applications.commands"))


def entry_point_command() -> dict[str, Any]:
    """The app's primary Entry Point: ``/launch`` in the App Launcher opens the Activity (Discord handles it)."""
    from bot.catalogues import catalogue, languages

    key = "command.launch"
    return {
        "name": "launch",
        "type": 4,  # PRIMARY_ENTRY_POINT
        "handler": 2,  # DISCORD_LAUNCH_ACTIVITY: Discord opens the Activity, no interaction reaches the bot
        "description": catalogue("en")[key],
        "description_localizations": {code: catalogue(code)[key] for code in languages() if code != "en"},
        "integration_types": [0],
        "contexts": [0],
    }


def use_api_base(base: str) -> None:
    """Point discord.py at a stand-in for Discord (the tests' double): REST and the gateway."""
    base = base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    gateway = yarl.URL(base.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/gateway")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


class TrickBot(TableBot):
    def __init__(self, settings: Settings) -> None:
        shards = settings.shards()
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if shards.count is not None and not shards.all:
            sharding["shard_ids"] = sorted(shards.ids)
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; interactions carry everything else
        intents.guild_scheduled_events = True  # a game night's Discord event, edited or cancelled there
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            chunk_guilds_at_startup=False,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=PoliteTree,  # every command's failure answered, politely (cogs/command_errors.py)
            # Every shard of the bot, or this process's range of them (several processes, one database).
            **sharding,
        )
        forget_servers_not_listed(self._connection)  # a server left while a shard was away: gone at its READY
        self.settings = settings
        self.own_shards = shards  # (AutoShardedBot.shards is discord.py's own: the live connections)
        # One budget of REST calls for the whole bot (every process, through Redis when REDIS_URL is set).
        token = settings.discord_token.get_secret_value().strip() if settings.discord_token else None
        self.budget = RestBudget(settings.rest_per_second, settings.redis_url, key=bucket_key(token))
        limit_requests(self.http, self.budget)
        self.database = Database(settings.database_url)
        # Computer players think in worker processes, so the bot keeps answering while they do.
        self.thinker = Thinker(settings.computer_workers, budget_ms=settings.computer_budget_ms)
        self.service = TableService(
            self.database,
            thinker=self.thinker,
            lobby_grace=timedelta(seconds=settings.lobby_post_grace_seconds),
            shards=shards,  # this process loads, times and drives the tables of its shards' servers
            # A screen of the Activity may watch a table from any process: every commit is then announced.
            announce_every_change=bool(settings.activity_port),
        )
        self.languages = ServerLanguages()
        self.activity_served = bool(settings.activity_port)  # the Activity is served beside the chat table
        self._timers: asyncio.Task[None] | None = None
        self.hearing = Hearing()  # when each shard last heard from Discord (a connection gone quiet: since then)
        self._listening: asyncio.Task[None] | None = None
        self._resume: asyncio.Task[None] | None = None
        self._shutdown: asyncio.Future[None] | None = None
        self._away: dict[int, float] = {}  # shard id: when it lost the gateway (monotonic), until it is back
        self._returning: set[asyncio.Task[Any]] = set()  # shards' clocks being given back their time away
        self._stopping_answers: set[asyncio.Task[None]] = set()  # "restarting" answers to what came as it stopped
        self._losses: dict[int, int] = {}  # shard id: how many times it lost the gateway (see :meth:`_return`)
        self._whole: dict[int, asyncio.Event] = {}  # shard id: set once its session's servers all came in
        # servers still out when their shard's session checked their channels, or whose check then could not be made
        self._unchecked: set[int] = set()
        self._arrived: list[discord.Guild] = []  # of those, the ones come in since, to check (:meth:`_check_late`)
        self._checking: asyncio.Task[None] | None = None
        self._closed: set[int] = set()  # channels this process found deleted and closed at a check
        self._session_checks: dict[int, asyncio.Task[None]] = {}  # shard id: its last new session's checks
        self._activity: ActivityRunning | None = None

    async def setup_hook(self) -> None:
        try:
            await self.database.upgrade()
            await self.service.close_unshown_lobbies()
        except (TimeoutError, OSError, SQLAlchemyError) as error:
            raise DatabaseUnavailable(_reason(error)) from error
        log.info("database %s ready", self.database.backend)
        assert self.budget is not None
        await self.budget.start()
        self.languages.load(await self.service.guild_languages())
        await self.tree.set_translator(Translator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        log.info("running %s", self.own_shards)
        if self.own_shards.all or 0 in self.own_shards.ids:  # one process syncs the commands for the whole bot
            await self.sync_commands()
        # Until a shard reaches Discord its servers' players cannot act: their turn clocks wait for it.
        self.service.gateway.starting()
        self._timers = self.service.run_timers_forever()  # the cogs hear its moves as events
        self._listening = asyncio.create_task(self._listen(), name="gateway-hearing")
        if self.settings.activity_port:  # the Activity's web server, in this process, over the same service
            self._activity = await start_activity(self.service, self.settings, self._is_thread)
        # Open tables are read back in the background: the bot answers at once, a click or a timer
        # on a table not read yet reads it then, and computers resume as their tables come back.
        self._resume = asyncio.create_task(self._resume_tables(), name="resume-tables")
        await self.service.follow_others(self._settings_changed)
        assert self.application_id is not None
        log.info("invite link: %s", invite_link(self.application_id))

    def _is_thread(self, channel_id: int) -> bool:
        """Whether Discord's channel ``channel_id`` is a thread, as this process's cache knows it (the Activity's
        lobby form opens no table in one; a thread the bot cannot see is not known as one)."""
        return isinstance(self.get_channel(channel_id), discord.Thread)

    def on_screen(self, table_id: int, user_id: int) -> bool:
        return self._activity is not None and self._activity.on_screen(table_id, user_id)

    async def _settings_changed(self, settings: GuildSettings) -> None:
        """Another process changed a server's settings: this one speaks its new language too."""
        self.languages.choose(settings.guild_id, settings.language)

    async def _resume_tables(self) -> None:
        started = time.perf_counter()
        try:
            tables = await self.service.load_open_tables()
        except Exception:
            log.exception("resuming the open tables failed; each is read when it is next used")
            return
        log.info("%d open tables resumed in %.1f s", tables, time.perf_counter() - started)

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        guild = discord.Object(guild_id) if guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if self.activity_served:
            synced = len(await self._sync_with_entry_point(guild))
        else:
            synced = len(await self.tree.sync(guild=guild))
        if guild is not None:
            log.info("synced %d commands to the development server %s", synced, guild_id)
        else:
            log.info("synced %d global commands (new ones can take a while to appear)", synced)

    async def _sync_with_entry_point(self, guild: discord.Object | None) -> list[Any]:
        """The commands and, with the Activity on, its primary Entry Point (application command type 4, handled
        by Discord: it opens the Activity from the App Launcher). A bulk overwrite without it would be refused
        once the Activity is enabled in the Developer Portal, so it goes in the same call."""
        assert self.application_id is not None
        translator = self.tree.translator
        payload: list[dict[str, Any]] = []
        for command in self.tree.get_commands(guild=guild):
            if translator is not None:
                payload.append(await command.get_translated_payload(self.tree, translator))
            else:
                payload.append(command.to_dict(self.tree))
        payload.append(entry_point_command())
        if guild is None:
            return await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
        return await self.http.bulk_upsert_guild_commands(self.application_id, guild.id, payload=payload)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """Its players' clicks cannot arrive: its clocks stop, from when it last heard from Discord if discord.py
        gave up on a connection gone quiet (a minute or more before this event), or from now."""
        now = time.monotonic()
        since = self.hearing.lost_since(shard_id)
        if now - since > 1.0:
            log.warning(
                "shard %s heard nothing from Discord's gateway for %.0f s: its turn clocks stop from then",
                shard_id,
                now - since,
            )
        self._losses[shard_id] = self._losses.get(shard_id, 0) + 1
        self._away.setdefault(shard_id, since)
        self.service.gateway.lost(shard_id, self.shard_count, silent=timedelta(seconds=now - since))

    async def _listen(self) -> None:
        """Note, every second, when each shard's open connection last heard from Discord (:class:`Hearing`)."""
        while True:
            for shard_id, shard in self.shards.items():
                self._heard(shard_id, last_heard(shard), heartbeat_interval(shard))
            await asyncio.sleep(HEARING_EVERY)

    def _heard(self, shard_id: int, ago: float | None, interval: float | None) -> None:
        """One reading of when the shard's open connection last heard from Discord (``ago`` seconds; None: no
        connection open). Quiet past a heartbeat's acknowledgement (:func:`quiet_after`), its clocks stop from its last
        word (discord.py gives up on it only after a minute without one); once it speaks again, they get that time
        back."""
        self.hearing.note(shard_id, ago)
        if ago is None:
            return
        gateway = self.service.gateway
        if ago >= quiet_after(interval):
            if gateway.hushed(shard_id, self.shard_count, timedelta(seconds=ago)):
                log.warning(
                    "shard %s: no word from Discord's gateway for %.0f s, not even a heartbeat's acknowledgement: "
                    "its turn clocks wait from its last word",
                    shard_id,
                    ago,
                )
        elif gateway.spoke(shard_id):
            log.info("shard %s: Discord's gateway spoke again; its turn clocks get that time back", shard_id)
            returning = asyncio.create_task(gateway.back(shard_id, self.shard_count), name="clocks-back")
            self._returning.add(returning)
            returning.add_done_callback(self._returning.discard)

    async def on_shard_connect(self, shard_id: int) -> None:  # discord.py: its READY read, its servers listed
        self._came_in(shard_id).clear()  # its servers come in (GUILD_CREATE) from now on
        count = self.shard_count or 1
        self._unchecked = {guild for guild in self._unchecked if shard_of(guild, count) != shard_id}  # all checked
        self._back(shard_id, "a new session", fresh=True)

    async def on_shard_ready(self, shard_id: int) -> None:  # discord.py: the new session's servers all came in
        self._came_in(shard_id).set()

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        """A server's outage on Discord's side (GUILD_DELETE with ``unavailable``; not a removal): its players'
        clicks cannot arrive, so its tables' turn clocks stop until it is in again."""
        self.service.gateway.server_out(guild.id)
        log.info("server %s is out (an outage on Discord's side): its turn clocks stop until it is back", guild.id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.service.gateway.server_gone(guild.id)  # (its tables close: the tables cog's listener)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.service.gateway.server_gone(guild.id)  # added anew: whatever was stopped of it before is over

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server came in (GUILD_CREATE). At a shard's new session, the last of its servers to come in lets its
        channels be checked at once (:meth:`_return`), rather than when discord.py has heard no more for two
        seconds (``on_shard_ready``). A server still out when its shard's session checked its channels is checked
        now (its channels as they are: discord.py made it anew at READY); a server back from an outage within a
        session is not: its channels in discord.py's cache are those from before, deleted ones too. A server back
        from an outage of its own has its clocks given back the time it was out."""
        if guild.id in self.service.gateway.servers_out():
            returning = asyncio.create_task(self.service.gateway.server_in(guild.id), name="server-clocks-back")
            self._returning.add(returning)
            returning.add_done_callback(self._returning.discard)
            log.info("server %s is in again after an outage on Discord's side", guild.id)
        if guild.id in self._unchecked:
            self._unchecked.discard(guild.id)
            self._arrived.append(guild)
            if self._checking is None or self._checking.done():
                self._checking = asyncio.create_task(self._check_late(), name="late-servers")
        elif self._all_in(guild.shard_id):
            self._came_in(guild.shard_id).set()

    async def _check_late(self) -> None:
        """The channels of servers that came in after their session's check, those come in meanwhile together (a
        shard's worth of servers back from a Discord outage at once is one query, then a question per channel
        not listed, one at a time); servers whose check could not be made are checked when they next come in."""
        while self._arrived:
            arrived, self._arrived = self._arrived, []
            by_shard: dict[int, list[discord.Guild]] = {}
            for guild in arrived:
                by_shard.setdefault(guild.shard_id, []).append(guild)
            for shard_id, guilds in by_shard.items():
                try:
                    checked = await self._channels_deleted(shard_id, guilds)
                except Exception:
                    log.exception("shard %s: the channels of servers that came in late could not be checked", shard_id)
                    checked = False
                if not checked:
                    self._unchecked |= {guild.id for guild in guilds}

    def _all_in(self, shard_id: int) -> bool:
        count = self.shard_count or 1
        return all(not g.unavailable for g in self.guilds if shard_of(g.id, count) == shard_id)

    def _came_in(self, shard_id: int) -> asyncio.Event:
        return self._whole.setdefault(shard_id, asyncio.Event())

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._back(shard_id, "its session resumed", fresh=False)

    def _back(self, shard_id: int, how: str, *, fresh: bool) -> None:
        """One line when a shard reaches the gateway: the first time, or back after an outage (how long); its
        servers' turn clocks get back the time it was away, in the background (a table at a time), after a new
        session's servers and their channels are checked against those with open tables (:meth:`_servers_left`,
        :meth:`_channels_deleted`)."""
        losses = self._losses.get(shard_id, 0)
        returning = asyncio.create_task(self._return(shard_id, fresh, losses), name="clocks-back")
        self._returning.add(returning)
        returning.add_done_callback(self._returning.discard)
        since = self._away.pop(shard_id, None)
        if since is None:
            log.info("shard %s connected to Discord's gateway", shard_id)
        else:
            away = time.monotonic() - since
            log.info("Discord's gateway is back for shard %s after %.1f s away (%s)", shard_id, away, how)

    async def _return(self, shard_id: int, fresh: bool, losses: int) -> None:
        """The shard's clocks given back their time away, once a new session's checks are done. Lost again
        meanwhile (``losses``: how many times it had lost the gateway when it connected), it is still away:
        its clocks stay stopped, and its next connection gives them the time (a new session's checks take
        seconds, up to :data:`SERVERS_WITHIN` and a question to Discord per channel not listed). A session resumed
        meanwhile waits for that session's checks too: its servers' clocks run after them, as they would have."""
        try:
            if fresh:  # a new session's READY supersedes the last one's: its checks, if still going, are moot
                before = self._session_checks.get(shard_id)
                if before is not None:
                    before.cancel()
                self._session_checks[shard_id] = asyncio.create_task(self._new_session(shard_id), name="new-session")
            check = self._session_checks.get(shard_id)
            if check is not None and not check.done():
                await asyncio.wait({check})  # (its own errors are its to report)
        finally:  # whatever the check met, the shard's clocks run again (if it is still connected)
            if self._losses.get(shard_id, 0) == losses:
                await self.service.gateway.back(shard_id, self.shard_count)

    async def _new_session(self, shard_id: int) -> None:
        """A new session's checks: the servers its READY does not list, then, once its servers came in, their
        channels not listed. A database out of reach leaves them to the next new session."""
        try:
            await self._servers_left(shard_id)
            if not self._all_in(shard_id):  # its servers come in (a server still out is checked when it does)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._came_in(shard_id).wait(), SERVERS_WITHIN)
            count = self.shard_count or 1
            await self._channels_deleted(shard_id, [g for g in self.guilds if shard_of(g.id, count) == shard_id])
        except Exception:
            log.exception("shard %s: the new session's servers and channels could not be checked", shard_id)

    async def _servers_left(self, shard_id: int) -> None:
        """A new session's READY lists every server the bot is in on the shard (available or not): a server of the
        shard with open tables, tournaments, nights or seasons that it does not list was left while nobody
        listened (the bot down, or the gateway lost as Discord said so). Nothing more is sent there, and it closes
        as a GUILD_DELETE closes it (``on_guild_remove``), before the shard's clocks run again. A database out of
        reach leaves it to the next READY."""
        count = self.shard_count or 1
        present = {guild.id for guild in self.guilds if shard_of(guild.id, count) == shard_id}
        with _unless_out_of_reach(shard_id, "the servers it no longer lists"):
            for guild_id in await self.service.servers_missing(
                present, lambda guild: shard_of(guild, count) == shard_id
            ):
                self.unreachable.server_left(guild_id)  # first: nothing of its closing is said there
                self.service.gateway.server_gone(guild_id)
                await self.service.server_left(guild_id)

    async def _channels_deleted(self, shard_id: int, guilds: list[discord.Guild]) -> bool:
        """Servers that came in whole (GUILD_CREATE) list every channel they have, the bot's to see or not: a
        channel of theirs with an open table, a tournament, a night to come or a season that they do not list was
        deleted while nobody listened, if Discord says so when asked (:meth:`_deleted`). Nothing more is sent
        there, and it closes as CHANNEL_DELETE closes it (``on_guild_channel_delete``), before the shard's clocks
        run again. A table's own thread is not checked (one gone, the table goes on in its channel); a tournament
        shown in a thread is, its thread listed while active (an archived one is asked about). A channel closed
        here once is not asked about again (a season keeps its channel). False: the database was out of reach, the
        check left to another time."""
        listed = {
            guild.id: {channel.id for channel in guild.channels} | {thread.id for thread in guild.threads}
            for guild in guilds
            if not guild.unavailable
        }
        out = {guild.id for guild in guilds if guild.unavailable} - self._unchecked
        if out:
            log.info("shard %s: %d servers still out; their channels are checked when they come in", shard_id, len(out))
        self._unchecked |= out
        if not listed:
            return True
        checked = False
        with _unless_out_of_reach(shard_id, "the channels its servers no longer list"):
            for channel_id in await self.service.channels_missing(listed):
                if channel_id not in self._closed and await self._deleted(channel_id):
                    self.unreachable.channel_deleted(channel_id)  # first: nothing of its closing is said there
                    await self.service.channel_deleted(channel_id)
                    self._closed.add(channel_id)
            checked = True
        return checked

    async def _deleted(self, channel_id: int) -> bool:
        """Whether Discord says the channel is no more (404 Unknown Channel), asked once before anything of it is
        closed: discord.py leaves out of a server's channels those of a kind it does not know, so a channel not
        listed may still be there. A channel Discord shows, or hides from the bot (403), or cannot say of now (an
        error), is left as it is."""
        try:
            await self.http.get_channel(channel_id)  # its JSON alone: discord.py would refuse a kind it does not know
        except discord.NotFound as error:
            return error.code == UNKNOWN_CHANNEL
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            log.info(
                "channel %s is not listed with its server, and Discord did not say it is gone (%s)", channel_id, error
            )
            return False
        log.info("channel %s is not listed with its server but Discord still has it: left open", channel_id)
        return False

    async def serve(self, token: str, stop: asyncio.Event) -> None:
        """Run until ``stop`` is set (a signal), then close; or until discord.py gives up (its error is raised).

        Whatever discord.py is doing when asked to stop (connected, waiting minutes in its back-off
        before reconnecting, still starting), its task is cancelled rather than waited for.
        """
        running = asyncio.create_task(self.start(token), name="discord")
        stopping = asyncio.create_task(stop.wait(), name="stop-signal")
        try:
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if running.done():
            running.result()  # discord.py stopped by itself: an error is raised here, for run() to explain
        else:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        await self.close()

    async def close(self) -> None:
        """Shut down once, however many times asked (a signal, then leaving ``async with``), to the end."""
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._shut_down())
        await asyncio.shield(self._shutdown)

    async def _shut_down(self) -> None:
        """Close in order, each part within what is left of :data:`STOP_WITHIN`: the timers; the commands and
        clicks being answered (their answers and writes); the table service and the computer players (a move
        half thought is thought again at the next start: nothing of it was written); the table edits still
        to send; Discord; the database (a transaction under way is rolled back whole: the action log is
        written a move at a time); and the REST budget."""
        started = time.monotonic()
        deadline = started + STOP_WITHIN
        self._answer_stopping()
        # the timers, the listening, the resuming, the checks; a clock not given its time back yet (the next start
        # gives it time again): cancelled, then let unwind, so that a read or write under way in one of them
        # rolls back before the database closes (cancelled again there, as the loop's end cancels what is left,
        # it logged a traceback)
        background = [
            task for task in (self._timers, self._listening, self._resume, self._checking) if task is not None
        ]
        background += [*self._returning, *self._session_checks.values()]
        for task in background:
            task.cancel()
        if background:
            await self._within("the timers and checks", _all_of(background), deadline, 1.0)
        answering = _answering()
        if answering:  # a command or click under way: its answer and its write are let through
            await self._within("the answers under way", _all_of(answering), deadline, 3.0)
        await self._within("the table service", self.service.close(), deadline, 3.0)
        await self._within("the computer players' workers", self.thinker.close(), deadline, 3.0)
        cog = self.get_cog(Tables.__cog_name__)
        if isinstance(cog, Tables):
            flush = cog.publisher.flush(timeout=max(0.1, min(2.0, deadline - time.monotonic() - 4.0)))
            await self._within("the table edits", flush, deadline, 3.0)
        # Stopped within seconds of connecting, discord.py's pending "ready" would fire after the client
        # has let go of its loop (a traceback at exit): cancel it first.
        ready = getattr(self._connection, "_ready_task", None)
        if ready is not None:
            ready.cancel()
        for shard_ready in list(getattr(self._connection, "_ready_tasks", {}).values()):
            shard_ready.cancel()
        if self._activity is not None:
            await self._within("the Activity's web server", self._activity.close(), deadline, 2.0)
        if self._stopping_answers:  # the last "restarting" answers on their way: before the session closes
            await self._within("the answers that it restarts", _all_of(list(self._stopping_answers)), deadline, 1.0)
        await self._within("the connection to Discord", super().close(), deadline, 3.0)
        await self._within("the database", self.database.close(), deadline, 3.0)
        if self.budget is not None:
            await self._within("the REST budget", self.budget.close(), deadline, 1.0)
        log.info("stopped in %.1f s", time.monotonic() - started)

    def _answer_stopping(self) -> None:
        """From the stop on, every command or click Discord sends is answered at once, to its sender alone, that
        the bot is restarting (the gateway stays open for seconds while the rest closes, and the cogs are unloaded
        before it: a click then failed with a traceback, a command was called outdated). Nothing is written."""
        state = self._connection
        answers = self._stopping_answers

        def arrived(data: Any) -> None:
            interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=state)
            task = asyncio.create_task(_say_stopping(interaction), name="answer-while-stopping")
            answers.add(task)
            task.add_done_callback(answers.discard)

        state.parsers["INTERACTION_CREATE"] = arrived
        log.info("stopping: commands and clicks are now answered that the bot is restarting")

    @staticmethod
    async def _within(what: str, step: Awaitable[None], deadline: float, longest: float) -> None:
        """Await ``step`` for ``longest`` seconds at most, and never past ``deadline``: then leave it behind."""
        seconds = max(0.1, min(longest, deadline - time.monotonic()))
        try:
            await asyncio.wait_for(step, seconds)
        except TimeoutError:
            log.warning("stopping: %s did not close within %.1f s and was left behind", what, seconds)
        except Exception as error:
            log.warning("stopping: closing %s failed (%s)", what, _reason(error))


async def run(settings: Settings) -> int:
    if settings.activity_local:
        return await run_local_table(settings)
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        print(NO_TOKEN.format(problem="none is set"), file=sys.stderr)
        return 2
    if settings.discord_api_base:
        use_api_base(settings.discord_api_base)
    quiet_discord_logs()
    use_backoff(settings.reconnect_first_seconds, settings.reconnect_longest_seconds)
    bot = TrickBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def asked(signum: int) -> None:
        if not stop.is_set():
            log.info("%s: stopping", signal.Signals(signum).name)
            end_at_the_latest(STOP_AT_THE_LATEST)
        stop.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, asked, signum)
    try:
        async with bot:
            await bot.serve(token, stop)
    except asyncio.CancelledError:
        # A stop that left the connection to Discord behind (it did not close in time, see TrickBot.close)
        # cancelled discord.py's closing task, which leaving ``async with`` awaits again. Anything else
        # that cancels this task is not ours to swallow.
        task = asyncio.current_task()
        if not stop.is_set() or (task is not None and task.cancelling()):
            raise
    except DatabaseUnavailable as error:
        print(NO_DATABASE.format(reason=error), file=sys.stderr)
        return 2
    except PortTaken as error:
        print(error, file=sys.stderr)
        return 2
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as error:
        print(UNREACHABLE.format(reason=_reason(error)), file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(NO_TOKEN.format(problem="Discord rejected the one that is set"), file=sys.stderr)
        return 2
    except discord.ConnectionClosed as error:  # a close code not to reconnect after (4004, 4010 to 4013)
        print(closed_by_discord(error, settings), file=sys.stderr)
        return 2
    except discord.DiscordServerError as error:  # a 5xx to logging in or to the command sync
        status, call = failing_call(error)
        print(DISCORD_FAILING.format(status=status, call=call), file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused the connection: this bot asks for no privileged intents, so check the token.",
            file=sys.stderr,
        )
        return 2
    return 0


# discord.py runs each slash command and each click in a task of its own, named so (discord/app_commands/tree.py,
# discord/ui/view.py).
ANSWER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-")


@contextlib.contextmanager
def _unless_out_of_reach(shard_id: int, what: str) -> Iterator[None]:
    """A check of a shard's servers at its return: the database (or Discord) out of reach is one WARNING line, and
    the check is left to the next time; any other error is raised."""
    try:
        yield
    except Exception as error:
        if not isinstance(error, SQLAlchemyError) and out_of_reach(error) is None:
            raise
        log.warning("shard %s: %s could not be checked (%s)", shard_id, what, error)


async def _say_stopping(interaction: discord.Interaction[Any]) -> None:
    """A command or click that came as the bot stops: "restarting, try again in a moment" (an autocomplete: no
    choices); nothing else is done."""
    with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, TimeoutError, RuntimeError):
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        elif interaction.type is not discord.InteractionType.ping:
            await interaction.response.send_message(t(reader(interaction), "error.restarting"), ephemeral=True)


def _answering() -> list[asyncio.Task[Any]]:
    """The commands and clicks being answered right now."""
    current = asyncio.current_task()
    return [
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(ANSWER_TASKS)
    ]


async def _all_of(tasks: list[asyncio.Task[Any]]) -> None:
    """Wait for ``tasks`` to end (their errors are theirs: each handler reports its own)."""
    await asyncio.wait(tasks)


async def run_local_table(settings: Settings) -> int:
    """Local mode: the table service and the Activity's page alone, no Discord (``python -m bot --local``)."""
    database = Database(settings.database_url)
    try:
        await database.upgrade()
    except (TimeoutError, OSError, SQLAlchemyError) as error:
        print(NO_DATABASE.format(reason=_reason(error)).replace("python -m bot", "python -m bot --local"))
        await database.close()
        return 2
    thinker = Thinker(settings.computer_workers, budget_ms=settings.computer_budget_ms)
    service = TableService(database, thinker=thinker, lobby_grace=timedelta(seconds=settings.lobby_post_grace_seconds))
    try:
        return await run_local(service, settings)
    finally:
        await service.close()
        await thinker.close()
        await database.close()


def _reason(error: BaseException) -> str:
    """An error in a few words for a person (the first line of its message, else its kind)."""
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__


def _problem(where: tuple[int | str, ...], message: str) -> str:
    """One setting's problem as a person reads it: ``SHARD_IDS: …`` (a check of several settings names none)."""
    message = message.removeprefix("Value error, ")
    return f"{'.'.join(map(str, where)).upper()}: {message}" if where else message


def main(*, local: bool = False) -> int:
    """Run the bot (``local``: the card table in a browser alone, no Discord; ``python -m bot --local``)."""
    try:
        settings = Settings(activity_local=True) if local else Settings()
    except ValidationError as error:
        problems = "; ".join(_problem(e["loc"], e["msg"]) for e in error.errors())
        print(f"The configuration (environment or .env) is not valid: {problems}. See .env.example.", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(settings.log_level.upper())))
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # a line per plugin at every start
    if local:  # a line per migration on a new database, before the one line that matters: the page's address
        logging.getLogger("alembic.runtime.migration").setLevel(logging.WARNING)
    for handler in logging.getLogger().handlers:
        handler.addFilter(OneLineOutages())
        handler.addFilter(QuietCancelledCloses())
    return asyncio.run(run(settings))
