"""A seat is a whole number, in every game: anything else is refused by ``view`` and ``record`` and has no legal
action (``act`` refuses it too), and a number that is no player's seat sees what a spectator sees."""

from __future__ import annotations

import pytest

from bot.games import IllegalAction, new_game


@pytest.mark.parametrize("game", ["ninety-nine", "five-hundred", "oh-hell", "just-make"])
def test_a_seat_that_is_not_a_number_is_refused_and_has_no_legal_action(game: str) -> None:
    """``view("1")`` raised a TypeError in some games, and ``view(True)`` showed seat 1's hand and
    ``legal(True)`` its actions, where ``act`` already said a bool is no seat."""
    state = new_game(game, 4, {}, seed=5, first_dealer=1 if game == "just-make" else 0)
    assert 1 in state.to_act() and state.legal(1) and state.view(1)["hand"]  # seat 1 has a hand and a choice
    for seat in ("1", 1.0, True, [1], {"seat": 1}):
        for read in (state.view, state.record):
            with pytest.raises(IllegalAction, match="no seat"):
                read(seat)
        assert state.legal(seat) == [], seat
        with pytest.raises(IllegalAction):
            state.act(seat, state.legal(1)[0])
    for outside in (4, 7, -1):
        assert state.view(outside) == state.view(None) and "hand" not in state.view(outside), outside
