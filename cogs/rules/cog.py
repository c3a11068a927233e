"""/rules: how a game is played, in a few lines, and how the table in this channel is set up."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.tables import TableStatus
from bot.words import listed, option_text

from ..client import TableBot
from ..i18n import reader, t, text
from ..records.cog import game_choices
from ..replies import send
from ..tables.cog import table_here
from ..tables.render import COLOUR, all_options, clip, game_name
from ..tables.working import answering


class Rules(commands.Cog):
    """A game's rules in brief, and the options in play."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="rules", description=text("command.rules"))
    @app_commands.describe(game=text("describe.rules.game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None) -> None:
        async with answering(interaction, update=False):  # finding the table may wait (tables read back)
            await self._rules(interaction, game)

    async def _rules(self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None) -> None:
        locale = reader(interaction)
        table = await table_here(self.service, interaction)
        chosen = game.value if game else table.game if table else None
        if chosen is None:
            await send(interaction, t(locale, "rules.which"))
            return
        players = listed(GAMES[chosen].players, locale)
        embed = discord.Embed(
            title=t(locale, "rules.title", game=game_name(chosen, locale)),
            description=t(locale, f"rules.{chosen}", players=players),
            colour=COLOUR[TableStatus.LOBBY],
        )
        if table is not None and table.game == chosen:
            options = all_options(table)  # in play at this table: a default that depends on its player count too
            heading = t(locale, "rules.table_options", table=table.id)
        else:
            settings = await self.service.guild_settings(interaction.guild_id or 0)
            # As a table shows its options: those that change the game beside the others (no target under a
            # format without one); the player count is not known, so none is left out for it.
            options = GAMES[chosen].options_that_count(None, settings.default_options.get(chosen, {}))
            heading = t(locale, "rules.server_options", game=game_name(chosen, locale))
        shown = "\n".join(option_text(chosen, name, value, locale) for name, value in options.items())
        embed.add_field(name=heading, value=clip(shown, 1024), inline=False)
        embed.add_field(name=t(locale, "rules.computers_title"), value=t(locale, "rules.computers"), inline=False)
        embed.add_field(name=t(locale, "rules.duplicate_title"), value=t(locale, "rules.duplicate"), inline=False)
        await send(interaction, embed=embed)
