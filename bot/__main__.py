"""``python -m bot``: run the bot, or a tool (``db``; ``bench``, which runs ``python -m bench``)."""

from __future__ import annotations

import asyncio
import sys
from typing import NoReturn

USAGE = """usage:
  python -m bot -h                                           this text
  python -m bot                                              run the Discord bot (DISCORD_TOKEN, DATABASE_URL, ...)
  python -m bot --local                                      the card table in a browser, no Discord (port 8080)
  python -m bot db upgrade                                   apply the database migrations (DATABASE_URL)
  python -m bot db backup PATH                               a consistent copy of the SQLite database, while it runs
  python -m bot bench ...                                    the benchmarks: the same as python -m bench ...
                                                             (bench/ beside bot/ in a clone; see python -m bench -h)"""


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


def _bench(argv: list[str]) -> int:
    """The benchmarks live beside the product (``bench/`` in a clone, not in the installed package),
    which never imports them: the former spelling runs them as their own program."""
    import subprocess
    from importlib.util import find_spec

    if find_spec("bench") is None:
        print("the benchmarks are in bench/ of a clone of the repository: run python -m bench there", file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, "-m", "bench", *argv])


def _leave(code: int) -> NoReturn:
    """Exit at once once the bot has stopped: by then it has closed everything in order (the answers under
    way, the computers' workers, the table edits, Discord, the database: see ``bot.launcher``), and the
    interpreter's own teardown of its large heap took a second or more again, which a deploy, a
    ``docker stop`` or a test waits for doing nothing. The logs and the standard streams are flushed first."""
    import logging
    import os

    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv: list[str]) -> int:
    if argv and argv[0] == "bench":
        return _bench(argv[1:])
    if argv == ["db", "upgrade"]:
        asyncio.run(_upgrade())
        return 0
    if len(argv) == 3 and argv[:2] == ["db", "backup"]:
        return _backup(argv[2])
    if not argv or argv == ["--local"]:
        from bot.launcher import main as run_bot

        return _leave(run_bot(local=bool(argv)))
    if argv in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
