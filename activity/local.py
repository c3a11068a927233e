"""Local mode: the table in a browser, with no Discord at all (a newcomer's first minute).

``python -m bot --local`` (or no DISCORD_TOKEN, or ``ACTIVITY_LOCAL=1``) runs the table service
and the Activity's server on http://127.0.0.1:8080 (``ACTIVITY_HOST``, ``ACTIVITY_PORT``). Each
browser tab signs in with a name; the same database (SQLite by default) keeps the tables, in a
server of their own (:data:`~activity.sessions.LOCAL_GUILD`), so no local match reaches a Discord
server's leaderboard.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Callable

from aiohttp import web

from bot.config import Settings
from bot.stopping import STOP_AT_THE_LATEST, end_at_the_latest
from bot.tables import TableService

from .identity import DiscordSignIn
from .limits import networks
from .proxy import ProxySignatures
from .server import NOT_BUILT, ActivityServer
from .sessions import LOCAL_GUILD
from .source import ServiceSource

log = logging.getLogger("activity")

DEFAULT_PORT = 8080
# One person's machine: open as many tables as they like, one after another.
LOCAL_LIMITS = {"max_open_tables": 500, "max_lobbies_per_host": 25, "play_cooldown_seconds": 0}


PORT_TAKEN = """\
Could not serve the card table on {host}:{port} ({reason}): another program, or another copy of the bot, \
may be using that port. Stop it, or choose another port with ACTIVITY_PORT (in the environment or .env, see \
.env.example), then start again."""


class PortTaken(Exception):
    """The Activity's address could not be listened on; the message says what to do."""


async def serve(server: ActivityServer, host: str, port: int) -> web.AppRunner:
    runner = web.AppRunner(server.app(), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:  # the port is taken, or the host is not this machine's
        await runner.cleanup()
        reason = error.strerror or type(error).__name__
        raise PortTaken(PORT_TAKEN.format(host=host, port=port, reason=reason)) from None
    return runner


class ActivityRunning:
    """The Activity's server running beside the Discord bot: stopped with it."""

    def __init__(self, source: ServiceSource, runner: web.AppRunner, server: ActivityServer) -> None:
        self.source, self.runner, self.server = source, runner, server

    def on_screen(self, table_id: int, user_id: int) -> bool:
        """Whether the person has the table open on one of this server's screens."""
        return self.server.on_screen(table_id, user_id)

    async def close(self) -> None:
        await self.runner.cleanup()
        await self.source.close()


async def start_activity(
    service: TableService, settings: Settings, in_thread: Callable[[int], bool] = lambda channel_id: False
) -> ActivityRunning:
    """Serve the Activity on ACTIVITY_HOST:ACTIVITY_PORT over the bot's own table service; ``in_thread``: whether
    a channel is a thread, as the bot knows it (no table is opened in one)."""
    source = ServiceSource(service)
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    secret = settings.activity_client_secret.get_secret_value() if settings.activity_client_secret else ""
    if not settings.activity_client_id or not secret:
        raise ValueError("ACTIVITY_PORT needs ACTIVITY_CLIENT_ID and ACTIVITY_CLIENT_SECRET (see .env.example)")
    discord = DiscordSignIn(settings.activity_client_id, secret, token, settings.discord_api_base)
    trusted = networks(settings.activity_trusted_proxies)
    key = settings.activity_public_key
    signatures = ProxySignatures(key) if key else None
    server = ActivityServer(
        source, local=False, discord=discord, trusted_proxies=trusted, signatures=signatures, in_thread=in_thread
    )
    runner = await serve(server, settings.activity_host, settings.activity_port or DEFAULT_PORT)
    log.info("the Activity is served on %s:%s", settings.activity_host, settings.activity_port)
    if not server.page_built:
        log.warning("%s Until then every screen is answered with that.", NOT_BUILT)
    return ActivityRunning(source, runner, server)


async def run_local(service: TableService, settings: Settings, *, ready: asyncio.Event | None = None) -> int:
    """Serve the table in a browser until stopped (Ctrl+C, SIGTERM); the caller owns ``service``."""
    await service.update_guild_settings(LOCAL_GUILD, **LOCAL_LIMITS)
    source = ServiceSource(service, local=True)
    server = ActivityServer(source, local=True, hosts=(settings.activity_host,))
    port = settings.activity_port or DEFAULT_PORT
    try:
        runner = await serve(server, settings.activity_host, port)
    except PortTaken as error:
        print(error, file=sys.stderr)
        return 2
    timers = service.run_timers_forever()  # its moves reach the screens as events
    resume = asyncio.create_task(service.load_open_tables(), name="resume-tables")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def asked() -> None:
        if not stop.is_set():  # closed in order below; a part that hangs does not keep the process
            end_at_the_latest(STOP_AT_THE_LATEST)
        stop.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, asked)
    print(
        f"The card table is open at http://{settings.activity_host}:{port}/ (local mode: no Discord). "
        "Open it in a browser, sign in with any name, and start a table; open more tabs to play with friends. "
        "Ctrl+C stops it.",
        flush=True,
    )
    if not server.page_built:
        print(f"{NOT_BUILT} Until then the browser is told so.", file=sys.stderr, flush=True)
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
    finally:
        timers.cancel()
        resume.cancel()
        await runner.cleanup()
        await source.close()
    return 0
