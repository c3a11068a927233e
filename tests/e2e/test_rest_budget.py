"""One REST budget for the whole bot, through the Discord double with a tiny global limit.

The double answers any counted REST call over its global limit with a 429, as
Discord does (interaction answers are not counted). The bot's budget is set just
under it, and many tables play at once: four where a person plays against
computers at the instant pace (their table edits and turn pings far beyond the
budget), and one whose person never plays, so the turn timer runs out again and
again (reminders and timeouts to post). No call is refused, every table's
message ends showing its last state, and every timeout is announced.

On SQLite the bot keeps its budget in memory; on PostgreSQL (the production
set-up) it shares it through Redis when Redis answers at ``TEST_REDIS_URL``
(its database 3 here, away from other tests' buckets).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.rest_budget import bucket_key
from tests.double import BotProcess, DiscordDouble, Message, User

from .conftest import people
from .driver import MANAGER, TableDriver, control, set_computer_pace, shown_move
from .leaks import stored_table

GLOBAL_LIMIT = 10  # the double's: counted calls in any one second
# The bot's, under it: room for the time between a token and the call reaching the double (a table's picture is
# drawn in between). The bucket lets at most 4 d calls more than BUDGET into a second if calls arrive up to d
# seconds after their tokens: with 10, a busy CI machine may hold a call a whole second (with 8, half a second
# was too little once, a global 429 on a ping's delete under load). Without the budget the bot makes far more.
BUDGET = 6
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0] + "/3"


async def fresh_redis() -> bool:
    """Whether Redis answers; if so, the bot's bucket starts full (none left from an earlier run)."""
    client = Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        key = bucket_key("double-token")
        await client.delete(f"{{{key}}}", f"{{{key}}}:processes")
        return True
    except Exception:
        return False
    finally:
        await client.aclose()


@pytest.fixture
async def tight_bot(double: DiscordDouble, database_url: str, tmp_path: Path) -> AsyncIterator[BotProcess]:
    double.global_limit_per_second = GLOBAL_LIMIT
    env = {"COMPUTER_BUDGET_MS": "100", "REST_PER_SECOND": str(BUDGET)}
    shared = database_url.startswith("postgresql") and await fresh_redis()
    if shared:
        env["REDIS_URL"] = REDIS_URL
    process = BotProcess(double, database_url, tmp_path / "bot.log", **env)
    await process.start()
    yield process
    await process.stop()
    log = process.log()
    where = "shared through Redis by every process" if shared else "in this process (no REDIS_URL)"
    assert f"REST budget: at most {BUDGET} calls a second, {where}" in log
    assert "Traceback" not in log, log[-5000:]
    assert "rate limited" not in log.lower(), [line for line in log.splitlines() if "rate limited" in line.lower()]


def said(double: DiscordDouble, where: int | None, words: str) -> list[Message]:
    """The bot's lines in a table's thread that said ``words`` (those since deleted included)."""
    return [
        m
        for m in [*double.public_messages(), *double.deleted]
        if m.channel_id == where and any(words in version["content"] for version in m.versions)
    ]


async def seat_of(database_url: str, table_id: int, user: User) -> int:
    stored = await stored_table(database_url, table_id)
    position = next(seat.position for seat in stored.seats if seat.user_id == user.id and seat.left_at is None)
    assert position is not None
    return position


async def play_when_pinged(double: DiscordDouble, table: TableDriver, database_url: str) -> None:
    """A person who plays only when the bot pings them: when their turn comes after others have moved, they
    wait for the ping that says so (a turn that goes on after their own move, as when they lead after winning a
    trick, is never pinged), then make one move."""
    player = table.players[0]
    assert table.table is not None
    where, me = table.table.thread_id, await seat_of(database_url, table.table_id, player.user)
    answered: set[int] = set()

    def new_ping() -> Message | None:
        return next(
            (
                m
                for m in double.public_messages()
                if m.channel_id == where and f"<@{player.user.id}>" in m.content and m.id not in answered
            ),
            None,
        )

    while True:
        await double.wait_for(lambda: table.finished() or table.choices(player.hand), timeout=60)  # type: ignore[arg-type]
        if table.finished():
            return
        log = (await stored_table(database_url, table.table_id)).actions
        if not log or log[-1].seat != me:  # the turn came after others moved: wait to be told
            ping = await double.wait_for(lambda: table.finished() or new_ping(), timeout=60)
            if table.finished():
                return
            answered.add(ping.id)
        moved = table.actions
        for _ in range(3):  # a choice may take two steps
            if table.actions > moved or not await table.take_turn(player):
                break


def turns_that_came(actions: list[Any], seat: int) -> int:
    """The seat's moves that came after another seat's (or first in the match): each is pinged."""
    return sum(1 for n, a in enumerate(actions) if a.seat == seat and (n == 0 or actions[n - 1].seat != seat))


async def test_a_tiny_budget_many_tables_no_429_every_table_at_its_last_state_and_pings_delivered(
    double: DiscordDouble, tight_bot: BotProcess, database_url: str
) -> None:
    panel = await set_computer_pace(double, 0)  # computers move at once: far more changes than the budget
    await double.choose(MANAGER, panel, "st:grace", ["0"])  # the computer plays as soon as a turn's time is up
    players = [User(2000 + n, f"Player {n}") for n in range(4)]
    absent = people(1)[0]

    playing = [TableDriver(double, [person], seed=30 + n) for n, person in enumerate(players)]
    for table in playing[:2]:
        await table.open("just-make", players=4, target=3)
        await table.seat_everyone(["easy", "easy", "easy"])
    for table in playing[2:]:
        await table.open("oh-hell", players=4, start_cards=2)  # two short deals
        await table.seat_everyone(["easy", "easy", "easy"])
    idle = TableDriver(double, [absent], seed=40)
    await idle.open("just-make", players=4, target=15, turn_seconds=1)  # nobody plays for Alice but the timer
    await idle.seat_everyone(["easy", "easy", "easy"])
    for table in [*playing, idle]:
        await table.start()
        await table.show_hand(table.players[0])
    idle_id = idle.table_id  # an abandoned table's message has no buttons left to read it from

    # Two people click the moment their hand shows a choice; two take their turn only when the bot pings them.
    await asyncio.gather(
        *(table.play(refresh=False, patience=30) for table in playing[:2]),
        *(play_when_pinged(double, table, database_url) for table in playing[2:]),
    )

    # Every table's message ends at its last state: the final standings at the move the log ends on.
    for table in playing:
        await table.wait_finished(timeout=60)
        assert table.table is not None
        final = len((await stored_table(database_url, table.table_id)).actions)
        await double.wait_for(lambda t=table, n=final: shown_move(t.table) == n, timeout=60)  # type: ignore[misc]
        assert "Final standings" in table.table.text()

    # The idle table: its person's time ran out at every turn; nobody played a whole deal, so it was abandoned.
    assert idle.table is not None
    await double.wait_for(lambda: "This table was abandoned" in idle.table.text(), timeout=90)  # type: ignore[union-attr]
    stored = await stored_table(database_url, idle_id)
    timed_out = [action for action in stored.actions if action.source == "timeout"]
    assert timed_out
    await double.wait_for(lambda: shown_move(idle.table) == len(stored.actions), timeout=60)  # type: ignore[arg-type]

    # Pings and timeouts were not starved: the people who wait for their ping were pinged at every turn (or
    # their match would not have ended), and every timeout was announced.
    for table in playing[2:]:
        assert table.table is not None
        actions = (await stored_table(database_url, table.table_id)).actions
        me = await seat_of(database_url, table.table_id, table.players[0].user)
        assert len(said(double, table.table.thread_id, "your turn")) == turns_that_came(actions, me)
    # (the announcements wait their turn in the budget: the last may come after the table's message shows the end)
    thread = idle.table.thread_id
    await double.wait_for(lambda: len(said(double, thread, "time ran out")) >= len(timed_out), timeout=60)
    assert len(said(double, thread, "time ran out")) == len(timed_out)

    # The budget was used to the full, and Discord never refused a call.
    assert double.busiest_second >= BUDGET - 3
    assert double.global_429s == 0
    assert double.problems == []
    assert all(control(table.table, "tt:rematch:") for table in playing if table.table is not None)
