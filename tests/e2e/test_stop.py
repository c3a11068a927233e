"""A clean stop in every state, and an outage in a few quiet lines: the bot as its own process against the double.

SIGTERM (or SIGINT) ends the bot with exit status 0 within 10 seconds whatever it is doing: reconnecting
after a back-off longer than that, waiting on a 429 with a long ``retry_after``, with a strong computer
thinking for 30 s a move in a worker process, with PostgreSQL out of reach. An outage longer than the
longest back-off is one WARNING line per attempt (no traceback) and one INFO line when the gateway is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from pathlib import Path

import pytest
from sqlalchemy import make_url

from tests.double import BotProcess, DiscordDouble

from .conftest import people
from .driver import TableDriver, eventually, set_computer_pace
from .leaks import stored_table

STOPS_WITHIN = 10.0  # seconds: the bot's promise
RETRY_LINE = re.compile(
    r"WARNING discord\.shard: Discord's gateway is out of reach \((.+)\); shard 0 tries again in ([0-9.]+) s"
)
REFUSED_LINE = re.compile(r"WARNING .*\(ConnectionRefusedError: \[Errno 111\]")  # PostgreSQL out of reach
BACK_LINE = re.compile(r"INFO bot: Discord's gateway is back for shard 0 after ([0-9.]+) s away")


async def logged(process: BotProcess, pattern: re.Pattern[str], count: int = 1, timeout: float = 30.0) -> list[str]:
    """Wait until the bot's log has ``count`` lines matching ``pattern``; return them."""
    deadline = time.monotonic() + timeout
    while True:
        found = [line for line in process.log().splitlines() if pattern.search(line)]
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, f"no {count} lines like {pattern.pattern!r} in:\n{process.log()[-3000:]}"
        await asyncio.sleep(0.05)


async def stop(process: BotProcess, signum: signal.Signals = signal.SIGTERM) -> tuple[int, float]:
    """Send ``signum`` and wait for the process to end: its exit status and how long it took (if it hangs, it is
    killed after twice the promise, so that the test fails rather than hangs)."""
    assert process.process is not None and process.process.returncode is None, "the bot is running"
    started = time.monotonic()
    process.process.send_signal(signum)
    try:
        code = await asyncio.wait_for(process.process.wait(), 2 * STOPS_WITHIN)
    except TimeoutError:
        process.process.kill()
        await process.process.wait()
        raise AssertionError(
            f"still running {2 * STOPS_WITHIN:.0f} s after {signum.name}:\n{process.log()[-3000:]}"
        ) from None
    return code, time.monotonic() - started


def clean(log: str) -> None:
    """A stop in good order: no traceback, no error, nothing left behind, the last word said."""
    assert "Traceback" not in log, log[-4000:]
    assert " ERROR " not in log and " CRITICAL " not in log, [line for line in log.splitlines() if "ERROR" in line]
    assert "left behind" not in log and "ending the process now" not in log, log[-2000:]
    assert re.search(r"INFO bot: stopped in [0-9.]+ s", log), log[-2000:]


async def test_a_stop_during_a_long_reconnect_back_off(double: DiscordDouble, tmp_path: Path) -> None:
    """Discord is away and the next attempt is minutes off (here, 15 to 30 s): SIGTERM does not wait for it."""
    env = {"RECONNECT_FIRST_SECONDS": "30", "RECONNECT_LONGEST_SECONDS": "600"}
    process = BotProcess(double, f"sqlite+aiosqlite:///{tmp_path}/bot.db", tmp_path / "bot.log", **env)
    await process.start()
    await double.take_away()
    retry = RETRY_LINE.search((await logged(process, RETRY_LINE))[0])
    assert retry is not None and float(retry[2]) >= 15.0  # longer than a stop may take
    code, took = await stop(process)
    assert code == 0 and took < STOPS_WITHIN, (code, took)
    log = process.log()
    clean(log)
    assert len(RETRY_LINE.findall(log)) == 1  # it was waiting for its first retry


async def test_an_outage_longer_than_the_longest_back_off(double: DiscordDouble, tmp_path: Path) -> None:
    """Waits doubling from 0.1 s up to 0.5 s, Discord away for 3 s: a WARNING line an attempt with its
    next delay, no traceback; one INFO line when it is back, with how long it was away; then the bot
    answers again, and stops cleanly."""
    env = {"RECONNECT_FIRST_SECONDS": "0.1", "RECONNECT_LONGEST_SECONDS": "0.5"}
    process = BotProcess(double, f"sqlite+aiosqlite:///{tmp_path}/bot.db", tmp_path / "bot.log", **env)
    await process.start()
    await logged(process, re.compile("INFO bot: shard 0 connected to Discord's gateway"))
    started = process.log()
    assert "PyNaCl" not in started and "davey" not in started and "voice" not in started, started
    await double.take_away()
    await logged(process, RETRY_LINE, count=4)  # the waits reached their longest
    await asyncio.sleep(3.0)
    await double.bring_back()
    back = await logged(process, BACK_LINE)
    log = process.log()
    outage = log[len(started) :]
    retries = RETRY_LINE.findall(outage)
    assert len(retries) >= 4
    assert all(0 < float(delay) <= 0.5 for _, delay in retries), retries
    assert all("Connect call failed" in reason or "connect" in reason.lower() for reason, _ in retries), retries
    noisy = [line for line in outage.splitlines() if " INFO " not in line and not RETRY_LINE.search(line)]
    assert noisy == [], noisy  # every other line of the outage is an INFO line: nothing else warns
    assert "Traceback" not in outage, outage[-3000:]
    assert len(back) == 1
    away = BACK_LINE.search(back[0])
    assert away is not None and float(away[1]) >= 3.0
    assert "has connected to Gateway" not in outage  # discord.py's own line said once, by the bot
    # The bot is itself again: a table opens.
    table = TableDriver(double, people(1))
    await table.open("just-make")
    code, took = await stop(process)
    assert code == 0 and took < STOPS_WITHIN, (code, took)
    clean(process.log())


async def test_a_stop_while_discord_holds_the_bot_back(double: DiscordDouble, tmp_path: Path) -> None:
    """Every counted call is answered 429 with a minute's retry_after; discord.py waits it out inside the
    call. A lobby is opened (its thread is such a call, and the command waits on it): SIGTERM waits a
    little for that answer, then leaves it and stops."""
    process = BotProcess(double, f"sqlite+aiosqlite:///{tmp_path}/bot.db", tmp_path / "bot.log")
    await process.start()
    double.rate_limit_everything = 60.0
    table = TableDriver(double, people(1))
    await table.open("just-make")
    await double.wait_for(lambda: double.held_back > 0, 10)
    await logged(process, re.compile(r"WARNING discord\.http: We are being rate limited"))
    code, took = await stop(process)
    assert code == 0 and took < STOPS_WITHIN, (code, took)
    log = process.log()
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    assert "left behind" in log  # the answer waiting on the 429 was not waited for
    assert re.search(r"INFO bot: stopped in [0-9.]+ s", log)


def _descendants(pid: int) -> dict[int, tuple[int, float]]:
    """The processes under ``pid`` (children, theirs, ...), each with its depth (1: a child) and the CPU
    seconds it has used."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                parents[int(entry.name)] = int(fields[1])
                cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    found: dict[int, tuple[int, float]] = {}
    frontier, depth = {pid}, 0
    while frontier:
        depth += 1
        frontier = {child for child, parent in parents.items() if parent in frontier} - found.keys()
        found.update({child: (depth, cpu[child]) for child in frontier})
    return found


def _thinking_workers(pid: int, over: float = 1.0) -> set[int]:
    """The bot's worker processes (children of its fork server) that used the CPU over the last ``over`` s."""
    before = _descendants(pid)
    time.sleep(over)
    after = _descendants(pid)
    return {
        child for child, (depth, used) in after.items() if depth >= 2 and child in before and used > before[child][1]
    }


def _alive(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] != "Z"
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
async def test_a_stop_while_computers_think(double: DiscordDouble, tmp_path: Path) -> None:
    """The strong computer may think 30 s a move in a worker process: SIGINT (Ctrl-C) in the middle of its
    decision stops the bot within 10 s, and no worker process outlives it."""
    env = {"COMPUTER_BUDGET_MS": "30000", "COMPUTER_WORKERS": "1"}
    process = BotProcess(double, f"sqlite+aiosqlite:///{tmp_path}/bot.db", tmp_path / "bot.log", **env)
    await process.start()
    assert process.process is not None
    await set_computer_pace(double, 0)
    table = TableDriver(double, people(1))
    await table.open("just-make", players=4, target=3)  # a Just Make bid: seconds of search, 30 s at most
    await table.seat_everyone(["strong", "strong", "strong"])
    await table.start()
    # The person plays when it is their turn, until a computer's decision is under way: its worker (a child of
    # the bot's fork server) is busy.
    deadline = time.monotonic() + 60
    while not await asyncio.to_thread(_thinking_workers, process.process.pid):
        assert time.monotonic() < deadline, "no computer thought"
        await table.take_turn(table.players[0])
    workers = list(_descendants(process.process.pid))
    code, took = await stop(process, signal.SIGINT)
    assert code == 0 and took < STOPS_WITHIN, (code, took)
    clean(process.log())
    gone_by = time.monotonic() + 5
    while any(_alive(pid) for pid in workers) and time.monotonic() < gone_by:
        await asyncio.sleep(0.1)
    assert not any(_alive(pid) for pid in workers), "a worker process outlived the bot"


class Proxy:
    """A TCP relay to PostgreSQL that can be cut: the database out of reach (connections reset, new ones refused)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        self.writers += [writer, up_writer]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.writers:
            writer.transport.abort()


async def test_a_stop_with_the_database_out_of_reach(double: DiscordDouble, database_url: str, tmp_path: Path) -> None:
    """PostgreSQL goes away mid-match (every connection reset, new ones refused): what fails for want of it is
    one WARNING line each, and SIGTERM still stops the bot within 10 s with exit status 0."""
    if not database_url.startswith("postgresql"):
        pytest.skip("a PostgreSQL server out of reach (SQLite is a file: it does not go away)")
    url = make_url(database_url)
    proxy = Proxy(url.host or "127.0.0.1", url.port or 5432)
    port = await proxy.start()
    relayed = url.set(host="127.0.0.1", port=port).render_as_string(hide_password=False)
    process = BotProcess(double, relayed, tmp_path / "bot.log", COMPUTER_BUDGET_MS="300")
    await process.start()
    await set_computer_pace(double, 0)
    table = TableDriver(double, people(1))
    await table.open("oh-hell", players=3, start_cards=3)
    await table.seat_everyone(["easy", "easy"])
    await table.start()
    await table.take_turn(table.players[0])

    async def a_computer_moved() -> bool:
        return any(action.source == "computer" for action in (await stored_table(database_url, table.table_id)).actions)

    # A computer's move stored: the computers' worker process is up. Cut before that, the stop could come while
    # the first worker is still starting (its fork server importing the engines, seconds on a busy machine),
    # which the stop waits on 3 s and then leaves behind: a failure here that says nothing of the database.
    await eventually(a_computer_moved, what="a computer's move")
    proxy.cut()
    # The turn timers poll the database every second: they find it gone, and say so. Waited for, not slept on (a
    # sleep of 1.5 s took for granted that a poll had failed by then, which a loaded machine need not have done).
    await logged(process, REFUSED_LINE)
    code, took = await stop(process)
    assert code == 0 and took < STOPS_WITHIN, (code, took)
    log = process.log()
    assert "ending the process now" not in log and "left behind" not in log, log[-3000:]
    # What failed for want of the database says so in one line each, with the cause, no traceback.
    assert "Traceback" not in log, log[-3000:]
    assert REFUSED_LINE.search(log), log[-3000:]
    assert re.search(r"INFO bot: stopped in [0-9.]+ s", process.log())
