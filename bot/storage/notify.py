"""Settings changes pushed to every process on one PostgreSQL database (``LISTEN``/``NOTIFY``).

A change is announced in the transaction that writes it (``pg_notify`` is sent
at commit, and not at all if the write rolls back), and every process that
listens hears the server's id and reads its settings again. SQLite serves one
process, which needs no message: the change is applied where it is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import func, make_url, select
from sqlalchemy.ext.asyncio import AsyncConnection

log = logging.getLogger(__name__)

CHANNEL = "trick_table_settings"


async def announce(connection: AsyncConnection, guild_id: int) -> None:
    """Tell every listening process, at commit, that ``guild_id``'s settings changed."""
    await connection.execute(select(func.pg_notify(CHANNEL, str(guild_id))))


class SettingsListener:
    """One connection of its own that listens for settings changes and calls ``heard(guild_id)``."""

    def __init__(self, url: str, heard: Callable[[int], Awaitable[None]]) -> None:
        parsed = make_url(url).set(drivername="postgresql")
        self._dsn = parsed.render_as_string(hide_password=False)
        self._heard = heard
        self._connection: Any = None
        self._pending: set[Any] = set()

    async def start(self) -> None:
        self._connection = await asyncpg.connect(self._dsn)
        await self._connection.add_listener(CHANNEL, self._on_notify)

    def _on_notify(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        if not (payload.isascii() and payload.isdigit()):
            return
        task = asyncio.ensure_future(self._call(int(payload)))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _call(self, guild_id: int) -> None:
        try:
            await self._heard(guild_id)
        except Exception:
            log.exception("could not apply the new settings of server %s", guild_id)

    async def close(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.remove_listener(CHANNEL, self._on_notify)
                await self._connection.close()
            self._connection = None
