"""The bot process is killed at a random moment of a lobby's life (/play, Join, Start, Rematch):
after the restart nothing is half made, and everything the bot acknowledged is there."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select

from bot.storage.database import Database
from bot.storage.models import Seat, Table
from bot.tables import TableService
from tests.double import BotProcess, DiscordDouble, Interaction, Message, User

from .driver import WAIT, TableDriver, control

ROUNDS = 12
OPEN = ("lobby", "playing")


@dataclass
class Round:
    """One lobby's life, as far as it got before the kill: the answers the bot had given."""

    host: User
    guests: list[User]
    lobby: Message | None = None
    opened: bool = False  # /play (or Rematch) was answered with the public lobby
    joined: list[User] = field(default_factory=list)  # Joins answered by the lobby updated
    started: bool = False  # Start was answered by the table updated

    @property
    def table_id(self) -> int:
        assert self.lobby is not None
        found = control(self.lobby, "tt:")
        assert found is not None
        return int(found["custom_id"].split(":")[-1])


@dataclass
class StoredTable:
    status: str
    message_id: int | None
    host_id: int
    seated: set[int | None]
    players: int | None


async def stored_tables(database_url: str) -> dict[int, StoredTable]:
    database = Database(database_url)
    try:
        async with database.engine.connect() as connection:
            tables = {
                row.id: StoredTable(row.status, row.message_id, row.host_id, set(), row.players)
                for row in await connection.execute(select(Table.__table__))
            }
            for seat in await connection.execute(select(Seat.__table__).where(Seat.left_at.is_(None))):
                tables[seat.table_id].seated.add(seat.user_id)
    finally:
        await database.close()
    return tables


async def relax_limits(database_url: str, guild_id: int) -> None:
    """Many lobbies by few hosts in a few seconds: lift the limits against abuse (tested elsewhere)."""
    database = Database(database_url)
    await database.upgrade()
    service = TableService(database)
    try:
        await service.update_guild_settings(
            guild_id, max_open_tables=500, max_lobbies_per_host=25, play_cooldown_seconds=0
        )
    finally:
        await service.close()
        await database.close()


async def answered(double: DiscordDouble, known: set[int]) -> Interaction:
    """The one interaction sent since ``known`` (the ids there were before)."""
    new = [interaction for key, interaction in double.interactions.items() if key not in known]
    assert len(new) == 1
    return new[0]


async def live_a_lobby(double: DiscordDouble, lobby_of: Round, rematch: Message | None) -> None:
    """/play (or Rematch on a finished table), two Joins, Start: each answer recorded as it comes."""
    known = set(double.interactions)
    if rematch is None:
        await double.command(lobby_of.host, "play-oh-hell", players=3, start_cards=1)
    else:
        button = control(rematch, "tt:rematch:")
        assert button is not None
        await double.click(lobby_of.host, rematch, button["custom_id"])
    opening = await answered(double, known)
    assert opening.original is not None and opening.original.ephemeral_for is None, "the lobby is public"
    lobby_of.lobby, lobby_of.opened = opening.original, True
    for guest in lobby_of.guests:
        join = control(lobby_of.lobby, ":join:")
        assert join is not None
        known = set(double.interactions)
        await double.click(guest, lobby_of.lobby, join["custom_id"])
        if (await answered(double, known)).answered.result() == 7:  # type: ignore[union-attr]
            lobby_of.joined.append(guest)
    start = control(lobby_of.lobby, ":start:")
    assert start is not None
    await double.click(lobby_of.host, lobby_of.lobby, start["custom_id"])
    lobby_of.started = control(lobby_of.lobby, "tt:hand:") is not None


def check_nothing_half_made(tables: dict[int, StoredTable]) -> None:
    for table_id, table in tables.items():
        if table.status not in OPEN:
            continue
        assert table.message_id is not None, f"table {table_id} is open and was never shown"
        assert table.host_id in table.seated, f"table {table_id} has lost its host"
        if table.status == "playing":
            assert len(table.seated) == table.players, f"table {table_id} plays with seats missing"


def check_acknowledged(lobby_of: Round, at_kill: dict[int, StoredTable], now: dict[int, StoredTable]) -> None:
    """What the bot answered is there, unless the lobby was never recorded as shown (closed on start)."""
    if not lobby_of.opened:
        return
    table_id = lobby_of.table_id
    if at_kill[table_id].message_id is None:  # killed between posting the lobby and recording where
        assert now[table_id].status == "abandoned"
        return
    table = now[table_id]
    assert table.status in OPEN, f"a shown lobby was closed: {table}"
    assert {guest.id for guest in lobby_of.joined} <= table.seated, "an acknowledged join was lost"
    if lobby_of.started:
        assert table.status == "playing", "an acknowledged start was lost"


async def test_a_kill_at_any_moment_of_a_lobby_leaves_nothing_half_made(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    rng = random.Random(23)
    await relax_limits(database_url, double.guild_id)
    # Lobbies never shown are closed at once on start (no other process could be posting them here).
    env = {"LOBBY_POST_GRACE_SECONDS": "0", "COMPUTER_BUDGET_MS": "100"}
    process = BotProcess(double, database_url, tmp_path / "bot-0.log", **env)
    await process.start()
    players = [User(5000 + index, f"P{index}") for index in range(3)]
    finished = TableDriver(double, players, seed=3)  # a finished match, for the rematches
    await finished.open("oh-hell", players=3, start_cards=1)
    await finished.seat_everyone()
    await finished.start()
    await finished.play()
    await finished.wait_finished()
    assert finished.table is not None

    logs = [process]
    for number in range(ROUNDS):
        rematch = number % 2 == 1
        host, *guests = players if rematch else [User(6000 + 3 * number + k, f"R{number}.{k}") for k in range(3)]
        lobby_of = Round(host, [] if rematch else guests)  # a rematch seats the old players itself
        sent = len(double.interactions)
        life = asyncio.ensure_future(live_a_lobby(double, lobby_of, finished.table if rematch else None))
        # The kill comes while one of the steps is under way: a random step, a random moment in it.
        step = rng.randrange(2 if rematch else 2 + len(guests))
        await double.wait_for(lambda: life.done() or len(double.interactions) > sent + step, timeout=WAIT)  # noqa: B023
        await asyncio.sleep(rng.uniform(0.0, 0.06))
        await process.stop(kill=True)
        life.cancel()
        await asyncio.gather(life, return_exceptions=True)
        if rematch and lobby_of.opened:
            lobby_of.joined = guests  # the rematch's lobby came with everyone seated
        at_kill = await stored_tables(database_url)

        process = BotProcess(double, database_url, tmp_path / f"bot-{number + 1}.log", **env)
        await process.start()
        logs.append(process)
        now = await stored_tables(database_url)
        check_nothing_half_made(now)
        check_acknowledged(lobby_of, at_kill, now)
        if lobby_of.lobby is not None and not lobby_of.started:  # its buttons still answer, politely
            join = control(lobby_of.lobby, ":join:")
            if join is not None:
                answer = await double.click(User(7000 + number, f"Late{number}"), lobby_of.lobby, join["custom_id"])
                assert answer.original is not None and "went wrong" not in answer.original.text()

    await process.stop()
    for each in logs:
        assert "Traceback" not in each.log(), each.log()[-4000:]
    assert double.problems == [], double.problems
