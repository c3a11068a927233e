"""``python -m bench reading``: a player's bids and plays measured against strong's model of them."""

from __future__ import annotations

import pytest

from bench import reading
from bench.__main__ import main as bench_main
from bot.players.oh_hell import BID_SPREAD, PLAY_FOLLOWS, bid_log_chance_given


def test_the_easy_player_bids_its_estimate_rounded_and_plays_the_easy_card_every_time() -> None:
    record = reading.play_ours("easy", 9, seed=3, budget_ms=200, samples=None)
    assert record.plays > 50 and record.easy_plays == record.plays
    assert len(record.bids) == 36  # four bids a deal, each with a choice
    for bid in record.bids:
        allowed = [b for b in range(bid.cards + 1) if b != bid.hooked]
        assert bid.bid == min(allowed, key=lambda b: (abs(b - bid.estimate), b))
    bias, spread, likeliest = reading.best_fit(record.bids)
    # bids as sharp as a rounding: the narrowest curve of the grid fits them best, far better than the model's
    assert spread == reading.SPREADS[0] and abs(bias) <= 0.1
    assert likeliest > reading.log_likelihood(record.bids, 0.0, BID_SPREAD) + 0.3


def test_the_bid_model_is_a_distribution_over_the_bids_allowed() -> None:
    for estimate, hooked in ((0.4, -1), (2.6, 3), (5.0, 0)):
        chances = [bid_log_chance_given(estimate, b, 5, hooked, 0.9) for b in range(6) if b != hooked]
        assert sum(2.718281828459045**c for c in chances) == pytest.approx(1.0)
    near, far = (bid_log_chance_given(1.2, b, 5, -1, 0.9) for b in (1, 4))
    assert near > far


def test_the_command_prints_the_fit_and_the_plays(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["reading", "--level", "easy", "--deals", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "6 deals" in out and "easy at every seat" in out
    assert f"the model (offset 0, spread {BID_SPREAD})" in out
    assert "the easy player's card 100.0%" in out and f"the model's chance: {PLAY_FOLLOWS:.0%}" in out


def test_ismcts_bids_and_plays_are_read_on_openspiels_deals() -> None:
    pytest.importorskip("pyspiel")  # the optional bench extra: pip install -e '.[bench]'
    record = reading.play_ismcts(3, seed=1, simulations=50)
    assert len(record.bids) == 12 and record.plays > 0
    assert 0 <= record.easy_plays <= record.plays
