"""The leaderboard, a player's stats, the match history and a stored match's score sheet, as embeds.

Everything here reads finished matches only (the service's leaderboard
queries), which hide nothing: a stored score sheet holds bids, tricks and
points, never a card.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord

from bot.games import presentation_of
from bot.tables import BoardRow, MatchSeat, MatchSheet, MatchSummary, PlayerProfile, RatingPoint, TableStatus
from bot.tables.seasons import PlayerSeason
from bot.words import computer_name, listed

from ..charts import FILENAME, legend, running_totals
from ..i18n import t
from ..tables.render import (
    COLOUR,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    clip,
    game_name,
    pad,
    rating_change,
    shown_name,
    whole_lines,
)

PAGE_SIZE = 10
SPARKS = "▁▂▃▄▅▆▇█"
TREND_SPAN = 5  # "in the last five matches"


def pages_of(total: int) -> int:
    return max(1, -(-total // PAGE_SIZE))


def when(moment: datetime | None, style: str = "d") -> str:
    """A Discord timestamp: each reader sees it in their own language and time zone."""
    return "" if moment is None else f"<t:{int(moment.timestamp())}:{style}>"


def percent(part: float) -> str:
    return f"{round(100 * part)}%"


def person(seat: MatchSeat, locale: Any, *, marked: bool = True) -> str:
    if seat["user_id"] is None:
        return computer_name(seat["seat"] + 1, None, locale)  # a match's record keeps no computer's level
    return shown_name(seat["name"], seat["user_id"], marked=marked)


# ---------------------------------------------------------------------- leaderboard


def board_embed(
    game: str,
    period: str,
    rows: Sequence[BoardRow],
    page: int,
    total: int,
    mine: BoardRow | None,
    viewer: str,
    locale: Any,
    season: str | None = None,
    viewer_id: int | None = None,
) -> discord.Embed:
    """One page of a board; ``mine`` is the viewer's own row wherever they stand (None if not on it). A
    season's board (``season``, its name) is ranked by the season's own rating, as the all-time one."""
    title = (
        t(locale, "board.title", game=game_name(game, locale), period=t(locale, f"period.{period}"))
        if season is None
        else t(locale, "season.title", game=game_name(game, locale), name=season)
    )
    embed = discord.Embed(title=title, colour=COLOUR[TableStatus.FINISHED])
    viewer = shown_name(viewer, viewer_id)  # a name with nothing readable in it: the id
    period = "all" if season is not None else period
    lines = [board_line(row, period, locale) for row in rows]
    embed.description = "\n".join(lines) if lines else t(locale, "board.empty", game=game_name(game, locale))
    if mine is not None:
        embed.add_field(name=t(locale, "board.you", name=viewer), value=board_line(mine, period, locale), inline=False)
    elif total:
        embed.add_field(
            name=t(locale, "board.you", name=viewer),
            value=t(locale, "board.not_on_it", game=game_name(game, locale)),
            inline=False,
        )
    embed.set_footer(text=t(locale, "board.footer", page=page + 1, pages=pages_of(total), players=total))
    return embed


def board_line(row: BoardRow, period: str, locale: Any) -> str:
    medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(row["rank"], f"`#{row['rank']}`")
    name = shown_name(row["name"], row["user_id"])
    if period == "all":
        return t(
            locale,
            "board.line",
            place=medal,
            name=name,
            rating=f"{row['rating']:.1f}",
            matches=row["matches"],
            rate=percent(row["win_rate"]),
        )
    return t(
        locale,
        "board.line_period",
        place=medal,
        name=name,
        gained=f"{row['gained']:+.1f}",
        rating=f"{row['rating']:.1f}",
        matches=row["matches"],
        wins=row["wins"],
    )


# ---------------------------------------------------------------------- stats


def sparkline(values: Sequence[float]) -> str:
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(SPARKS[round((value - low) / span * (len(SPARKS) - 1))] for value in values)


def trend_text(history: Sequence[RatingPoint], start: float, locale: Any) -> str:
    """``▲ +2.1 in the last 5 matches ▁▃▅▇``: the rating's direction, recent first."""
    ratings = [entry["rating"] for entry in history if entry["rating"] is not None]
    if not ratings:
        return t(locale, "stats.unrated")
    if len(ratings) > TREND_SPAN:
        change, key = ratings[-1] - ratings[-TREND_SPAN - 1], "stats.trend_recent"
    else:
        change, key = ratings[-1] - start, "stats.trend_all"
    arrow = "▲" if change > 0.05 else "▼" if change < -0.05 else "▶"
    return f"{arrow} {t(locale, key, change=f'{change:+.1f}', matches=TREND_SPAN)} {sparkline(ratings[-12:])}".rstrip()


def game_stats_text(game: str, profile: PlayerProfile, start: float, locale: Any) -> str:
    lines = [
        t(locale, "stats.rating", rating=f"{profile['rating']:.1f}" if profile["rating"] is not None else "—")
        + " · "
        + trend_text(profile["history"], start, locale),
        t(
            locale,
            "stats.record",
            matches=profile["matches"],
            wins=profile["wins"],
            rate=percent(profile["win_rate"]),
            average=f"{profile['average_score']:.1f}" if profile["average_score"] is not None else "—",
        ),
    ]
    if profile["bids"]:
        key = f"stats.{presentation_of(game).aims}"
        lines.append(
            t(locale, key, made=profile["bids_made"], bids=profile["bids"], rate=percent(profile["bid_rate"] or 0.0))
        )
    best = profile["best_deal"]
    if best is not None:
        lines.append(
            t(locale, "stats.best_deal", points=f"{best['points']:+d}", deal=best["deal"], match=best["match_id"])
        )
    if profile["partners"]:  # only where players sit in sides
        partners = listed(
            (
                t(
                    locale,
                    "stats.partner",
                    name=shown_name(p["name"], p["user_id"]),
                    matches=p["matches"],
                    wins=p["wins"],
                )
                for p in profile["partners"]
            ),
            locale,
        )
        lines.append(t(locale, "stats.partners", partners=partners))
    return clip("\n".join(lines), FIELD_VALUE_MAX)


def stats_embed(
    name: str,
    profiles: dict[str, PlayerProfile],
    recent: Sequence[MatchSummary],
    user_id: int,
    start: float,
    locale: Any,
    seasons: dict[str, list[PlayerSeason]] | None = None,
) -> discord.Embed:
    """A player's stats of each game (with their seasons of it, ``seasons``) and their recent matches."""
    name = shown_name(name, user_id)
    embed = discord.Embed(title=t(locale, "stats.title", name=name), colour=COLOUR[TableStatus.PLAYING])
    if not profiles:
        embed.description = t(locale, "stats.none", name=name)
        return embed
    for game, profile in profiles.items():
        if not profile["matches"]:
            embed.add_field(name=game_name(game, locale), value=t(locale, "stats.no_matches"), inline=False)
            continue
        place = t(locale, "stats.rank", rank=profile["rank"]) if profile["rank"] else ""
        embed.add_field(
            name=f"{game_name(game, locale)} {place}".strip(),
            value=game_stats_text(game, profile, start, locale),
            inline=False,
        )
        if seasons and seasons.get(game):
            lines = [season_line(played, locale) for played in seasons[game]]
            embed.add_field(
                name=t(locale, "stats.seasons", game=game_name(game, locale)),
                value=clip("\n".join(lines), FIELD_VALUE_MAX),
                inline=False,
            )
    if recent:
        lines = [recent_line(match, user_id, locale) for match in recent]
        embed.add_field(name=t(locale, "stats.recent"), value=clip("\n".join(lines), FIELD_VALUE_MAX), inline=False)
    return embed


def season_line(played: PlayerSeason, locale: Any) -> str:
    """``2026-11: #2 · rating 12.3 · 4 matches, 2 won``."""
    return t(
        locale,
        "stats.season_line",
        name=played.season.name,
        rank=played.rank or "-",
        rating=f"{played.rating:.1f}",
        matches=played.matches,
        wins=played.wins,
    )


def recent_line(match: MatchSummary, user_id: int, locale: Any) -> str:
    seat = next(s for s in match["seats"] if s["user_id"] == user_id)
    if match["held"]:  # a duplicate round still played at other tables: no place or points yet
        return t(
            locale,
            "stats.recent_held",
            when=when(match["finished_at"]),
            game=game_name(match["game"], locale),
            players=match["players"],
            match=match["match_id"],
        )
    change = ""
    if seat["rating_before"] is not None and seat["rating_after"] is not None:
        change = f" · {seat['rating_after'] - seat['rating_before']:+.1f}"
    return (
        t(
            locale,
            "stats.recent_line",
            when=when(match["finished_at"]),
            game=game_name(match["game"], locale),
            place=seat["placement"],
            players=match["players"],
            score=seat["score"],
            match=match["match_id"],
        )
        + change
    )


# ---------------------------------------------------------------------- history and score sheets


def history_line(match: MatchSummary, locale: Any) -> str:
    if match["held"]:  # a duplicate round still played at other tables: who played, the scores once it is over
        seats = sorted(match["seats"], key=lambda s: s["seat"])
        names = " · ".join(person(s, locale) for s in seats)
        people = t(locale, "history.held", people=names)
    else:
        seats = sorted(match["seats"], key=lambda s: (s["placement"] or 0, s["seat"]))
        people = " · ".join(f"{'🏆 ' if s['won'] else ''}{person(s, locale)} {s['score']}" for s in seats)
    return t(
        locale,
        "history.line",
        match=match["match_id"],
        when=when(match["finished_at"], "R"),
        game=game_name(match["game"], locale),
        people=people,
    )


def history_embed(
    matches: Sequence[MatchSummary], page: int, total: int, who: str | None, locale: Any, who_id: int | None = None
) -> discord.Embed:
    """A page of the server's history, or of one person's (``who``, their name, and ``who_id``)."""
    title = t(locale, "history.title_of", name=shown_name(who, who_id)) if who else t(locale, "history.title")
    embed = discord.Embed(title=title, colour=COLOUR[TableStatus.FINISHED])
    lines = [history_line(match, locale) for match in matches]
    more = lambda left: t(locale, "history.more", count=left)  # noqa: E731  (whole lines: a name cut is broken)
    embed.description = whole_lines(lines, DESCRIPTION_MAX, more) if lines else t(locale, "history.empty")
    embed.set_footer(text=t(locale, "history.footer", page=page + 1, pages=pages_of(total), matches=total))
    return embed


def match_option(match: MatchSummary, locale: Any) -> discord.SelectOption:
    winners = listed((person(s, locale, marked=False) for s in match["seats"] if s["won"]), locale) or "—"
    return discord.SelectOption(
        label=clip(t(locale, "history.option", match=match["match_id"], game=game_name(match["game"], locale)), 100),
        description=clip(t(locale, "history.option_winners", names=winners), 100),
        value=str(match["match_id"]),
    )


def sheet_table(sheet: MatchSheet, locale: Any) -> str:
    """Every deal's running totals, one row a deal, one column a seat (numbered as in the chart's legend)."""
    seats = len(sheet["seats"])
    lines = running_totals(sheet["sheets"], seats)
    width = max(5, *(len(str(value)) + 1 for line in lines for value in line))
    head = pad(t(locale, "sheet.deal_column"), 5) + "".join(str(seat + 1).rjust(width) for seat in range(seats))
    rows = [f"{deal:>5}" + "".join(str(line[deal]).rjust(width) for line in lines) for deal in range(1, len(lines[0]))]
    budget = DESCRIPTION_MAX - 400
    if sum(len(row) + 1 for row in rows) > budget:  # a very long match: its start and its end
        keep = budget // (len(rows[0]) + 1) // 2
        rows = [*rows[:keep], "…".rjust(5), *rows[-keep:]]
    return "```\n" + "\n".join([head, *rows]) + "\n```"


def match_message(sheet: MatchSheet, chart: bytes | None, locale: Any) -> dict[str, Any]:
    """A stored match in full: deal-by-deal totals, final places with rating changes, and its chart (a PNG; None
    where the bot may not attach files)."""
    seats = sorted(sheet["seats"], key=lambda s: s["seat"])
    embed = discord.Embed(
        title=t(locale, "sheet.match_title", game=game_name(sheet["game"], locale), match=sheet["match_id"]),
        colour=COLOUR[TableStatus.FINISHED],
        timestamp=sheet["finished_at"],
    )
    summary = t(
        locale,
        "sheet.match_summary",
        deals=sheet["deals"],
        minutes=max(1, round((sheet["duration_seconds"] or 0) / 60)),
        when=when(sheet["finished_at"], "f"),
    )
    embed.description = summary + "\n" + sheet_table(sheet, locale)
    embed.add_field(name=t(locale, "sheet.players"), value=legend([person(s, locale) for s in seats]), inline=False)
    embed.add_field(name=t(locale, "table.final"), value=standings(seats, locale), inline=False)
    if chart is None:
        return {"embed": embed}
    embed.set_image(url=f"attachment://{FILENAME}")
    return {"embed": embed, "files": [discord.File(io.BytesIO(chart), filename=FILENAME)]}


def standings(seats: Sequence[MatchSeat], locale: Any) -> str:
    lines = []
    for seat in sorted(seats, key=lambda s: (s["placement"], s["seat"])):
        line = f"{'🏆 ' if seat['won'] else ''}{seat['placement']}. **{person(seat, locale)}** {seat['score']}"
        lines.append(line + rating_change(seat["rating_before"], seat["rating_after"], locale))
    return clip("\n".join(lines), FIELD_VALUE_MAX)
