"""Where the bot may no longer write, as Discord has said: nothing is sent there that Discord would only refuse.

Discord counts every 401, 403 and 429 answer towards a limit of 10,000 in 10 minutes, past which Cloudflare
bans the bot's address for a while; a 404 is wasted too. So, in this process:

- a server the bot was removed from (``on_guild_remove``: kicked, or the server deleted; not an outage) is
  written to never again (until the bot is added back, ``on_guild_join``);
- a channel or thread deleted (``on_guild_channel_delete``, ``on_raw_thread_delete``) is written to never again:
  what a table said in a deleted thread is said in its channel;
- a table whose message edit Discord refused (the channel gone, or the bot no longer allowed to see it or to
  write there) is not edited again for :data:`BACK_OFF`, then at its next change: a permission given back is
  picked up again, and a table the bot cannot see costs one refusal each back-off, not one each move;
- a table's thread Discord refused a message in (the bot lost Send Messages in Threads, or the thread was
  locked) is not written to for :data:`BACK_OFF`: a table that is not private says it in its channel meanwhile
  (its turn pings and reminders), as for a deleted thread.

Each process hears the gateway events of its own shards, the servers whose tables it serves, so this is all
the knowledge a process needs: the service's writes (the tables abandoned, a thread forgotten) reach the
others through the database, as any change does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

BACK_OFF = 300.0  # seconds a table whose edit was refused is left alone, before its next change tries again


class Placed(Protocol):
    """Where a table is: its server, its channel, its thread (if it has one)."""

    @property
    def guild_id(self) -> int: ...

    @property
    def channel_id(self) -> int: ...

    @property
    def thread_id(self) -> int | None: ...

    @property
    def private(self) -> bool: ...


class Unreachable:
    """The servers, channels and tables this process does not write to (see the module's text)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, back_off: float = BACK_OFF) -> None:
        self.clock = clock
        self.back_off = back_off
        self.servers: set[int] = set()  # servers the bot was removed from
        self.channels: set[int] = set()  # channels and threads deleted
        self._refused: dict[int, float] = {}  # table id: when its edits may be tried again
        self._threads_closed: dict[int, float] = {}  # thread id: when a message may be sent there again

    def server_left(self, guild_id: int) -> None:
        self.servers.add(guild_id)

    def server_joined(self, guild_id: int) -> None:
        self.servers.discard(guild_id)

    def channel_deleted(self, channel_id: int) -> None:
        self.channels.add(channel_id)

    def gone(self, table: Placed) -> bool:
        """Whether the table's server or channel is gone for good: nothing is to be sent for it at all."""
        return table.guild_id in self.servers or table.channel_id in self.channels

    def closed(self, guild_id: int, channel_id: int) -> bool:
        """Whether nothing is to be sent to ``channel_id`` of server ``guild_id``: the bot left the server, or the
        channel was deleted."""
        return guild_id in self.servers or channel_id in self.channels

    def where(self, table: Placed) -> int | None:
        """Where a table's pings and notices go: its thread, or its channel if the thread was deleted or refused a
        message a moment ago (:meth:`thread_refused`); None if its server or channel is gone, or if it is private
        and has no thread now (never its channel: see :meth:`between_threads`)."""
        if self.gone(table):
            return None
        thread = table.thread_id
        if thread is not None and thread not in self.channels and (table.private or not self.thread_closed(thread)):
            return thread
        return None if table.private else table.channel_id

    def thread_refused(self, thread_id: int) -> None:
        """Discord refused a message in this thread: nothing is sent there for a while (see the module's text)."""
        self._threads_closed[thread_id] = self.clock() + self.back_off

    def thread_closed(self, thread_id: int) -> bool:
        until = self._threads_closed.get(thread_id)
        if until is not None and self.clock() >= until:
            del self._threads_closed[thread_id]
            return False
        return until is not None

    def between_threads(self, table: Placed) -> bool:
        """A private table (a duplicate night's) whose private thread was deleted, not made again yet: nothing of
        it is said anywhere meanwhile (its channel would show it to everyone), yet nothing of it is gone."""
        return table.private and not self.gone(table) and self.where(table) is None

    def refused(self, table_id: int) -> bool:
        """An edit of the table was refused: leave it alone for a while. True the first time (say so once)."""
        first = table_id not in self._refused
        self._refused[table_id] = self.clock() + self.back_off
        return first

    def held_back(self, table_id: int) -> bool:
        """Whether the table's edits wait out a refusal still."""
        until = self._refused.get(table_id)
        return until is not None and self.clock() < until

    def left(self, table_id: int) -> float:
        """The seconds until the table's back-off is over (0: it is not held back)."""
        until = self._refused.get(table_id)
        return 0.0 if until is None else max(0.0, until - self.clock())

    def accepted(self, table_id: int) -> bool:
        """An edit of the table went through: any refusal is over. True if there was one (say so once)."""
        return self._refused.pop(table_id, None) is not None

    def forget(self, table_id: int) -> None:
        self._refused.pop(table_id, None)
