"""The table service: lobby → play → result, between the engines and the database.

It never imports discord: every call takes user ids and returns plain data
(:mod:`bot.tables.records`). Every write is committed before the call returns,
and every refusal is a :class:`~bot.tables.errors.TableError` with nothing
written.

Computer players never hold up a call: a call commits and returns, and a
driver task per table (:mod:`bot.tables.computers`) plays the computers'
turns, thinking in worker processes (:mod:`bot.tables.thinking`) without the
table's lock, and hands each outcome to the listeners (:meth:`TableService.listen`).
"""

from __future__ import annotations

from .play import Play


class TableService(Play):
    """Tables by id, for people by Discord user id. One instance per process.

    ``thinker`` makes the computer players' decisions (None: a :class:`Thinker` with a
    worker process per CPU, started on the first decision and stopped by :meth:`close`;
    one passed in is the caller's to close). ``sleep`` waits out the computers' pace
    (tests pass one that moves their clock instead).
    """

    # The parts, each in its own module: ServiceCore (live tables, locks, writes, computer drivers),
    # TableReads, RecordReads, ServerSettings, Lobby, Play.
