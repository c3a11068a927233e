"""Finished tournaments as /history and /stats show them, in English and Japanese."""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from bot.tables.tournament_records import TournamentResult, TournamentTotals
from cogs.i18n import t
from cogs.records.tournament_lines import add_totals, add_tournaments, tournament_line

ENDED = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)


def result(**changes: object) -> TournamentResult:
    values: dict[str, object] = {
        "id": 3,
        "game": "oh-hell",
        "format": "swiss",
        "finished_at": ENDED,
        "guild_id": 10,
        "channel_id": 20,
        "podium_message_id": 30,
        "message_id": 40,
        "entrants": 10,
        "winners": (555,),
        "place": 2,
    }
    return TournamentResult(**{**values, **changes})  # type: ignore[arg-type]


def test_a_players_tournament_shows_its_place_and_links_its_podium() -> None:
    english = tournament_line(result(), "en-US")
    assert "Tournament 3" in english and "Oh Hell" in english and "Swiss" in english
    assert "place 2 of 10" in english and f"<t:{int(ENDED.timestamp())}:d>" in english
    assert "[podium](https://discord.com/channels/10/20/30)" in english
    japanese = tournament_line(result(format="duplicate"), "ja")
    assert "トーナメント3" in japanese and "10人中2位" in japanese and "[表彰台](" in japanese
    assert "Swiss" not in japanese and "Place" not in japanese


def test_the_servers_history_shows_the_winners_and_a_sign_up_link_when_no_podium_was_kept() -> None:
    line = tournament_line(result(place=None, winners=(555, None), podium_message_id=None), "en-US")
    assert "won by <@555>, 🤖" in line and "[sign-up](https://discord.com/channels/10/20/40)" in line
    bare = tournament_line(result(place=None, podium_message_id=None, message_id=None), "ja")
    # the command as a Japanese client names it
    assert "`/トーナメント 順位 トーナメント:3`" in bare and "優勝 <@555>" in bare
    english = tournament_line(result(place=None, podium_message_id=None, message_id=None), "en-US")
    assert "`/tournament standings tournament:3`" in english


def test_stats_show_played_podiums_and_wins_only_for_someone_who_played() -> None:
    embed = discord.Embed(title="stats")
    add_totals(embed, TournamentTotals(), [], "en-US")
    assert embed.fields == []
    add_totals(embed, TournamentTotals(4, 2, 1), [result()], "en-US")
    assert embed.fields[0].name == "Tournaments"
    assert "4 played · 2 on the podium · 1 won" in str(embed.fields[0].value)
    japanese = discord.Embed(title="stats")
    add_totals(japanese, TournamentTotals(4, 2, 1), [], "ja")
    totals = str(japanese.fields[0].value)
    assert japanese.fields[0].name == "トーナメント" and "4回参加 · 表彰台2回 · 優勝1回" in totals
    history = discord.Embed(title="history")
    add_tournaments(history, [], "en-US")
    assert history.fields == []
    add_tournaments(history, [result(), result(id=4)], "en-US")
    assert "Tournament 4" in str(history.fields[0].value)


def test_a_servers_five_tournaments_with_many_winners_are_listed_whole() -> None:
    """/history's Tournaments field was cut at 1,024 characters in the middle of a link or a mention (five
    tournaments with real ids, three winners each): the lines that fit, whole, then how many more."""
    snowflake = 1_234_567_890_123_456_789
    results = [
        result(
            id=2_000_000_000 + n,
            guild_id=snowflake,
            channel_id=snowflake + 1,
            podium_message_id=snowflake + 2 + n,
            place=None,
            winners=(snowflake + 10, snowflake + 11, snowflake + 12),
        )
        for n in range(5)
    ]
    for locale in ("en-US", "ja"):
        history = discord.Embed(title="history")
        add_tournaments(history, results, locale)
        value = str(history.fields[0].value)
        assert len(value) <= 1024 and not value.endswith("…")
        lines = value.splitlines()
        assert all(line.count("(") == line.count(")") for line in lines[:-1])  # every link whole
        if len(lines) < 5:
            assert lines[-1] == t(locale, "night.list_more", count=5 - (len(lines) - 1))
