"""Ninety-Nine's compact deal for random playouts (``PlayoutDeal``) plays exactly what the engine plays.

Named for ``ninety_nine``, so tests/test_compiled.py also runs it on the pure Python when the engines are compiled.
"""

from __future__ import annotations

import random

import pytest

from bot.games import new_game
from bot.games.ninety_nine import PREMIUM_NAMES, NinetyNine, PlayoutDeal

FORMATS = ("nine-deals", "oxford", "three-bonuses")
STYLES = ("previous", "previous-diamonds", "turn-up")


def _start(seed: int, moves: int) -> NinetyNine:
    """A three- or four-player deal of varied options, ``moves`` random moves in."""
    players = 3 if seed % 5 else 4
    options = {
        "format": FORMATS[seed % 3] if players == 3 else "nine-deals",
        "trump_style": STYLES[seed % 3],
        "premium_bids": seed % 4 != 0,
        "declarer_may_raise": seed % 7 != 0,
    }
    state = new_game("ninety-nine", players=players, options=options, seed=seed)
    assert isinstance(state, NinetyNine)
    state.stop_at_deal_end()
    rng = random.Random(-seed)
    for _ in range(moves):
        legal = state.moves()
        if not legal:
            break
        state.move(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("moves", [0, 2, 3, 4, 5, 7, 12])
def test_a_compact_playout_is_the_engines_playout(moves: int) -> None:
    for seed in range(80):
        state = _start(seed, moves)
        if state.phase == state.OVER:
            continue
        deal = PlayoutDeal.of(state)
        engine = state.clone()
        engine.random_playout(random.Random(seed))
        deal.random_playout(random.Random(seed))
        rows = engine.sheets[-1]["rows"]
        hands = range(state.players)
        assert [row["bid"] for row in rows] == [deal.bid(h) for h in hands]
        assert [row["tricks"] for row in rows] == [deal.tricks(h) for h in hands]
        assert [row["premium"] for row in rows] == [PREMIUM_NAMES[deal.premium(h)] for h in hands]
        points = [row["trick_points"] + row["bid_bonus"] + row["premium_points"] for row in rows]
        assert points == deal.points_each()
        assert all(deal.hand(h) == 0 for h in hands)


def test_a_copy_is_independent() -> None:
    state = _start(1, 0)
    deal = PlayoutDeal.of(state)
    twin = deal.copy()
    twin.random_playout(random.Random(1))
    assert [deal.hand(h) for h in range(3)] == [PlayoutDeal.of(state).hand(h) for h in range(3)]
    assert deal.bid(0) == -1 and sum(twin.tricks(h) for h in range(3)) == 9


def test_two_players_have_no_compact_deal() -> None:
    state = new_game("ninety-nine", players=2, seed=1)
    assert isinstance(state, NinetyNine)
    with pytest.raises(ValueError, match="three or four players"):
        PlayoutDeal.of(state)


def test_mean_points_average_the_playouts() -> None:
    deal = PlayoutDeal.of(_start(2, 0))
    rng = random.Random(3)
    total = [0, 0, 0]
    for _ in range(40):
        twin = deal.copy()
        twin.random_playout(rng)
        total = [a + b for a, b in zip(total, twin.points_each(), strict=True)]
    assert deal.mean_points(random.Random(3), 40) == [points / 40 for points in total]
