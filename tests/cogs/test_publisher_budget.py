"""The publisher under a tiny REST budget (``cogs/tables/publisher.py``): many tables changing all the time, each
edit paid for before the table is rendered; every table ends showing its last state, the tables share the budget
fairly, and no second holds more edits than the budget."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from types import SimpleNamespace

from bot.rest_budget import Priority, RestBudget, current_priority
from bot.tables import TableStatus
from cogs.tables.publisher import Publisher
from tests.test_rest_budget import most_in_a_second


class Recording(Publisher):
    """A publisher whose edit renders a table's state (its version now) and makes one counted call."""

    def __init__(self, budget: RestBudget, versions: dict[int, int]) -> None:
        super().__init__(None, None, None, interval=0.05, budget=budget)  # type: ignore[arg-type]
        self.versions = versions
        self.shown: dict[int, int] = {}
        self.edits: Counter[int] = Counter()
        self.sent_at: list[float] = []

    async def edit(self, table_id: int) -> None:
        rendered = self.versions[table_id]  # the table as it is now, after the wait for a token
        await asyncio.sleep(0.001)  # rendering
        assert self.budget is not None and current_priority() is Priority.EDIT
        await self.budget.spend()  # the call itself: paid for already
        self.shown[table_id] = rendered
        self.edits[table_id] += 1
        self.sent_at.append(time.monotonic())


async def test_many_tables_on_a_tiny_budget_end_at_their_last_state_and_share_it_fairly() -> None:
    budget = RestBudget(12)  # 10 edits a second once the bucket is spent, for 30 tables that want 20 each
    versions = dict.fromkeys(range(30), 0)
    publisher = Recording(budget, versions)
    rng = random.Random(5)
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:  # people and computers move at every table, all the time
        for table_id in rng.sample(sorted(versions), 10):
            versions[table_id] += 1
            publisher.touch(table_id)
        await asyncio.sleep(0.01)
    await publisher.flush()
    assert publisher.shown == versions  # every table shows its last state
    assert budget.taken == {Priority.EDIT: sum(publisher.edits.values())}  # one token an edit, never two
    assert most_in_a_second(publisher.sent_at) <= 12
    counts = [publisher.edits[table_id] for table_id in versions]
    assert max(counts) - min(counts) <= 1, counts  # each table in its turn: none edited twice before another once
    await budget.close()


async def test_a_stop_waits_for_queued_edits_only_so_long() -> None:
    budget = RestBudget(4)  # edits queue for seconds behind one another
    versions = dict.fromkeys(range(40), 1)
    publisher = Recording(budget, versions)
    for table_id in versions:
        publisher.touch(table_id)
    await publisher.flush(timeout=1.0)  # forty edits at four a second would take ten
    assert 0 < len(publisher.shown) < len(versions)  # some were sent; the rest were given up, not left running
    assert all(task.done() for task in publisher._tasks.values())
    await budget.close()


class Lobbies:
    """The service as the publisher reads a lobby: its status and version."""

    def __init__(self) -> None:
        self.version = 1
        self.status = TableStatus.LOBBY

    async def table(self, table_id: int) -> SimpleNamespace:
        return SimpleNamespace(id=table_id, version=self.version, status=self.status)


async def test_a_lobby_is_edited_for_a_change_made_elsewhere_but_not_again_for_a_click_that_redrew_it() -> None:
    budget = RestBudget(12)
    lobbies = Lobbies()
    publisher = Recording(budget, {7: 1})
    publisher.service = lobbies  # type: ignore[assignment]
    # A click in chat: the table's lock from before its change until its answer showed the new version.
    async with publisher.lock(7):
        lobbies.version = 2
        publisher.touch(7)  # the change's event, heard while the click is still answering
        await asyncio.sleep(0.1)
        publisher.mark_shown(7, 2)
    await publisher.flush()
    assert publisher.edits[7] == 0 and budget.taken == {}  # no call at all: the click showed it
    lobbies.version = 3  # a seat taken on a screen: one edit, coalesced with the next change
    publisher.versions[7] = 3
    publisher.touch(7)
    lobbies.version = 4
    publisher.versions[7] = 4
    publisher.touch(7)
    await publisher.flush()
    assert publisher.edits[7] == 1 and publisher.shown[7] == 4
    lobbies.status = TableStatus.PLAYING  # a table in play is edited whatever the version (its clock moves)
    publisher.touch(7)
    await publisher.flush()
    assert publisher.edits[7] == 2
    await budget.close()


class SlowReads:
    """A lobby whose version is read, then handed back a moment later (a database read): meanwhile it may change."""

    def __init__(self, versions: dict[int, int]) -> None:
        self.versions = versions

    async def table(self, table_id: int) -> SimpleNamespace:
        version = self.versions[table_id]
        await asyncio.sleep(0.02)
        return SimpleNamespace(status=TableStatus.LOBBY, version=version)


class Marking(Recording):
    async def edit(self, table_id: int) -> None:
        await super().edit(table_id)
        self.mark_shown(table_id, self.shown[table_id])


async def test_a_change_heard_while_the_lobby_is_checked_is_still_shown() -> None:
    budget = RestBudget(12)
    versions = {1: 1}
    publisher = Marking(budget, versions)
    publisher.service = SlowReads(versions)  # type: ignore[assignment]
    publisher.mark_shown(1, 1)  # a click in chat showed version 1
    publisher._last[1] = 0.0  # no wait for the interval: the check starts at once
    publisher.touch(1)  # its own change, heard: the check finds version 1 shown
    await asyncio.sleep(0.005)  # while that check reads the lobby, a computer is seated elsewhere
    versions[1] = 2
    publisher.touch(1)
    await asyncio.sleep(0.2)
    await publisher.flush()
    assert publisher.shown.get(1) == 2, "the lobby's message stayed a version behind"
    await budget.close()


class Unplaced:
    """A lobby whose message is posted but whose place is not recorded yet (its thread is being opened)."""

    def __init__(self, status: TableStatus = TableStatus.LOBBY, *, located_is_a_change: bool = False) -> None:
        self.version = 1
        self.message_id: int | None = None
        self.status = status
        self.located_is_a_change = located_is_a_change  # recording the place moves the version on, as the service

    async def table(self, table_id: int) -> SimpleNamespace:
        return SimpleNamespace(
            id=table_id,
            version=self.version,
            status=self.status,
            message_id=self.message_id,
            channel_id=5,
            thread_id=None,
            private=False,
            guild_id=6,
        )

    async def set_location(self, table_id: int, **where: object) -> None:
        self.message_id = where["message_id"]  # type: ignore[assignment]
        self.version += self.located_is_a_change


class Channel:
    """The Discord channel as the publisher edits a message in it: each edit's content, by message."""

    def __init__(self) -> None:
        self.edits: list[tuple[int, object]] = []

    def get_partial_messageable(self, channel_id: int, *, guild_id: int) -> Channel:
        return self

    def get_partial_message(self, message_id: int) -> SimpleNamespace:
        async def edit(**kwargs: object) -> None:
            self.edits.append((message_id, kwargs["content"]))

        return SimpleNamespace(edit=edit)


class Drawing(Publisher):
    async def message(self, table_id: int, *, can_attach: bool = True) -> dict[str, object]:
        table = await self.service.table(table_id)
        self._rendered[table_id] = table.version
        return {"content": f"version {table.version}"}


async def test_a_change_heard_before_the_lobby_message_is_placed_is_shown_once_it_is() -> None:
    lobby, channel = Unplaced(), Channel()
    publisher = Drawing(channel, lobby, None, interval=0.01)  # type: ignore[arg-type]
    publisher.mark_shown(1, 1)  # /play answered with version 1; its thread is being opened
    lobby.version = 2  # a computer seated at once: nowhere to show it yet
    publisher.touch(1)
    await asyncio.sleep(0.05)
    await publisher.flush()
    assert channel.edits == []
    await publisher.place(1, message_id=99)  # the thread is open, the message's place recorded
    await asyncio.sleep(0.05)
    await publisher.flush()
    assert channel.edits == [(99, "version 2")], "the lobby's message stayed a version behind"
    await publisher.place(1, message_id=99)  # placed again with nothing new: no call at all
    await asyncio.sleep(0.05)
    await publisher.flush()
    assert len(channel.edits) == 1


async def test_a_started_table_placed_as_it_was_drawn_is_not_edited_again() -> None:
    """A tournament's table is posted already started: placing its message costs no edit unless the table
    changed since it was drawn (or an edit found no message meanwhile)."""
    table, channel = Unplaced(TableStatus.PLAYING, located_is_a_change=True), Channel()
    publisher = Drawing(channel, table, None, interval=0.01)  # type: ignore[arg-type]
    await publisher.message(1)
    publisher.mark_shown(1)  # posted as drawn, version 1
    await publisher.place(1, message_id=99)
    await asyncio.sleep(0.05)
    await publisher.flush()
    assert channel.edits == []
    table.message_id = None
    table.version += 1  # a computer played the moment the next table was posted
    publisher.touch(1)
    await asyncio.sleep(0.05)
    await publisher.flush()
    await publisher.place(1, message_id=98)
    await asyncio.sleep(0.05)
    await publisher.flush()
    assert channel.edits == [(98, "version 4")]
    table.message_id = None  # an edit asked for (a reminder's line, say) while the message had no place
    publisher.touch(1)
    await asyncio.sleep(0.05)
    await publisher.flush()
    await publisher.place(1, message_id=97)
    await asyncio.sleep(0.05)
    await publisher.flush()
    assert channel.edits == [(98, "version 4"), (97, "version 5")]
