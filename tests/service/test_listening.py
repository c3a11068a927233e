"""Processes sharing PostgreSQL keep hearing one another: the news of a commit leaves in its own transaction (a
process stopped right after its commit has told the others already, a write rolled back tells nothing), a lost
listening session is opened again and what was told meanwhile caught up, and the timers' version check catches
up whatever news never came."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.shards import Shards
from bot.storage import notify
from bot.storage import repository as repo
from bot.storage.database import Database
from bot.tables import GuildSettings, TableInfo, TableService

from .conftest import POSTGRES_URL, Clock, drop_schema, fresh_database
from .helpers import make_service, seated

ROOT = Path(__file__).resolve().parents[2]
NEEDS_POSTGRES = "several processes share PostgreSQL only (LISTEN/NOTIFY): set TEST_POSTGRES_URL to run this"
EVEN_GUILD = 6 << 22  # shard 0 of 2: the first process's
WAIT = 60.0  # seconds a bounded wait allows (a busy machine); a healthy run takes a fraction of one


@pytest.fixture
async def postgres(tmp_path: Path) -> AsyncIterator[tuple[Database, str]]:
    if POSTGRES_URL is None:
        pytest.skip(NEEDS_POSTGRES)
    database, schema = await fresh_database("postgresql", tmp_path)
    assert schema is not None
    try:
        yield database, schema
    finally:
        await database.close()
        await drop_schema(schema)


async def until(condition: Callable[[], Awaitable[bool]], what: str, within: float = WAIT) -> None:
    """Poll ``condition`` until it holds, for ``within`` seconds at most (then fail, saying ``what``)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + within
    while not await condition():
        assert loop.time() < ends, f"not within {within} s: {what}"
        await asyncio.sleep(0.02)


async def ignore(_settings: GuildSettings) -> None:
    return None


async def computers_turn_next(owner: TableService) -> tuple[TableInfo, int, str]:
    """A table of the owner's server (two people and a computer) played by the owner up to a person's click that
    hands the turn to the computer: the table, that person and that action (not made)."""
    info = await seated(owner, "oh-hell", 2, {"start_cards": 3}, guild=EVEN_GUILD)
    info = await owner.add_computer(info.id, info.host_id, "easy")
    await owner.start(info.id, info.host_id, message_id=1)
    while True:
        await owner.settle()
        info = await owner.table(info.id)
        assert info.status == "playing", "the match ended before a person's move handed the turn to the computer"
        seat = next(s for s in info.to_act if info.seats[s].user_id is not None)
        who = info.seats[seat].user_id
        assert who is not None
        state = owner._live[info.id].state
        assert state is not None
        for action in state.legal(seat):
            trial = state.clone()
            trial.act(seat, action)
            if trial.to_act() and all(info.seats[s].user_id is None for s in trial.to_act()):
                return info, who, action
        await owner.act(info.id, who, state.legal(seat)[0])


def computer_played(reader: TableService, table_id: int, after: int) -> Callable[[], Awaitable[bool]]:
    """Whether the table moved past version ``after`` and no computer is left to act (read as committed)."""

    async def check() -> bool:
        info = await reader.table(table_id)  # another shard's table: its version is checked at every read
        people_to_act = any(info.seats[s].user_id is not None for s in info.to_act)
        return info.version > after and (info.status != "playing" or people_to_act)

    return check


async def terminate(database: Database, pid: int) -> None:
    """End a session the way a PostgreSQL restart, a failover or an idle-session kill does, for that session."""
    async with database.engine.connect() as connection:
        assert (await connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})).scalar_one()


async def test_a_lost_listening_session_is_opened_again_and_what_was_told_meanwhile_caught_up(
    postgres: tuple[Database, str], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    database, _ = postgres
    first = make_service(database, clock, shards=Shards.of(2, [0]))  # owns EVEN_GUILD
    second = make_service(database, clock, shards=Shards.of(2, [1]))
    heard: list[GuildSettings] = []

    async def changed(settings: GuildSettings) -> None:
        heard.append(settings)

    trying, let_through = asyncio.Event(), asyncio.Event()
    real = notify.listening_connection

    async def held_back(dsn: str) -> Any:  # the new session waits until the test has moved on without it
        trying.set()
        await let_through.wait()
        return await real(dsn)

    try:
        await first.follow_others(changed)
        info, who, action = await computers_turn_next(first)
        listener = first.settings._others
        assert listener is not None and listener.reconnections == 0
        monkeypatch.setattr(notify, "listening_connection", held_back)
        await terminate(database, listener._connection.get_server_pid())
        await asyncio.wait_for(trying.wait(), WAIT)  # it noticed, and is listening again: held back

        # Told while nobody listens: a click routed to the other process hands the turn to the computer
        # (which has no deadline to wake it), and the server's settings change.
        clicked = (await second.act(info.id, who, action)).table
        assert all(clicked.seats[s].user_id is None for s in clicked.to_act)
        await second.update_guild_settings(EVEN_GUILD, turn_seconds=90, language="ja")
        let_through.set()

        await until(computer_played(second, info.id, clicked.version), "the owner's computer played on")
        assert listener.reconnections == 1
        assert any(s.guild_id == EVEN_GUILD and s.language == "ja" for s in heard)  # the settings, read again
        assert first._live[info.id].guild_turn == 90
    finally:
        await first.close()
        await second.close()


async def test_a_lost_listening_session_catches_up_the_settings_of_servers_it_does_not_own(
    postgres: tuple[Database, str], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process keeps every server's language (a click Discord routes to it, its Activity's screens), not only
    its own shards' servers': a change it missed while it was not listening is read again for them too."""
    database, _ = postgres
    owner = make_service(database, clock, shards=Shards.of(2, [0]))  # owns EVEN_GUILD
    other = make_service(database, clock, shards=Shards.of(2, [1]))
    heard: list[GuildSettings] = []

    async def changed(settings: GuildSettings) -> None:
        heard.append(settings)

    trying, let_through = asyncio.Event(), asyncio.Event()
    real = notify.listening_connection

    async def held_back(dsn: str) -> Any:
        trying.set()
        await let_through.wait()
        return await real(dsn)

    try:
        await other.follow_others(changed)
        listener = other.settings._others
        assert listener is not None
        monkeypatch.setattr(notify, "listening_connection", held_back)
        await terminate(database, listener._connection.get_server_pid())
        await asyncio.wait_for(trying.wait(), WAIT)
        await owner.update_guild_settings(EVEN_GUILD, language="ja")  # told while the other does not listen
        let_through.set()

        async def caught_up() -> bool:
            return any(s.guild_id == EVEN_GUILD and s.language == "ja" for s in heard)

        await until(caught_up, "the other shard's server's new language, read again")
    finally:
        await owner.close()
        await other.close()


async def test_the_news_of_a_click_leaves_with_its_commit_though_its_process_stops_right_after(
    postgres: tuple[Database, str], clock: Clock
) -> None:
    """The process that served the click stops (``os._exit``, as if killed) the moment the click is answered:
    nothing after the commit runs, and the owner still hears of it and its computer plays on."""
    database, schema = postgres
    assert POSTGRES_URL is not None
    first = make_service(database, clock, shards=Shards.of(2, [0]))
    try:
        await first.follow_others(ignore)
        info, who, action = await computers_turn_next(first)
        args = ["-m", "tests.service.stop_after_click", POSTGRES_URL, schema, "2", "1", str(info.id), str(who), action]
        process = await asyncio.create_subprocess_exec(
            sys.executable, *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        out, err = await asyncio.wait_for(process.communicate(), WAIT)
        lines = out.decode().split()
        assert process.returncode == 0 and lines[:1] == ["ACK"], err.decode()
        clicked = int(lines[1])
        second = make_service(database, clock, shards=Shards.of(2, [1]))  # a reader of the table as committed
        try:
            await until(computer_played(second, info.id, clicked), "the owner heard of the click and played on")
        finally:
            await second.close()
    finally:
        await first.close()


async def test_a_process_that_writes_nothing_more_after_its_commit_has_told_the_owner(
    postgres: tuple[Database, str], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after the answer the process can write no more (the database went away, or it is stopping: SIGTERM),
    then closes: the news went with the commit, there is nothing left to write or to cancel."""
    database, schema = postgres
    first = make_service(database, clock, shards=Shards.of(2, [0]))
    elsewhere = Database(database.url, connect_args={"server_settings": {"search_path": schema}})  # its own pool
    second = make_service(elsewhere, clock, shards=Shards.of(2, [1]))
    reader = make_service(database, clock, shards=Shards.of(2, [1]))

    async def refused(_work: object) -> None:
        raise ConnectionError("the database went away")

    try:
        await first.follow_others(ignore)
        info, who, action = await computers_turn_next(first)
        clicked = (await second.act(info.id, who, action)).table
        monkeypatch.setattr(elsewhere, "write", refused)  # before anything else of that process runs
        await second.close()
        await until(computer_played(reader, info.id, clicked.version), "the owner heard of the click and played on")
    finally:
        for service in (first, second, reader):
            await service.close()
        await elsewhere.close()


async def test_the_timers_version_check_catches_up_news_that_never_came(
    postgres: tuple[Database, str], clock: Clock
) -> None:
    """The owner does not listen at all (as if every notification were lost): its timer loop's check finds the
    table behind and its computer plays on; another shard's table held behind is dropped, to be read when used."""
    database, _ = postgres
    first = make_service(database, clock, shards=Shards.of(2, [0]))
    second = make_service(database, clock, shards=Shards.of(2, [1]))
    try:
        info, who, action = await computers_turn_next(first)
        await second.table(info.id)  # the other process holds a copy too
        clicked = (await second.act(info.id, who, action)).table
        first.run_timers_forever(interval=0.01, check_every=0.05)
        await until(computer_played(second, info.id, clicked.version), "the owner's check found the table behind")
        assert info.id in first._live and first._live[info.id].version > clicked.version
        await first.settle()
        now = await first.table(info.id)
        if now.status == "playing":  # a person's move at the owner: the other process's copy falls behind
            seat = next(s for s in now.to_act if now.seats[s].user_id is not None)
            person = now.seats[seat].user_id
            assert person is not None
            await first.act(info.id, person, (await first.legal(info.id, person))[0])
            await first.settle()
            assert second._live[info.id].version < first._live[info.id].version
            assert await second.store.catch_up_all() == [info.id] and info.id not in second._live
        assert await first.store.catch_up_all() == []  # nothing behind: one query, nothing read
    finally:
        await first.close()
        await second.close()


def _move(table_id: int, version: int, now: datetime, told: int | None, seq: int = 0) -> repo.MoveWrite:
    """The move ``seq`` of a table at ``version``; ``told``: the server the other processes hear it of."""
    row = {"table_id": table_id, "seq": seq, "seat": 0, "action": "pass", "source": "player", "created_at": now}
    return repo.MoveWrite(table_id, version, seq + 1, [row], None, None, told)


async def test_moves_committed_together_are_told_at_their_commit_and_a_stale_one_never(
    postgres: tuple[Database, str],
) -> None:
    """A group commit of several tables' moves tells of each in its transaction; the stale move is dropped from
    the batch, and its news with it (the merged transaction that held it rolled back)."""
    database, schema = postgres
    assert POSTGRES_URL is not None
    now = datetime.now(UTC)

    async def setup(connection: AsyncConnection) -> list[int]:
        await repo.ensure_guild(connection, EVEN_GUILD)
        await repo.remember_player(connection, EVEN_GUILD, 5, "Ann")
        values = {"guild_id": EVEN_GUILD, "game": "oh-hell", "options": {}, "seed": 1, "status": "playing"}
        values.update(host_id=5, created_at=now, version=4, action_count=0)
        return [await repo.insert_table(connection, channel_id=channel, **values) for channel in range(3)]

    ids = await database.write(setup)
    heard: list[tuple[int, int, int]] = []

    async def table_heard(table_id: int, guild_id: int, version: int) -> None:
        heard.append((table_id, guild_id, version))

    async def nothing(*_: Any) -> None:
        return None

    listener = notify.OthersListener(POSTGRES_URL, schema, nothing, table_heard, nothing)
    await listener.start()
    try:
        moves = [_move(table_id, 3 if table_id == ids[1] else 4, now, EVEN_GUILD) for table_id in ids]
        results = await asyncio.gather(*(database.write(move) for move in moves), return_exceptions=True)
        assert [isinstance(result, repo.StaleWrite) for result in results] == [False, True, False]
        await until(lambda: _at_least(heard, 2), "both committed moves heard")
        await database.write(_move(ids[0], 5, now, None, seq=1))  # not told: nobody hears of it
        await database.write(_move(ids[2], 5, now, EVEN_GUILD, seq=1))
        await until(lambda: _at_least(heard, 3), "the last move heard")
        assert sorted(heard) == [(ids[0], EVEN_GUILD, 5), (ids[2], EVEN_GUILD, 5), (ids[2], EVEN_GUILD, 6)]
    finally:
        await listener.close()


async def _at_least(heard: list[Any], count: int) -> bool:
    return len(heard) >= count


async def test_the_version_check_reads_nothing_where_one_process_serves_sqlite(
    database: Database, clock: Clock
) -> None:
    """On either backend a single process's check finds nothing behind."""
    service = make_service(database, clock)
    try:
        info = await seated(service, "oh-hell", 3, {"start_cards": 3})
        await service.start(info.id, info.host_id, message_id=1)
        assert await service.store.catch_up_all() == []
    finally:
        await service.close()


async def test_a_table_not_read_at_start_is_read_by_the_check_and_its_computer_plays(
    database: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer is to act at a table whose read at start failed (a passing fault): it has no turn timer, so only
    the periodic check reads it again, on SQLite too (there nothing did, and the table waited for a person's click:
    found by a helper's audit)."""
    first = make_service(database, clock, shards=Shards.of(2, [1]))  # drives nothing of server 1: stopped mid-turn
    await first.update_guild_settings(1, turn_seconds=60, grace_seconds=30)
    info = await seated(first, "oh-hell", players=1)
    for _ in range(2):
        info = await first.add_computer(info.id, info.host_id)
    table = (await first.start(info.id, info.host_id, message_id=1)).table
    while table.seats[table.to_act[0]].user_id is not None:  # the person plays until a computer is to act
        table = (await first.act(table.id, info.host_id, (await first.legal(table.id, info.host_id))[0])).table
    await first.close()
    real, failed = repo.load_table, []

    async def flaky(connection: AsyncConnection, table_id: int) -> Any:  # a lost pooled connection, once
        if not failed:
            failed.append(table_id)
            raise OSError("connection lost")
        return await real(connection, table_id)

    monkeypatch.setattr(repo, "load_table", flaky)
    second = make_service(database, clock)  # the restart
    try:
        assert await second.load_open_tables() == 0 and failed == [table.id]
        await second.store.catch_up_all()
        await second.settle()
        assert (await second.table(table.id)).actions > table.actions  # its computers played on
    finally:
        await second.close()


async def test_a_table_whose_log_no_longer_replays_is_not_read_at_every_check(
    database: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The periodic check leaves a table whose log no longer replays to the timers (which set it aside): replayed
    every few seconds it mends nothing and holds the store's loading lock (found by a review)."""
    first = make_service(database, clock)
    info = await seated(first, "oh-hell", 3, {"start_cards": 3})
    table = (await first.start(info.id, info.host_id, message_id=1)).table
    seat = table.to_act[0]
    who = table.seats[seat].user_id
    assert who is not None
    await first.act(table.id, who, (await first.legal(table.id, who))[0])
    await first.close()
    async with database.engine.begin() as connection:
        await connection.execute(text("UPDATE actions SET action = 'bid 99' WHERE table_id = :t"), {"t": table.id})
    reads: list[int] = []
    real = repo.load_table

    async def counted(connection: AsyncConnection, table_id: int) -> Any:
        reads.append(table_id)
        return await real(connection, table_id)

    monkeypatch.setattr(repo, "load_table", counted)
    second = make_service(database, clock)
    try:
        assert await second.load_open_tables() == 0 and reads == [table.id]
        for _ in range(5):
            await second.store.catch_up_all()
        assert reads == [table.id]
    finally:
        await second.close()
