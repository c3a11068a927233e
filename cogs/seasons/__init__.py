"""The seasons cog: /season start and /season stop for a server's admins, and the post of each season's end."""

from __future__ import annotations

from discord.ext import commands

from ..client import table_bot
from .cog import Seasons

__all__ = ["Seasons", "setup"]


async def setup(bot: commands.Bot) -> None:
    await table_bot(bot).add_cog(Seasons(table_bot(bot)))
