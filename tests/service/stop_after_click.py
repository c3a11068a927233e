"""A process that answers one click at a table of another process's server, then stops at once, as if killed
right after the answer (nothing closed, nothing left to run):

    python -m tests.service.stop_after_click DATABASE_URL SCHEMA SHARD_COUNT SHARD TABLE USER ACTION

Prints ``ACK version`` (flushed) once ``act`` returned, the click committed.
"""

from __future__ import annotations

import asyncio
import os
import sys

from bot.shards import Shards
from bot.storage.database import Database
from bot.tables import TableService
from bot.tables.thinking import InProcessThinker


async def main(url: str, schema: str, count: int, shard: int, table_id: int, user_id: int, action: str) -> None:
    database = Database(url, connect_args={"server_settings": {"search_path": schema}})
    service = TableService(database, shards=Shards.of(count, [shard]), thinker=InProcessThinker(samples=3))
    outcome = await service.act(table_id, user_id, action)
    print(f"ACK {outcome.table.version}", flush=True)
    os._exit(0)  # as SIGKILL would: whatever this process meant to do after the commit never happens


if __name__ == "__main__":
    url, schema, count, shard, table_id, user_id, action = sys.argv[1:8]
    asyncio.run(main(url, schema, int(count), int(shard), int(table_id), int(user_id), action))
