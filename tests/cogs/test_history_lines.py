"""/history's list and /stats' recent matches: a duplicate round still played elsewhere shows who, not how."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.storage.record_rows import MatchSeat, MatchSummary
from bot.tables.record_reads import held_back
from cogs.records.render import history_line, match_option, recent_line


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
