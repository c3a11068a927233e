"""Five Hundred over thousands of random games for every player count."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from bot.games import GameState
from bot.games import cards as C
from bot.games.five_hundred import FiveHundred

from .engine_properties import check_random_match

MATCHES = int(os.environ.get("PROPERTY_MATCHES", "500"))


def hidden_cards(state: GameState, viewer: int | None) -> set[str]:
    """Other hands (but an exposed open-misère hand), the kitty, and the
    contractor's discards to anyone else. The called card is public by rule."""
    assert isinstance(state, FiveHundred)
    secret = set(C.cards_in(state.kitty))
    for seat, hand in enumerate(state.hands):
        if seat != viewer and not (state.exposed and seat == state.contractor):
            secret |= set(C.cards_in(hand))
    if viewer != state.contractor:
        secret |= set(C.cards_in(state.discards))
    secret.discard(state.called)
    return {C.NAMES[c] for c in secret}


def cautious(actions: list[str], rng: random.Random) -> str:
    """Mostly pass in the auction, so hands are played rather than overbid."""
    if actions[0] == "pass" and rng.random() < 0.75:
        return "pass"
    return rng.choice(actions)


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"misere_after_seven": True, "open_misere_highest": True, "all_pass": "play-no-trumps"},
    {"passed_may_rebid": True, "all_pass": "move-after-two", "joker_lead_any_suit": True},
    {"open_misere_spread": "after-first-trick", "misere_tricks_score": True, "open_misere_value": 520},
    {"win_by_contract_only": True, "called_partner": "announce", "six_sides": "two-threes"},
]


def check_hand_sheets(state: FiveHundred) -> None:
    for sheet in state.sheets:
        if sheet["thrown_in"]:
            continue
        taken = sum(row["tricks"] for row in sheet["rows"])
        misere = sheet["contract"] and sheet["contract"]["kind"] in ("misere", "open-misere")
        assert taken == 10 or (misere and not sheet["made"])
    totals = [sum(row["points"] for row in sheet["rows"]) for sheet in state.sheets]
    assert sum(totals) == sum(state.totals)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_property(players: int) -> None:
    for seed in range(MATCHES):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        state = check_random_match(
            "five-hundred",
            players,
            options,
            seed,
            hidden_cards,
            deep_every=11 if seed % 10 == 0 else 0,
            choose=cautious,
        )
        assert isinstance(state, FiveHundred)
        check_hand_sheets(state)
        result = state.result()
        sides = state.sides if players != 5 else [[s] for s in range(5)]
        scores = [state.totals[side[0]] for side in sides]
        assert any(x >= 500 or x <= -500 for x in scores)
        for side in sides:  # partners share one score
            assert len({state.totals[s] for s in side}) == 1
        assert result["winners"]
        if not options.get("win_by_contract_only"):
            best = max(scores)
            top = {s for side, x in zip(sides, scores, strict=True) if x == best for s in side}
            assert set(result["winners"]) == top or len([x for x in scores if x == best]) > 1
