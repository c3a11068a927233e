"""The rules cog: /rules, a short summary of a game and the options of the table here."""

from __future__ import annotations

from typing import Any, cast

from discord.ext import commands

from .cog import Rules

__all__ = ["Rules", "setup"]


async def setup(bot: commands.Bot) -> None:
    service: Any = cast(Any, bot).service
    await bot.add_cog(Rules(bot, service))
