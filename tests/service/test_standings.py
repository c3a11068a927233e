"""Placements and rating updates, as plain functions."""

from __future__ import annotations

from typing import Any, cast

from bot.games.views import View
from bot.tables.review import final_standings
from bot.tables.standings import SkillRating, match_winners, placements, rate


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


def test_the_winners_are_never_a_side_that_resigned() -> None:
    """Six-player Five Hundred: seat 0 resigned, the computer played the seat on and its side took the match.
    Seat 3, its partner, was once recorded as a winner (placed last, its rating down, its wins up)."""
    sides = [[0, 3], [1, 4], [2, 5]]
    totals = [520, 100, 300, 520, 100, 300]
    places = placements(sides, totals, winners={0, 3}, resigned={0})
    assert places == [3, 2, 1]
    assert match_winners(sides, places, winners={0, 3}, resigned={0}) == {2, 5}  # the best side that played on
    assert match_winners(sides, placements(sides, totals, {0, 3}, set()), {0, 3}, set()) == {0, 3}
    # two winners of the engine stay winners, whatever their places; all resigned: nobody won
    alone = [[0], [1], [2]]
    assert match_winners(alone, placements(alone, [5, 9, 1], {0, 1}, set()), {0, 1}, set()) == {0, 1}
    assert match_winners(alone, placements(alone, [5, 9, 1], {0}, {0, 1, 2}), {0}, {0, 1, 2}) == set()


def test_a_person_partnered_with_a_computer_is_rated_as_one_of_a_pair_of_equals() -> None:
    """Left out of the team, a computer made its partner a team of one against a pair: a win gained +4.0 and a
    loss cost 0.5. Now it stands in at its partner's rating, so the person moves as beside an equal partner."""
    fresh = SkillRating.initial()
    current = {1: fresh, 2: fresh, 3: fresh, 4: fresh}
    for places in ([1, 2], [2, 1]):
        with_computer = rate([[1, None], [2, 3]], places, current)
        with_equal = rate([[1, 4], [2, 3]], places, current)
        assert set(with_computer) == {1, 2, 3}  # the computer is not rated
        assert with_computer[1] == with_equal[1] and with_computer[2] == with_equal[2]
    assert rate([[1], [None, None]], [1, 2], current) == {}  # a person against computers only
    strong = {**current, 1: SkillRating(35.0, 4.0)}
    beside = rate([[1, None], [2, 3]], [1, 2], strong)
    assert beside[2] == rate([[1, 4], [2, 3]], [1, 2], {**strong, 4: SkillRating(35.0, 4.0)})[2]


def _view(totals: list[int], winners: list[int], sides: list[list[int]]) -> View:
    return cast(View, cast(Any, {"scores": {"total": totals}, "winners": winners, "sides": sides}))


def test_the_final_standings_put_no_trophy_on_a_seat_that_resigned() -> None:
    """Ninety-Nine: seat 0 resigned at once, the computer played it on to the top score. The table's last
    standings once showed 🏆 beside the person who resigned, where the record says nobody of it won."""
    rows = final_standings(_view([449, 300, 280], [0], []), None, resigned={0})
    assert [(row.seat, row.winner) for row in rows] == [(1, True), (2, False), (0, False)]
    assert [(row.seat, row.winner) for row in final_standings(_view([449, 300, 280], [0], []), None)] == [
        (0, True),
        (1, False),
        (2, False),
    ]
    partners = final_standings(_view([520, 100, 520, 100], [0, 2], [[0, 2], [1, 3]]), None, resigned={2})
    assert {row.seat for row in partners if row.winner} == {1, 3}
