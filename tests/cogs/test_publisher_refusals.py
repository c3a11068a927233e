"""The publisher when Discord refuses a table's edit (``cogs/tables/publisher.py``, ``cogs/unreachable.py``): the
channel gone (10003) or closed to the bot (50001, 50013) is said once, without a traceback, and the table is not
edited again for the back-off, then at its next change; a deleted message is still posted again, a channel
without Attach Files still gets the table as text; nothing at all is sent for a server left or a channel deleted."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.tables.publisher import Publisher
from cogs.unreachable import BACK_OFF, Unreachable

GUILD, CHANNEL, THREAD, MESSAGE = 1, 2, 3, 4


def refusal(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    return kind(SimpleNamespace(status=status, reason="refused"), {"code": code, "message": "refused"})  # type: ignore[arg-type]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Service:
    async def table(self, table_id: int) -> SimpleNamespace:
        return SimpleNamespace(
            id=table_id,
            guild_id=GUILD,
            channel_id=CHANNEL,
            thread_id=THREAD,
            message_id=MESSAGE,
            host_id=9,
            status="playing",
            private=False,
        )


class Client:
    """Discord as the publisher reaches it: each edit answered with the next of ``answers`` (None: accepted)."""

    def __init__(self) -> None:
        self.answers: list[discord.HTTPException | None] = []
        self.edits: list[dict[str, Any]] = []

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> Any:
        client = self

        class Message:
            async def edit(self, **kwargs: Any) -> None:
                client.edits.append(kwargs)
                answer = client.answers.pop(0) if client.answers else None
                if answer is not None:
                    raise answer

        return SimpleNamespace(id=channel_id, guild_id=guild_id, get_partial_message=lambda message_id: Message())


class Watched(Publisher):
    """A publisher whose message is a plain text (with the table's picture where ``picture``), that notes what it
    posts again and whom it tells the table went text-only."""

    def __init__(self, client: Client, clock: Clock, unreachable: Unreachable) -> None:
        super().__init__(client, Service(), None, clock=clock, unreachable=unreachable)  # type: ignore[arg-type]
        self.picture = False
        self.posted_again: list[int] = []
        self.told: list[int] = []

    async def message(self, table_id: int, *, can_attach: bool = True) -> dict[str, Any]:
        with_picture = self.picture and table_id not in self.text_only
        files = [discord.File(__file__, filename="table.png")] if with_picture else []
        return {"content": "the table", "attachments": files}

    async def _post_again(self, table: Any, channel: Any) -> None:
        self.posted_again.append(table.id)

    async def _tell_host_text_only(self, table: Any) -> None:
        self.told.append(table.id)


async def settled(publisher: Publisher) -> None:
    """Until no edit of the publisher's is on its way or waiting out a back-off."""
    for _ in range(1000):
        tasks = [*publisher._tasks.values(), *publisher._later.values()]
        if all(task.done() for task in tasks):
            return
        await asyncio.sleep(0)
    raise AssertionError("the publisher's edits never settled")


@pytest.fixture
def parts() -> tuple[Watched, Client, Clock, Unreachable]:
    client, clock = Client(), Clock()
    unreachable = Unreachable(clock=clock)
    return Watched(client, clock, unreachable), client, clock, unreachable


@pytest.mark.parametrize(
    ("kind", "status", "code"),
    [(discord.NotFound, 404, 10003), (discord.Forbidden, 403, 50001), (discord.Forbidden, 403, 50013)],
)
async def test_a_refused_edit_is_said_once_and_tried_again_after_the_back_off(
    parts: tuple[Watched, Client, Clock, Unreachable],
    caplog: pytest.LogCaptureFixture,
    kind: type[discord.HTTPException],
    status: int,
    code: int,
) -> None:
    publisher, client, clock, unreachable = parts
    client.answers = [refusal(kind, status, code), refusal(kind, status, code)]
    with caplog.at_level(logging.INFO, logger="cogs.tables.publisher"):
        await publisher.edit(7)  # refused: no exception, no traceback
        for _ in range(5):  # the moves after it: not one call
            clock.now += 10
            await publisher.edit(7)
        assert len(client.edits) == 1 and unreachable.held_back(7)
        clock.now += BACK_OFF  # the back-off is over: the next change tries again, and is refused again
        await publisher.edit(7)
        await publisher.edit(7)
        assert len(client.edits) == 2
        clock.now += BACK_OFF + 1  # the permission given back meanwhile
        await publisher.edit(7)
        assert len(client.edits) == 3 and not unreachable.held_back(7)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "table 7" in warnings[0].getMessage() and warnings[0].exc_info is None
    assert any("can be edited again" in r.getMessage() for r in caplog.records)
    assert publisher.posted_again == [] and publisher.told == []


async def test_a_deleted_message_is_posted_again_and_a_channel_without_attach_files_gets_text(
    parts: tuple[Watched, Client, Clock, Unreachable],
) -> None:
    publisher, client, _, unreachable = parts
    client.answers = [refusal(discord.NotFound, 404, 10008)]
    await publisher.edit(7)
    assert publisher.posted_again == [7] and not unreachable.held_back(7)
    publisher.picture = True
    client.answers = [refusal(discord.Forbidden, 403, 50013), None]  # no Attach Files: text goes through
    await publisher.edit(8)
    assert [len(edit["attachments"]) for edit in client.edits[1:]] == [1, 0]
    assert publisher.text_only == {8} and publisher.told == [8] and not unreachable.held_back(8)


async def test_a_channel_refusing_even_text_is_left_alone_and_no_host_is_told(
    parts: tuple[Watched, Client, Clock, Unreachable],
) -> None:
    publisher, client, _, unreachable = parts
    publisher.picture = True
    client.answers = [refusal(discord.Forbidden, 403, 50013), refusal(discord.Forbidden, 403, 50013)]
    await publisher.edit(7)
    assert len(client.edits) == 2 and unreachable.held_back(7)
    assert publisher.text_only == set() and publisher.told == []  # files were not why


async def test_another_refusal_still_raises(parts: tuple[Watched, Client, Clock, Unreachable]) -> None:
    publisher, client, _, _ = parts
    client.answers = [refusal(discord.Forbidden, 403, 50035)]
    with pytest.raises(discord.Forbidden):
        await publisher.edit(7)


@pytest.mark.parametrize("gone", ["server", "channel"])
async def test_nothing_is_sent_for_a_server_left_or_a_channel_deleted(
    parts: tuple[Watched, Client, Clock, Unreachable], gone: str
) -> None:
    publisher, client, _, unreachable = parts
    if gone == "server":
        unreachable.server_left(GUILD)
    else:
        unreachable.channel_deleted(CHANNEL)
    await publisher.edit(7)
    assert client.edits == []
    table = await Service().table(7)
    assert unreachable.where(table) is None
    unreachable.server_joined(GUILD)
    unreachable.channels.clear()
    assert unreachable.where(table) == THREAD


def test_a_deleted_thread_sends_its_tables_words_to_their_channel() -> None:
    unreachable = Unreachable()
    table = SimpleNamespace(guild_id=GUILD, channel_id=CHANNEL, thread_id=THREAD, private=False)
    assert unreachable.where(table) == THREAD
    unreachable.channel_deleted(THREAD)
    assert unreachable.where(table) == CHANNEL and not unreachable.gone(table)
    assert not unreachable.between_threads(table)


def test_a_thread_that_refused_a_message_sends_a_public_tables_words_to_its_channel_for_a_while() -> None:
    """Discord refused a message in a table's thread (no Send Messages in Threads, the thread locked): a public
    table's pings go to its channel for the back-off, then the thread is tried again; a private table's never go
    to its channel (tried in its thread again, where the refusal is logged)."""
    clock = Clock()
    unreachable = Unreachable(clock=clock, back_off=300)
    table = SimpleNamespace(guild_id=GUILD, channel_id=CHANNEL, thread_id=THREAD, private=False)
    private = SimpleNamespace(guild_id=GUILD, channel_id=CHANNEL, thread_id=THREAD, private=True)
    unreachable.thread_refused(THREAD)
    assert unreachable.where(table) == CHANNEL and unreachable.where(private) == THREAD
    assert not unreachable.between_threads(private)
    clock.now += 299
    assert unreachable.where(table) == CHANNEL
    clock.now += 1
    assert unreachable.where(table) == THREAD and not unreachable.thread_closed(THREAD)


def test_a_private_tables_words_never_go_to_its_channel() -> None:
    """A duplicate night's table whose private thread was deleted says nothing anywhere until it has a new one
    (its channel would show everyone what its turn pings and notices say); it is not gone for all that."""
    unreachable = Unreachable()
    table = SimpleNamespace(guild_id=GUILD, channel_id=CHANNEL, thread_id=THREAD, private=True)
    assert unreachable.where(table) == THREAD and not unreachable.between_threads(table)
    unreachable.channel_deleted(THREAD)
    assert unreachable.where(table) is None and unreachable.between_threads(table) and not unreachable.gone(table)
    forgotten = SimpleNamespace(guild_id=GUILD, channel_id=CHANNEL, thread_id=None, private=True)
    assert unreachable.where(forgotten) is None and unreachable.between_threads(forgotten)
    unreachable.channel_deleted(CHANNEL)  # the channel itself gone: gone, not between threads
    assert unreachable.gone(forgotten) and not unreachable.between_threads(forgotten)


async def test_a_change_held_back_by_a_refusal_is_shown_once_the_back_off_is_over(
    parts: tuple[Watched, Client, Clock, Unreachable],
) -> None:
    """The match ends while its channel refuses the bot: once the back-off is over (the permission given back),
    the table's message is edited to its latest state, though no change came after."""
    publisher, client, clock, unreachable = parts
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    publisher.sleep = sleep
    client.answers = [refusal(discord.Forbidden, 403, 50001)]
    publisher.touch(7)
    await settled(publisher)
    assert len(client.edits) == 1 and unreachable.held_back(7)
    clock.now += 10
    publisher.touch(7)  # the last change, during the back-off: no call now
    assert len(client.edits) == 1
    await settled(publisher)
    assert len(client.edits) == 2 and not unreachable.held_back(7)  # edited once the back-off was over
    assert BACK_OFF - 10 in slept


async def test_an_edit_discord_fails_on_its_side_is_made_again_later_and_later(
    parts: tuple[Watched, Client, Clock, Unreachable], caplog: pytest.LogCaptureFixture
) -> None:
    """A 503 (which discord.py does not retry) dropped the edit with a traceback: the table stayed a move behind,
    a finished match shown as playing, until its next change (if any)."""
    publisher, client, clock, _ = parts
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.now += seconds

    publisher.sleep = sleep
    client.answers = [refusal(discord.DiscordServerError, 503, 0) for _ in range(3)]
    with caplog.at_level(logging.INFO, logger="cogs.tables.publisher"):
        publisher.touch(7)
        await settled(publisher)
    assert len(client.edits) == 4  # three failures, then the edit made
    assert [wait for wait in waits if wait in (1.0, 2.0, 4.0)][-3:] == [1.0, 2.0, 4.0]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "table 7" in warnings[0].getMessage() and warnings[0].exc_info is None
    assert any("edited again after Discord's trouble" in r.getMessage() for r in caplog.records)


async def test_a_lobby_from_the_activity_is_posted_through_discords_trouble_and_closed_only_if_refused() -> None:
    class Lobbies:
        def __init__(self) -> None:
            self.placed: list[int] = []
            self.abandoned: list[int] = []

        async def table(self, table_id: int) -> SimpleNamespace:
            return SimpleNamespace(
                id=table_id, guild_id=GUILD, channel_id=CHANNEL, thread_id=None, message_id=None, host_id=9,
                status="lobby", private=False,
            )  # fmt: skip

        async def set_location(self, table_id: int, message_id: int) -> None:
            self.placed.append(message_id)

        async def abandon(self, table_id: int, by_user: int, can_manage: bool = False) -> None:
            self.abandoned.append(table_id)

    answers: list[discord.HTTPException | None] = []
    sent: list[dict[str, Any]] = []

    class Channel:
        async def send(self, **kwargs: Any) -> SimpleNamespace:
            sent.append(kwargs)
            answer = answers.pop(0) if answers else None
            if answer is not None:
                raise answer
            return SimpleNamespace(id=77)

    client = SimpleNamespace(get_partial_messageable=lambda channel_id, guild_id=None: Channel())
    service = Lobbies()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    publisher = Publisher(client, service, None, sleep=sleep)  # type: ignore[arg-type]
    publisher.message = lambda table_id, can_attach=True: asyncio.sleep(0, {"content": "lobby"})  # type: ignore[method-assign]
    answers.extend([refusal(discord.DiscordServerError, 503, 0), refusal(discord.DiscordServerError, 502, 0)])
    await publisher.post(5)
    assert service.placed == [77] and service.abandoned == [] and waits == [1.0, 2.0]
    assert len({kwargs["nonce"] for kwargs in sent}) == 1 and len(sent) == 3  # one nonce: never two lobbies
    answers.append(refusal(discord.Forbidden, 403, 50013))  # the bot may not write there: nobody could see it
    await publisher.post(6)
    assert service.abandoned == [6]
