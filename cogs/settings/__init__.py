"""The settings cog: /settings for people who manage a server."""

from __future__ import annotations

from typing import Any, cast

from discord.ext import commands

from ..replies import add_dynamic_items
from .cog import Settings, SettingsControl

__all__ = ["Settings", "setup"]


async def setup(bot: commands.Bot) -> None:
    service: Any = cast(Any, bot).service
    add_dynamic_items(bot, SettingsControl)
    await bot.add_cog(Settings(bot, service))
