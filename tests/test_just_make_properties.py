"""Just Make over thousands of random matches for every player count."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.games import GameState
from bot.games import cards as C
from bot.games.just_make import JustMake

from .engine_properties import check_random_match

MATCHES = int(os.environ.get("PROPERTY_MATCHES", "500"))


def hidden_cards(state: GameState, viewer: int | None) -> set[str]:
    """Other players' hands: bids and played cards are face up, and the engine
    keeps no undealt card to show."""
    assert isinstance(state, JustMake)
    return {C.NAMES[c] for s, hand in enumerate(state.hands) if s != viewer for c in C.cards_in(hand)}


def never_past_the_target(state: GameState) -> None:
    assert max(state.scores()["total"]) <= state.options["target"]


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"target": 3, "lone_loser_minus_one": True},
    {"target": 15, "tie_break": "final-bid", "double_hard_bids": True},
    {"scoring": "tricks", "all_fail_reverse": True},
    {"sweep_wins": True, "joker_make_wins": True},
]


@pytest.mark.parametrize("players", range(4, 10))
def test_random_matches_keep_every_property(players: int) -> None:
    for seed in range(MATCHES):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        state = check_random_match(
            "just-make",
            players,
            options,
            seed,
            hidden_cards,
            deep_every=9 if seed % 10 == 0 else 0,
            on_step=never_past_the_target,
        )
        assert isinstance(state, JustMake)
        result = state.result()
        totals = result["scores"]["total"]
        for sheet in state.sheets:
            assert sum(row["tricks"] for row in sheet["rows"]) <= 5
        assert result["winners"]
        if not (options.get("sweep_wins") or options.get("joker_make_wins")):
            assert all(totals[w] == state.options["target"] for w in result["winners"])
            on_target = [s for s in range(players) if totals[s] == state.options["target"]]
            assert set(result["winners"]) <= set(on_target)
            if options.get("tie_break", "share") == "share":
                assert result["winners"] == on_target
