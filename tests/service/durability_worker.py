"""A bot process for the crash test: plays every open table with random moves, saying each acknowledged one.

    python -m tests.service.durability_worker DATABASE_URL [SCHEMA]

Prints ``ACK table seq seat action`` (flushed) only after ``act`` returned, and
``DONE`` when no table is left in play.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

from bot.storage.database import Database
from bot.tables import StaleAction, TableService


async def play(service: TableService, table_id: int, rng: random.Random) -> None:
    info = await service.table(table_id)
    while info.status == "playing":
        seat = rng.choice(info.to_act)
        who = info.seats[seat].user_id
        assert who is not None
        action = rng.choice(await service.legal(table_id, who))
        try:
            outcome = await service.act(table_id, who, action)
        except StaleAction:
            info = await service.table(table_id)
            continue
        info = outcome.table
        print(f"ACK {table_id} {info.actions - 1} {seat} {action}", flush=True)
        await asyncio.sleep(rng.random() * 0.002)


async def main(url: str, schema: str | None) -> None:
    kwargs = {"connect_args": {"server_settings": {"search_path": schema}}} if schema else {}
    database = Database(url, **kwargs)  # type: ignore[arg-type]
    service = TableService(database)
    await service.load_open_tables()
    async with database.engine.connect() as connection:
        from bot.storage import repository as repo

        ids = await repo.open_table_ids(connection)
    rng = random.Random(os.getpid())
    await asyncio.gather(*(play(service, table_id, random.Random(rng.random())) for table_id in ids))
    print("DONE", flush=True)
    await database.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
