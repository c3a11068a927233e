"""People at a tournament, played through the Discord double: sign up, find each round's tables (the line that
pings their people in each table's thread), and play every table to its end with the table driver's random
choices. Shared by the tournament tests and ``python -m tests.e2e.transcript … --duplicate``.

Everything is read as a person reads it, in the server's language (``locale``, English by default)."""

from __future__ import annotations

import re
from typing import Any

from cogs.i18n import t
from tests.double import DiscordDouble, Message, User

from .driver import WAIT, Refused, TableDriver, control


def ready_line(locale: str = "en-US") -> re.Pattern[str]:
    """The line that opens a round's table in its thread (groups: tournament, round, table, seats)."""
    marks = {"tournament": "\x00T", "round": "\x00R", "table": "\x00N", "seats": "\x00S"}
    pattern = re.escape(t(locale, "tournament.table_ready", **marks))
    for mark, group in zip(marks.values(), (r"(\d+)", r"(\d+)", r"(\d+)", r"(.*)"), strict=True):
        pattern = pattern.replace(re.escape(mark), group)
    return re.compile(pattern)


def entrants(count: int) -> list[User]:
    return [User(2000 + index, f"Entrant{index}") for index in range(count)]


def pings(double: DiscordDouble, round_no: int, locale: str = "en-US") -> list[Message]:
    """The lines that opened round ``round_no``'s tables, in the order they were posted."""
    ready = ready_line(locale)
    return [m for m in double.public_messages() if (found := ready.search(m.text())) and found[2] == str(round_no)]


async def table_of(double: DiscordDouble, ping: Message, people: list[User] | None = None) -> Message:
    """The table message the ping is about (drawn by the publisher soon after it is posted): the message its
    thread was started from, or a private table's, in its private thread itself; a ping said in the channel (no
    thread would take it), the table message there that names every one of ``people``."""
    in_private_thread = double.channels.get(ping.channel_id, {}).get("type") == 12

    def at(message: Message) -> bool:
        if control(message, "tt:") is None or control(message, "tt:tour:") is not None:
            return False  # not a table's message (the sign-up's, say)
        if message.thread_id == ping.channel_id or (in_private_thread and message.channel_id == ping.channel_id):
            return True
        named = people is not None and all(person.name in message.text() for person in people)
        return message.channel_id == ping.channel_id and named

    found: Message = await double.wait_for(
        lambda: next((m for m in double.public_messages() if at(m)), None),
        WAIT,
        "the table drawn on its message",
    )
    return found


def seated(ping: Message, users: list[User], locale: str = "en-US") -> list[User | None]:
    """The people of a round's table in seat order (None for a computer), from the ping's list of seats."""
    found = ready_line(locale).search(ping.text())
    assert found is not None
    by_id = {user.id: user for user in users}
    seats = re.split(", |、", found[4])  # the server's language's separator
    return [by_id[int(m[1])] if (m := re.fullmatch(r"<@(\d+)>", seat)) else None for seat in seats]


async def sign_up(
    double: DiscordDouble,
    users: list[User],
    game: str = "oh-hell",
    table_size: int = 4,
    locale: str = "en-US",
    **options: Any,
) -> Message:
    """The first user creates the tournament (``options`` as /tournament create takes them); the rest join."""
    answer = await double.command(users[0], "tournament", "create", game=game, table_size=table_size, **options)
    assert answer.original is not None, "/tournament create is answered"
    if answer.original.ephemeral_for == users[0].id:  # the bot said no, to the host alone
        raise Refused(answer.original.text())
    assert answer.original.ephemeral_for is None, "the sign-up is public"
    signup = answer.original
    join = control(signup, ":join:")
    assert join is not None
    for user in users[1:]:
        await double.click(user, signup, join["custom_id"])
    everyone = t(locale, "tournament.entrants", count=len(users))
    await double.wait_for(lambda: everyone in signup.text(), WAIT, "everyone signed up")
    return signup


async def start(double: DiscordDouble, host: User, signup: Message) -> None:
    """The host presses Start on the sign-up message."""
    button = control(signup, ":start:")
    assert button is not None
    await double.click(host, signup, button["custom_id"])


async def round_tables(
    double: DiscordDouble,
    users: list[User],
    round_no: int,
    tables: int,
    seed: int,
    which: slice = slice(None),
    locale: str = "en-US",
) -> list[TableDriver]:
    """Once round ``round_no``'s ``tables`` are open: a driver for each of them (its people, its message)."""
    await double.wait_for(lambda: len(pings(double, round_no, locale)) == tables, WAIT, f"round {round_no}'s tables")
    drivers = []
    for ping in pings(double, round_no, locale)[which]:
        people = [user for user in seated(ping, users, locale) if user is not None]
        driver = TableDriver(double, people, seed=seed)
        driver.table = await table_of(double, ping, people)
        drivers.append(driver)
    return drivers


async def play_round(
    double: DiscordDouble,
    users: list[User],
    round_no: int,
    tables: int,
    which: slice = slice(None),
    seed: int | None = None,
    locale: str = "en-US",
) -> None:
    """Every table of the round (or the ``which`` of them) played to its end, one after another."""
    chosen = round_no if seed is None else seed
    for driver in await round_tables(double, users, round_no, tables, chosen, which, locale):
        await driver.play()
        await driver.wait_finished()
