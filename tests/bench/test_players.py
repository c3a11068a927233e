"""The players benchmark's machinery on tiny runs: seating and rotation, the figures' arithmetic, the command line.

Random players only (the computer levels are measured by the benchmark, not here), and no timing assertions.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from typing import Any

import pytest

import bot.players
from bench import players as bench_players
from bench.__main__ import main as bench_main
from bench.players import (
    FIRST,
    SECOND,
    Aims,
    BenchConfig,
    MatchOutcome,
    MatchPlan,
    first_share,
    leaders,
    percentile,
    plan_matches,
    play_match,
    run,
    seat_roles,
    summarize,
    tally_aims,
    units_of,
)
from bot.games import GAMES, new_game


def config(**changes: object) -> BenchConfig:
    base: dict[str, object] = {
        "games": ("ninety-nine",),
        "players": (),
        "pairings": (("random", "random"),),
        "matches": 3,
        "budget_ms": 1000,
        "seed": 5,
        "options": {},
        "deals": 2,
        "jobs": 1,
    }
    base.update(changes)
    return BenchConfig(**base)  # type: ignore[arg-type]


def test_units_are_sides_in_partnership_five_hundred_and_seats_elsewhere() -> None:
    assert units_of(new_game("five-hundred", players=4)) == [[0, 2], [1, 3]]
    assert units_of(new_game("five-hundred", players=6)) == [[0, 3], [1, 4], [2, 5]]
    assert units_of(new_game("five-hundred", players=5)) == [[0], [1], [2], [3], [4]]
    assert units_of(new_game("ninety-nine", players=2)) == [[0], [1]]  # the dummy is nobody's seat


def test_seat_roles_give_the_first_level_one_whole_unit() -> None:
    assert seat_roles([[0, 2], [1, 3]], 1, 4) == [SECOND, FIRST, SECOND, FIRST]
    assert seat_roles([[0], [1], [2]], 2, 3) == [SECOND, SECOND, FIRST]


def test_each_deal_seed_is_played_once_per_unit_and_matches_round_up_to_whole_rotations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_players, "unavailable", lambda *_: None)  # planned here, never played
    plans, notes = plan_matches(
        config(games=("five-hundred", "ninety-nine"), players=(4,), matches=3, pairings=PAIRS_TWO)
    )
    assert notes == []
    by_group: dict[tuple[str, tuple[str, str]], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for plan in plans:
        by_group[plan.game, plan.pairing][plan.deal_seed].append(plan.rotation)
    # Five Hundred with 4: two sides, so 3 matches become 2 seeds x 2 rotations; Ninety-Nine with 4: 1 seed x 4.
    for pairing in PAIRS_TWO:
        assert sorted(map(sorted, by_group["five-hundred", pairing].values())) == [[0, 1], [0, 1]]
        assert list(by_group["ninety-nine", pairing].values()) == [[0, 1, 2, 3]]
    # The pairings of one game and count share their deals.
    assert set(by_group["five-hundred", PAIRS_TWO[0]]) == set(by_group["five-hundred", PAIRS_TWO[1]])
    assert all(plan.options == {"format": "nine-deals"} for plan in plans if plan.game == "ninety-nine")


PAIRS_TWO = (("random", "random"), ("easy", "random"))


def test_a_count_a_game_does_not_have_is_named_not_silently_dropped() -> None:
    plans, notes = plan_matches(config(games=("just-make",), players=(3, 4), matches=1))
    assert {plan.players for plan in plans} == {4}
    assert notes == ["skipped just-make 3p: not a player count of just-make"]


def test_a_level_whose_game_module_is_missing_is_skipped_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(game: str) -> object:
        raise ModuleNotFoundError(f"No module named 'bot.players.{game.replace('-', '_')}'")

    monkeypatch.setattr(bot.players, "knowledge_of", missing)
    plans, notes = plan_matches(config(pairings=(("strong", "easy"), ("random", "random"))))
    assert {plan.pairing for plan in plans} == {("random", "random")}
    assert len(notes) == 1
    assert notes[0].startswith("skipped ninety-nine 3p strong vs easy: easy: ModuleNotFoundError")


@pytest.mark.parametrize(("winners", "units", "first", "share"), [
    ([0], [[0], [1], [2]], 0, 1.0),
    ([1], [[0], [1], [2]], 0, 0.0),
    ([0, 2], [[0], [1], [2]], 2, 0.5),
    ([0, 2], [[0, 2], [1, 3]], 0, 1.0),
    ([0, 2], [[0, 2], [1, 3]], 1, 0.0),
    ([0, 1, 3, 4], [[0, 3], [1, 4], [2, 5]], 1, 0.5),
])  # fmt: skip
def test_first_share_splits_a_shared_win_between_the_winning_units(
    winners: list[int], units: list[list[int]], first: int, share: float
) -> None:
    assert first_share(winners, units, first) == share


def test_leaders_are_every_unit_on_the_top_total() -> None:
    state = new_game("ninety-nine", players=3, seed=1)
    state.totals = [40, 52, 52]  # type: ignore[attr-defined]
    assert leaders(state, [[0], [1], [2]]) == [1, 2]


def test_bids_made_count_per_role_and_skip_the_dummy() -> None:
    sheets = [
        {"rows": [{"seat": 0, "made": True}, {"seat": 1, "made": False}, {"seat": 2, "made": True}]},
        {"rows": [{"seat": 0, "made": False}, {"seat": 1, "made": True}, {"seat": 2, "made": True}]},
    ]
    first, second = tally_aims(sheets, [FIRST, SECOND])  # two players: seat 2 is the dummy
    assert (first, second) == (Aims(2, 1), Aims(2, 1))


def test_contracts_count_for_the_contractor_only_and_not_thrown_in_hands() -> None:
    sheets: list[dict[str, Any]] = [
        {"thrown_in": True, "contract": None, "rows": []},
        {"thrown_in": False, "contractor": 1, "made": True, "rows": []},
        {"thrown_in": False, "contractor": 3, "made": False, "rows": []},
        {"thrown_in": False, "contractor": 0, "made": False, "rows": []},
        {"thrown_in": False, "contractor": None, "made": None, "rows": []},  # all passed, played at no trumps
    ]
    first, second = tally_aims(sheets, seat_roles([[0, 2], [1, 3]], 1, 4))
    assert (first, second) == (Aims(2, 1), Aims(1, 0))


def test_points_margin_is_the_first_units_total_less_the_others_average() -> None:
    assert bench_players.points_margin([120, -40, 120, -40], [[0, 2], [1, 3]], 0) == 160
    assert bench_players.points_margin([30, 60, 0], [[0], [1], [2]], 1) == 45


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.99), percentile(values, 1.0)) == (50.0, 99.0, 100.0)
    assert percentile([7.0], 0.99) == 7.0
    assert math.isnan(percentile([], 0.5))


def outcome(
    seed: int, rotation: int, share: float, times: list[float], aims: Aims, hands: int = 4, points: float = 0.0
) -> MatchOutcome:
    plan = MatchPlan("five-hundred", 4, ("strong", "easy"), seed, rotation, {}, None, 1000)
    return MatchOutcome(
        plan, share, False, hands, [[0, 2], [1, 3]], True, (times, [0.0042]), (aims, Aims(1, 1)), points
    )


def test_summary_figures() -> None:
    rows = summarize([
        outcome(1, 0, 1.0, [0.3, 0.1], Aims(2, 1), points=50.0),
        outcome(1, 1, 1.0, [0.2], Aims(1, 1), points=30.0),
        outcome(2, 0, 0.5, [0.4], Aims(1, 0), points=10.0),
        outcome(2, 1, 0.0, [], Aims(0, 0), points=-10.0),
    ])  # fmt: skip
    (row,) = rows
    assert (row.matches, row.units, row.side_size, row.fair) == (4, 2, 2, 0.5)
    assert row.win_share == 0.625
    # Two seeds with means 1.0 and 0.25: standard error 0.375, the margin twice that.
    assert row.margin == pytest.approx(0.75)
    # Points a hand: seed means 40 and 0, standard error 20.
    assert (row.points, row.points_margin) == (pytest.approx(20.0), pytest.approx(40.0))
    assert row.times[0] == [0.1, 0.2, 0.3, 0.4]
    assert (row.aims[0], row.aims[1], row.hands) == (Aims(4, 2), Aims(4, 4), 16)
    line = bench_players.render_row(row)
    assert line == (
        "| five-hundred | 4 | strong (one side) vs easy | 4 | 62% ±75 | 50% | 1.25 | +20.0 ±40.0 | 200 / 400 (4) "
        "| 4.2 / 4.2 (4) "
        "| 50% / 100% | 25% / 25% |"
    )


def test_rotations_of_random_players_replay_one_match_so_the_shares_sum_to_one() -> None:
    """With every decision seeded the same in each rotation, random:random plays one match per seed,
    seen from every unit: a check that the rotation seats each unit first exactly once."""
    for game, players in (("five-hundred", 4), ("just-make", 4), ("ninety-nine", 2)):
        plans, _ = plan_matches(config(games=(game,), players=(players,), matches=players, deals=3))
        totals: dict[int, float] = defaultdict(float)
        points: dict[int, float] = defaultdict(float)
        for plan in plans:
            played = play_match(plan)
            totals[plan.deal_seed] += played.first_share
            points[plan.deal_seed] += played.points
        assert list(totals.values()) == pytest.approx([1.0] * len(totals))
        assert list(points.values()) == pytest.approx([0.0] * len(points))  # one match: the margins cancel


def test_the_pool_gives_the_same_outcomes_as_one_process() -> None:
    plans, _ = plan_matches(config(games=("just-make",), players=(4,), matches=4))
    alone = run(plans, jobs=1)
    pooled = run(plans, jobs=2)
    assert [(o.plan, o.first_share, o.hands, o.aims) for o in pooled] == [
        (o.plan, o.first_share, o.hands, o.aims) for o in alone
    ]
    assert all(o.capped and o.hands == 2 for o in alone)


def parse(*argv: str) -> BenchConfig:
    parser = argparse.ArgumentParser()
    bench_players.add_arguments(parser)
    return bench_players.config_from(parser.parse_args(list(argv)))


def test_command_line_defaults() -> None:
    got = parse()
    assert got.games == tuple(GAMES)  # every game by default
    assert got.pairings == bench_players.PAIRINGS
    assert (got.players, got.budget_ms, got.deals, got.options) == ((), 1000, None, {})


def test_command_line_options_are_typed_per_game() -> None:
    got = parse(
        "--game", "five-hundred", "--game", "just-make", "--players", "4", "--pairing", "strong:random",
        "--matches", "8", "--budget-ms", "200", "--deals", "5", "--jobs", "1",
        "--options", "misere_after_seven=true", "--options", "target=9",
        "--options", "five-hundred:all_pass=play-no-trumps",
    )  # fmt: skip
    assert got.options == {
        "five-hundred": {"misere_after_seven": True, "all_pass": "play-no-trumps"},
        "just-make": {"target": 9},
    }
    assert (got.pairings, got.matches, got.budget_ms, got.deals, got.jobs) == ((("strong", "random"),), 8, 200, 5, 1)
    assert parse(*bench_players.command_line(got).split()[4:]) == got  # the printed command repeats the run


@pytest.mark.parametrize("bad", ["target=99", "no_such_option=1", "target", "ninety-nine:target=9"])
def test_command_line_refuses_options_no_game_of_the_run_takes(bad: str) -> None:
    with pytest.raises(ValueError):
        parse("--game", "just-make", "--options", bad)


@pytest.mark.parametrize("argv", [["--pairing", "strong"], ["--pairing", "strong:genius"], ["--matches", "0"]])
def test_command_line_refuses_bad_pairings_and_counts(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        parse(*argv)


def test_python_m_bench_players_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["players", "--game", "just-make", "--pairing", "random:random", "--matches", "3", "--deals", "1"]
    assert bench_main([*argv, "--jobs", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| game | players |")
    assert out[2].startswith("| just-make | 6 | random vs random | 6 | ")  # 3 matches: one rotation of 6 seats
    assert any(line.startswith("Run: `python -m bench players --game just-make") for line in out)
    assert "Matches capped at 1 deals (6 of 6 hit the cap): then the leader on total wins." in out
