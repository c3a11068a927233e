"""The records cog: /leaderboard, /stats, /history and stored score sheets with their charts."""

from __future__ import annotations

from typing import Any, cast

from discord.ext import commands

from ..replies import add_dynamic_items
from .cog import Records
from .components import DYNAMIC_ITEMS

__all__ = ["Records", "setup"]


async def setup(bot: commands.Bot) -> None:
    service: Any = cast(Any, bot).service
    add_dynamic_items(bot, *DYNAMIC_ITEMS)
    await bot.add_cog(Records(bot, service))
