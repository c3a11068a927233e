"""Ninety-Nine over thousands of random matches, every player count and format."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.games import GameState
from bot.games import cards as C
from bot.games.ninety_nine import FORMATS, PLAY, NinetyNine

from .engine_properties import check_random_match

# Matches per player count and format; raise it for a soak run.
MATCHES = int(os.environ.get("PROPERTY_MATCHES", "500"))
# A match of these formats is several games of many deals (three-bonuses: 30 to 60 deals, first-to-three: 12
# to 23, against 9 for nine-deals): fewer of them play as many deals as the other formats' matches.
LONG_MATCH = {"three-bonuses": 4, "first-to-three": 2}


def hidden_cards(state: GameState, viewer: int | None) -> set[str]:
    """The cards ``viewer`` may not see now, by the rules (not by the engine's views)."""
    assert isinstance(state, NinetyNine)
    names = state._names
    secret: list[int] = []
    for h in range(len(state.hands)):
        if h == viewer:
            continue
        hand_public = state.shown[h] == 2 or (state.players == 2 and h == 2 and state.phase == PLAY)
        if not hand_public:
            secret += C.cards_in(state.hands[h])
        if state.shown[h] == 0:
            secret += C.cards_in(state.bid_cards[h])
    secret += state.pile  # Oxford's trump pile is face down
    return {names[c] for c in secret}


def check_deal_sheets(state: NinetyNine) -> None:
    tricks_per_deal = 10 if state.players == 4 else 9
    for sheet in state.sheets:
        assert sum(row["tricks"] for row in sheet["rows"]) == tricks_per_deal
        for row in sheet["rows"]:
            made = (
                row["tricks"] <= row["bid"]
                if (state.players == 2 and row["seat"] == 2)
                else row["tricks"] == row["bid"]
            )
            assert row["made"] == made
            parts = row["trick_points"] + row["bid_bonus"] + row["premium_points"] + row["game_bonus"]
            assert row["points"] == parts
    totals = [sum(sheet["rows"][h]["points"] for sheet in state.sheets) for h in range(len(state.totals))]
    assert totals == state.totals


def check_winners(state: NinetyNine) -> None:
    result = state.result()
    live = range(state.players)
    if state.options["format"] == "first-to-three":
        won = result["scores"]["games_won"]
        assert result["winners"] == [s for s in live if won[s] >= 3] and result["winners"]
        return
    totals = result["scores"]["total"]
    best = max(totals[s] for s in live)
    assert result["winners"] == [s for s in live if totals[s] == best]


def mid_deal_tricks(state: GameState) -> None:
    view = state.view()
    assert sum(h["tricks"] for h in view["hands"]) == view["tricks_played"]


CASES = [(p, f) for p in (2, 3, 4) for f in FORMATS if f != "oxford" or p == 3]


@pytest.mark.parametrize(("players", "fmt"), CASES)
def test_random_matches_keep_every_property(players: int, fmt: str) -> None:
    styles = ("previous", "previous-diamonds", "turn-up")
    for seed in range(max(1, MATCHES // LONG_MATCH.get(fmt, 1))):
        options: dict[str, Any] = {"format": fmt, "trump_style": styles[seed % 3]}
        if seed % 5 == 1:
            options["declarer_may_raise"] = False
        if seed % 7 == 2:
            options["premium_bids"] = False
        if fmt == "target":
            options["target"] = 50 + (seed * 37) % 400
        state = check_random_match(
            "ninety-nine",
            players,
            options,
            seed,
            hidden_cards,
            deep_every=25 if seed % 10 == 0 else 0,  # every tenth match checked closely throughout
            on_step=mid_deal_tricks if seed % 10 == 0 else None,
        )
        assert isinstance(state, NinetyNine)
        check_deal_sheets(state)
        check_winners(state)
