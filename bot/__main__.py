"""``python -m bot``: run the bot, or a tool (``db``, ``bench``)."""

from __future__ import annotations

import asyncio
import sys

USAGE = """usage:
  python -m bot                                              run the Discord bot (DISCORD_TOKEN, DATABASE_URL, ...)
  python -m bot --local                                      the card table in a browser, no Discord (port 8080)
  python -m bot db upgrade                                   apply the database migrations (DATABASE_URL)
  python -m bot db backup PATH                               a consistent copy of the SQLite database, while it runs
  python -m bot bench engine [--game NAME] [--seconds N]     speed of the rules engines
  python -m bot bench tables [--tables N] [--database URL] [--think-ms MS] [--processes P]
                                                             speed of the table service and database
                                                             (--processes 2: one and two processes, PostgreSQL)
  python -m bot bench start [--tables N] [--actions A] [--database URL]
                                                             a start over many open tables: ready, the first
                                                             cold click, the due timers, the resume, memory
  python -m bot bench chart                                  time to draw the end-of-match chart
  python -m bot bench table-image [--samples N] [--save DIR] time to draw the table's picture
  python -m bot bench players [--game NAME] [--players N] [--matches M] [--budget-ms B] [--deals D]
                                                             computer players: decision times and strength"""


async def _upgrade() -> None:
    from bot.config import Settings
    from bot.storage.database import Database

    settings = Settings()
    database = Database(settings.database_url)
    try:
        await database.upgrade()
    finally:
        await database.close()
    print(f"database is up to date: {database.backend}")


def _backup(target: str) -> int:
    from pathlib import Path

    from bot.config import Settings
    from bot.storage.backup import BackupRefused, backup

    try:
        pages = backup(Settings().database_url, Path(target))
    except BackupRefused as why:
        print(f"no backup made: {why}", file=sys.stderr)
        return 2
    print(f"backed up {pages} pages to {target}")
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "bench":
        from bot.bench import main as bench

        return bench(argv[1:])
    if argv == ["db", "upgrade"]:
        asyncio.run(_upgrade())
        return 0
    if len(argv) == 3 and argv[:2] == ["db", "backup"]:
        return _backup(argv[2])
    if not argv or argv == ["--local"]:
        from bot.launcher import main as run_bot

        return run_bot(local=bool(argv))
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
