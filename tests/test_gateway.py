"""Reaching Discord's gateway again: the back-off's waits, and an outage's log lines (bot/gateway.py)."""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import asyncpg  # type: ignore[import-untyped]
import discord
import discord.shard
import pytest
import sqlalchemy.exc
from pydantic import ValidationError

from bot.config import Settings
from bot.gateway import (
    HEARTBEAT_TIMEOUT,
    RECONNECT,
    Backoff,
    Hearing,
    OneLineOutages,
    QuietOutages,
    forget_servers_not_listed,
    heartbeat_interval,
    last_heard,
    quiet_after,
    quiet_discord_logs,
    use_backoff,
)
from bot.launcher import closed_by_discord
from tests.launched import begun, hold_new_sessions, trick_bot


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_waits_double_from_the_first_up_to_the_longest() -> None:
    clock = Clock()
    backoff = Backoff(1.0, 60.0, clock=clock)
    ceilings = [1, 2, 4, 8, 16, 32, 60, 60, 60, 60]
    for ceiling in ceilings:
        delay = backoff.delay()
        assert ceiling / 2 <= delay <= ceiling
        clock.now += delay  # the attempt fails at once: the next wait follows this one
    assert backoff.delay() <= 60.0


def test_after_a_quiet_spell_an_outage_starts_from_the_first_wait() -> None:
    clock = Clock()
    backoff = Backoff(2.0, 30.0, clock=clock)
    for _ in range(8):
        clock.now += backoff.delay()
    assert backoff.delay() >= 15.0  # at the longest
    clock.now += 61.0  # connected for more than twice the longest wait
    assert backoff.delay() <= 2.0


def test_a_backoff_needs_a_first_wait_no_longer_than_the_longest() -> None:
    with pytest.raises(ValueError):
        Backoff(10.0, 5.0)
    with pytest.raises(ValueError):
        Backoff(0.0, 5.0)
    with pytest.raises(ValidationError, match="RECONNECT_FIRST_SECONDS=30 is longer than RECONNECT_LONGEST_SECONDS=10"):
        Settings(reconnect_first_seconds=30, reconnect_longest_seconds=10)
    assert Settings.model_fields["reconnect_longest_seconds"].default == 120.0


def test_every_shard_waits_by_the_bot_s_backoff() -> None:
    original = getattr(discord.shard, "ExponentialBackoff")  # noqa: B009
    try:
        use_backoff(0.5, 4.0)
        made = getattr(discord.shard, "ExponentialBackoff")()  # noqa: B009 - what Shard.__init__ calls
        assert isinstance(made, Backoff) and (made.first, made.longest) == (0.5, 4.0)
    finally:
        setattr(discord.shard, "ExponentialBackoff", original)  # noqa: B010


def record(
    name: str, level: int, message: str, args: tuple[object, ...], error: BaseException | None
) -> logging.LogRecord:
    exc_info = (type(error), error, error.__traceback__) if error is not None else None
    return logging.LogRecord(name, level, "shard.py", 1, message, args, exc_info)


def test_a_reconnect_is_one_warning_line_with_the_reason_and_the_next_wait() -> None:
    try:
        raise ConnectionRefusedError(111, "Connect call failed ('10.0.0.1', 443)")
    except ConnectionRefusedError as refused:
        error = refused
    line = record("discord.shard", logging.ERROR, RECONNECT, (0, 37.25), error)
    assert QuietOutages().filter(line)
    assert line.levelno == logging.WARNING and line.levelname == "WARNING"
    assert line.exc_info is None and line.exc_text is None
    assert line.getMessage() == (
        "Discord's gateway is out of reach (ConnectionRefusedError: [Errno 111] Connect call failed "
        "('10.0.0.1', 443)); shard 0 tries again in 37.2 s"
    )
    formatted = logging.Formatter("%(levelname)s %(name)s: %(message)s").format(line)
    assert "Traceback" not in formatted and "\n" not in formatted


def test_discord_s_connected_lines_are_left_to_the_bot_s_own() -> None:
    logger = logging.getLogger("discord.gateway")
    level = logger.level
    try:
        logger.setLevel(logging.INFO)
        line = record(
            "discord.gateway", logging.INFO, "Shard ID %s has successfully RESUMED session %s.", (0, "x"), None
        )
        assert not QuietOutages().filter(line)  # at INFO, not printed: the bot says it is back, once
        other = record("discord.gateway", logging.WARNING, "Unknown OP code %s.", (99,), None)
        assert QuietOutages().filter(other) and other.levelno == logging.WARNING  # the rest untouched
    finally:
        logger.setLevel(level)


def test_no_word_of_voice_support_at_start(caplog: pytest.LogCaptureFixture) -> None:
    quiet_discord_logs()
    quiet_discord_logs()  # once is enough, twice does no harm
    assert sum(isinstance(f, QuietOutages) for f in logging.getLogger("discord.shard").filters) == 1
    with caplog.at_level(logging.WARNING, logger="discord"):
        discord.Client(intents=discord.Intents.none())
    assert not [r for r in caplog.records if "voice" in r.getMessage()]


def test_an_error_for_want_of_a_connection_is_one_line_with_its_cause() -> None:
    try:
        try:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")
        except ConnectionRefusedError as refused:
            raise RuntimeError("the pool could not connect") from refused
    except RuntimeError as wrapped:
        error = wrapped
    line = record("bot.tables.service_core", logging.ERROR, "turn timers failed; retrying", (), error)
    assert OneLineOutages().filter(line)
    assert line.levelname == "WARNING" and line.exc_info is None
    assert line.getMessage() == (
        "turn timers failed; retrying (ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 5432))"
    )
    try:
        raise KeyError("a bug")
    except KeyError as bug:
        other = record("cogs.replies", logging.ERROR, "a click failed: %s", ("tt:x",), bug)
    assert OneLineOutages().filter(other)
    assert other.levelname == "ERROR" and other.exc_info is not None  # a bug keeps its traceback


def test_a_database_connection_lost_mid_query_is_one_line_with_its_cause() -> None:
    """PostgreSQL gone in the middle of a query: asyncpg's own error (no ConnectionError), under SQLAlchemy's."""
    try:
        try:
            raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")
        except asyncpg.exceptions.ConnectionDoesNotExistError as lost:
            raise sqlalchemy.exc.DBAPIError("DELETE FROM deadlines", None, lost) from lost
    except sqlalchemy.exc.DBAPIError as wrapped:
        error = wrapped
    line = record("bot.tables.autoplay", logging.ERROR, "a computer move at table %s failed; retrying", (1,), error)
    assert OneLineOutages().filter(line)
    assert line.levelname == "WARNING" and line.exc_info is None
    assert line.getMessage() == (
        "a computer move at table 1 failed; retrying "
        "(ConnectionDoesNotExistError: connection was closed in the middle of operation)"
    )


def closed(code: int, shard_id: int | None = 0) -> discord.ConnectionClosed:
    """discord.py's error for a gateway closed with ``code`` (its socket is read only when no code is given)."""
    return discord.ConnectionClosed(cast(Any, None), shard_id=shard_id, code=code)


def test_a_gateway_closed_not_to_reconnect_says_what_to_do() -> None:
    """Each close code Discord says not to reconnect after has its own paragraph, with this process's settings
    where they are the cause; a code the bot does not know still gets one, not a traceback."""
    # (two of four shards here: the others in other processes, on PostgreSQL)
    settings = Settings(shard_count=4, shard_ids="2-3", database_url="postgresql://bot@db/bot")
    assert "Discord rejected the one that is set" in closed_by_discord(closed(4004), settings)
    shard = closed_by_discord(closed(4010, shard_id=3), settings)
    assert "shard 3 with code 4010 (invalid shard)" in shard and "SHARD_COUNT=4, SHARD_IDS=2-3" in shard
    assert "Raise SHARD_COUNT" in closed_by_discord(closed(4011), settings)
    for code in (4012, 4013):
        assert f"discord.py {discord.__version__}" in closed_by_discord(closed(code), settings)
    unknown = closed_by_discord(closed(4999, shard_id=None), settings)
    assert "the connection with code 4999 (a code this bot does not know)" in unknown and "{" not in unknown


def test_the_invite_asks_for_create_events_which_discord_requires_of_a_bot_creating_an_event() -> None:
    """Since 2026-02-23 Manage Events alone no longer lets a bot create a scheduled event (Discord's change log of
    2025-11-20): the invite asks for Create Events, which also lets it edit and end its own."""
    from bot.launcher import invite_link, permissions

    asked = permissions()
    assert asked.create_events and not asked.manage_events and not asked.administrator
    assert asked.create_private_threads and not asked.manage_threads  # a duplicate night's tables, one each
    assert f"permissions={asked.value}" in invite_link(1234)


def test_when_a_shard_last_heard_from_discord_is_read_from_discord_py_while_its_connection_is_open() -> None:
    """discord.py keeps the moment in its keep-alive handler (``_last_recv``, on ``perf_counter``, set at every
    message): read through the shard's connection while it is open; nothing while it is not."""
    source = inspect.getsource(discord.gateway.KeepAliveHandler.tick)
    assert "self._last_recv = time.perf_counter()" in source  # the names read here are discord.py's own
    assert "self._keep_alive" in inspect.getsource(discord.gateway.DiscordWebSocket.received_message)
    assert "self._parent" in inspect.getsource(discord.shard.ShardInfo.__init__)
    keep_alive = SimpleNamespace(_last_recv=time.perf_counter() - 5.0)
    open_shard = SimpleNamespace(_parent=SimpleNamespace(ws=SimpleNamespace(_keep_alive=keep_alive)))
    heard = last_heard(cast(discord.ShardInfo, open_shard))
    assert heard is not None and 5.0 <= heard < 7.0
    closed = SimpleNamespace(_parent=SimpleNamespace(ws=SimpleNamespace(_keep_alive=None)))
    assert last_heard(cast(discord.ShardInfo, closed)) is None


def test_a_connection_is_taken_for_quiet_once_a_heartbeats_acknowledgement_is_late() -> None:
    """discord.py keeps the interval Discord's HELLO gave (``interval``): quiet after it and five seconds more
    without a word, long before discord.py gives up (a minute without one, checked at each heartbeat)."""
    assert "self.interval" in inspect.getsource(discord.gateway.KeepAliveHandler.__init__)
    keep_alive = SimpleNamespace(interval=41.25, _last_recv=time.perf_counter())
    shard = SimpleNamespace(_parent=SimpleNamespace(ws=SimpleNamespace(_keep_alive=keep_alive)))
    assert heartbeat_interval(cast(discord.ShardInfo, shard)) == 41.25
    closed = SimpleNamespace(_parent=SimpleNamespace(ws=SimpleNamespace(_keep_alive=None)))
    assert heartbeat_interval(cast(discord.ShardInfo, closed)) is None
    assert quiet_after(41.25) == 46.25
    assert quiet_after(2.0) == 7.0
    assert quiet_after(None) == 46.25  # (as Discord's HELLO usually says)
    assert quiet_after(None) < HEARTBEAT_TIMEOUT


async def test_the_launcher_stops_a_quiet_shards_clocks_at_a_missed_acknowledgement_and_gives_them_the_time_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with trick_bot(tmp_path, upgraded=True) as bot:
        gateway = bot.service.gateway
        bot._heard(0, 30.0, 41.25)  # between two acknowledgements
        assert gateway.paused() is None
        with caplog.at_level(logging.INFO, logger="bot"):
            bot._heard(0, 47.0, 41.25)
            bot._heard(0, 48.0, 41.25)  # a second later: the same silence, said once
            assert gateway.paused() is not None  # its clocks stopped
            since = gateway._away[0]
            assert abs((bot.service.store.clock() - since).total_seconds() - 47.0) < 2.0  # from the last word
            bot._heard(0, 0.5, 41.25)  # it speaks again: the time is given back
            await asyncio.gather(*bot._returning)
        assert gateway.paused() is None
        lines = [r.getMessage() for r in caplog.records if "shard 0" in r.getMessage()]
        assert lines == [
            "shard 0: no word from Discord's gateway for 47 s, not even a heartbeat's acknowledgement: its turn "
            "clocks wait from its last word",
            "shard 0: Discord's gateway spoke again; its turn clocks get that time back",
        ], lines
        bot._heard(0, None, None)  # no connection open: nothing read, nothing changed
        assert gateway.paused() is None


def test_a_shard_that_went_quiet_is_lost_from_its_last_word_and_one_that_closed_from_now() -> None:
    clock = Clock()
    hearing = Hearing(clock)
    hearing.note(0, 0.0)  # heard just now, at 1000
    hearing.note(1, 3.0)
    hearing.note(2, None)  # no connection open: nothing noted
    clock.now += HEARTBEAT_TIMEOUT + 10  # discord.py gives up on shard 0 after its silent minute (and closes it)
    assert hearing.lost_since(0) == 1000.0
    assert hearing.lost_since(0) == clock.now  # taken: a second disconnect is from its own moment
    hearing.note(1, 20.0)  # an ordinary connection between two acknowledgements, then closed by Discord
    assert hearing.lost_since(1) == clock.now
    assert hearing.lost_since(2) == clock.now


async def test_the_launcher_stops_a_quiet_shards_clocks_from_its_last_word(tmp_path: Path) -> None:
    from bot.launcher import TrickBot

    bot = TrickBot(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/bot.db"))
    try:
        bot.hearing.note(0, 80.0)
        before = bot.service.store.clock()
        await bot.on_shard_disconnect(0)
        since = bot.service.gateway._away[0]
        assert abs((before - since).total_seconds() - 80.0) < 2.0
        bot.hearing.note(1, 10.0)
        await bot.on_shard_disconnect(1)  # closed by itself between two acknowledgements: from now
        assert abs((bot.service.store.clock() - bot.service.gateway._away[1]).total_seconds()) < 2.0
    finally:
        await bot.database.close()
        assert bot.budget is not None
        await bot.budget.close()


async def test_a_new_sessions_check_finished_after_the_shard_was_lost_again_leaves_its_clocks_stopped(
    tmp_path: Path,
) -> None:
    """A new session's clocks wait for its servers to come in (``shard_ready``) and their channels to be checked;
    lost again meanwhile (the session dropped during its servers' GUILD_CREATEs, the reconnection in back-off),
    the shard is still away when that check ends: its clocks stay stopped until its next connection gives them
    their time, rather than run on while nobody can click."""
    async with trick_bot(tmp_path, upgraded=True) as bot:
        gateway = bot.service.gateway
        checks, go_on = hold_new_sessions(bot)
        await bot.on_shard_disconnect(0)  # an outage: the clocks stop
        await bot.on_shard_connect(0)  # a new session: its servers come in, the clocks wait for them
        await begun(checks)
        assert 0 in gateway._away and gateway.paused() is not None
        await bot.on_shard_disconnect(0)  # lost again before its servers all came in
        go_on.set()
        await bot.on_shard_ready(0)  # discord.py's wait for the GUILD_CREATEs ends anyway
        await asyncio.gather(*bot._returning)
        assert 0 in gateway._away and gateway.paused() is not None, "the shard is away: its clocks stay stopped"
        await bot.on_shard_resumed(0)  # back: now they get their time and run
        await asyncio.gather(*bot._returning)
        assert 0 not in gateway._away and gateway.paused() is None


def test_a_shards_new_session_forgets_its_servers_that_ready_does_not_list() -> None:
    """discord.py's sharded state keeps a shard's servers across sessions: those its READY no longer lists (the bot
    removed meanwhile) are dropped, those of other shards are not touched, and discord.py then reads the READY."""
    from bot.shards import shard_of

    count = 2
    ids = [guild_id << 22 for guild_id in range(1, 9)]
    mine = [guild_id for guild_id in ids if shard_of(guild_id, count) == 1]
    theirs = [guild_id for guild_id in ids if shard_of(guild_id, count) == 0]
    read: list[Any] = []
    state = SimpleNamespace(parsers={"READY": read.append}, _guilds={g: SimpleNamespace(id=g) for g in ids})
    state._remove_guild = lambda guild: state._guilds.pop(guild.id)
    forget_servers_not_listed(state)
    ready = {"shard": [1, count], "guilds": [{"id": str(g), "unavailable": True} for g in mine[1:]]}
    state.parsers["READY"](ready)
    assert read == [ready]
    assert set(state._guilds) == set(ids) - {mine[0]}, "only the shard's server it does not list is forgotten"
    state.parsers["READY"]({"guilds": []})  # one connection, no shard: discord.py clears everything itself
    assert set(state._guilds) == set(ids) - {mine[0]} and len(theirs) == 4


async def test_a_session_resumed_during_a_new_sessions_check_runs_its_clocks_after_that_check(
    tmp_path: Path,
) -> None:
    """A new session's clocks wait for its checks (the servers and channels gone meanwhile); lost and resumed
    before those end, the shard is connected again, but its clocks still wait for them: a table in a channel
    deleted while the bot was away must not have its clock run (its reminder refused) before it is closed."""
    async with trick_bot(tmp_path, upgraded=True) as bot:
        gateway = bot.service.gateway
        checks, go_on = hold_new_sessions(bot)
        await bot.on_shard_disconnect(0)
        await bot.on_shard_connect(0)  # a new session: its checks begin
        await begun(checks)
        await bot.on_shard_disconnect(0)  # lost during them
        await bot.on_shard_resumed(0)  # and resumed at once
        await asyncio.sleep(0.1)
        assert 0 in gateway._away and gateway.paused() is not None, "its clocks wait for the new session's checks"
        go_on.set()
        await asyncio.gather(*bot._returning)
        assert 0 not in gateway._away and gateway.paused() is None


async def test_a_second_new_session_ends_the_first_ones_checks(tmp_path: Path) -> None:
    """Two new sessions in a row (the first dropped during its servers' GUILD_CREATEs): the second READY says
    what the shard has now, so the first session's checks, still waiting for its servers, are dropped rather
    than run beside the second's (the same questions to Discord twice, servers half come in taken for out)."""
    async with trick_bot(tmp_path, upgraded=True) as bot:
        gateway = bot.service.gateway
        checks, _ = hold_new_sessions(bot)  # the first session's check never ends by itself
        await bot.on_shard_disconnect(0)
        await bot.on_shard_connect(0)
        await begun(checks)
        first = bot._session_checks[0]
        await bot.on_shard_disconnect(0)
        await bot.on_shard_connect(0)  # a second new session
        await asyncio.gather(*bot._returning)
        assert first.cancelled() and checks == [0, 0]
        assert 0 not in gateway._away and gateway.paused() is None, "the second session's clocks run"
