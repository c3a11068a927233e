"""The tournament's messages, from the service's plain data only: sign-up, a round's tables, standings, podium."""

from __future__ import annotations

from typing import Any

import discord

from bot.tables import TableStatus
from bot.tables.tournament_records import (
    DUPLICATE,
    KNOCKOUT,
    ComparedDeal,
    EntrantInfo,
    RoundTable,
    StandingLine,
    TournamentInfo,
)

from ..i18n import t
from ..tables.render import COLOUR, clip, game_name, whole_lines

MEDALS = ("🥇", "🥈", "🥉")


def entrant_name(entrant: EntrantInfo, locale: Any) -> str:
    if entrant.user_id is None:
        return t(locale, "tournament.computer_entrant", number=entrant.id)
    return f"<@{entrant.user_id}>"


def settings_line(info: TournamentInfo, locale: Any) -> str:
    """Format, table size, rounds, computers, rated, the start."""
    rounds = (
        t(locale, "tournament.rounds_knockout", advance=info.advance)
        if info.format == KNOCKOUT
        else t(locale, "tournament.rounds", rounds=info.rounds)
    )
    start = (
        t(locale, "tournament.starts_at", at=f"<t:{int(info.starts_at.timestamp())}:F>")
        if info.starts_at is not None
        else t(locale, "tournament.host_starts")
    )
    return "\n".join(
        [
            t(locale, f"tournament.format_{info.format}", size=info.table_size),
            rounds,
            t(locale, "tournament.computers_on" if info.computers else "tournament.computers_off"),
            t(locale, "tournament.rated" if info.rated else "tournament.unrated"),
            *([t(locale, f"tournament.compare_after_{info.compare_after}")] if info.format == DUPLICATE else []),
            start,
        ]
    )


FIELD_LIMIT = 1024  # characters of an embed field's value (Discord's limit)


def signup_embed(info: TournamentInfo, locale: Any) -> discord.Embed:
    colour = COLOUR[TableStatus.LOBBY] if info.is_open else COLOUR[TableStatus.FINISHED]
    embed = discord.Embed(
        title=t(locale, "tournament.title", tournament=info.id, game=game_name(info.game, locale)),
        description=settings_line(info, locale),
        colour=colour,
    )
    people = info.playing
    names = [entrant_name(entrant, locale) for entrant in people]
    value = whole_lines(names, FIELD_LIMIT, lambda rest: t(locale, "tournament.entrants_more", count=rest))
    embed.add_field(
        name=t(locale, "tournament.entrants", count=len(people)),
        value=value or t(locale, "tournament.no_entrants"),
        inline=False,
    )
    embed.add_field(
        name=t(locale, "tournament.status_title"),
        value=t(locale, f"tournament.status_{info.status.value}", round=info.round),
    )
    embed.add_field(name=t(locale, "tournament.host_title"), value=f"<@{info.host_id}>")
    return embed


def table_ping(info: TournamentInfo, table: RoundTable, locale: Any) -> tuple[str, list[int]]:
    """The line that opens a round's table in its thread, pinging its people."""
    names = {entrant.id: entrant for entrant in info.entrants}
    users = [names[seat].user_id for seat in table.seats if seat is not None and names[seat].user_id is not None]
    seats = t(locale, "tournament.list_separator").join(
        entrant_name(names[seat], locale) if seat is not None else t(locale, "tournament.computer_seat")
        for seat in table.seats
    )
    line = t(locale, "tournament.table_ready", tournament=info.id, round=table.round, table=table.number, seats=seats)
    return line, [user for user in users if user is not None]


def thread_name(info: TournamentInfo, table: RoundTable, locale: Any) -> str:
    return t(locale, "tournament.thread", tournament=info.id, round=table.round, table=table.number)[:100]


STANDINGS_SHOWN = 40  # lines of the standings in one message (each about 90 characters: a description holds 4,096)


def standings_embed(
    info: TournamentInfo, lines: list[StandingLine], round_no: int, locale: Any, *, reader_id: int | None = None
) -> discord.Embed:
    """The standings, the first STANDINGS_SHOWN lines, then how many more there are and, when ``reader_id`` is an
    entrant further down (``/tournament standings``), the reader's own line."""

    def line_text(line: StandingLine) -> str:
        return t(
            locale,
            "tournament.standing_line",
            rank=line.rank,
            name=entrant_name(line.entrant, locale),
            points=line.points,
            opponents=line.opponents_points,
            played=line.played,
        )

    rows = [line_text(line) for line in lines[:STANDINGS_SHOWN]]
    if len(lines) > STANDINGS_SHOWN:
        rows.append(t(locale, "tournament.standings_more", count=len(lines) - STANDINGS_SHOWN))
        own = next((line for line in lines[STANDINGS_SHOWN:] if reader_id is not None
                    and line.entrant.user_id == reader_id), None)  # fmt: skip
        if own is not None:
            rows.append(line_text(own))
    embed = discord.Embed(
        title=t(locale, "tournament.standings_title", tournament=info.id, round=round_no)
        if round_no
        else t(locale, "tournament.standings_title_none", tournament=info.id),
        description=clip("\n".join(rows) or "-", 4000),
        colour=COLOUR[TableStatus.PLAYING],
    )
    key = "tournament.points_duplicate" if info.format == DUPLICATE else "tournament.points_rules"
    embed.add_field(name=t(locale, "tournament.points_title"), value=t(locale, key), inline=False)
    return embed


def podium_embed(
    info: TournamentInfo, lines: list[StandingLine], tables: list[RoundTable], locale: Any
) -> discord.Embed:
    top = "\n".join(
        f"{MEDALS[index]} {entrant_name(line.entrant, locale)} · {line.points}" for index, line in enumerate(lines[:3])
    )
    embed = discord.Embed(
        title=t(locale, "tournament.podium_title", tournament=info.id, game=game_name(info.game, locale)),
        description=top or "-",
        colour=COLOUR[TableStatus.FINISHED],
    )
    embed.add_field(name=t(locale, "tournament.sheets_title"), value=sheets_value(tables, locale))
    return embed


def sheets_value(tables: list[RoundTable], locale: Any) -> str:
    """Every table's number, or as many as a field's value takes whole and how many more (a long night's list was
    cut in the middle of a number)."""
    numbers = [f"#{table.table_id}" for table in tables]
    separator = t(locale, "tournament.list_separator")
    for shown in range(len(numbers), -1, -1):
        listed = separator.join(numbers[:shown])
        if shown < len(numbers):
            listed += " " + t(locale, "night.list_more", count=len(numbers) - shown)
        value = t(locale, "tournament.sheets", tables=listed.strip())
        if len(value) <= FIELD_MOST:
            return value
    return clip(t(locale, "tournament.sheets", tables=""), FIELD_MOST)


MOST_DEALS_SHOWN = 20  # fields of one embed (Discord allows 25)
EMBED_MOST = 5_900  # characters of one message's embeds: Discord refuses more than 6,000


def comparison_embeds(
    info: TournamentInfo, round_no: int, deals: list[ComparedDeal], locale: Any, deal_no: int | None = None
) -> list[discord.Embed]:
    """A duplicate round's deals side by side (or the one deal ``deal_no`` just played at every table): each seat
    position, what every table's seat bid, took and scored, and its matchpoints against the same seat elsewhere.
    Every deal is shown, over as many embeds (one a message) as Discord's limits need: a round of eighteen
    deals at two tables of four, or seven at two tables of nine, is past 6,000 characters in one."""
    title = (
        t(locale, "tournament.comparison_title", tournament=info.id, round=round_no)
        if deal_no is None
        else t(locale, "tournament.comparison_deal_title", tournament=info.id, round=round_no, deal=deal_no)
    )
    embeds = [
        discord.Embed(
            title=title, description=t(locale, "tournament.comparison_help"), colour=COLOUR[TableStatus.PLAYING]
        )
    ]
    for deal in deals:
        lines = []
        for position, seats in enumerate(deal.seats, start=1):
            cells = [
                t(
                    locale,
                    "tournament.comparison_cell" if seat.bid is not None else "tournament.comparison_cell_nobid",
                    table=seat.table,
                    name=entrant_name(seat.entrant, locale) if seat.entrant else t(locale, "tournament.computer_seat"),
                    bid=seat.bid if seat.bid is not None else 0,
                    tricks=seat.tricks,
                    change=f"{seat.change:+d}",
                    matchpoints=seat.matchpoints,
                )
                for seat in seats
            ]
            lines.extend(seat_lines(position, cells, locale))
        # a deal of many tables over several fields, each of whole lines (a mention cut in half shows broken)
        for part, value in enumerate(packed(lines, FIELD_MOST)):
            key = "tournament.comparison_deal" if part == 0 else "tournament.comparison_deal_more"
            name = t(locale, key, deal=deal.deal)
            embed = embeds[-1]
            if embed.fields and (
                len(embed.fields) >= MOST_DEALS_SHOWN or len(embed) + len(name) + len(value) > EMBED_MOST
            ):
                embed = discord.Embed(title=clip(title, 256), colour=COLOUR[TableStatus.PLAYING])  # continued
                embeds.append(embed)
            embed.add_field(name=name, value=value, inline=False)
    return embeds


FIELD_MOST = 1024  # characters of a field's value


def seat_lines(position: int, cells: list[str], locale: Any) -> list[str]:
    """A seat position's cells at every table, on one line, or on as many as a field's value takes whole (at many
    tables one line is past 1,024 characters), each line naming the seat."""
    out: list[str] = []
    taken: list[str] = []
    for cell in cells:
        longer = t(locale, "tournament.comparison_seat", seat=position, cells=" · ".join([*taken, cell]))
        if taken and len(longer) > FIELD_MOST:
            out.append(t(locale, "tournament.comparison_seat", seat=position, cells=" · ".join(taken)))
            taken = []
        taken.append(cell)
    if taken:
        out.append(t(locale, "tournament.comparison_seat", seat=position, cells=" · ".join(taken)))
    return [clip(line, FIELD_MOST) for line in out]


def packed(lines: list[str], limit: int) -> list[str]:
    """``lines`` gathered into values of at most ``limit`` characters, whole lines each."""
    values: list[str] = []
    for line in lines:
        if values and len(values[-1]) + 1 + len(line) <= limit:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values or ["-"]
