"""The settings cog: /settings for people who manage a server."""

from __future__ import annotations

from discord.ext import commands

from ..client import table_bot
from ..replies import add_dynamic_items
from .cog import Settings, SettingsControl

__all__ = ["Settings", "setup"]


async def setup(bot: commands.Bot) -> None:
    typed = table_bot(bot)
    add_dynamic_items(typed, SettingsControl)
    await typed.add_cog(Settings(typed))
