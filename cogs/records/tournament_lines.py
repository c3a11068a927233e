"""Finished tournaments in /history and /stats: a line each (game, format, end, the player's place or the
winner, a link to its podium) and a player's totals (played, podiums, wins), from the service's plain data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.tables.tournament_records import TournamentResult, TournamentTotals

from ..i18n import t
from ..tables.render import FIELD_VALUE_MAX, game_name, whole_lines
from .render import when


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def where_shown(result: TournamentResult, locale: Any) -> str:
    """A link to the podium (or, if none was kept, the sign-up message); else the command that shows it."""
    if result.podium_message_id is not None:
        url = message_link(result.guild_id, result.channel_id, result.podium_message_id)
        return t(locale, "history.podium_link", url=url)
    if result.message_id is not None:
        return t(locale, "history.signup_link", url=message_link(result.guild_id, result.channel_id, result.message_id))
    tournament, standings = t(locale, "name.tournament"), t(locale, "name.standings")  # as the reader's client names it
    return f"`/{tournament} {standings} {tournament}:{result.id}`"


def tournament_line(result: TournamentResult, locale: Any) -> str:
    """``🏆 Tournament 3 · Oh Hell · Swiss · <date> · place 2 of 10 · [podium](…)`` (with a player), or
    the winners instead of a place (the server's history)."""
    common = {
        "tournament": result.id,
        "game": game_name(result.game, locale),
        "format": t(locale, f"choice.format_{result.format}"),
        "date": when(result.finished_at),
        "entrants": result.entrants,
        "link": where_shown(result, locale),
    }
    if result.place is not None:
        return t(locale, "history.tournament_line", place=result.place, **common)
    winners = t(locale, "tournament.list_separator").join(
        f"<@{user}>" if user is not None else t(locale, "tournament.computer_seat") for user in result.winners
    )
    return t(locale, "history.tournament_line_server", winners=winners or "-", **common)


def add_tournaments(embed: discord.Embed, results: Sequence[TournamentResult], locale: Any) -> None:
    """The finished tournaments as one field of a /history page."""
    if results:
        lines = [tournament_line(result, locale) for result in results]
        value = whole_lines(lines, FIELD_VALUE_MAX, lambda rest: t(locale, "night.list_more", count=rest))
        embed.add_field(name=t(locale, "history.tournaments"), value=value, inline=False)


def add_totals(embed: discord.Embed, totals: TournamentTotals, recent: Sequence[TournamentResult], locale: Any) -> None:
    """A player's tournaments in /stats: played, podiums, wins, and the latest few."""
    if not totals.played:
        return
    head = t(locale, "stats.tournament_totals", played=totals.played, podiums=totals.podiums, wins=totals.wins)
    lines = [head, *(tournament_line(result, locale) for result in recent)]
    value = whole_lines(lines, FIELD_VALUE_MAX, lambda rest: t(locale, "night.list_more", count=rest))
    embed.add_field(name=t(locale, "history.tournaments"), value=value, inline=False)
