"""The bench's ISMCTS over strong's weighted deals (``--level ismcts-weighted``): legal, reproducible with its
iterations fixed, and right where the right bid is clear (``tests/players/test_positions.py``)."""

from __future__ import annotations

import pytest

from bench.own_ismcts import ismcts_decide
from bot.games import new_game

from ..players.test_positions import bids
from ..test_oh_hell import game

ITERATIONS = 400


def test_a_decision_is_legal_and_the_same_for_the_same_seed() -> None:
    state = new_game("oh-hell", players=4, options={"start_cards": 5}, seed=3)
    seat = state.to_act()[0]
    first = ismcts_decide(state, seat, seed=9, budget_ms=200, samples=60)
    assert first.action in state.legal(seat) and first.samples == 60
    assert ismcts_decide(state, seat, seed=9, budget_ms=200, samples=60).action == first.action


def test_a_forced_move_is_made_without_searching() -> None:
    state = game({0: "AS", 1: "KS", 2: "QS"}, dealer=2, turn_up="9H", hook=False)
    bids(state, (0, 1), (1, 0), (2, 0))
    decision = ismcts_decide(state, 0, seed=1, budget_ms=200, samples=50)
    assert decision.action == "play AS" and decision.samples == 0


@pytest.mark.parametrize("seed", (1, 2))
def test_bid_what_the_hand_surely_takes(seed: int) -> None:
    """A sure winner (the ace of trumps) and two sure losers: bid one."""
    state = game({0: "AH 2S 2C", 1: "KS QS 9D", 2: "KC QC 8D", 3: "AD KD 7S"}, dealer=3, turn_up="3H")
    assert ismcts_decide(state, 0, seed=seed, budget_ms=200, samples=ITERATIONS).action == "bid 1"
