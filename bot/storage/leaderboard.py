"""Leaderboard and history queries: read-only, indexed, typed rows out (:mod:`.record_rows`)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import Float, and_, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from .record_rows import (
    BestDeal,
    BoardRow,
    MatchSeat,
    MatchSheet,
    MatchSummary,
    Partner,
    PlayerStats,
)
from .repository import GUILDS, MATCH_PLAYERS, MATCHES, RATINGS, name_on


async def top(
    connection: AsyncConnection, guild_id: int, game: str, limit: int = 10, offset: int = 0
) -> list[BoardRow]:
    """The guild's best players of a game by conservative rating (index ix_ratings_guild_id_game_ordinal)."""
    statement = (
        select(RATINGS, name_on(guild_id, RATINGS.c.user_id))
        .where(RATINGS.c.guild_id == guild_id, RATINGS.c.game == game)
        .order_by(RATINGS.c.ordinal.desc(), RATINGS.c.user_id)
        .limit(limit)
        .offset(offset)
    )
    rows = await connection.execute(statement)
    return [
        {
            "rank": offset + index + 1,
            "user_id": row.user_id,
            "name": row.display_name,
            "rating": round(row.ordinal, 2),
            "matches": row.matches,
            "wins": row.wins,
            "win_rate": row.wins / row.matches if row.matches else 0.0,
        }
        for index, row in enumerate(rows)
    ]


async def rank_of(connection: AsyncConnection, guild_id: int, game: str, user_id: int) -> int | None:
    """The player's place on the guild's board (1 best), or None if unrated."""
    mine = (
        await connection.execute(
            select(RATINGS.c.ordinal).where(
                RATINGS.c.guild_id == guild_id, RATINGS.c.game == game, RATINGS.c.user_id == user_id
            )
        )
    ).scalar()
    if mine is None:
        return None
    above = select(func.count()).where(
        RATINGS.c.guild_id == guild_id,
        RATINGS.c.game == game,
        (RATINGS.c.ordinal > mine) | and_(RATINGS.c.ordinal == mine, RATINGS.c.user_id < user_id),
    )
    return int((await connection.execute(above)).scalar_one()) + 1


async def board_size(connection: AsyncConnection, guild_id: int, game: str) -> int:
    statement = select(func.count()).where(RATINGS.c.guild_id == guild_id, RATINGS.c.game == game)
    return int((await connection.execute(statement)).scalar_one())


async def player_stats(
    connection: AsyncConnection, guild_id: int, user_id: int, game: str, leaving_out: Collection[int] = ()
) -> PlayerStats:
    """Matches, wins, win rate, rating and its history, average score, bid accuracy; the matches
    ``leaving_out`` names are not counted (their scores are not to be told yet)."""
    mp = MATCH_PLAYERS
    counted = [mp.c.guild_id == guild_id, mp.c.game == game, mp.c.user_id == user_id]
    if leaving_out:
        counted.append(mp.c.match_id.not_in(list(leaving_out)))
    totals = (
        await connection.execute(
            select(
                func.count().label("matches"),
                func.coalesce(func.sum(case((mp.c.won, 1), else_=0)), 0).label("wins"),
                func.avg(cast(mp.c.score, Float)).label("average"),
                func.coalesce(func.sum(mp.c.bids), 0).label("bids"),
                func.coalesce(func.sum(mp.c.bids_made), 0).label("made"),
                func.max(mp.c.score).label("best"),
            ).where(*counted)
        )
    ).one()
    rating = (
        await connection.execute(
            select(RATINGS).where(RATINGS.c.guild_id == guild_id, RATINGS.c.game == game, RATINGS.c.user_id == user_id)
        )
    ).first()
    history = await connection.execute(
        select(MATCHES.c.id, MATCHES.c.finished_at, mp.c.rating_after, mp.c.placement, mp.c.score)
        .join(MATCHES, MATCHES.c.id == mp.c.match_id)
        .where(*counted)
        .order_by(MATCHES.c.finished_at, MATCHES.c.id)
    )
    matches = int(totals.matches)
    return {
        "user_id": user_id,
        "game": game,
        "matches": matches,
        "wins": int(totals.wins),
        "win_rate": int(totals.wins) / matches if matches else 0.0,
        "average_score": float(totals.average) if totals.average is not None else None,
        "best_score": totals.best,
        "bids": int(totals.bids),
        "bids_made": int(totals.made),
        "bid_rate": int(totals.made) / int(totals.bids) if totals.bids else None,
        "rating": round(rating.ordinal, 2) if rating else None,
        "rank": await rank_of(connection, guild_id, game, user_id),
        "history": [
            {
                "match_id": row.id,
                "finished_at": row.finished_at,
                "rating": None if row.rating_after is None else round(row.rating_after, 2),
                "placement": row.placement,
                "score": row.score,
            }
            for row in history
        ],
    }


def _matches_of(statement: Any, guild_id: int, user_id: int | None, game: str | None) -> Any:
    statement = statement.where(MATCHES.c.guild_id == guild_id)
    if user_id is not None:
        mine = select(MATCH_PLAYERS.c.match_id).where(MATCH_PLAYERS.c.user_id == user_id)
        statement = statement.where(MATCHES.c.id.in_(mine))
    if game is not None:
        statement = statement.where(MATCHES.c.game == game)
    return statement


async def match_count(
    connection: AsyncConnection, guild_id: int, user_id: int | None = None, game: str | None = None
) -> int:
    statement = _matches_of(select(func.count()).select_from(MATCHES), guild_id, user_id, game)
    return int((await connection.execute(statement)).scalar_one())


async def recent_matches(
    connection: AsyncConnection,
    guild_id: int,
    limit: int = 10,
    user_id: int | None = None,
    game: str | None = None,
    offset: int = 0,
) -> list[MatchSummary]:
    """The guild's latest matches (or one player's), newest first, with every seat's result."""
    statement = _matches_of(select(MATCHES), guild_id, user_id, game)
    ordered = statement.order_by(MATCHES.c.finished_at.desc(), MATCHES.c.id.desc()).limit(limit).offset(offset)
    matches = list(await connection.execute(ordered))
    seats = await _seats_of(connection, [m.id for m in matches])
    return [
        {
            "match_id": m.id,
            "game": m.game,
            "players": m.players,
            "deals": m.deals,
            "finished_at": m.finished_at,
            "duration_seconds": m.duration_seconds,
            "seats": seats.get(m.id, []),
            "table_id": m.table_id,
            "held": False,
        }
        for m in matches
    ]


async def _seats_of(connection: AsyncConnection, match_ids: list[int]) -> dict[int, list[MatchSeat]]:
    if not match_ids:
        return {}
    statement = (
        select(MATCH_PLAYERS, name_on(MATCH_PLAYERS.c.guild_id, MATCH_PLAYERS.c.user_id))
        .where(MATCH_PLAYERS.c.match_id.in_(match_ids))
        .order_by(MATCH_PLAYERS.c.match_id, MATCH_PLAYERS.c.seat)
    )
    out: dict[int, list[MatchSeat]] = {}
    for row in await connection.execute(statement):
        out.setdefault(row.match_id, []).append(
            {
                "seat": row.seat,
                "user_id": row.user_id,
                "name": row.display_name,
                "side": row.side,
                "score": row.score,
                "placement": row.placement,
                "won": row.won,
                "resigned": row.resigned,
                "rating_before": row.rating_before,
                "rating_after": row.rating_after,
            }
        )
    return out


async def match_of_table(connection: AsyncConnection, table_id: int) -> int | None:
    """The match a finished table produced, if any (an abandoned table has none)."""
    match_id = await connection.scalar(select(MATCHES.c.id).where(MATCHES.c.table_id == table_id))
    return None if match_id is None else int(match_id)


async def table_of_match(connection: AsyncConnection, match_id: int) -> int | None:
    """The table a match was played at."""
    table_id = await connection.scalar(select(MATCHES.c.table_id).where(MATCHES.c.id == match_id))
    return None if table_id is None else int(table_id)


async def score_sheet(connection: AsyncConnection, match_id: int) -> MatchSheet | None:
    """One match in full: its seats, final scores and every deal's score sheet."""
    match = (await connection.execute(select(MATCHES).where(MATCHES.c.id == match_id))).first()
    if match is None:
        return None
    return {
        "match_id": match.id,
        "guild_id": match.guild_id,
        "game": match.game,
        "options": match.options,
        "players": match.players,
        "deals": match.deals,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "duration_seconds": match.duration_seconds,
        "seats": (await _seats_of(connection, [match.id])).get(match.id, []),
        "scores": match.result.get("scores"),
        "winners": match.result.get("winners"),
        "sheets": match.result.get("sheets", []),
    }


async def period_board(connection: AsyncConnection, guild_id: int, game: str, since: datetime) -> list[BoardRow]:
    """Everyone who played a rated match of a game since ``since``, best first by rating gained in that time.

    A period's board is the players active in it, so it is small; it is read
    whole and paged by the caller.
    """
    mp = MATCH_PLAYERS
    gained = func.sum(mp.c.rating_after - mp.c.rating_before)
    statement = (
        select(
            mp.c.user_id,
            name_on(guild_id, mp.c.user_id),
            func.count().label("matches"),
            func.coalesce(func.sum(case((mp.c.won, 1), else_=0)), 0).label("wins"),
            gained.label("gained"),
            RATINGS.c.ordinal,
        )
        .join(MATCHES, MATCHES.c.id == mp.c.match_id)
        .join(
            RATINGS,
            and_(RATINGS.c.guild_id == mp.c.guild_id, RATINGS.c.game == mp.c.game, RATINGS.c.user_id == mp.c.user_id),
        )
        .where(
            mp.c.guild_id == guild_id,
            mp.c.game == game,
            mp.c.rating_after.is_not(None),
            MATCHES.c.finished_at >= since,
        )
        .group_by(mp.c.user_id, RATINGS.c.ordinal)
        .order_by(gained.desc(), RATINGS.c.ordinal.desc(), mp.c.user_id)
    )
    return [
        {
            "rank": index + 1,
            "user_id": row.user_id,
            "name": row.display_name,
            "rating": round(row.ordinal, 2),
            "gained": round(float(row.gained or 0.0), 2),
            "matches": int(row.matches),
            "wins": int(row.wins),
            "win_rate": int(row.wins) / int(row.matches),
        }
        for index, row in enumerate(await connection.execute(statement))
    ]


def deal_points(row: dict[str, Any]) -> int:
    """What one deal's score sheet row did to its seat's total: ``change``, a column every game's sheet
    has (see ``bot.games.views.SheetRow``); matches stored before it was common said ``points``."""
    return int(row["change"] if "change" in row else row["points"])


async def best_deal(
    connection: AsyncConnection, guild_id: int, user_id: int, game: str, leaving_out: Collection[int] = ()
) -> BestDeal | None:
    """The player's highest-scoring deal in a game (of the matches but those ``leaving_out`` names): its
    points, the deal and the match it was in."""
    mp = MATCH_PLAYERS
    statement = (
        select(MATCHES.c.id, MATCHES.c.result, mp.c.seat)
        .join(MATCHES, MATCHES.c.id == mp.c.match_id)
        .where(mp.c.guild_id == guild_id, mp.c.game == game, mp.c.user_id == user_id)
    )
    if leaving_out:
        statement = statement.where(mp.c.match_id.not_in(list(leaving_out)))
    rows = await connection.execute(statement)
    best: BestDeal | None = None
    for match_id, result, seat in rows:
        for number, sheet in enumerate(result.get("sheets", []), start=1):
            for row in sheet.get("rows", ()):
                if row.get("seat") == seat and (best is None or deal_points(row) > best["points"]):
                    best = {"points": deal_points(row), "deal": number, "match_id": match_id}
    return best


async def partners(
    connection: AsyncConnection, guild_id: int, user_id: int, game: str, leaving_out: Collection[int] = ()
) -> list[Partner]:
    """The people a player has been on a side with most (Five Hundred partnerships), with wins together (of the
    matches but those ``leaving_out`` names)."""
    mine, theirs = MATCH_PLAYERS.alias("mine"), MATCH_PLAYERS.alias("theirs")
    together = func.count().label("matches")
    statement = (
        select(
            theirs.c.user_id,
            name_on(guild_id, theirs.c.user_id),
            together,
            func.sum(case((mine.c.won, 1), else_=0)).label("wins"),
        )
        .join(theirs, and_(theirs.c.match_id == mine.c.match_id, theirs.c.side == mine.c.side))
        .where(
            mine.c.guild_id == guild_id,
            mine.c.game == game,
            mine.c.user_id == user_id,
            theirs.c.seat != mine.c.seat,
            theirs.c.user_id.is_not(None),  # people only: a computer partner is nobody's favourite
            *([mine.c.match_id.not_in(list(leaving_out))] if leaving_out else []),
        )
        .group_by(theirs.c.user_id)
        .order_by(together.desc(), theirs.c.user_id)
        .limit(3)
    )
    return [
        {"user_id": row.user_id, "name": row.display_name, "matches": int(row.matches), "wins": int(row.wins)}
        for row in await connection.execute(statement)
    ]


async def games_played(connection: AsyncConnection, guild_id: int, user_id: int) -> list[str]:
    """The games a player has finished a match of here, most played first."""
    mp = MATCH_PLAYERS
    statement = (
        select(mp.c.game)
        .where(mp.c.guild_id == guild_id, mp.c.user_id == user_id)
        .group_by(mp.c.game)
        .order_by(func.count().desc(), mp.c.game)
    )
    return [str(game) for game in (await connection.execute(statement)).scalars()]


async def guild_languages(connection: AsyncConnection) -> dict[int, str]:
    """Every server that chose a language for its public messages."""
    rows = await connection.execute(select(GUILDS.c.id, GUILDS.c.language).where(GUILDS.c.language.is_not(None)))
    return {int(guild): str(language) for guild, language in rows}
