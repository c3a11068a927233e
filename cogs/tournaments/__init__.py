"""The tournaments cog: /tournament, the sign-up message, and each round shown as it opens and ends."""

from __future__ import annotations

from discord.ext import commands

from ..client import table_bot
from ..replies import add_dynamic_items
from .cog import Tournaments
from .components import DYNAMIC_ITEMS

__all__ = ["Tournaments", "setup"]


async def setup(bot: commands.Bot) -> None:
    typed = table_bot(bot)
    add_dynamic_items(typed, *DYNAMIC_ITEMS)
    await typed.add_cog(Tournaments(typed))
