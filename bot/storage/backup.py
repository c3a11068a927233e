"""``python -m bot db backup PATH``: a consistent copy of the SQLite database while the bot runs.

SQLite's online backup copies the database page by page and starts again
if a writer changes a page it has copied, so the copy is one committed
moment even while tables are being played (WAL mode lets it read alongside
the bot's writes). PostgreSQL has its own tools: see the README.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

from .database import normalise_url

PAGES_PER_STEP = 256  # copied between chances for the bot to write


class BackupRefused(ValueError):
    """The database cannot be copied this way (not an SQLite file, or the target exists)."""


def sqlite_file(url: str) -> Path:
    """The file of an SQLite database URL (BackupRefused for anything else)."""
    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        raise BackupRefused(
            f"{parsed.render_as_string(hide_password=True)} is not an SQLite file: back up PostgreSQL with "
            "pg_dump (see the README, Backups)"
        )
    return Path(parsed.database)


def backup(url: str, target: Path) -> int:
    """Copy the SQLite database at ``url`` to ``target`` (a new file); return the pages copied."""
    source_path = sqlite_file(url)
    if not source_path.exists():
        raise BackupRefused(f"there is no database at {source_path}")
    if target.exists():
        raise BackupRefused(f"{target} exists already: choose a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    pages = 0

    def progress(status: int, remaining: int, total: int) -> None:
        nonlocal pages
        pages = total

    try:
        source.execute("PRAGMA busy_timeout=10000")
        source.backup(copy, pages=PAGES_PER_STEP, progress=progress)
        check = copy.execute("PRAGMA integrity_check").fetchone()
        if check is None or check[0] != "ok":
            raise BackupRefused(f"the copy at {target} failed its integrity check: {check}")
    except BaseException:
        copy.close()
        target.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    copy.close()
    return pages
