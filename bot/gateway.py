"""Reaching Discord's gateway: how long to wait between attempts, and what an outage says in the log.

discord.py reconnects a shard by itself, waiting longer after each failed
attempt: up to 1,024 s (17 minutes) by its own back-off, so after a long
outage a bot could stay away for a quarter of an hour after Discord is back.
Here the wait doubles from ``first`` seconds up to ``longest`` (2 minutes by
default, ``RECONNECT_LONGEST_SECONDS``), with jitter so that many bots (or
shards) do not come back at the same instant.

An outage is ordinary: discord.py logs each attempt as an ERROR with a full
traceback; :class:`QuietOutages` turns that into one WARNING line with the
reason and the next delay, and the launcher logs one INFO line when the
gateway is back (with how long it was away). A connection gone quiet (no
message from Discord, not even its heartbeats' acknowledgements) is given up
on by discord.py only after a minute: :class:`Hearing` keeps when each
shard last heard from Discord, and once a heartbeat has gone unanswered
(:func:`quiet_after`) the shard's turn clocks stop from that moment.
"""

from __future__ import annotations

import logging
import random
import socket
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import asyncpg  # type: ignore[import-untyped]
import discord
import discord.shard

from bot.shards import shard_of

# discord.py's own messages, as it logs them (discord/shard.py, discord/gateway.py)
RECONNECT = "Attempting a reconnect for shard ID %s in %.2fs"
FIRST_CONNECT = "Failed to connect for shard_id: %s. Retrying..."
FIRST_CONNECT_RETRY = 5.0  # seconds discord.py waits before trying a first connection again
CONNECTED = "Shard ID %s has connected to Gateway (Session ID: %s)."
RESUMED = "Shard ID %s has successfully RESUMED session %s."
HEARTBEAT_TIMEOUT = 60.0  # discord.py's: a shard that heard nothing from Discord this long reconnects
HEARTBEAT_INTERVAL = 41.25  # seconds between heartbeats, as Discord's HELLO usually says
UNANSWERED = 5.0  # seconds past a heartbeat's interval without a word: its acknowledgement did not come


def last_heard(shard: discord.ShardInfo) -> float | None:
    """How many seconds ago the shard's connection last heard from Discord (any message: an event, or its
    heartbeat's acknowledgement, which comes every 41 s or so); None where discord.py does not say (no connection
    open now). discord.py keeps it in its keep-alive handler (``_last_recv``, on ``perf_counter``), which it drops
    before it says the shard disconnected: read it while the connection is open (:class:`Hearing`)."""
    keep_alive = getattr(getattr(getattr(shard, "_parent", None), "ws", None), "_keep_alive", None)
    heard = getattr(keep_alive, "_last_recv", None)
    return time.perf_counter() - heard if isinstance(heard, float) else None


def heartbeat_interval(shard: discord.ShardInfo) -> float | None:
    """The seconds between the heartbeats of the shard's open connection, as Discord's HELLO said (discord.py's
    keep-alive handler's ``interval``); None where no connection is open."""
    keep_alive = getattr(getattr(getattr(shard, "_parent", None), "ws", None), "_keep_alive", None)
    interval = getattr(keep_alive, "interval", None)
    return float(interval) if isinstance(interval, (int, float)) and interval > 0 else None


def quiet_after(interval: float | None) -> float:
    """How long an open connection may hear nothing before it is taken for quiet: a heartbeat goes every
    ``interval`` and Discord acknowledges it at once, so a connection that heard nothing for an interval and
    :data:`UNANSWERED` more missed an acknowledgement. discord.py gives up on it only later, after
    :data:`HEARTBEAT_TIMEOUT` without a word."""
    return (interval if interval is not None else HEARTBEAT_INTERVAL) + UNANSWERED


def forget_servers_not_listed(state: Any) -> None:
    """A shard's new session (READY) lists every server the bot is in on it; discord.py's sharded state adds them
    but keeps those its last session had (the single connection's state clears them all): a server the bot was
    removed from while the shard was away would stay among ``client.guilds``, whole, and never be found gone.
    ``state`` (the client's ``_connection``) now drops, at each shard's READY, that shard's servers it does not
    list, before discord.py reads it."""
    parse_ready: Callable[[Any], None] = state.parsers["READY"]

    def ready(data: Any) -> None:
        if data.get("shard"):
            shard_id, count = data["shard"]
            listed = {int(guild["id"]) for guild in data.get("guilds", [])}
            for guild in list(state._guilds.values()):
                if guild.id not in listed and shard_of(guild.id, count) == shard_id:
                    state._remove_guild(guild)
        parse_ready(data)

    state.parsers["READY"] = ready


class Hearing:
    """When each shard last heard from Discord's gateway, as read every second or so while its connection is open.

    A connection that goes quiet without closing (a network that drops its packets: no event, no heartbeat
    acknowledged) is given up on by discord.py only once it has heard nothing for :data:`HEARTBEAT_TIMEOUT`:
    the shard was lost from its last message, a minute or more before discord.py says it disconnected."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._heard: dict[int, float] = {}  # shard: when it last heard from Discord (on ``clock``)

    def note(self, shard_id: int, ago: float | None) -> None:
        if ago is not None:
            self._heard[shard_id] = self.clock() - ago

    def lost_since(self, shard_id: int) -> float:
        """The shard disconnected now: since when (on ``clock``) its players' clicks could not arrive. From its last
        message if it had heard nothing for about the heartbeat timeout (discord.py gave up on a quiet
        connection); otherwise from now (a connection closed or broken is noticed at once)."""
        now = self.clock()
        heard = self._heard.pop(shard_id, None)
        if heard is not None and now - heard >= HEARTBEAT_TIMEOUT - 2.0:
            return heard
        return now


class Backoff:
    """The wait before each attempt to reach the gateway again: ``first`` seconds, doubling up to ``longest``,
    each a random time between half of it and all of it. After a quiet spell of twice ``longest`` (the
    connection held), the next outage starts from ``first`` again. Same interface as discord.py's
    ``ExponentialBackoff`` (``delay()``)."""

    def __init__(self, first: float = 1.0, longest: float = 120.0, *, clock: Callable[[], float] = time.monotonic):
        if not 0 < first <= longest:
            raise ValueError("the back-off needs 0 < first <= longest")
        self.first = first
        self.longest = longest
        self._clock = clock
        self._attempts = 0
        self._last = clock()
        self._random = random.Random()

    def delay(self) -> float:
        now = self._clock()
        if now - self._last > 2 * self.longest:
            self._attempts = 0
        self._last = now
        ceiling = min(self.longest, self.first * 2.0 ** min(self._attempts, 60))
        self._attempts += 1
        return self._random.uniform(ceiling / 2, ceiling)


def use_backoff(first: float, longest: float) -> None:
    """Make every shard discord.py creates from now on wait by :class:`Backoff` (discord.py gives no option for
    it: each ``Shard`` makes its own ``ExponentialBackoff()`` by that module-level name)."""
    setattr(discord.shard, "ExponentialBackoff", lambda: Backoff(first, longest))  # noqa: B010 - on purpose


def _reason(error: BaseException | None) -> str:
    if error is None:
        return "no reason given"
    if isinstance(error, discord.ConnectionClosed):
        return f"the connection closed with code {error.code}"
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200]}" if text else type(error).__name__


class QuietOutages(logging.Filter):
    """On discord.py's loggers: a reconnect attempt is one WARNING line (the reason and the next delay), not an
    ERROR with a traceback; its own "connected" and "resumed" lines go to DEBUG, as the launcher says once,
    at INFO, that the gateway is back and how long it was away."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == RECONNECT and isinstance(record.args, tuple) and len(record.args) == 2:
            shard, delay = record.args
            error = record.exc_info[1] if record.exc_info else None
            self._warn(record, "Discord's gateway is out of reach (%s); shard %s tries again in %.1f s")
            record.args = (_reason(error), shard, delay)
        elif record.msg == FIRST_CONNECT and isinstance(record.args, tuple) and len(record.args) == 1:
            error = record.exc_info[1] if record.exc_info else None
            self._warn(record, "Could not connect shard %s to Discord's gateway (%s); trying again in %.1f s")
            record.args = (record.args[0], _reason(error), FIRST_CONNECT_RETRY)
        elif record.msg in (CONNECTED, RESUMED):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return True

    @staticmethod
    def _warn(record: logging.LogRecord, message: str) -> None:
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg = message
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None


# What a service out of reach raises (Discord, the database, Redis): a connection refused or reset, a timeout,
# a name that does not resolve; and PostgreSQL's connection troubles, such as the connection lost in the middle of
# a query (asyncpg says so with errors of its own, no ConnectionError: a computer's move under way as the database
# went away logged a whole traceback for it).
OUT_OF_REACH: tuple[type[BaseException], ...] = (
    ConnectionError,
    TimeoutError,
    socket.gaierror,
    aiohttp.ClientConnectionError,
    asyncpg.exceptions.PostgresConnectionError,  # SQLSTATE class 08, "connection exception"
)


def out_of_reach(error: BaseException | None) -> BaseException | None:
    """The connection error behind ``error`` (itself, or its cause, or the cause's ...), if there is one."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, OUT_OF_REACH):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


class OneLineOutages(logging.Filter):
    """On the log's handlers: an error whose cause is a service out of reach (a connection refused or reset, a
    timeout) is one WARNING line with that cause, not a traceback: during an outage every retry says so, and
    a page of traceback each time hides what matters. Other errors keep their traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.exc_info and record.exc_info[1] is not None:
            cause = out_of_reach(record.exc_info[1])
            if cause is not None:
                record.msg = f"{record.getMessage()} ({_reason(cause)})"
                record.args = ()
                record.levelno, record.levelname = logging.WARNING, "WARNING"
                record.exc_info = None
                record.exc_text = None
        return True


def quiet_discord_logs() -> None:
    """Outages in one line each; and no word at start of voice support, which this bot never uses."""
    discord.VoiceClient.warn_nacl = False  # "PyNaCl is not installed, voice will NOT be supported"
    discord.VoiceClient.warn_dave = False  # "davey is not installed, voice will NOT be supported"
    outages = QuietOutages()
    for name in ("discord.shard", "discord.gateway", "discord.client"):
        logger = logging.getLogger(name)
        if outages not in logger.filters and not any(isinstance(f, QuietOutages) for f in logger.filters):
            logger.addFilter(outages)
