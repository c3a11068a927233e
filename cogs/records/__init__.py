"""The records cog: /leaderboard, /stats, /history and stored score sheets with their charts."""

from __future__ import annotations

from discord.ext import commands

from ..client import table_bot
from ..replies import add_dynamic_items
from .cog import Records
from .components import DYNAMIC_ITEMS

__all__ = ["Records", "setup"]


async def setup(bot: commands.Bot) -> None:
    typed = table_bot(bot)
    add_dynamic_items(typed, *DYNAMIC_ITEMS)
    await typed.add_cog(Records(typed))
