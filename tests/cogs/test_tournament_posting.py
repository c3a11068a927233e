"""Posting a round's tables, through the tournaments' cog with Discord's side stubbed: one table Discord fails to
take does not hold back the others, and a round announced again while it is still being posted is not posted
twice."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.tables import TableService
from cogs.tournaments import Tournaments
from tests.service import conftest as fixtures
from tests.service.helpers import CHANNEL, GUILD, HOST

database, clock, service = fixtures.database, fixtures.clock, fixtures.service  # a fresh database, by backend


def server_error() -> discord.DiscordServerError:
    return discord.DiscordServerError(SimpleNamespace(status=503, reason="Service Unavailable"), "")


class Publisher:
    """The chat table's publisher as far as posting a round needs it: each table's message held until ``gate``
    opens, or failed with a 5xx for the tables in ``failing``."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.gate = asyncio.Event()
        self.gate.set()
        self.failing: set[int] = set()
        self.sent: list[int] = []

    async def send_new(self, channel: Any, table_id: int, *, nonce: str | None = None) -> Any:
        await self.gate.wait()
        if table_id in self.failing:
            raise server_error()
        self.sent.append(table_id)
        return SimpleNamespace(id=900_000 + len(self.sent))

    def mark_shown(self, table_id: int) -> None:
        pass

    async def place(self, table_id: int, *, message_id: int, thread_id: int | None, private: bool | None) -> None:
        await self.service.set_location(table_id, message_id=message_id, thread_id=thread_id)


def fake_bot(service: TableService, publisher: Publisher) -> Any:
    async def start_thread(channel_id: int, message_id: int, **kwargs: Any) -> dict[str, Any]:
        return {"id": str(message_id + 1)}

    async def send(*args: Any, **kwargs: Any) -> Any:
        return SimpleNamespace(id=1)

    tables = SimpleNamespace(publisher=publisher)
    return SimpleNamespace(
        service=service,
        http=SimpleNamespace(start_thread_with_message=start_thread),
        cog_of=lambda kind: tables,
        get_partial_messageable=lambda channel_id, guild_id=None: SimpleNamespace(id=channel_id, send=send),
    )


async def started_round(service: TableService) -> Any:
    info = await service.tournaments.create(GUILD, CHANNEL, HOST, "Host", "oh-hell", {"start_cards": 1})
    for n in range(1, 8):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    return await service.tournaments.start(info.id, HOST)


async def test_a_table_discord_fails_to_take_leaves_the_rest_posted_and_is_posted_next_time(
    service: TableService,
) -> None:
    publisher = Publisher(service)
    cog = Tournaments(fake_bot(service, publisher))
    info = await started_round(service)
    first, second = await service.tournaments.round_tables(info.id, 1)
    publisher.failing = {first.table_id}
    await cog._post_round(info, 1, "en-US")
    assert publisher.sent == [second.table_id] and not cog._posting
    shown = {t.table_id: t.message_id for t in await service.tournaments.round_tables(info.id, 1)}
    assert shown[first.table_id] is None and shown[second.table_id] is not None
    publisher.failing = set()
    await cog._post_round(info, 1, "en-US")  # the round announced again: only the table not posted
    assert publisher.sent == [second.table_id, first.table_id] and not cog._posting


async def test_a_round_announced_again_while_it_is_being_posted_is_not_posted_twice(service: TableService) -> None:
    publisher = Publisher(service)
    cog = Tournaments(fake_bot(service, publisher))
    info = await started_round(service)
    publisher.gate.clear()  # Discord slow to take the first table's message
    slow = asyncio.create_task(cog._post_round(info, 1, "en-US"))
    await asyncio.sleep(0.05)
    # announced again meanwhile: every table is the first call's, so this one has nothing to wait for
    await asyncio.wait_for(cog._post_round(info, 1, "en-US"), 10)
    publisher.gate.set()
    await slow
    tables = await service.tournaments.round_tables(info.id, 1)
    assert sorted(publisher.sent) == sorted(t.table_id for t in tables) and len(publisher.sent) == 2
    assert all(t.message_id is not None for t in tables) and not cog._posting


async def test_the_channel_is_told_once_a_tournament_that_private_threads_were_refused(
    service: TableService, monkeypatch: Any
) -> None:
    """A duplicate night's tables shown in the channel because Discord refused their private threads: the channel
    is told what to grant once for the tournament, not again when the round is announced again (a table Discord
    failed to take) or at the next round."""
    publisher = Publisher(service)
    told: list[str] = []

    async def send(content: str | None = None, **kwargs: Any) -> Any:
        told.append(content or "")
        return SimpleNamespace(id=1)

    bot = fake_bot(service, publisher)
    bot.get_partial_messageable = lambda channel_id, guild_id=None: SimpleNamespace(id=channel_id, send=send)
    cog = Tournaments(bot)

    async def refused(info: Any, table: Any, locale: Any) -> bool:
        cog._posting.discard(table.table_id)
        return False  # shown in the channel instead (left unposted here: the round is announced again)

    monkeypatch.setattr(cog, "_open_private", refused)
    info = await service.tournaments.create(
        GUILD, CHANNEL, HOST, "Host", "oh-hell", {"start_cards": 1}, format="duplicate", table_size=4
    )
    for n in range(1, 8):
        info = await service.tournaments.join(info.id, GUILD, HOST + n, f"P{n}")
    info = await service.tournaments.start(info.id, HOST)
    assert all(t.private for t in await service.tournaments.round_tables(info.id, 1))
    await cog._post_round(info, 1, "en-US")
    await cog._post_round(info, 1, "en-US")
    assert len([line for line in told if "private thread" in line]) == 1, told
