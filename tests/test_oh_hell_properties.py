"""Oh Hell over thousands of random matches, every player count, sequence and scoring."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.games import GameState
from bot.games import cards as C
from bot.games.oh_hell import OhHell, points_for

from .engine_properties import check_random_match

MATCHES = int(os.environ.get("PROPERTY_MATCHES", "500")) // 4  # a match is many deals


def hidden_cards(state: GameState, viewer: int | None) -> set[str]:
    """Other players' hands and the unused rest of the pack: only the turned-up card and
    played cards are face up."""
    assert isinstance(state, OhHell)
    secret = state.unused
    for s, hand in enumerate(state.hands):
        if s != viewer:
            secret |= hand
    return {C.NAMES[c] for c in C.cards_in(secret)}


def check_sheets(state: OhHell) -> None:
    scoring = state.options["scoring"]
    for sheet in state.sheets:
        rows = sheet["rows"]
        assert sum(row["tricks"] for row in rows) == sheet["cards"]
        if state.options["hook"]:
            assert sum(row["bid"] for row in rows) != sheet["cards"], "the hook let the bids add up"
        for row in rows:
            assert row["made"] == (row["bid"] == row["tricks"])
            assert row["points"] == points_for(scoring, row["bid"], row["tricks"])
    assert [sum(sheet["rows"][s]["points"] for sheet in state.sheets) for s in range(state.players)] == state.totals


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"sequence": "up", "scoring": "trick-plus-ten", "start_cards": 3},
    {"sequence": "down-up", "scoring": "penalty", "hook": False, "start_cards": 4},
    {"sequence": "up-down", "start_cards": 2},
]


@pytest.mark.parametrize("players", range(3, 8))
def test_random_matches_keep_every_property(players: int) -> None:
    for seed in range(MATCHES):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        state = check_random_match(
            "oh-hell", players, options, seed, hidden_cards, deep_every=7 if seed % 10 == 0 else 0
        )
        assert isinstance(state, OhHell)
        check_sheets(state)
        totals = state.scores()["total"]
        assert state.result()["winners"] == [s for s in range(players) if totals[s] == max(totals)]
        assert len(state.sheets) == len(state.sizes)


def test_the_largest_deals_leave_no_trumps_only_when_the_pack_is_used_up() -> None:
    for players in range(3, 8):
        state = check_random_match(
            "oh-hell", players, {"start_cards": 52 // players, "sequence": "down"}, players, hidden_cards, deep_every=5
        )
        assert isinstance(state, OhHell)
        first = state.sheets[0]
        assert (first["trump"] is None) == (players * (52 // players) == 52)
