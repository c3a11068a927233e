"""``python -m bench players --against ismcts`` and the ``baseline`` level: OpenSpiel's deal copied into our engine,
both engines naming the same actions, and a plain message when OpenSpiel is missing."""

from __future__ import annotations

import builtins
import random
import re
from typing import Any

import pytest

from bench import ismcts
from bench.__main__ import main as bench_main
from bench.players import BASELINE, choose
from bot.games import cards as C
from bot.games import new_game


def test_openspiels_cards_map_one_to_one_onto_ours() -> None:
    codes = {ismcts.our_code(action) for action in range(52)}
    assert len(codes) == 52
    assert C.NAMES[ismcts.our_code(0)] == "2C" and C.NAMES[ismcts.our_code(51)] == "AH"
    assert ismcts.os_action("play AH") == 51 and ismcts.os_action("bid 3") == 55


def test_without_openspiel_the_bench_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_pyspiel(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pyspiel":
            raise ImportError("No module named 'pyspiel'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspiel)
    with pytest.raises(SystemExit, match=re.escape("pip install 'open_spiel==1.6.1'")):
        bench_main(["players", "--against", "ismcts", "--matches", "1"])


def test_a_duplicate_deal_against_ismcts_plays_through_with_both_engines_agreeing() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    deal = ismcts.make_deal(pyspiel, 3, random.Random(1))
    plan = ismcts.DealPlan(0, 3, deal, "easy", 50, 20, 1)
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 3})
    state = game.new_initial_state()
    for action in deal:
        state.apply_action(action)
    ours = ismcts.our_state(state, 3, 1)
    assert [ours.hands[s].bit_count() for s in range(4)] == [3, 3, 3, 3]
    assert sorted(ismcts.os_action(a) for a in ours.legal(ours.to_act()[0])) == sorted(state.legal_actions())
    outcome = ismcts.play_deal(plan)  # raises if the engines ever name different actions or scores
    assert sum(outcome.made) <= 8 and len(outcome.times[1]) > 0


def test_the_baseline_level_plays_legal_actions() -> None:
    state = new_game("oh-hell", players=4, seed=2)
    for _ in range(12):
        seat = state.to_act()[0]
        action = choose(BASELINE, state, seat, seed=3, budget_ms=20)
        assert action in state.legal(seat)
        state.act(seat, action)


def test_with_fixed_deals_and_simulations_neither_player_depends_on_the_machines_speed() -> None:
    """--samples fixes our level's deals a decision and ISMCTS's simulations (what lets two versions of a player
    be compared on a loaded machine: the time per decision no longer sets either player's strength), and the
    bids made and missed add up. (OpenSpiel's ISMCTS does not play the same twice even with its seeds fixed.)"""
    pyspiel = pytest.importorskip("pyspiel")
    deal = ismcts.make_deal(pyspiel, 3, random.Random(5))
    outcome = ismcts.play_deal(ismcts.DealPlan(0, 3, deal, "strong", 50, 30, 7, samples=4))
    assert outcome.simulations and outcome.simulations == [30] * len(outcome.simulations)
    assert outcome.worlds and all(tried == 4 for tried, _ in outcome.worlds)
    for k in (0, 1):
        assert outcome.made[k] + outcome.misses[k][0] + outcome.misses[k][1] == 4


def test_the_report_names_the_fixed_budgets_and_the_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspiel")
    lines = ismcts.bench_ismcts(2, 50, 3, 1, "strong", simulations=20, samples=3)
    text = "\n".join(lines)
    assert "--samples 3 --simulations 20" in text and "3 deals a decision and ISMCTS 20 simulations" in text
    assert re.search(r"Bids missed: strong \d+% over .*, \d+% under; ISMCTS \d+% over, \d+% under\.", text)
    with pytest.raises(SystemExit):
        bench_main(["players", "--against", "ismcts", "--simulations", "20"])
