"""A tournament night at its start, through the two cogs: the game nights' cog finds the tournaments' cog
(loaded first, as the launcher loads them) and, at the night's start, the tournament opens in sign-up in the
night's channel as ``/tournament create`` makes it; a refusal by the service is said there, in the server's
language, and the night is marked failed."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.storage.models import MAX_OPEN_TOURNAMENTS
from bot.tables import TableService
from bot.tables.game_nights import NightInfo
from cogs.gamenights import GameNights, SignUpsRegistry, TournamentSignUps
from cogs.tournaments import Tournaments
from tests.service import conftest as fixtures
from tests.service.conftest import Clock
from tests.service.helpers import CHANNEL, GUILD, HOST

EVENT = 4242
database, clock, service = fixtures.database, fixtures.clock, fixtures.service  # a fresh database, by backend


class Channel(discord.abc.Messageable):
    """A channel that keeps what is sent to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def _get_channel(self) -> Any:
        return self

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(id=800_000 + len(self.sent))


def fake_bot(service: TableService, channel: Channel, language: str = "en") -> Any:
    async def never_ready() -> None:
        await asyncio.Event().wait()

    async def event_now(guild_id: int, event_id: int, *, with_user_count: bool) -> dict[str, Any]:
        return {"id": str(event_id), "status": 2, "scheduled_start_time": "2026-11-21T21:00:00+00:00"}  # started

    cogs: dict[str, Any] = {}
    return SimpleNamespace(
        service=service,
        http=SimpleNamespace(get_scheduled_event=event_now),  # the night's Discord event, read before it opens
        languages=SimpleNamespace(of=lambda guild_id: language),
        cogs=cogs,
        get_cog=cogs.get,
        get_channel=lambda channel_id: channel if channel_id == CHANNEL else None,
        wait_until_ready=never_ready,
    )


async def cogs_loaded(bot: Any) -> GameNights:
    """The tournaments' cog, then the game nights' cog, as the launcher loads them."""
    bot.cogs["Tournaments"] = Tournaments(bot)
    nights = GameNights(bot)
    await nights.cog_load()
    await nights.cog_unload()  # its loop of the nights due is not wanted here: the test opens the night
    bot.cogs["GameNights"] = nights
    return nights


async def tournament_night(service: TableService, clock: Clock, format: str) -> NightInfo:
    plan = service.game_nights.check("oh-hell", "start_cards=5", 4, "2026-11-21 21:00", format)
    night = await service.game_nights.schedule(
        plan, guild_id=GUILD, channel_id=CHANNEL, event_id=EVENT, host_id=HOST, host_name="Host"
    )
    clock.advance(3600)
    _, opens = await service.game_nights.due()
    assert [n.id for n in opens] == [night.id]
    return opens[0]


async def test_a_tournament_night_opens_its_sign_up_with_its_format_game_and_host(
    service: TableService,
    clock: Clock,
) -> None:
    channel = Channel()
    bot = fake_bot(service, channel)
    nights = await cogs_loaded(bot)
    assert isinstance(bot.cogs["Tournaments"], TournamentSignUps) and isinstance(nights, SignUpsRegistry)
    assert nights.sign_ups is bot.cogs["Tournaments"]  # found at its load
    night = await tournament_night(service, clock, "knockout")
    assert night.kind == "tournament" and night.tournament_format == "knockout"
    assert night.options == {"start_cards": 5}  # the format is not among the game's options
    await nights.open(night)
    assert len(channel.sent) == 1 and isinstance(channel.sent[0]["embed"], discord.Embed)
    info = await service.tournaments.tournament(1)
    assert (info.format, info.game, info.host_id, info.table_size) == ("knockout", "oh-hell", HOST, 4)
    assert info.options["start_cards"] == 5 and info.message_id == 800_001  # its sign-up message, posted
    assert info.status.value == "signup" and [e.user_id for e in info.entrants] == [HOST]
    after = await service.game_nights.night_of_event(EVENT)
    assert after is not None and after.status == "open"


async def test_a_refused_tournament_night_says_why_in_the_servers_language(
    service: TableService,
    clock: Clock,
) -> None:
    for _ in range(MAX_OPEN_TOURNAMENTS):  # the server's open tournaments at their limit
        await service.tournaments.create(GUILD, CHANNEL, HOST, "Host", "oh-hell")
    channel = Channel()
    nights = await cogs_loaded(fake_bot(service, channel, "ja"))
    night = await tournament_night(service, clock, "swiss")
    await nights.open(night)
    assert len(channel.sent) == 1 and "embed" not in channel.sent[0]
    assert "トーナメントナイトの参加受付を開けませんでした" in channel.sent[0]["content"]
    after = await service.game_nights.night_of_event(EVENT)
    assert after is not None and after.status == "failed"


async def test_without_the_tournaments_cog_a_tournament_night_says_so(
    service: TableService,
    clock: Clock,
) -> None:
    channel = Channel()
    nights = GameNights(fake_bot(service, channel))
    night = await tournament_night(service, clock, "duplicate")
    await nights.open(night)
    assert [m["content"] for m in channel.sent] == [
        "This game night was for a tournament, but tournaments cannot open here yet."
    ]
    after = await service.game_nights.night_of_event(EVENT)
    assert after is not None and after.status == "failed"


class Outage(Channel):
    """A channel Discord will not post to."""

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        raise discord.HTTPException(SimpleNamespace(status=503, reason="Service Unavailable"), "down")


async def test_a_sign_up_discord_would_not_post_is_cancelled_and_the_night_failed(
    service: TableService,
    clock: Clock,
) -> None:
    nights = await cogs_loaded(fake_bot(service, Outage()))
    night = await tournament_night(service, clock, "swiss")
    with pytest.raises(discord.HTTPException):
        await nights.open(night)
    info = await service.tournaments.tournament(1)
    assert info.status.value == "cancelled"  # it holds none of the server's open places
    after = await service.game_nights.night_of_event(EVENT)
    assert after is not None and after.status == "failed"


async def test_a_night_whose_event_cannot_be_read_goes_on_as_planned(service: TableService, clock: Clock) -> None:
    """The read of the night's Discord event before it opens is a check: Discord failing it (a 503) must not
    lose the night (it was claimed, never opened, and nobody told)."""
    channel = Channel()
    bot = fake_bot(service, channel)

    async def failing(guild_id: int, event_id: int, *, with_user_count: bool) -> dict[str, Any]:
        raise discord.DiscordServerError(SimpleNamespace(status=503, reason="Service Unavailable"), "down")

    bot.http.get_scheduled_event = failing
    nights = await cogs_loaded(bot)
    night = await tournament_night(service, clock, "swiss")
    await nights.open(night)
    assert len(channel.sent) == 1  # the sign-up, posted
    after = await service.game_nights.night_of_event(EVENT)
    assert after is not None and after.status == "open"
