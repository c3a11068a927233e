"""The game nights cog: /gamenight schedule, the pings before a night, its lobby at the start, and Discord's
own edits of its Scheduled Event followed."""

from __future__ import annotations

from discord.ext import commands

from ..client import table_bot
from .cog import GameNights
from .hooks import GAME_NIGHTS, LobbyOpener, SignUpsRegistry, TournamentSignUps

__all__ = ["GAME_NIGHTS", "GameNights", "LobbyOpener", "SignUpsRegistry", "TournamentSignUps", "setup"]


async def setup(bot: commands.Bot) -> None:
    await table_bot(bot).add_cog(GameNights(table_bot(bot)))
