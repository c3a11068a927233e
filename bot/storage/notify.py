"""What one process tells the others sharing a PostgreSQL database (``LISTEN``/``NOTIFY``).

Two things are heard: a server's settings changed, and a table was moved on by another
process (when several share the database), so its owner reads it again and its computers
play on, and every process tells its own subscribers. Both are announced in the transaction
that writes them: ``pg_notify`` is delivered at commit, and not at all if the write rolls
back, so a process that stops right after its commit has told the others already. SQLite
serves one process, which needs no message.

A notification sent while nobody listens is lost. The listening connection is watched (asyncpg
says when it closes; a query every :data:`CHECK_SECONDS` finds a silent network cut) and opened
again with back-off; once it listens again, what was said meanwhile is caught up through
``missed`` (the caller compares its tables' versions with the database's and reads the
settings again).

PostgreSQL's notifications go to every session of the database, whatever its
schema: each channel's name ends with a digest of the schema the bot's tables
are in, so bots (or test runs) that keep their tables in different schemas of
one database never hear one another (table 1 of one schema is not table 1 of
another).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import String, column, func, make_url, select, values
from sqlalchemy.ext.asyncio import AsyncConnection

log = logging.getLogger(__name__)

CHANNEL = "trick_table_settings"  # payload: the server's id
# payload: "<table id>:<server id>:<version>"; a reminder at that version: "<…>:<version>:<act_at, epoch ms>"
TABLES_CHANNEL = "trick_table_tables"
DIGEST = 12  # hexadecimal digits of the schema's MD5 in a channel's name (names are at most 63 bytes)
CHECK_SECONDS = 10.0  # how often the listening connection is tried with a query (a silent cut shows no other way)
CHECK_TIMEOUT = 5.0  # a connection that takes longer to answer ``SELECT 1`` is taken for lost
CONNECT_TIMEOUT = 10.0
BACK_OFF = (0.5, 30.0)  # seconds before the first new try to listen again, doubled up to the second


def channel(base: str, schema: str) -> str:
    """The name of channel ``base`` for the bot whose tables are in ``schema``."""
    return f"{base}_{hashlib.md5(schema.encode()).hexdigest()[:DIGEST]}"


def _channel_here(base: str) -> Any:
    """The same name, worked out by PostgreSQL for the schema of the connection that sends."""
    return func.concat(f"{base}_", func.left(func.md5(func.current_schema()), DIGEST))


async def announce(connection: AsyncConnection, guild_id: int) -> None:
    """Tell every listening process, at commit, that ``guild_id``'s settings changed."""
    await connection.execute(select(func.pg_notify(_channel_here(CHANNEL), str(guild_id))))


async def announce_table(connection: AsyncConnection, table_id: int, guild_id: int, version: int) -> None:
    """Tell every listening process, at commit, that table ``table_id`` of server ``guild_id`` moved on to
    ``version`` (sent in the transaction of the change itself: never lost between the commit and a later write,
    never sent for a change rolled back)."""
    payload = f"{table_id}:{guild_id}:{version}"
    await connection.execute(select(func.pg_notify(_channel_here(TABLES_CHANNEL), payload)))


async def announce_tables(connection: AsyncConnection, news: Sequence[tuple[int, int, int]]) -> None:
    """:func:`announce_table` for each ``(table_id, guild_id, version)`` of ``news``, in one statement (a
    group commit of many tables' moves pays for one)."""
    if len(news) <= 1:
        for table_id, guild_id, version in news:
            await announce_table(connection, table_id, guild_id, version)
        return
    rows = values(column("payload", String), name="news").data([(f"{t}:{g}:{v}",) for t, g, v in news])
    await connection.execute(select(func.pg_notify(_channel_here(TABLES_CHANNEL), rows.c.payload)))


async def announce_reminders(connection: AsyncConnection, news: Sequence[tuple[int, int, int, datetime]]) -> None:
    """Tell every listening process, at commit, that the seats on turn at each table ``(table_id, guild_id, version,
    act_at)`` were reminded: its clock now runs to ``act_at``, at the same version (so no copy elsewhere would
    see it). A process from before this reads only three numbers, and lets the four-number news go."""
    if not news:
        return
    payloads = [(f"{t}:{g}:{v}:{int(act_at.timestamp() * 1000)}",) for t, g, v, act_at in news]
    rows = values(column("payload", String), name="news").data(payloads)
    await connection.execute(select(func.pg_notify(_channel_here(TABLES_CHANNEL), rows.c.payload)))


async def listening_connection(dsn: str) -> Any:
    """A connection of its own for ``LISTEN`` (a module function, so that tests can hold a reconnection back)."""
    return await asyncpg.connect(dsn, timeout=CONNECT_TIMEOUT)


def _numbers(payload: str, count: int) -> list[int] | None:
    parts = payload.split(":")
    if len(parts) != count or not all(p.isascii() and p.isdigit() and len(p) <= 20 for p in parts):
        return None
    return [int(p) for p in parts]


class OthersListener:
    """One connection of its own that listens for the other processes' news: ``settings(guild_id)`` when
    a server's settings changed, ``table(table_id, guild_id, version)`` when a table was moved on elsewhere,
    ``reminded(table_id, guild_id, version, act_at)`` when its seats on turn were reminded elsewhere;
    only theirs whose tables are in ``schema`` (the bot's connections' ``current_schema()``).

    The connection is watched: lost (PostgreSQL restarted or failed over, the session killed, the network
    cut), it is opened again, trying again with back-off while PostgreSQL is away, and once it listens again
    ``missed()`` is called, since whatever was announced meanwhile never arrives."""

    def __init__(
        self,
        url: str,
        schema: str,
        settings: Callable[[int], Awaitable[None]],
        table: Callable[[int, int, int], Awaitable[None]],
        missed: Callable[[], Awaitable[None]],
        *,
        reminded: Callable[[int, int, int, datetime], Awaitable[None]] | None = None,
        check_every: float = CHECK_SECONDS,
        back_off: tuple[float, float] = BACK_OFF,
    ) -> None:
        parsed = make_url(url).set(drivername="postgresql")
        self._dsn = parsed.render_as_string(hide_password=False)
        self._channels = channel(CHANNEL, schema), channel(TABLES_CHANNEL, schema)
        self._settings = settings
        self._table = table
        self._missed = missed
        self._reminded = reminded
        self._check_every = check_every
        self._back_off = back_off
        self._connection: Any = None
        self._lost = asyncio.Event()  # set by asyncpg's word that the connection closed: the watch wakes at once
        self._watching: asyncio.Task[None] | None = None
        self._pending: set[Any] = set()
        self.reconnections = 0  # how many times the connection was opened again (logs and tests)

    async def start(self) -> None:
        """Listen (an error here is the caller's: PostgreSQL out of reach at start), then watch the connection."""
        await self._listen()
        self._watching = asyncio.create_task(self._watch(), name="listen-to-others")

    async def _listen(self) -> None:
        connection = await listening_connection(self._dsn)
        try:
            await connection.add_listener(self._channels[0], self._on_settings)
            await connection.add_listener(self._channels[1], self._on_table)
        except BaseException:
            connection.terminate()
            raise
        # Set before the termination listener: a close reported for this connection is then always its own.
        self._connection = connection
        connection.add_termination_listener(self._on_closed)
        if connection.is_closed():  # lost before the listener was there to say so
            self._lost.set()

    def _on_closed(self, connection: Any) -> None:
        if connection is self._connection:  # not one already replaced, nor the one close() ends
            self._lost.set()

    async def _watch(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lost.wait(), self._check_every)
            problem = await self._trouble()
            if problem is None:
                continue
            log.warning("stopped hearing the other processes (%s): listening again", problem)
            await self._listen_again()

    async def _trouble(self) -> str | None:
        """Why the connection no longer listens (None: it does)."""
        connection = self._connection
        if connection is None or connection.is_closed():
            return "the connection closed"
        try:
            await connection.execute("SELECT 1", timeout=CHECK_TIMEOUT)
        except Exception as error:  # any failure: a fresh connection costs little, a deaf one tables that wait
            return f"{type(error).__name__}: {error}"
        return None

    async def _listen_again(self) -> None:
        """Open the connection again until it listens (back-off between tries), then catch up on what was missed."""
        old, self._connection = self._connection, None
        if old is not None and not old.is_closed():
            old.terminate()  # silent or broken: dropped without waiting for an answer
        delay, most = self._back_off
        while True:
            self._lost.clear()
            try:
                await self._listen()
                break
            except Exception as error:
                log.warning("could not listen to the other processes (%s); trying again in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, most)
        self.reconnections += 1
        log.info("listening to the other processes again: catching up on what they told meanwhile")
        # Only now, with LISTEN in place: whatever is committed from here is heard, whatever was before is read.
        self._run(self._missed(), "what the other processes told while nobody listened")

    def _on_settings(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        numbers = _numbers(payload, 1)
        if numbers is not None:
            self._run(self._settings(*numbers), f"the new settings of server {payload}")

    def _on_table(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        numbers = _numbers(payload, 3)
        if numbers is not None:
            self._run(self._table(*numbers), f"table {numbers[0]} moved on by another process")
            return
        reminder = _numbers(payload, 4)
        if reminder is not None and self._reminded is not None:
            table_id, guild_id, version, act_ms = reminder
            act_at = datetime.fromtimestamp(act_ms / 1000, UTC)
            self._run(self._reminded(table_id, guild_id, version, act_at), f"the reminder at table {table_id}")

    def _run(self, work: Awaitable[None], what: str) -> None:
        task = asyncio.ensure_future(self._call(work, what))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    @staticmethod
    async def _call(work: Awaitable[None], what: str) -> None:
        try:
            await work
        except Exception:
            log.exception("could not apply %s", what)

    async def close(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watching
            self._watching = None
        for task in list(self._pending):
            task.cancel()
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                await asyncio.wait_for(connection.close(), CHECK_TIMEOUT)
            except Exception:  # already lost, or not answering: let it go
                connection.terminate()
