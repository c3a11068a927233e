"""Turn pings under the REST budget (``cogs/tables/pings.py``): whose turn has come, moments seen out of order or
never, and a ping the table outran while it waited for its token left unsaid."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot.rest_budget import Priority, RestBudget
from bot.tables import TableInfo, TableStatus
from bot.tables.records import SeatInfo
from cogs.tables.pings import TurnPings, turns, turns_come
from tests.test_rest_budget import Paused

ALICE, BOB = 11, 12
_ids = itertools.count(1)


def moment(actions: int, to_act: tuple[int, ...], acted: tuple[int, int, int], status: str = "playing") -> TableInfo:
    """A table of Alice (seat 0), Bob (seat 1) and a computer (seat 2) after ``actions`` moves."""
    seats = (
        SeatInfo(0, ALICE, "Alice", acted=acted[0]),
        SeatInfo(1, BOB, "Bob", acted=acted[1]),
        SeatInfo(2, None, "Computer", acted=acted[2], level="easy"),
    )
    return TableInfo(
        id=1,
        guild_id=5,
        channel_id=6,
        thread_id=7,
        message_id=8,
        game="just-make",
        options={},
        players=3,
        status=TableStatus(status),
        host_id=ALICE,
        version=actions,
        seats=seats,
        turn_seconds=0,
        grace_seconds=0,
        created_at=datetime.now(UTC),
        started_at=datetime.now(UTC),
        finished_at=None,
        to_act=to_act,
        actions=actions,
    )


def test_a_turn_comes_when_others_have_moved_since() -> None:
    start = turns(moment(0, (0,), (0, 0, 0)))
    assert turns_come({}, start) == {ALICE}
    # Alice moved, then Bob and the computer: her turn again, though the moments between were never seen.
    again = turns(moment(3, (0,), (1, 1, 1)))
    assert turns_come(start, again) == {ALICE}
    # Alice moves twice in a row (a discard, then a call): the same turn going on.
    assert turns_come(again, turns(moment(4, (0,), (2, 1, 1)))) == frozenset()
    # Both on turn at once (simultaneous bids): Bob's bid does not make Alice's turn come again.
    both = turns(moment(4, (0, 1), (1, 1, 2)))
    assert turns_come({}, both) == {ALICE, BOB}
    assert turns_come(both, turns(moment(5, (0,), (1, 2, 2)))) == frozenset()
    assert turns(moment(5, (0,), (1, 2, 2), status="finished")) == {}


class Channel:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.deleted: list[int] = []

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.sent.append(content)
        return Line(next(_ids), self)

    def get_partial_message(self, message_id: int) -> Any:
        return Line(message_id, self)


class Line:
    def __init__(self, id: int, channel: Channel) -> None:
        self.id, self.channel = id, channel

    async def delete(self) -> None:
        self.channel.deleted.append(self.id)


class Bot:
    def __init__(self) -> None:
        self.channel = Channel()

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Channel:
        return self.channel


async def wanted(guild_id: int) -> bool:
    return True


async def test_a_ping_the_table_outran_while_it_waited_is_not_sent() -> None:
    clock = Paused()
    bot, budget = Bot(), RestBudget(30, clock=clock)
    while await budget.local.take(Priority.URGENT) == 0.0:  # the budget is spent: the next ping waits for its token
        pass
    pings = TurnPings(bot, wanted, budget=budget)  # type: ignore[arg-type]
    first = asyncio.create_task(pings.update(moment(3, (0,), (1, 1, 1)), "en-US"))  # Alice's turn...
    for _ in range(5):
        await asyncio.sleep(0)
    # ...but before the bot could say so, she moved and it is Bob's turn.
    second = asyncio.create_task(pings.update(moment(4, (1,), (2, 1, 1)), "en-US"))
    await clock.go()
    await asyncio.gather(first, second)
    assert bot.channel.sent == [f"🔔 <@{BOB}>, your turn."]
    assert budget.taken[Priority.PING] == 2  # the one taken for nothing, and Bob's
    # A moment queued behind others that saw Alice's turn come pings her with the latest.
    updates = [
        pings.update(moment(5, (2,), (2, 2, 1)), "en-US"),
        pings.update(moment(6, (0,), (2, 2, 2)), "en-US"),
        pings.update(moment(6, (0,), (2, 2, 2)), "en-US"),  # the same moment again (a reminder's outcome)
    ]
    await asyncio.gather(*updates)
    assert bot.channel.sent[-1] == f"🔔 <@{ALICE}>, your turn." and len(bot.channel.sent) == 2
    assert len(bot.channel.deleted) == 1  # the channel keeps one line per table
    await budget.close()


async def test_a_ping_waiting_for_its_token_when_pings_are_turned_off_is_not_sent() -> None:
    clock = Paused()
    bot, budget = Bot(), RestBudget(30, clock=clock)
    while await budget.local.take(Priority.URGENT) == 0.0:  # the budget is spent: the ping waits for its token
        pass
    setting = {"on": True}

    async def server_wants(guild_id: int) -> bool:
        return setting["on"]

    pings = TurnPings(bot, server_wants, budget=budget)  # type: ignore[arg-type]
    waiting = asyncio.create_task(pings.update(moment(3, (0,), (1, 1, 1)), "en-US"))
    for _ in range(5):
        await asyncio.sleep(0)
    setting["on"] = False  # a manager turns pings off meanwhile
    await clock.go()
    await waiting
    assert bot.channel.sent == []
    await budget.close()


async def test_nobody_who_sees_the_table_on_a_screen_of_the_activity_is_pinged() -> None:
    bot = Bot()
    screens = {(1, ALICE)}  # Alice has table 1 open on a screen; Bob plays in chat

    def on_screen(table_id: int, user_id: int) -> bool:
        return (table_id, user_id) in screens

    pings = TurnPings(bot, wanted, on_screen=on_screen)  # type: ignore[arg-type]
    await pings.update(moment(0, (0,), (0, 0, 0)), "en-US")  # Alice's turn: she sees it come on her screen
    assert bot.channel.sent == []
    await pings.update(moment(1, (1,), (1, 0, 0)), "en-US")  # Bob's: he is told in chat
    assert bot.channel.sent == [f"🔔 <@{BOB}>, your turn."]
    screens.clear()  # Alice closed her screen
    await pings.update(moment(3, (0,), (1, 1, 1)), "en-US")
    assert bot.channel.sent[-1] == f"🔔 <@{ALICE}>, your turn." and len(bot.channel.sent) == 2


async def test_a_table_not_posted_yet_is_not_pinged_and_its_turns_count_once_it_is() -> None:
    bot = Bot()
    pings = TurnPings(bot, wanted)  # type: ignore[arg-type]
    # A tournament's table, started before it is posted: no thread yet, so a ping would land in the channel.
    await pings.update(replace(moment(0, (0,), (0, 0, 0)), message_id=None, thread_id=None), "en-US")
    await pings.update(replace(moment(1, (1,), (1, 0, 0)), message_id=None, thread_id=None), "en-US")
    assert bot.channel.sent == []
    await pings.update(moment(2, (2,), (1, 1, 0)), "en-US")  # posted, in its thread: the computer's turn
    await pings.update(moment(3, (0,), (1, 1, 1)), "en-US")  # Alice's turn comes
    assert bot.channel.sent == [f"🔔 <@{ALICE}>, your turn."]


class Touched:
    """The publisher and the hands, as far as a reminder concerns them: they are told the table changed, and the
    hands' service reads the table as it is ``now``."""

    def __init__(self, now: TableInfo) -> None:
        self.now = now
        self.service = self

    async def table(self, table_id: int) -> TableInfo:
        return self.now

    def touch(self, table_id: int) -> None:
        pass

    def table_changed(self, table: TableInfo) -> None:
        pass


async def test_a_reminder_is_not_posted_for_a_seat_that_moved_while_it_waited() -> None:
    """A reminder's post waited for its token (or its turn among the events) while the seat reminded moved: it
    still said "it is your turn" to them. It is decided again, as a turn ping is."""
    from bot.tables.events import Reminded
    from cogs.tables.presenting import Presenter
    from cogs.tables.working import Work

    bot, work = Bot(), Work()
    both = moment(3, (0, 1), (1, 1, 1))  # Alice and Bob bid at once; both are reminded
    hands = Touched(moment(4, (1,), (2, 1, 1)))  # Alice's bid came while the reminder waited

    async def english(guild_id: int) -> str:
        return "en-US"

    pings = TurnPings(bot, wanted)  # type: ignore[arg-type]
    presenter = Presenter(bot, hands, pings, hands, work, english)  # type: ignore[arg-type]
    await presenter.on_event(Reminded(both, (0, 1), datetime.now(UTC)))
    await work.finish()
    reminders = [line for line in bot.channel.sent if "it is your turn" in line]
    assert reminders == [f"<@{BOB}>, it is your turn at this table."]
    hands.now = moment(5, (), (2, 2, 1), status="finished")  # a table that has moved past: nobody is told
    await presenter.on_event(Reminded(moment(4, (1,), (2, 1, 1)), (1,), datetime.now(UTC)))
    await work.finish()
    assert len([line for line in bot.channel.sent if "it is your turn" in line]) == 1


async def test_a_reminder_redraws_the_clock_of_the_hand_on_turn() -> None:
    """A hand was redrawn only when its seat's turn came or went: after a reminder it kept the reminder's moment
    as its time to act, though the computer plays only at the end of the grace."""
    import time
    from datetime import timedelta

    from cogs.tables.hand_messages import HandMessage, Hands, shown_now
    from cogs.tables.working import Work

    hands, redrawn = Hands(None, Work()), []  # type: ignore[arg-type]

    async def redraw(table_id: int, user_id: int) -> None:
        redrawn.append(user_id)

    hands._refresh_hand = redraw  # type: ignore[method-assign]
    due = replace(moment(3, (0,), (1, 1, 1)), turn_ends=datetime.now(UTC))
    for seat in due.seats[:2]:  # Alice (on turn) and Bob have their hands open
        hands.hands[(due.id, seat.user_id)] = HandMessage(None, time.monotonic(), shown_now(due, seat))  # type: ignore
    hands.table_changed(due)  # the same moment again: nothing to redraw
    reminded = replace(due, turn_ends=due.turn_ends + timedelta(seconds=30))  # type: ignore[operator]
    hands.table_changed(reminded)
    await hands.work.finish()
    assert redrawn == [ALICE]  # her clock moved; Bob's hand shows no clock
