"""Shared moves for the service tests."""

from __future__ import annotations

import asyncio
import json
import random
import weakref
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import text

from bot.games import new_game
from bot.players import ComputerPlayer
from bot.storage.database import Database
from bot.tables import Outcome, TableInfo, TableService
from bot.tables.thinking import InProcessThinker, decision_seed

GUILD, CHANNEL = 1, 500
HOST = 100
LOBBY_MESSAGE = 700_000  # the lobby message a Start is pressed on
SAMPLES = 3  # deals the strong player tries per decision in tests: fast, and the same choice every run


async def no_pause(seconds: float) -> None:
    """The computers' pace, skipped: tests do not wait for people to follow."""
    await asyncio.sleep(0)


def make_service(database: Database, clock: Callable[[], datetime] | None = None, **kwargs: Any) -> TableService:
    """A service whose computers think in-process with a fixed number of deals and keep no pace;
    what it sends its listeners is in ``heard(service)``."""
    kwargs.setdefault("thinker", InProcessThinker(samples=SAMPLES))
    kwargs.setdefault("sleep", no_pause)
    service = TableService(database, **({"clock": clock} if clock else {}), **kwargs)
    heard(service)  # listening from the start
    return service


class Heard:
    """Every outcome a service sends its listeners (computer moves, timeouts, reminders)."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    async def __call__(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)

    def take(self) -> list[Outcome]:
        taken, self.outcomes = self.outcomes, []
        return taken

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [event for outcome in self.outcomes for event in outcome.events if event["kind"] == kind]


_HEARD: weakref.WeakKeyDictionary[TableService, Heard] = weakref.WeakKeyDictionary()


def heard(service: TableService) -> Heard:
    """The service's one collecting listener (registered on first use)."""
    if service not in _HEARD:
        _HEARD[service] = Heard()
        service.listen(_HEARD[service])
    return _HEARD[service]


def user(seat: int) -> int:
    return HOST + seat


async def relax_limits(service: TableService, guild: int = GUILD) -> None:
    """Lift the server's limits against abuse, for tests that open many tables at one moment of their
    clock (the limits themselves are tested in test_lobby.py)."""
    await service.update_guild_settings(guild, max_open_tables=500, max_lobbies_per_host=25, play_cooldown_seconds=0)


async def seated(
    service: TableService,
    game: str = "ninety-nine",
    players: int = 3,
    options: dict[str, Any] | None = None,
    *,
    channel: int = CHANNEL,
    guild: int = GUILD,
    first_user: int = HOST,
    turn_seconds: int | None = None,
) -> TableInfo:
    """An open lobby with ``players`` people seated (users first_user, first_user+1, …)."""
    await relax_limits(service, guild)
    info = await service.open_table(
        guild, channel, first_user, f"Player {first_user}", game, options, turn_seconds=turn_seconds
    )
    for n in range(1, players):
        info = await service.join(info.id, first_user + n, f"Player {first_user + n}")
    return info


async def started(service: TableService, *args: Any, **kwargs: Any) -> Outcome:
    info = await seated(service, *args, **kwargs)
    return await service.start(info.id, info.host_id, message_id=LOBBY_MESSAGE)


async def play_one(service: TableService, info: TableInfo, rng: random.Random) -> Outcome:
    """One random legal action by a seated person whose turn it is."""
    seat = rng.choice([s for s in info.to_act if info.seats[s].user_id is not None and not info.seats[s].resigned])
    who = info.seats[seat].user_id
    assert who is not None
    legal = await service.legal(info.id, who)
    return await service.act(info.id, who, rng.choice(legal))


async def play_to_end(service: TableService, info: TableInfo, seed: int = 0, limit: int = 100_000) -> list[Outcome]:
    """People play random legal actions until the match ends; the outcomes in order, the computers' included."""
    rng = random.Random(seed)
    computers = heard(service)
    await service.settle(info.id)
    outcomes = computers.take()
    info = await service.table(info.id)
    while info.status == "playing" and len(outcomes) < limit:
        outcomes.append(await play_one(service, info, rng))
        await service.settle(info.id)
        outcomes.extend(computers.take())
        info = outcomes[-1].table if outcomes[-1].table.status != "playing" else await service.table(info.id)
    return outcomes


async def check_computer_moves(database: Database, table_id: int) -> dict[str, int]:
    """Every move the service made for a seat is what the computer player chooses from that seat.

    Replays the table's log; each action of a computer seat must be its level's choice, and
    each of a resigned seat or a person whose time ran out the strong player's, with the
    decision's seed (:func:`decision_seed`) and the tests' fixed number of deals. Returns
    how many moves of each source were checked.
    """
    async with database.engine.connect() as connection:
        table = (await connection.execute(text(f"SELECT game, options, seed FROM tables WHERE id={table_id}"))).one()
        seats = (
            await connection.execute(text(f"SELECT position, computer_level FROM seats WHERE table_id={table_id}"))
        ).all()
        log = (
            await connection.execute(
                text(f"SELECT seq, seat, action, source FROM actions WHERE table_id={table_id} ORDER BY seq")
            )
        ).all()
    options = table.options if isinstance(table.options, dict) else json.loads(table.options)
    levels = {row.position: row.computer_level for row in seats if row.position is not None}
    state = new_game(table.game, players=len(levels), options=options, seed=table.seed)
    checked: dict[str, int] = {}
    for row in log:
        if row.source != "player":
            level = levels[row.seat] if row.source == "computer" else "strong"
            assert level is not None, f"a {row.source} move for a seat with no level"
            player = ComputerPlayer(level, seed=decision_seed(table.seed, row.seq), samples=SAMPLES)
            assert row.action == player.choose(state, row.seat), f"move {row.seq} ({row.source}) is not the player's"
            checked[row.source] = checked.get(row.source, 0) + 1
        state.act(row.seat, row.action)
    return checked
