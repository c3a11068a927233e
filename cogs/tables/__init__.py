"""The tables cog: /play, /hand, /abandon, the public table and the ephemeral hands."""

from __future__ import annotations

from typing import Any, cast

from discord.ext import commands

from ..replies import add_dynamic_items
from .cog import Tables
from .components import DYNAMIC_ITEMS

__all__ = ["Tables", "setup"]


async def setup(bot: commands.Bot) -> None:
    service: Any = cast(Any, bot).service
    add_dynamic_items(bot, *DYNAMIC_ITEMS)
    await bot.add_cog(Tables(bot, service))
