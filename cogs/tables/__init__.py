"""The tables cog: /play, /hand, /abandon, the public table and the ephemeral hands."""

from __future__ import annotations

from discord.ext import commands

from ..client import table_bot
from ..replies import add_dynamic_items
from .cog import Tables
from .components import DYNAMIC_ITEMS

__all__ = ["Tables", "setup"]


async def setup(bot: commands.Bot) -> None:
    typed = table_bot(bot)
    add_dynamic_items(typed, *DYNAMIC_ITEMS)
    await typed.add_cog(Tables(typed))
