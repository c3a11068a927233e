"""Hostile input at every door: forged custom_ids and select values on every component, impossible
slash-command options. Each gets exactly one answer in time, never "something went wrong", no
traceback in the bot's log, and the database is left exactly as it was.

Hypothesis draws the inputs (derandomized, so a run is reproducible); the bot and the Discord double
run on the test's event loop, and each drawn input is sent to them from Hypothesis's thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from bot.storage.database import Database
from bot.storage.models import Base
from tests.double import BotProcess, DiscordDouble, User
from tests.double.server import Interaction

from .conftest import people
from .driver import WAIT, TableDriver, control, eventually
from .leaks import stored_location

INTERNAL = "went wrong"
OTHER_GUILD, OTHER_CHANNEL, FRESH_CHANNEL = 910_000_000_000_000_501, 910_000_000_000_000_502, 910_000_000_000_000_503


def fuzzing(examples: int) -> Any:
    """Hypothesis's settings here: reproducible, no deadline (each example is a round trip to the bot)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


async def dump(database_url: str) -> list[tuple[str, list[str]]]:
    """Every row of every table, sorted: what "the database unchanged" compares (SQLite or PostgreSQL)."""
    database = Database(database_url)
    try:
        async with database.engine.connect() as connection:
            tables = []
            for table in Base.metadata.sorted_tables:
                rows = await connection.execute(select(table))
                tables.append((table.name, sorted(repr(tuple(row)) for row in rows)))
            return tables
    finally:
        await database.close()


def hostile_parts(known: list[int]) -> st.SearchStrategy[str]:
    """What a forged id or number in a custom_id may be: real ids (this server's, another's, people's),
    ids that do not exist, ids no 64-bit integer holds, signs, other scripts' digits, and any text."""
    return st.one_of(
        st.sampled_from([str(n) for n in known]),
        st.sampled_from(
            ["0", "-1", "9" * 19, "9" * 20, str(2**63), str(2**64), "²", "١٢", "٣", "0x1f", " 1", "1 ", ""]
        ),
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
        st.text(max_size=12),
    )


def custom_ids(known: list[int]) -> st.SearchStrategy[str]:
    """Every component's custom_id shape, with hostile parts in each place, and free text."""
    part = hostile_parts(known)
    word = st.one_of(
        st.sampled_from(["join", "leave", "start", "cpu", "hints-on", "play AS", "bid 3", "pass", "cards", "action"]),
        st.text(max_size=16),
    )
    shapes = [
        st.builds("tt:lobby:{}:{}".format, word, part),
        st.builds("tt:cpu:{}:{}".format, part, st.sampled_from(["easy", "strong", "grandmaster", "²"])),
        st.builds("tt:uncpu:{}:{}".format, part, part),
        st.builds("tt:hint:{}:{}".format, part, part),
        st.builds("tt:hand:{}".format, part),
        st.builds("tt:hand:{}:r".format, part),
        st.builds("tt:act:{}:{}:{}".format, part, part, word),
        st.builds("tt:more:{}:{}:{}".format, part, part, word),
        st.builds("tt:pick:{}:{}:{}:{}".format, part, part, word, part),
        st.builds("tt:rematch:{}".format, part),
        st.builds("tt:review:{}".format, part),
        st.builds("rk:deal:{}:{}".format, part, part),
        st.builds("rk:replay:{}:{}".format, part, part),
        st.builds(
            "rk:board:{}:{}:{}:{}".format,
            st.sampled_from(["just-make", "oh-hell", "chess", "²"]),
            st.sampled_from(["all", "month", "week", "year"]),
            part,
            part,
        ),
        st.builds("rk:hist:{}:{}:{}".format, part, part, part),
        st.builds("rk:open:{}".format, part),
        st.builds(
            "st:{}".format,
            st.one_of(
                st.sampled_from(["turn", "grace", "lang", "game", "thread", "home", "picture", "pings"]), word, part
            ),
        ),
        st.builds("st:pace:{}".format, part),
        st.builds("st:val:{}:{}".format, word, word),
        st.text(max_size=100),
    ]
    return st.one_of(*shapes).filter(lambda text: 0 < len(text) <= 100)


async def test_forged_components_get_one_polite_answer_and_change_nothing(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    loop = asyncio.get_running_loop()
    players = people(4)
    table = TableDriver(double, players, seed=11)
    # A turn timer of 5 minutes: no reminder nor timeout is to change the table while the clicks are sent.
    await table.open("just-make", players=4, target=3, turn_seconds=300)
    await table.seat_everyone()
    await table.start()
    here = table.table_id
    where = table.table.thread_id if table.table and table.table.thread_id else double.channel_id
    elsewhere = double.another_server(OTHER_GUILD, OTHER_CHANNEL)
    other = await double.command(User(5000, "Olga"), "play-oh-hell", channel_id=elsewhere)
    lobby = other.original
    assert lobby is not None
    # The bot records where the lobby and its thread are just after posting them: the snapshot comes after.
    thread = await double.wait_for(lambda: lobby.thread_id, WAIT, "the other lobby's thread")
    other_id = int(str(control(lobby, "tt:")["custom_id"]).split(":")[-1])  # type: ignore[index]

    async def recorded() -> bool:
        return await stored_location(database_url, other_id) == (lobby.id, thread)

    await eventually(recorded, what="the other lobby's place recorded")
    before = await dump(database_url)
    watcher, stranger = User(2000, "Walter"), User(5001, "Mallory")
    known = [here, here + 1, here + 2, watcher.id, stranger.id, players[0].id, double.guild_id, OTHER_GUILD]
    channels = [double.channel_id, where, elsewhere]
    problems: list[str] = []

    def run(work: Coroutine[Any, Any, Interaction]) -> Interaction:
        return asyncio.run_coroutine_threadsafe(work, loop).result(timeout=WAIT)

    def answered_politely(who: User, interaction: Interaction, what: str) -> None:
        seen = interaction.original.text() if interaction.original is not None else ""
        latest = double.latest_ephemeral(who)
        seen += latest.text() if latest is not None else ""
        if INTERNAL in seen:
            problems.append(f"{what}: {seen}")

    @fuzzing(600)
    @given(
        custom_id=custom_ids(known),
        values=st.lists(hostile_parts(known), max_size=3),
        who=st.sampled_from([watcher, stranger]),
        channel=st.sampled_from(channels),
        as_select=st.booleans(),
    )
    def click(custom_id: str, values: list[str], who: User, channel: int, as_select: bool) -> None:
        if as_select:
            message = double.plant_select(custom_id, [v for v in values if v] or ["1"], channel_id=channel)
            interaction = run(double.choose(who, message, custom_id, values))
        else:
            interaction = run(double.click(who, double.plant([custom_id], channel_id=channel), custom_id))
        answered_politely(who, interaction, f"{custom_id!r} {values!r}")

    sent = len(double.interactions)
    await asyncio.to_thread(click)
    await asyncio.sleep(0.3)
    assert len(double.interactions) - sent >= 200  # Hypothesis drew and sent them all
    assert problems == []
    assert double.problems == []
    assert "Traceback" not in bot.log()
    assert await dump(database_url) == before


def bad_values(option: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of a slash-command option that are not among those it offers, or out of its range."""
    kind = option["type"]
    choices = {choice["value"] for choice in option.get("choices", [])}
    if kind == 3:  # text
        return st.text(max_size=30).filter(lambda value: value not in choices)
    if kind == 4:  # a whole number
        low, high = option.get("min_value"), option.get("max_value")

        def outside(value: int) -> bool:
            if choices:
                return value not in choices
            return (low is not None and value < low) or (high is not None and value > high)

        return st.integers(min_value=-(2**40), max_value=2**40).filter(outside)
    return st.nothing()


async def test_impossible_command_options_are_refused_naming_what_is_allowed(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    loop = asyncio.get_running_loop()
    fresh = double.another_server(double.guild_id, FRESH_CHANNEL)  # no table here: /play would open one
    plays = [command for command in double.commands if command["name"].startswith("play-")]  # /play-<game>
    cases = [
        (command["name"].removeprefix("play-"), option)
        for command in plays
        for option in command.get("options", [])
        if option["type"] in (3, 4)
    ]
    assert cases
    before = await dump(database_url)
    alice = people(1)[0]
    problems: list[str] = []

    @fuzzing(200)
    @given(data=st.data())
    def command(data: st.DataObject) -> None:
        game, option = data.draw(st.sampled_from(cases))
        value = data.draw(bad_values(option))
        work = double.command(alice, f"play-{game}", channel_id=fresh, **{option["name"]: value})
        interaction = asyncio.run_coroutine_threadsafe(work, loop).result(timeout=WAIT)
        text = interaction.original.text() if interaction.original is not None else ""
        if INTERNAL in text or not text:
            problems.append(f"/play {game} {option['name']}:{value!r}: {text!r}")

    sent = len(double.interactions)
    await asyncio.to_thread(command)
    await asyncio.sleep(0.3)
    assert len(double.interactions) - sent >= 100
    assert problems == []
    assert double.problems == []
    assert "Traceback" not in bot.log()
    assert await dump(database_url) == before
