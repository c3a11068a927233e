"""The public messages: the lobby and the table, rendered from TableInfo and ``view(None)`` only.

Nothing here sees a hand that is hidden: the public view is all it is given,
so the channel cannot leak a card by construction.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import discord

from bot.games import GAMES, presentation_of
from bot.games.shown import Text
from bot.games.views import DealSheet, Played, View
from bot.tables import MatchSheet, TableInfo, TableStatus, TrickReview, final_standings, readable_name
from bot.tables.deal_ends import last_trick_shown
from bot.words import card_label, cell_text, computer_name, listed, option_text, rating_text, said_cards
from bot.words import said as said_words

from ..charts import FILENAME, legend
from ..i18n import as_typed, duration, t
from ..picture import FILENAME as PICTURE
from ..picture import distinct

# Discord's embed limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FIELDS_MAX = 25
EMBED_TOTAL_MAX = 6000
NAME_MAX = 20  # display names are cut to this in tables, so nine players always fit
SHEET_NAME = 12  # columns of a name in a score sheet, so its lines fit a phone

COLOUR = {
    TableStatus.LOBBY: 0x5865F2,
    TableStatus.PLAYING: 0x2D7D46,
    TableStatus.FINISHED: 0xC9A227,
    TableStatus.ABANDONED: 0x80848E,
}


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def whole_lines(lines: list[str], limit: int, more: Callable[[int], str]) -> str:
    """``lines``, one a line, within ``limit`` characters: all of them when they fit, else as many as fit whole
    (a mention cut in the middle shows as broken text) followed by ``more(the number left out)``."""
    every = "\n".join(lines)
    if len(every) <= limit:
        return every
    shown, used = 0, 0
    for line in lines:
        longer = used + len(line) + (1 if shown else 0)
        # The closing line shrinks as more are shown (fewer left out), so each step checks it afresh.
        if longer + 1 + len(more(len(lines) - shown - 1)) > limit:
            break
        shown, used = shown + 1, longer
    return "\n".join([*lines[:shown], more(len(lines) - shown)])


def game_name(game: str, locale: Any) -> str:
    return t(locale, f"game.{game}")


def shown_width(text: str) -> int:
    """Columns a monospace font gives ``text``: a wide character (CJK, most emoji) takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    """Left-justify by what a monospace font shows."""
    return text + " " * max(0, width - shown_width(text))


def seat_names(table: TableInfo, locale: Any, *, marked: bool = True) -> dict[int, str]:
    """Every seat's display name: a person's (cut short, and told apart from the others where two are
    cut alike or the same), a computer's (``🤖 Strong 2``). ``marked`` (the default: the names go into a
    message's text, which Discord reads as markdown) escapes each person's name, so that it reads as it
    is: a name of ``*`` or ``_`` is not made italic, a ``[name](link)`` is not a link, ``<@id>`` is no
    mention. Unmarked, for a picture, a code block or a button's label, where nothing is read as marks."""
    people = [info for info in table.seats if not info.computer]
    shown = _apart(tuple(readable_name(info.name or "") or str(info.user_id) for info in people))
    if marked:
        shown = tuple(as_typed(name) for name in shown)
    names = {info.index: name for info, name in zip(people, shown, strict=True)}
    for info in table.seats:
        if info.computer:
            names[info.index] = computer_name(info.index + 1, info.level, locale)
    return names


@lru_cache(maxsize=1024)
def _apart(names: tuple[str, ...]) -> tuple[str, ...]:
    """People's names cut to ``NAME_MAX`` and told apart (asked for at every mention of a seat: kept)."""
    return tuple(distinct(list(names), lambda _, name: len(name) <= NAME_MAX))


def shown_name(name: str | None, user_id: int | None, *, marked: bool = True) -> str:
    """A person's stored or Discord name as a record shows it: readable (:func:`bot.tables.readable_name`),
    else the person's id, cut to ``NAME_MAX``, and ``marked`` as in :func:`seat_names`."""
    plain = clip(readable_name(name or "") or str(user_id), NAME_MAX)
    return as_typed(plain) if marked else plain


def seat_name(table: TableInfo, seat: int, locale: Any, *, marked: bool = True) -> str:
    """A seat's display name (see :func:`seat_names`), or the Ninety-Nine dummy."""
    return seat_names(table, locale, marked=marked).get(seat) or t(locale, "seat.dummy")


def mention(table: TableInfo, seat: int) -> str | None:
    for info in table.seats:
        if info.index == seat and info.user_id is not None:
            return f"<@{info.user_id}>"
    return None


def all_options(table: TableInfo) -> dict[str, Any]:
    """The table's options with the rules' defaults filled in, so everything in play is shown: those that
    change a game of its player count (Five Hundred's six-player sides only at six) and beside its other
    options (Ninety-Nine's target only when played to a target)."""
    count = table.players or (len(table.seats) if table.status != TableStatus.LOBBY else None)
    return GAMES[table.game].options_that_count(count, table.options)


def options_block(table: TableInfo, locale: Any) -> str:
    return "\n".join(option_text(table.game, name, value, locale) for name, value in all_options(table).items())


def _fit(embed: discord.Embed) -> discord.Embed:
    """Drop trailing fields until the embed is within Discord's total size."""
    while len(embed) > EMBED_TOTAL_MAX and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    return embed


# ---------------------------------------------------------------------- lobby


def lobby_embed(table: TableInfo, locale: Any) -> discord.Embed:
    info = GAMES[table.game]
    wanted = str(table.players) if table.players else f"{min(info.players)}–{max(info.players)}"
    description = t(locale, "lobby.description", host=f"<@{table.host_id}>", players=wanted)
    embed = discord.Embed(
        title=clip(t(locale, "lobby.title", game=game_name(table.game, locale), table=table.id), TITLE_MAX),
        description="\n".join([description, length_line(table, locale), hints_line(table, locale)]),
        colour=COLOUR[TableStatus.LOBBY],
    )
    seated = "\n".join(
        f"{index + 1}. " + (seat_name(table, seat.index, locale) if seat.computer else f"<@{seat.user_id}>")
        for index, seat in enumerate(table.seats)
    )
    embed.add_field(
        name=t(locale, "lobby.seated", count=len(table.seats)),
        value=clip(seated or t(locale, "lobby.nobody"), FIELD_VALUE_MAX),
        inline=False,
    )
    embed.add_field(name=t(locale, "lobby.options"), value=clip(options_block(table, locale), FIELD_VALUE_MAX))
    if table.turn_seconds:
        turn, grace = duration(table.turn_seconds, locale), duration(table.grace_seconds, locale)
        embed.set_footer(text=t(locale, "lobby.timer", turn=turn, grace=grace))
    return embed


def length_line(table: TableInfo, locale: Any) -> str:
    """``⏱ About 25 min to play (about 9 deals)``: how long the match is expected to take, said up front."""
    info = GAMES[table.game]
    count = table.players or (len(table.seats) if len(table.seats) in info.players else info.default_players)
    length = info.expected_length(count, table.options)
    time = duration(length.minutes(count) * 60, locale)  # said as every length of time is: 25 min, 1 h, 1 h 10 min
    return t(locale, "lobby.length", time=time, deals=max(1, round(length.deals)))


def hints_line(table: TableInfo, locale: Any) -> str:
    """Whether the players get hints, and so whether the match counts for the leaderboard."""
    return t(locale, "lobby.hints_on") if table.hints else t(locale, "lobby.hints_off")


def closed_lobby_embed(table: TableInfo, locale: Any) -> discord.Embed:
    return discord.Embed(
        title=clip(t(locale, "lobby.title", game=game_name(table.game, locale), table=table.id), TITLE_MAX),
        description=t(locale, "table.abandoned"),
        colour=COLOUR[TableStatus.ABANDONED],
    )


# ---------------------------------------------------------------------- the table


def trick_text(table: TableInfo, cards: list[Played], locale: Any, *, marked: bool = True) -> str:
    return " → ".join(
        f"{seat_name(table, c['seat'], locale, marked=marked)} {card_label(c['card'], locale)}" for c in cards
    )


def turn_clock(table: TableInfo, locale: Any) -> str | None:
    """``⏰ Time to act runs out in 5 minutes``: Discord's relative timestamp, which each reader's client
    counts down in their own language, so the table needs no edit to keep it true."""
    if table.status != TableStatus.PLAYING or not table.to_act or table.turn_ends is None:
        return None
    return t(locale, "table.turn_clock", when=f"<t:{int(table.turn_ends.timestamp())}:R>")


def turn_line(table: TableInfo, public: View, locale: Any) -> str | None:
    """Who is to act, mentioned (the content of the table message, so it is highlighted)."""
    if table.status != TableStatus.PLAYING or not table.to_act:
        return None
    names = []
    for seat in table.to_act:
        names.append(mention(table, seat) or seat_name(table, seat, locale))
    phase = public["phase"]
    return t(locale, f"turn.{phase}", who=listed(names, locale)) if phase else None


def said(table: TableInfo | None, text: Text, locale: Any, *, marked: bool = True) -> str:
    """A game's words (:mod:`bot.games.shown`) in the reader's language: a seat by its player's name,
    cards and suits as people read them (the shared words of :mod:`bot.words`); names ``marked`` as in
    :func:`seat_names`."""
    if table is None:
        return said_words(text, locale)
    return said_words(text, locale, lambda seat: seat_name(table, seat, locale, marked=marked))


def _header(table: TableInfo, public: View, locale: Any) -> list[str]:
    shown = presentation_of(table.game)
    return [" ".join(said(table, text, locale) for text in line) for line in shown.header(public)]


def _seat_rows(table: TableInfo, public: View, locale: Any) -> list[str]:
    rows = []
    for row in presentation_of(table.game).seat_rows(public):
        name = ("▶ " if row.acting else "") + f"**{seat_name(table, row.seat, locale)}**"
        rows.append(" · ".join([name, *(said(table, part, locale) for part in row.parts)]))
    return rows


def _revealed(table: TableInfo, public: View, locale: Any) -> list[tuple[str, str]]:
    """Hands and cards face up by rule, as the game describes them."""
    return [
        (said(table, shown.title, locale), said_cards(shown.cards, locale))
        for shown in presentation_of(table.game).face_up(public)
    ]


def sheet_text(table: TableInfo, sheet: DealSheet, locale: Any) -> str:
    """A deal's score sheet as a small fixed-width table that fits a phone (names cut to ten columns,
    no line much over 36), then each bonus or penalty with its cause, in words."""
    described = presentation_of(table.game).sheet(sheet)
    if not described.rows:  # a hand thrown in: its title says all there is
        return "—"
    seats = [seat for seat, _ in described.rows]
    # in a code block nothing is read as marks, but three backticks would end it: a name's backticks are primes
    plain = [seat_name(table, seat, locale, marked=False).replace("`", "ʹ") for seat in seats]
    cut = distinct(plain, lambda _, name: shown_width(name) <= SHEET_NAME)
    names = dict(zip(seats, cut, strict=True))
    width = max(shown_width(name) for name in names.values())
    lines = [t(locale, described.head, name=" " * width)]
    for seat, cells in described.rows:
        lines.append(" ".join([pad(names[seat], width), *map(cell_text, cells)]))
    text = "```\n" + "\n".join(lines) + "\n```"
    if described.notes:
        text += "\n" + "\n".join(said(table, note, locale) for note in described.notes)
    return text


def sheet_title(table: TableInfo, sheet: DealSheet, locale: Any) -> str:
    return said(table, presentation_of(table.game).sheet(sheet).title, locale)


def table_embed(
    table: TableInfo,
    public: View,
    locale: Any,
    result: MatchSheet | None = None,
    *,
    picture: bool = False,
    chart: bool = True,
    deal_end: TrickReview | None = None,
) -> discord.Embed:
    """The public table: everything ``view(None)`` shows, as one embed (a match over with its chart below, but
    without ``chart``: the bot may not attach it). With ``picture`` the table's
    picture is its image, and what the picture alone shows well (the last trick, hands face up) is
    left out of the text, which keeps the rest for screen readers and notifications. ``deal_end``: the last
    trick of the deal just scored (the service's ``deal_end``), shown as the last trick until the new deal's first
    card (its last card is in no view)."""
    status = table.status
    embed = discord.Embed(
        title=clip(t(locale, "table.title", game=game_name(table.game, locale), table=table.id), TITLE_MAX),
        colour=COLOUR.get(status, COLOUR[TableStatus.PLAYING]),
    )
    lines = _header(table, public, locale)
    clock = turn_clock(table, locale)
    if clock:
        lines.append(clock)
    if table.hints:
        lines.append(t(locale, "table.hints_on"))
    lines.append("")
    lines.extend(_seat_rows(table, public, locale))
    if status == TableStatus.ABANDONED:
        lines.insert(0, t(locale, "table.abandoned"))
    embed.description = clip("\n".join(lines), DESCRIPTION_MAX)
    if public["trick"]:
        embed.add_field(
            name=t(locale, "table.trick"),
            value=clip(trick_text(table, public["trick"], locale), FIELD_VALUE_MAX),
            inline=False,
        )
    last = last_trick_shown(public, deal_end)
    if last is not None and not picture:
        text = trick_text(table, last["cards"], locale)
        if last["winner"] is not None:
            text += "\n" + t(locale, "table.won_by", name=seat_name(table, last["winner"], locale))
        embed.add_field(name=t(locale, "table.last_trick"), value=clip(text, FIELD_VALUE_MAX), inline=False)
    for name, value in [] if picture else _revealed(table, public, locale):
        embed.add_field(name=clip(name, FIELD_NAME_MAX), value=clip(value, FIELD_VALUE_MAX), inline=True)
    sheet = public["last_deal"]
    if sheet:
        embed.add_field(
            name=clip(sheet_title(table, sheet, locale), FIELD_NAME_MAX),
            value=clip(sheet_text(table, sheet, locale), FIELD_VALUE_MAX),
            inline=False,
        )
    if status == TableStatus.FINISHED:
        embed.add_field(
            name=t(locale, "table.final"),
            value=clip(standings_text(table, public, result, locale), FIELD_VALUE_MAX),
            inline=False,
        )
        if chart and result is not None and result.get("sheets"):  # the chart of running totals is attached below
            names = [seat_name(table, seat, locale) for seat in range(len(result["seats"]))]
            embed.add_field(name=t(locale, "table.chart"), value=clip(legend(names), FIELD_VALUE_MAX), inline=False)
            embed.set_image(url=f"attachment://{FILENAME}")
    if picture:
        embed.set_image(url=f"attachment://{PICTURE}")
    embed.set_footer(
        text=t(locale, "table.footer", table=table.id, move=table.actions, options=_options_short(table, locale))
    )
    return _fit(embed)


def _options_short(table: TableInfo, locale: Any) -> str:
    """The options this table plays that differ from the rules' defaults (the lobby lists them all)."""
    defaults = {spec.name: spec.default for spec in GAMES[table.game].options}
    changed = [option_text(table.game, k, v, locale) for k, v in all_options(table).items() if v != defaults.get(k)]
    return clip(" · ".join(changed) or t(locale, "table.rules_options"), 1500)


def rating_change(before: float | None, after: float | None, locale: Any) -> str:
    """`` · rating 24.1 → 26.3 (+2.2)`` for a rated seat, nothing for a computer."""
    shown = rating_text(before, after, locale)
    return " · " + shown if shown else ""


def standings_text(table: TableInfo, public: View, result: MatchSheet | None, locale: Any) -> str:
    """Final places, scores and, once the match is stored, each person's rating change."""
    lines = []
    for row in final_standings(public, result, table.resigned):
        name = seat_name(table, row.seat, locale)
        line = f"{'🏆 ' if row.winner else ''}{row.place or '-'}. **{name}** {row.score}"
        line += rating_change(row.rating_before, row.rating_after, locale)
        lines.append(line)
    if table.hints:
        lines.append(t(locale, "table.hints_unrated"))
    return "\n".join(lines)
