"""Discord out of reach while someone's turn clock runs: the real bot, as its own process, against the double.

Nobody's click can arrive while the gateway is away, so the turn timer must not run out and hand the turn to the
computer then; once the gateway is back the seat has the time it had left, and then the timer plays on as usual.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.double import BotProcess, DiscordDouble

from .conftest import people
from .driver import MANAGER, WAIT, TableDriver, set_computer_pace
from .leaks import stored_table
from .test_stop import BACK_LINE, logged

TURN = 12  # seconds: long enough that the outage surely begins before the clock runs out, on a loaded machine
GIVEN_BACK = re.compile(
    r"INFO bot\.tables\.outages: shard 0: (\d+) turn clocks given back the (\d+) s Discord was away"
)


async def _stored(database_url: str, table_id: int) -> tuple[Any, int]:
    """The table's turn deadline row (None: no clock) and how many moves it has logged."""
    stored = await stored_table(database_url, table_id)
    return stored.deadline, len(stored.actions)


async def _alices_turn(double: DiscordDouble, turn_seconds: int) -> TableDriver:
    """Alice and three easy computers at a Just Make table, its server's grace 0 (no reminder first: the computer
    plays for her at once when her time is up), at her turn with her hand shown: her clock runs."""
    panel = await set_computer_pace(double, 0)
    await double.choose(MANAGER, panel, "st:grace", ["0"])
    table = TableDriver(double, [people(1)[0]], seed=2)
    await table.open("just-make", players=4, target=15, turn_seconds=turn_seconds)
    await table.seat_everyone(["easy", "easy", "easy"])
    await table.start()
    await table.show_hand(table.players[0])
    await double.wait_for(table.someone_can_act, timeout=WAIT)
    return table


async def test_a_turn_clock_waits_while_discord_is_away(double: DiscordDouble, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    env = {"RECONNECT_FIRST_SECONDS": "0.1", "RECONNECT_LONGEST_SECONDS": "0.5", "COMPUTER_BUDGET_MS": "100"}
    process = BotProcess(double, url, tmp_path / "bot.log", **env)
    await process.start()
    try:
        table = await _alices_turn(double, TURN)
        await double.take_away()
        deadline, moves = await _stored(url, table.table_id)
        assert deadline is not None, "Alice's turn has a clock"
        left = (deadline.act_at - datetime.now(UTC)).total_seconds()
        assert left > 0, f"the clock ran out before Discord went away ({left:.1f} s): the test proves nothing"
        await asyncio.sleep(left + 3)  # her time is up while Discord is away
        same, moves_now = await _stored(url, table.table_id)
        assert moves_now == moves and same.act_at == deadline.act_at, "nobody played for her while she could not"
        await double.bring_back()
        await logged(process, BACK_LINE)
        [line] = await logged(process, GIVEN_BACK)
        found = GIVEN_BACK.search(line)
        assert found is not None and int(found[1]) == 1 and int(found[2]) >= left + 3
        moved, _ = await _stored(url, table.table_id)
        assert moved.act_at > datetime.now(UTC)  # the time she had left, from the return
        away = (moved.act_at - deadline.act_at).total_seconds()
        assert away >= left + 3, away  # moved on by the whole time Discord was away

        def played_for_her() -> bool:
            return any("time ran out" in m.text() for m in double.public_messages())

        await double.wait_for(played_for_her, timeout=TURN + WAIT, what="the timer plays on once Discord is back")
        _, after = await _stored(url, table.table_id)
        assert after > moves
    finally:
        await process.stop()
    log = process.log()
    assert "Traceback" not in log, log[-5000:]


QUIET_TURN = 24  # seconds: Alice's clock runs out in the silence, before discord.py gives up on it (a minute)
BEATS = 2.0  # seconds between the double's heartbeat acknowledgements in the quiet test
QUIET_LINE = re.compile(r"WARNING bot: shard 0 heard nothing from Discord's gateway for (\d+) s")
HUSHED_LINE = re.compile(r"WARNING bot: shard 0: no word from Discord's gateway for (\d+) s, not even a heartbeat")


async def test_a_connection_gone_quiet_stops_the_clock_at_a_missed_acknowledgement_and_gives_the_time_back(
    double: DiscordDouble, tmp_path: Path
) -> None:
    """Discord's gateway goes quiet without closing (a network dropping packets): discord.py notices only when a
    minute has passed without a word, not even its heartbeats' acknowledgements. Alice's clock, due to run out in
    that minute, stops once an acknowledgement is late (an interval, 2 s here, and 5 s more), from Discord's last
    word: nobody plays for her, and she gets that time back when the gateway is back (without that, the computer
    played for her; and without the last word, the clock would get back about a second: the outage as discord.py
    saw it)."""
    double.heartbeat_interval_ms = int(BEATS * 1000)  # an acknowledgement every 2 s, then none
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    env = {"RECONNECT_FIRST_SECONDS": "0.1", "RECONNECT_LONGEST_SECONDS": "0.5", "COMPUTER_BUDGET_MS": "100"}
    process = BotProcess(double, url, tmp_path / "bot.log", **env)
    await process.start()
    try:
        table = await _alices_turn(double, QUIET_TURN)
        deadline, moves = await _stored(url, table.table_id)
        assert deadline is not None, "Alice's turn has a clock"
        # Her clock gives back only the time it ran: from its start if that came after the last word (the
        # computers' moves after the last click). Discord's last word comes after it here: its acknowledgements.
        started = deadline.act_at - timedelta(seconds=QUIET_TURN)
        await asyncio.sleep(max(0.0, (started - datetime.now(UTC)).total_seconds()) + 2 * BEATS)
        double.go_quiet()
        left = (deadline.act_at - datetime.now(UTC)).total_seconds()
        assert left > 12, f"only {left:.1f} s left when the gateway went quiet: the test proves nothing"
        [hushed] = await logged(process, HUSHED_LINE, timeout=30)
        found = HUSHED_LINE.search(hushed)
        assert found is not None and 7 <= int(found[1]) < 12, hushed
        [line] = await logged(process, QUIET_LINE, timeout=120)
        found = QUIET_LINE.search(line)
        assert found is not None and int(found[1]) >= 60
        await logged(process, BACK_LINE)
        [given] = await logged(process, GIVEN_BACK)
        back = GIVEN_BACK.search(given)
        assert back is not None and int(back[1]) == 1 and int(back[2]) >= 60, given
        moved, moves_now = await _stored(url, table.table_id)
        assert moves_now == moves, "nobody played for her while her clicks could not arrive"
        shift = (moved.act_at - deadline.act_at).total_seconds()
        assert shift >= 60 and shift >= int(back[2]) - 1, (shift, given)
    finally:
        await process.stop()
    log = process.log()
    assert "Traceback" not in log, log[-5000:]


SERVER_BACK = re.compile(
    r"INFO bot\.tables\.outages: server (\d+): (\d+) turn clocks given back the (\d+) s it was out"
)


async def test_a_turn_clock_waits_while_its_server_is_out_on_discords_side(
    double: DiscordDouble, tmp_path: Path
) -> None:
    """Discord's outage of Alice's server alone (GUILD_DELETE with ``unavailable``), the gateway itself up: her
    clicks cannot arrive, so nobody plays for her while it is out; in again, her clock gets the time back."""
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    process = BotProcess(double, url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="100")
    await process.start()
    try:
        table = await _alices_turn(double, TURN)
        await double.server_unavailable(double.guild_id)
        await logged(process, re.compile(f"INFO bot: server {double.guild_id} is out"))
        deadline, moves = await _stored(url, table.table_id)
        assert deadline is not None, "Alice's turn has a clock"
        left = (deadline.act_at - datetime.now(UTC)).total_seconds()
        assert left > 0, f"the clock ran out before the server went out ({left:.1f} s): the test proves nothing"
        await asyncio.sleep(left + 3)  # her time is up while her server is out
        same, moves_now = await _stored(url, table.table_id)
        assert moves_now == moves and same.act_at == deadline.act_at, "nobody played for her while she could not"
        await double.server_available(double.guild_id)
        [line] = await logged(process, SERVER_BACK)
        found = SERVER_BACK.search(line)
        assert found is not None and int(found[1]) == double.guild_id and int(found[2]) == 1
        assert int(found[3]) >= left + 3
        moved, _ = await _stored(url, table.table_id)
        assert moved.act_at > datetime.now(UTC)  # the time she had left, from the server's return

        def played_for_her() -> bool:
            return any("time ran out" in m.text() for m in double.public_messages())

        await double.wait_for(played_for_her, timeout=TURN + WAIT, what="the timer plays on once the server is in")
    finally:
        await process.stop()
    log = process.log()
    assert "Traceback" not in log, log[-5000:]
