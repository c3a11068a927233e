"""The leaderboard: top players, ranks, a player's stats, recent matches and score sheets."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from bot.storage import leaderboard as board
from bot.storage.database import Database
from bot.tables import TableService
from bot.tables.standings import SkillRating

from .helpers import LOBBY_MESSAGE, play_to_end, relax_limits

LINEUPS = [(100, 101, 102, 103), (100, 101, 104, 105), (102, 103, 104, 105), (100, 102, 104, 106)]


async def _play_matches(service: TableService) -> list[int]:
    await relax_limits(service, 1)
    match_ids = []
    for number, lineup in enumerate(LINEUPS):
        info = await service.open_table(1, 600 + number, lineup[0], f"P{lineup[0]}", "just-make", {"target": 4})
        for user in lineup[1:]:
            info = await service.join(info.id, user, f"P{user}")
        outcome = await service.start(info.id, lineup[0], message_id=LOBBY_MESSAGE)
        final = (await play_to_end(service, outcome.table, seed=number))[-1]
        match_ids.append(next(e for e in final.events if e["kind"] == "match_over")["match_id"])
    return match_ids


async def test_top_ranks_and_stats_agree_with_the_matches(service: TableService) -> None:
    match_ids = await _play_matches(service)
    board = await service.leaderboard(1, "just-make", limit=50)
    assert len(board) == 7 == await service.leaderboard_size(1, "just-make")
    assert [row["rank"] for row in board] == list(range(1, 8))
    assert [row["rating"] for row in board] == sorted((row["rating"] for row in board), reverse=True)
    page = await service.leaderboard(1, "just-make", limit=3, offset=3)
    assert [row["user_id"] for row in page] == [row["user_id"] for row in board[3:6]]
    for row in board:
        assert await service.rank_of(1, "just-make", row["user_id"]) == row["rank"]
    assert await service.rank_of(1, "just-make", 999) is None
    assert await service.leaderboard(2, "just-make") == []  # per guild
    assert await service.leaderboard(1, "ninety-nine") == []  # per game

    sheets = [await service.score_sheet(match_id) for match_id in match_ids]
    for user in (100, 104):
        stats = await service.player_stats(1, user, "just-make")
        mine = [s for s in sheets if s is not None and any(seat["user_id"] == user for seat in s["seats"])]
        assert stats["matches"] == len(mine) == len(stats["history"])
        seats = [next(seat for seat in s["seats"] if seat["user_id"] == user) for s in mine]
        assert stats["wins"] == sum(seat["won"] for seat in seats)
        assert stats["average_score"] == sum(seat["score"] for seat in seats) / len(seats)
        rows = [
            row
            for s, seat in zip(mine, seats, strict=True)
            for sheet in s["sheets"]
            for row in sheet["rows"]
            if row["seat"] == seat["seat"]
        ]
        assert stats["bids"] == len(rows) and stats["bids_made"] == sum(row["made"] for row in rows)
        assert stats["history"][-1]["rating"] == stats["rating"]
        assert stats["rank"] == next(row["rank"] for row in board if row["user_id"] == user)


async def test_recent_matches_and_a_full_score_sheet(service: TableService) -> None:
    match_ids = await _play_matches(service)
    recent = await service.recent_matches(1, limit=3)
    assert [m["match_id"] for m in recent] == match_ids[::-1][:3]
    assert [m["match_id"] for m in await service.recent_matches(1, user_id=106)] == [match_ids[3]]
    sheet = await service.score_sheet(match_ids[0])
    assert sheet is not None
    assert [s["deal"] for s in sheet["sheets"]] == list(range(1, sheet["deals"] + 1))
    assert [seat["score"] for seat in sheet["seats"]] == sheet["scores"]["total"]
    assert [row["total"] for row in sheet["sheets"][-1]["rows"]] == sheet["scores"]["total"]
    assert await service.score_sheet(12345) is None


async def test_the_top_of_a_big_board_reads_the_index(database: Database, service: TableService) -> None:
    if database.backend != "sqlite":
        pytest.skip("the plan check reads SQLite's EXPLAIN QUERY PLAN")
    now = datetime.now(UTC).isoformat()
    async with database.engine.begin() as connection:
        await connection.exec_driver_sql(
            "INSERT INTO guilds (id, turn_seconds, grace_seconds, thread_per_table, "
            f"default_options, created_at) VALUES (1, 300, 120, 1, '{{}}', '{now}')"
        )
        players = [{"id": n, "name": f"p{n}", "at": now} for n in range(5000)]
        await connection.execute(text("INSERT INTO players VALUES (:id, :name, :at)"), players)
        ratings = [
            {"user": n, "game": game, "mu": 25.0, "sigma": 8.0, "ordinal": (n * 7919) % 1000 / 10}
            for n in range(5000)
            for game in ("ninety-nine", "just-make")
        ]
        await connection.execute(
            text(f"INSERT INTO ratings VALUES (1, :game, :user, :mu, :sigma, :ordinal, 3, 1, '{now}')"), ratings
        )
        await connection.exec_driver_sql("ANALYZE")
        plan = " ".join(
            str(row[-1])
            for row in await connection.exec_driver_sql(
                "EXPLAIN QUERY PLAN SELECT * FROM ratings WHERE guild_id = 1 AND game = 'just-make' "
                "ORDER BY ordinal DESC LIMIT 10"
            )
        )
    assert "ix_ratings_guild_id_game_ordinal" in plan and "TEMP B-TREE" not in plan
    board = await service.leaderboard(1, "just-make", limit=10)
    assert [row["rating"] for row in board] == sorted((row["rating"] for row in board), reverse=True)
    assert board[0]["rating"] == max(r["ordinal"] for r in ratings)


async def test_a_period_board_ranks_what_was_gained_in_it(service: TableService) -> None:
    await _play_matches(service)
    week = await service.period_board(1, "just-make", datetime(2000, 1, 1, tzinfo=UTC))
    assert sorted(row["user_id"] for row in week) == list(range(100, 107))
    assert [row["gained"] for row in week] == sorted((row["gained"] for row in week), reverse=True)
    for row in week:
        stats = await service.player_stats(1, row["user_id"], "just-make")
        assert row["matches"] == stats["matches"] and row["wins"] == stats["wins"]
        assert row["rating"] == stats["rating"]
        # since the first match, what a player gained is their rating less the unrated start
        assert row["gained"] == pytest.approx(stats["rating"] - SkillRating.initial().ordinal, abs=0.05)
    assert await service.period_board(1, "just-make", datetime(2999, 1, 1, tzinfo=UTC)) == []


async def test_profile_best_deal_partners_and_games(service: TableService) -> None:
    match_ids = await _play_matches(service)
    profile = await service.player_profile(1, 100, "just-make")
    sheets = [await service.score_sheet(match_id) for match_id in match_ids]
    best = max(
        (row.get("change", row.get("points")), number)
        for s in sheets
        if s is not None
        for seat in s["seats"]
        if seat["user_id"] == 100
        for number, sheet in enumerate(s["sheets"], start=1)
        for row in sheet["rows"]
        if row["seat"] == seat["seat"]
    )
    assert profile["best_deal"]["points"] == best[0]
    assert profile["partners"] == []  # Just Make is every player for themselves
    assert await service.games_played(1, 100) == ["just-make"]
    assert await service.games_played(1, 999) == []
    assert await service.match_count(1) == 4 and await service.match_count(1, user_id=106) == 1
    assert [m["match_id"] for m in await service.recent_matches(1, limit=2, offset=2)] == match_ids[1::-1]

    # Five Hundred for four: seats 0 and 2 against 1 and 3
    await relax_limits(service, 1)
    info = await service.open_table(1, 700, 100, "P100", "five-hundred", {})
    for user in (101, 102, 103):
        info = await service.join(info.id, user, f"P{user}")
    outcome = await service.start(info.id, 100, message_id=LOBBY_MESSAGE)
    await play_to_end(service, outcome.table, seed=3)
    partners = (await service.player_profile(1, 100, "five-hundred"))["partners"]
    assert [(p["user_id"], p["matches"]) for p in partners] == [(102, 1)]
    async with service.db.engine.connect() as connection:  # a match held back (a duplicate round going on)
        played = (await service.table_result(outcome.table.id) or {"match_id": 0})["match_id"]
        assert await board.partners(connection, 1, 100, "five-hundred", {played}) == []
    # with a computer beside them: the computer is nobody's favourite partner (it was one, named "None")
    info = await service.open_table(1, 701, 100, "P100", "five-hundred", {})
    for user in (101, 102):
        info = await service.join(info.id, user, f"P{user}")
    info = await service.add_computer(info.id, 100, "easy")
    outcome = await service.start(info.id, 100, message_id=LOBBY_MESSAGE)
    await play_to_end(service, outcome.table, seed=3)
    seats = {seat.index: seat.user_id for seat in (await service.table(outcome.table.id)).seats}
    partner = seats[(next(i for i, u in seats.items() if u is None) + 2) % 4]  # the computer's partner: a person
    assert partner is not None
    for user in (100, 101, 102):
        profile = await service.player_profile(1, user, "five-hundred")
        assert all(p["user_id"] is not None for p in profile["partners"]), (user, profile["partners"])
    assert await service.guild_languages() == {}
    await service.update_guild_settings(1, language="ja")
    assert await service.guild_languages() == {1: "ja"}
