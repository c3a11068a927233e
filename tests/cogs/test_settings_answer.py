"""/settings answers every click in time: a change of the turn timer re-times every table of the server in play
before the panel shows it, which with hundreds of tables takes seconds."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.tables import GuildSettings
from cogs.settings.cog import Settings
from cogs.tables import working
from tests.cogs.test_answering import FakeInteraction


class SlowService:
    """The service, as slow to save a turn timer as one re-timing many tables in play."""

    def __init__(self) -> None:
        self.saved: dict[str, Any] = {}

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings(guild_id, 60, 30, True, None)

    async def update_guild_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        await asyncio.sleep(0.2)  # every table of the server in play, re-timed
        self.saved.update(values)
        return GuildSettings(guild_id, values.get("turn_seconds", 60), 30, True, None)


async def test_a_slow_change_of_the_turn_timer_is_deferred_then_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The panel was edited only once every table had been re-timed, with no deferral: past Discord's three
    seconds the click showed "This interaction failed", though the change was saved."""
    monkeypatch.setattr(working, "DEFER_AFTER", 0.05)
    service = SlowService()
    cog = Settings(SimpleNamespace(service=service))  # type: ignore[arg-type]
    interaction: Any = FakeInteraction(delay=0.0)
    interaction.guild_id, interaction.locale, interaction.client = 1, "en-US", None
    interaction.permissions = SimpleNamespace(manage_guild=True)
    interaction.message = SimpleNamespace(flags=SimpleNamespace(ephemeral=True))  # the panel, /settings' answer
    await cog.on_control(interaction, "turn", ["120"])
    assert service.saved == {"turn_seconds": 120}
    [deferred, shown] = interaction.calls  # acknowledged in time, then the panel shown in place
    assert deferred.startswith("defer") and "thinking" not in deferred and shown == "edit original"
