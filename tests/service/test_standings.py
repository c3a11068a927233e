"""Placements and rating updates, as plain functions."""

from __future__ import annotations

from bot.tables.standings import SkillRating, placements, rate


def test_placements_rank_resigned_last_then_winners_then_score() -> None:
    sides = [[0], [1], [2], [3]]
    assert placements(sides, [10, 30, 30, 5], winners={1}, resigned=set()) == [3, 1, 2, 4]
    assert placements(sides, [10, 30, 30, 5], winners={1, 2}, resigned=set()) == [3, 1, 1, 4]
    assert placements(sides, [10, 30, 30, 5], winners={1}, resigned={1}) == [2, 4, 1, 3]


def test_partners_place_together() -> None:
    assert placements([[0, 2], [1, 3]], [120, -40, 120, -40], winners={0, 2}, resigned=set()) == [1, 2]
    assert placements([[0, 2], [1, 3]], [600, 200, 600, 200], winners={0, 2}, resigned={2}) == [2, 1]


def test_ratings_move_winners_up_and_skip_lone_or_computer_sides() -> None:
    fresh = SkillRating.initial()
    current = {1: fresh, 2: fresh, 3: fresh}
    new = rate([[1], [2], [3]], [1, 2, 3], current)
    assert new[1].ordinal > fresh.ordinal > new[3].ordinal
    assert new[1].sigma < fresh.sigma  # a match makes the rating surer
    assert rate([[1], []], [1, 2], current) == {}  # a person against computers only
    team = rate([[1, 2], [3]], [2, 1], current)
    assert team[1] == team[2] and team[3].ordinal > team[1].ordinal
