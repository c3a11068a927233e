"""/gamenight list: every night to come is listed (a server has at most 25), however long their lines, within
Discord's limits on a message's embeds (a description of 4,096 characters, 6,000 in all, 10 embeds)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games import GAMES
from bot.tables.game_nights import MAX_WAITING, NightInfo
from bot.tables.tournament_records import FORMATS
from cogs.gamenights.cog import GameNights, list_embeds, night_line
from cogs.i18n import t
from cogs.tables import working
from tests.cogs.test_answering import FakeInteraction

SNOWFLAKE = 1_234_567_890_123_456_789  # 19 digits, as Discord's ids are now


def longest_night(n: int) -> NightInfo:
    game = max(GAMES, key=lambda name: len(t("ja", f"game.{name}")) + len(t("en", f"game.{name}")))
    return NightInfo(
        id=2**31 - 1 - n,
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE + 1,
        event_id=SNOWFLAKE + n,
        kind="tournament",
        game=game,
        options={},
        players=None,
        host_id=SNOWFLAKE + 2,
        host_name="Host",
        starts_at=datetime(2026, 12, 1, tzinfo=UTC) + timedelta(hours=n),
        status="scheduled",
        table_id=None,
        tournament_format=max(FORMATS, key=lambda name: len(t("en", f"choice.format_{name}"))),
    )


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_night_to_come_is_listed_within_discords_limits(locale: str) -> None:
    nights = [longest_night(n) for n in range(MAX_WAITING)]
    lines = [night_line(night, locale) for night in nights]
    embeds = list_embeds(t(locale, "night.list_title"), lines, lambda n: t(locale, "night.list_more", count=n))
    shown = "\n".join(embed.description or "" for embed in embeds)
    assert all(line in shown for line in lines) and "…" not in shown  # every one, none counted away
    assert len(embeds) <= 10 and all(len(embed.description or "") <= 4096 for embed in embeds)
    assert sum(len(embed.title or "") + len(embed.description or "") for embed in embeds) <= 6000
    assert embeds[0].title == t(locale, "night.list_title")


def test_lines_past_six_thousand_characters_are_counted_not_cut() -> None:
    lines = [f"line {n} " + "x" * 290 for n in range(30)]
    embeds = list_embeds("Title", lines, lambda n: f"and {n} more")
    text = "\n".join(embed.description or "" for embed in embeds)
    assert sum(len(embed.title or "") + len(embed.description or "") for embed in embeds) <= 6000
    kept = [line for line in lines if line in text]
    assert kept == lines[: len(kept)] and text.endswith(f"and {len(lines) - len(kept)} more")


async def test_a_slow_read_of_the_nights_is_deferred_in_time_then_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    """/gamenight list read the nights before its only answer: past Discord's three seconds (a slow database) the
    command showed "This interaction failed"."""
    monkeypatch.setattr(working, "DEFER_AFTER", 0.05)

    class Nights:
        async def upcoming(self, guild_id: int, most: int) -> list[NightInfo]:
            await asyncio.sleep(0.3)  # the database, slow
            return [longest_night(0)]

    cog = GameNights(SimpleNamespace(service=SimpleNamespace(game_nights=Nights())))  # type: ignore[arg-type]
    interaction: Any = FakeInteraction(delay=0.0)
    interaction.guild_id, interaction.locale, interaction.client = SNOWFLAKE, "en-US", None
    await GameNights.list_nights.callback(cog, interaction)
    [deferred, shown] = interaction.calls  # acknowledged in time (for the asker alone), then the list sent
    assert deferred == "defer thinking sent" and shown == "follow-up ephemeral=True"
