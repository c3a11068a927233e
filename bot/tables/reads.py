"""Reading a table: its info, its public view, a seat's view and choices, each at one committed moment.

:meth:`TableReads.view` is what a subscriber to the events reads: the public view (``seat`` None) or
one seat's own, with the version it is of (a version only ever grows)."""

from __future__ import annotations

from bot.games.views import View
from bot.storage import repository as repo
from bot.storage.models import (
    PLAYING,
)

from .errors import NotAllowed, WrongStatus
from .records import HandSnapshot, SeatView, TableInfo
from .store import Store, hand_of


class TableReads:
    """Reads of one table, from the store's live copy."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def table(self, table_id: int) -> TableInfo:
        return (await self.store.get(table_id)).info()

    async def table_in_channel(self, channel_id: int, thread_id: int | None = None) -> TableInfo | None:
        async with self.store.db.engine.connect() as connection:
            table_id = await repo.table_in_channel(connection, channel_id, thread_id)
        return None if table_id is None else await self.table(table_id)

    async def tables_in_channel(self, channel_id: int) -> list[TableInfo]:
        """Every open table of a channel (in it, or in a thread of its own) or of a thread, newest first."""
        async with self.store.db.engine.connect() as connection:
            ids = await repo.open_tables_in_channel(connection, channel_id)
        return [await self.table(table_id) for table_id in ids]

    async def private_tables_open(self) -> list[int]:
        """The open private tables (a duplicate night's) of this process's servers."""
        async with self.store.db.engine.connect() as connection:
            return await repo.open_table_ids(connection, self.store.shards, private=True)

    async def snapshot(self, table_id: int) -> tuple[TableInfo, View | None]:
        """The table and its public view at one committed moment (None before the match starts)."""
        async with self.store.locked(table_id) as live:
            return live.info(), (live.public if live.state is not None else None)

    async def public_view(self, table_id: int) -> View:
        live = await self.store.get(table_id)
        if live.state is None or live.public is None:
            raise WrongStatus("not_in_play")
        return live.public

    async def hand(self, table_id: int, user_id: int) -> HandSnapshot:
        """The user's seat as it is now, read once under the table's lock, so the table, the view and the
        legal actions are of one version (raises NotAllowed when they have no seat, WrongStatus before play)."""
        async with self.store.locked(table_id) as live:
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotAllowed("not_seated")
            if live.state is None or seat.position is None:  # seated in a lobby: no hand before the match
                raise WrongStatus("not_in_play")
            return hand_of(live, seat.position)

    async def seat_view(self, table_id: int, user_id: int) -> tuple[int, View]:
        """The user's seat and everything that seat may see."""
        live = await self.store.get(table_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotAllowed("not_seated")
        if live.state is None or seat.position is None:
            raise WrongStatus("not_in_play")
        return seat.position, live.views[seat.position]

    async def legal(self, table_id: int, user_id: int) -> list[str]:
        live = await self.store.get(table_id)
        seat = live.seat_of(user_id)
        if live.state is None or live.status != PLAYING or seat is None or seat.position is None:
            return []
        if seat.resigned or seat.position not in live.state.to_act():
            return []
        return live.state.legal(seat.position)

    async def view(self, table_id: int, seat: int | None = None) -> SeatView:
        """What ``seat`` may see now (``None``: the public table), with the table's version, read at one
        committed moment: everything a screen of that seat (or a watcher's) is allowed to draw."""
        async with self.store.locked(table_id) as live:
            if live.state is None or live.public is None:
                raise WrongStatus("not_in_play")
            if seat is None:
                return SeatView(live.id, None, live.version, live.public)
            if not 0 <= seat < len(live.seats):
                raise NotAllowed("not_a_seat")
            view = live.views.get(seat)
            if view is None:  # a computer's seat: not kept, as nobody is shown it but on asking
                view = live.state.view(seat)
            return SeatView(live.id, seat, live.version, view)
