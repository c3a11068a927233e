"""A player's own bid on their hand: how many more to take, or that they are over it (never "0 more")."""

from __future__ import annotations

import random

import pytest

from bot.games import new_game, presentation_of
from bot.words import said


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_oh_hell_says_a_bid_is_already_over(locale: str) -> None:
    shown = presentation_of("oh-hell")
    rng = random.Random(5)
    seen = {"over": 0, "need": 0}
    for seed in range(40):
        state = new_game("oh-hell", players=4, options={}, seed=seed)
        while not state.is_over() and state.view(None)["deal"] == 1:
            seat = state.to_act()[0]
            state.act(seat, rng.choice(state.legal(seat)))
            for who in range(4):
                view = state.view(who)
                bid = view.get("bid")
                if bid is None or view["deal"] != 1:
                    continue
                line = said(shown.hand_notes(view)[-1], locale)
                taken = view["tricks"][who]
                if taken > bid:
                    seen["over"] += 1
                    assert ("over your bid" in line or "超えています" in line) and "0 more" not in line, line
                else:
                    seen["need"] += 1
                    assert f"{bid - taken} more to take" in line or f"あと{bid - taken}" in line, line
    assert seen["over"] and seen["need"]
