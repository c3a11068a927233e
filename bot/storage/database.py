"""Connecting to the database, migrating it, and the group-commit writer.

SQLite (the default, a file under ``data/``) runs in WAL mode with foreign
keys on; PostgreSQL runs through asyncpg with the same models and migrations.

Writes go through :meth:`Database.write`: one writer task commits every write
that is waiting in a single transaction (group commit), so a busy bot pays for
one commit per batch rather than one per click, and SQLite never sees two
writers of its own process fight for its lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

log = logging.getLogger(__name__)


def _chain(error: BaseException) -> list[BaseException]:
    """An exception and those it was raised from or while handling, each once."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


class QuietCancelledCloses(logging.Filter):
    """On the log's handlers: SQLAlchemy's pool closing a connection whose work was cancelled (a task stopped while
    the process stops) logs an ERROR with a traceback when aiosqlite cannot be stopped mid-close (before 0.22.1,
    and 0.22.1's way hangs: pyproject.toml). Nothing failed: the connection is dropped, the transaction was rolled
    back. One WARNING line instead; every other error keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if (
            record.name.startswith("sqlalchemy.pool")
            and record.levelno >= logging.ERROR
            and error is not None
            and any(isinstance(link, asyncio.CancelledError) for link in _chain(error))
        ):
            record.msg = f"{record.getMessage()} (its work was cancelled as a task stopped: dropped, rolled back)"
            record.args = ()
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


# PostgreSQL's "do it again" (deadlock detected, serialization failure): the transaction was undone as a whole,
# through no fault of a write in it (two processes took the same locks in opposite order), and the same
# transaction a moment later succeeds. Tried again that many times, a few tens of milliseconds apart, doubling.
RETRIED_STATES = frozenset({"40P01", "40001"})
TRANSACTION_TRIES = 5


def asked_again(error: BaseException | None) -> bool:
    """Whether ``error`` (or the driver's error under SQLAlchemy's) is PostgreSQL asking for the transaction
    again: deadlock detected (40P01) or a serialization failure (40001)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if {getattr(error, "sqlstate", None), getattr(error, "pgcode", None)} & RETRIED_STATES:
            return True
        error = getattr(error, "orig", None) or error.__cause__ or error.__context__
    return False


T = TypeVar("T")
DEFAULT_URL = "sqlite+aiosqlite:///data/trick-table.db"
ROOT = Path(__file__).resolve().parents[2]


def normalise_url(url: str) -> str:
    """Accept the URLs people write (``postgresql://``, ``sqlite:///``) and name the async drivers."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    elif parsed.drivername == "sqlite":
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    return parsed.render_as_string(hide_password=False)


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable across a process crash
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")  # another process holding the lock: wait, do not fail
    cursor.close()


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, **kwargs)
        event.listen(engine.sync_engine, "connect", _on_sqlite_connect)
        return engine
    return create_async_engine(url, pool_pre_ping=True, **kwargs)


class MergeConflict(Exception):
    """A merged run found a conflict it cannot tell apart: redo the batch one write at a time."""


class _Write:
    __slots__ = ("future", "work")

    def __init__(self, work: Callable[[AsyncConnection], Awaitable[Any]], future: asyncio.Future[Any]) -> None:
        self.work = work
        self.future = future


class BatchRollback(Exception):
    """Raised by a write to undo itself: the batch it is in is retried without it."""

    def __init__(self, error: Exception) -> None:
        self.error = error


class Database:
    """One engine, and the writer that commits in groups."""

    def __init__(self, url: str = DEFAULT_URL, *, max_batch: int = 256, **engine_kwargs: Any) -> None:
        self.url = normalise_url(url)
        self.engine = create_engine(self.url, **engine_kwargs)
        self.max_batch = max_batch
        self._queue: asyncio.Queue[_Write] | None = None
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0
        self.writes = 0

    @property
    def backend(self) -> str:
        return make_url(self.url).get_backend_name()

    async def upgrade(self) -> None:
        """Apply every pending migration (the bot does this itself on start)."""
        from bot.storage.migrate import upgrade

        await upgrade(self.engine)

    async def write(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``work`` in a transaction and return its value once that transaction is committed.

        ``work`` may raise :class:`BatchRollback` to undo only itself (its caller
        gets the wrapped error); any other error it raises also fails only
        itself. A work whose class has an async ``run_many(connection, works)`` is
        committed together with the others of its class in one go.
        """
        if self._writer is None or self._writer.done():
            self._queue = asyncio.Queue()
            self._writer = asyncio.create_task(self._run_writer(), name="database-writer")
        assert self._queue is not None
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Write(work, future))
        return await future

    async def _run_writer(self) -> None:
        assert self._queue is not None
        queue = self._queue
        while True:
            batch = [await queue.get()]
            while len(batch) < self.max_batch and not queue.empty():
                batch.append(queue.get_nowait())
            try:
                await self._commit_merged(batch)
            except asyncio.CancelledError:
                for item in batch:
                    if not item.future.done():
                        item.future.cancel()
                raise

    async def _commit_merged(self, batch: list[_Write]) -> None:
        """The whole batch in one transaction, mergeable writes merged; on any trouble, one by one."""
        groups: dict[type, list[_Write]] = {}
        plain: list[_Write] = []
        for item in batch:
            if hasattr(type(item.work), "run_many"):
                groups.setdefault(type(item.work), []).append(item)
            else:
                plain.append(item)
        if not groups or len(batch) == 1:
            await self._commit_each(batch)
            return
        results: dict[int, Any] = {}
        try:
            async with self.engine.begin() as connection:
                for item in plain:
                    results[id(item)] = await item.work(connection)
                for kind, items in groups.items():
                    values = await kind.run_many(connection, [item.work for item in items])  # type: ignore[attr-defined]
                    results.update((id(item), value) for item, value in zip(items, values, strict=True))
        except asyncio.CancelledError:
            raise
        except Exception:
            await self._commit_each(batch)  # a stale or failing write: find it one at a time
            return
        self._settle(batch, [results[id(item)] for item in batch])

    async def _commit_each(self, batch: list[_Write]) -> None:
        """The batch in one transaction, one write after another; a failing write is dropped and the rest redone.
        A transaction PostgreSQL undid to break a deadlock (or a serialization failure) is done again as it was:
        no write in it failed (:func:`asked_again`)."""
        tries = 0
        while batch:
            results: list[Any] = []
            failed: tuple[_Write, BaseException] | None = None
            try:
                async with self.engine.begin() as connection:
                    for item in batch:
                        try:
                            results.append(await item.work(connection))
                        except BatchRollback as rollback:
                            failed = (item, rollback.error)
                            raise
                        except Exception as error:
                            failed = (item, error)
                            raise
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if (
                    asked_again(error) or (failed is not None and asked_again(failed[1]))
                ) and tries < TRANSACTION_TRIES:
                    tries += 1
                    log.info(
                        "a transaction of %d writes was undone by the database (%s): done again", len(batch), error
                    )
                    await asyncio.sleep(random.uniform(0.01, 0.03) * 2**tries)
                    continue
                if failed is not None:
                    item, reason = failed
                    if not item.future.done():
                        item.future.set_exception(reason)
                    batch = [other for other in batch if other is not item]
                    continue
                log.exception("committing a batch of %d writes failed", len(batch))
                for item in batch:
                    if not item.future.done():
                        item.future.set_exception(error)
                return
            self._settle(batch, results)
            return

    def _settle(self, batch: list[_Write], results: list[Any]) -> None:
        self.batches += 1
        self.writes += len(batch)
        for item, result in zip(batch, results, strict=True):
            if not item.future.done():
                item.future.set_result(result)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        await self.engine.dispose()
