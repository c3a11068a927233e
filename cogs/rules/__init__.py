"""The rules cog: /rules, a short summary of a game and the options of the table here."""

from __future__ import annotations

from discord.ext import commands

from ..client import table_bot
from .cog import Rules

__all__ = ["Rules", "setup"]


async def setup(bot: commands.Bot) -> None:
    typed = table_bot(bot)
    await typed.add_cog(Rules(typed))
