"""A season's words and its final standings, from the service's rows only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord

from bot.tables import TableStatus
from bot.tables.seasons import SeasonEnded, SeasonInfo

from ..i18n import t
from ..records.render import board_line
from ..tables.render import COLOUR, game_name


def stamp(moment: datetime, style: str = "f") -> str:
    """A time every reader sees in their own zone and language (Discord's timestamp markup)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def season_title(season: SeasonInfo, locale: Any) -> str:
    return t(locale, "season.title", game=game_name(season.game, locale), name=season.name)


def season_span(season: SeasonInfo, locale: Any) -> str:
    """``From … to …`` (the end exclusive, as an instant), in UTC as Discord shows it to each reader."""
    return t(locale, "season.span", starts=stamp(season.starts_at), ends=stamp(season.ends_at))


def standings_embed(ended: SeasonEnded, locale: Any) -> discord.Embed:
    """The season's final standings, with the season that follows."""
    season = ended.season
    embed = discord.Embed(
        title=t(locale, "season.ended_title", game=game_name(season.game, locale), name=season.name),
        colour=COLOUR[TableStatus.FINISHED],
    )
    lines = [board_line(row, "all", locale) for row in ended.standings]
    embed.description = "\n".join([season_span(season, locale), "", *(lines or [t(locale, "season.nobody")])])
    if ended.following is not None:
        embed.add_field(
            name=t(locale, "season.next", name=ended.following.name),
            value=season_span(ended.following, locale),
            inline=False,
        )
    else:
        embed.add_field(name=t(locale, "season.no_next"), value=t(locale, "season.no_next_how"), inline=False)
    embed.set_footer(text=t(locale, "season.footer", players=ended.players, name=season.name))
    return embed
