"""Oh Hell's compact deal for random playouts (``PlayoutDeal``) plays exactly what the engine plays.

Named for ``oh_hell``, so tests/test_compiled.py also runs it on the pure Python when the engines are compiled.
"""

from __future__ import annotations

import random

import pytest

from bot.games import new_game
from bot.games.oh_hell import COMPACT, OhHell, PlayoutDeal


def _start(seed: int, moves: int) -> OhHell:
    """A deal of 3 to 7 players and 1 to 7 cards, with or without the hook, ``moves`` random moves in."""
    options = {"start_cards": 1 + seed % 7, "hook": seed % 3 != 0, "scoring": ("ten-plus-bid", "penalty")[seed % 2]}
    state = new_game("oh-hell", players=3 + seed % 5, options=options, seed=seed)
    assert isinstance(state, OhHell)
    state.stop_at_deal_end()
    rng = random.Random(-seed)
    for _ in range(moves):
        legal = state.moves()
        if not legal:
            break
        state.move(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("moves", [0, 1, 4, 9])
def test_a_compact_playout_is_the_engines_playout(moves: int) -> None:
    for seed in range(60):
        state = _start(seed, moves)
        if state.phase == state.OVER:
            continue
        deal = PlayoutDeal.of(state)
        engine = state.clone()
        engine.random_playout(random.Random(seed))
        deal.random_playout(random.Random(seed))
        rows = engine.sheets[-1]["rows"]
        seats = range(state.players)
        assert [row["bid"] for row in rows] == [deal.bid(s) for s in seats]
        assert [row["tricks"] for row in rows] == [deal.tricks(s) for s in seats]
        assert [row["points"] for row in rows] == deal.points_each() == [deal.points(s) for s in seats]
        assert all(deal.hand(s) == 0 for s in seats)


def test_a_copy_is_independent_and_of_reads_the_hands() -> None:
    state = _start(4, 2)
    deal = PlayoutDeal.of(state)
    for seat in range(state.players):
        assert deal.hand(seat).bit_count() == state.hands[seat].bit_count()
        assert deal.hand(seat) == sum(1 << COMPACT[code] for code in range(64) if state.hands[seat] >> code & 1)
    twin = deal.copy()
    twin.random_playout(random.Random(1))
    assert [deal.hand(s) for s in range(state.players)] == [PlayoutDeal.of(state).hand(s) for s in range(state.players)]
    assert sum(twin.tricks(s) for s in range(state.players)) == state.cards


def test_compact_indexes_keep_the_order_of_the_codes_and_fit_52_bits() -> None:
    codes = sorted(code for code in range(64) if (code & 15) not in (9, 10, 11))  # no 11, 12, 13 in Oh Hell
    assert [COMPACT[code] for code in codes] == list(range(52))


def test_mean_points_average_the_playouts_and_leave_the_deal_alone() -> None:
    state = _start(7, 0)
    deal = PlayoutDeal.of(state)
    means = deal.mean_points(random.Random(3), 50)
    total = [0] * state.players
    rng = random.Random(3)
    for _ in range(50):
        twin = deal.copy()
        twin.random_playout(rng)
        total = [a + b for a, b in zip(total, twin.points_each(), strict=True)]
    assert means == [points / 50 for points in total]
    assert deal.phase == state.phase and deal.bid(0) == -1
