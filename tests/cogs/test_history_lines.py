"""/history's list and /stats' recent matches: a duplicate round still played elsewhere shows who, not how."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.storage.record_rows import MatchSeat, MatchSummary
from bot.tables.record_reads import held_back
from cogs.records.render import board_embed, history_embed, history_line, match_option, recent_line, stats_embed


def seat(index: int, score: int, placement: int) -> MatchSeat:
    return {
        "seat": index, "user_id": 100 + index, "name": f"Player{index}", "side": None, "score": score,
        "placement": placement, "won": placement == 1, "resigned": False, "rating_before": None, "rating_after": None,
    }  # fmt: skip


def match() -> MatchSummary:
    return {
        "match_id": 7, "game": "oh-hell", "players": 3, "deals": 2, "finished_at": datetime(2026, 11, 29, tzinfo=UTC),
        "duration_seconds": 600, "seats": [seat(0, 31, 2), seat(1, 47, 1), seat(2, 12, 3)], "table_id": 3,
        "held": False,
    }  # fmt: skip


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_a_held_match_names_its_players_and_no_score(locale: str) -> None:
    shown = history_line(match(), locale)
    assert "47" in shown and "🏆" in shown and "31" in shown
    held = held_back(match())
    line = history_line(held, locale)
    assert all(f"Player{n}" in line for n in range(3)), line
    assert not any(score in line for score in ("31", "47", "12", "🏆", "None")), line
    assert "round" in line or "ラウンド" in line
    recent = recent_line(held, 101, locale)
    assert not any(score in recent for score in ("47", "None")) and "#7" in recent, recent
    assert "47" in recent_line(match(), 101, locale)
    assert match_option(held, locale).description == match_option(held, locale).description.replace("Player1", "")


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_a_page_of_names_made_of_markdown_keeps_whole_lines_and_says_how_many_more(locale: str) -> None:
    """Names of markdown characters grow fourfold when escaped: ten matches of nine such seats pass Discord's
    4,096 characters, and the page showed the tenth line cut in the middle (a broken timestamp, found by a
    helper's audit). Whole lines, then how many more the menu opens."""
    busy = match()
    busy["seats"] = [{**seat(n, n, n + 1), "name": "*_" * 10} for n in range(9)]  # 40 characters once escaped
    matches = [{**busy, "match_id": 1000 + n} for n in range(10)]
    assert len("\n".join(history_line(m, locale) for m in matches)) > 4096
    embed = history_embed(matches, 0, 10, None, locale)
    text = embed.description or ""
    assert len(text) <= 4096
    *lines, more = text.split("\n")
    assert lines and all(line in {history_line(m, locale) for m in matches} for line in lines)
    assert str(10 - len(lines)) in more and ("more" in more or "ほか" in more), more


@pytest.mark.parametrize("name", ["\u200e", "\u202e", "\ufeff", ""])
def test_a_name_with_nothing_readable_is_shown_as_the_persons_id(name: str) -> None:
    """A display name of invisible characters alone leaves nothing to show: the person's id stands in for it in
    /stats, /leaderboard and /history (it said "None")."""
    stats = stats_embed(name, {}, [], 4242, 25.0, "en-US")
    board = board_embed("oh-hell", "all", [], 0, 3, None, name, "en-US", viewer_id=4242)
    history = history_embed([], 0, 0, name or "x", "en-US", who_id=4242)
    for shown in (stats.title or "", board.fields[0].name or ""):
        assert "4242" in shown and "None" not in shown, shown
    if name:
        assert "4242" in (history.title or "") and "None" not in (history.title or "")
