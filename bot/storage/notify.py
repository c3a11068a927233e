"""What one process tells the others sharing a PostgreSQL database (``LISTEN``/``NOTIFY``).

Two things are heard: a server's settings changed (announced in the transaction
that writes them: ``pg_notify`` is sent at commit, and not at all if the write
rolls back), and a table was moved on by another process (when several share
the database), so its owner reads it again and its computers play on, and every
process tells its own subscribers. SQLite serves one process, which needs no message.

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
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import func, make_url, select
from sqlalchemy.ext.asyncio import AsyncConnection

log = logging.getLogger(__name__)

CHANNEL = "trick_table_settings"  # payload: the server's id
TABLES_CHANNEL = "trick_table_tables"  # payload: "<table id>:<server id>:<version>"
DIGEST = 12  # hexadecimal digits of the schema's MD5 in a channel's name (names are at most 63 bytes)


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
    """Tell every listening process that table ``table_id`` of server ``guild_id`` moved on to ``version``."""
    payload = f"{table_id}:{guild_id}:{version}"
    await connection.execute(select(func.pg_notify(_channel_here(TABLES_CHANNEL), payload)))


def _numbers(payload: str, count: int) -> list[int] | None:
    parts = payload.split(":")
    if len(parts) != count or not all(p.isascii() and p.isdigit() and len(p) <= 20 for p in parts):
        return None
    return [int(p) for p in parts]


class OthersListener:
    """One connection of its own that listens for the other processes' news: ``settings(guild_id)`` when
    a server's settings changed, ``table(table_id, guild_id, version)`` when a table was moved on elsewhere;
    only theirs whose tables are in ``schema`` (the bot's connections' ``current_schema()``)."""

    def __init__(
        self,
        url: str,
        schema: str,
        settings: Callable[[int], Awaitable[None]],
        table: Callable[[int, int, int], Awaitable[None]],
    ) -> None:
        parsed = make_url(url).set(drivername="postgresql")
        self._dsn = parsed.render_as_string(hide_password=False)
        self._channels = channel(CHANNEL, schema), channel(TABLES_CHANNEL, schema)
        self._settings = settings
        self._table = table
        self._connection: Any = None
        self._pending: set[Any] = set()

    async def start(self) -> None:
        self._connection = await asyncpg.connect(self._dsn)
        await self._connection.add_listener(self._channels[0], self._on_settings)
        await self._connection.add_listener(self._channels[1], self._on_table)

    def _on_settings(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        numbers = _numbers(payload, 1)
        if numbers is not None:
            self._run(self._settings(*numbers), f"the new settings of server {payload}")

    def _on_table(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        numbers = _numbers(payload, 3)
        if numbers is not None:
            self._run(self._table(*numbers), f"table {numbers[0]} moved on by another process")

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
        for task in list(self._pending):
            task.cancel()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.remove_listener(self._channels[0], self._on_settings)
                await self._connection.remove_listener(self._channels[1], self._on_table)
                await self._connection.close()
            self._connection = None
