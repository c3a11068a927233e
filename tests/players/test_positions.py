"""Positions where an exact bid or a partner's contract is at stake and the right play is known.

Each test names the rule of thumb it checks in its docstring; ``strong`` (a fixed number of deals, so the
answer does not depend on the machine's speed) must play it. Oh Hell positions are stacked decks of
``tests/test_oh_hell.py``; Five Hundred's come from ``tests/players/test_five_hundred.py``.
"""

from __future__ import annotations

import pytest

from bot.games.oh_hell import OhHell
from bot.players import ComputerPlayer

from ..test_oh_hell import game
from .test_five_hundred import MISERE_DEAL, OPEN_MISERE, OVERTAKE_OR_NOT, TRUMP_OR_NOT, WON_7H, position

SEEDS = (1, 2, 3)


def strong(seed: int) -> ComputerPlayer:
    # 100 deals: at 40, one generator's deals made "play AS" look as good as "play QS" below (a close call at
    # that size, clear from 200 deals on: QS -0.78 against AS -0.95 a deal at 1,000).
    return ComputerPlayer("strong", seed=seed, samples=100)


def bids(state: OhHell, *made: tuple[int, int]) -> None:
    for seat, bid in made:
        state.act(seat, f"bid {bid}")


# Oh Hell: the exact bid ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_bid_what_the_hand_surely_takes(seed: int) -> None:
    """A sure winner and two sure losers: bid one. (The ace of trumps takes a trick whatever happens; the
    two lowest cards of side suits cannot win while anyone follows.)"""
    state = game({0: "AH 2S 2C", 1: "KS QS 9D", 2: "KC QC 8D", 3: "AD KD 7S"}, dealer=3, turn_up="3H")
    assert strong(seed).choose(state, 0) == "bid 1"


@pytest.mark.parametrize("seed", SEEDS)
def test_the_dealer_under_the_hook_bids_what_it_can_still_make(seed: int) -> None:
    """The hook forbids the dealer the bid its hand is worth; take the neighbour the hand can steer to.
    (Two certain losers and the king of trumps behind the ace: zero is forbidden, and one trick can be
    won by ruffing a suit the dealer is void in, so bid one rather than two.)"""
    state = game({0: "AH 9S 8S", 1: "AS KS QS", 2: "AC KC QC", 3: "KH 2S 2C"}, dealer=3, turn_up="3H", hook=True)
    bids(state, (0, 1), (1, 1), (2, 1))  # 3 bid: the dealer may not bid 0
    assert state.hooked() == 0
    assert strong(seed).choose(state, 3) == "bid 1"


@pytest.mark.parametrize("seed", SEEDS)
def test_once_the_bid_is_made_keep_under_the_trick(seed: int) -> None:
    """Bid made: play the highest card that still loses, never one that wins. (Seat 1 bid 0: under the ace
    it throws the king, its most dangerous spade, while it is safe.)"""
    state = game({0: "AS 2D", 1: "KS 3S", 2: "QS 4D"}, dealer=2, turn_up="9H", hook=False)
    bids(state, (0, 2), (1, 0), (2, 0))
    state.act(0, "play AS")
    assert strong(seed).choose(state, 1) == "play KS"


@pytest.mark.parametrize("seed", SEEDS)
def test_needing_a_trick_last_to_play_win_as_cheaply_as_you_can(seed: int) -> None:
    """Last to play and a trick short: win with the cheapest card that wins, keep the ace for later."""
    state = game({0: "10S 2D 3C", 1: "JS 3D 4C", 2: "QS AS 5C"}, dealer=2, turn_up="9H", hook=False)
    bids(state, (0, 0), (1, 0), (2, 2))
    state.act(0, "play 10S")
    state.act(1, "play JS")
    assert strong(seed).choose(state, 2) == "play QS"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_zero_bid_leads_its_lowest_card(seed: int) -> None:
    """Bid zero with the lead: lead the card that surely loses, not the ace."""
    state = game({0: "2S AD", 1: "KS 3D", 2: "QS 4D"}, dealer=2, turn_up="9H", hook=False)
    bids(state, (0, 0), (1, 1), (2, 1))
    assert strong(seed).choose(state, 0) == "play 2S"


@pytest.mark.parametrize("seed", SEEDS)
def test_void_with_the_bid_made_throw_the_card_that_could_win_later(seed: int) -> None:
    """Bid made and unable to follow: throw the most dangerous card (the king of trumps would take a
    trick later whatever you do), not a small one you can always lose with."""
    state = game({0: "2S 5C 6C", 1: "AD KH 7C", 2: "3S 4S 8C"}, dealer=2, turn_up="9H", hook=False)
    bids(state, (0, 1), (1, 0), (2, 1))
    state.act(0, "play 2S")
    assert strong(seed).choose(state, 1) in ("play KH", "play AD")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_trick_short_with_one_trick_left_take_it_if_you_can(seed: int) -> None:
    """Last trick, one short of the bid and holding the winner: take it (duck and the bid is lost)."""
    state = game({0: "AS 2D", 1: "KS 3D", 2: "QS 4D"}, dealer=2, turn_up="9H", hook=False)
    bids(state, (0, 1), (1, 1), (2, 0))
    state.act(0, "play 2D")
    state.act(1, "play 3D")
    state.act(2, "play 4D")  # seat 2 wins the diamond and must lead a spade
    state.act(2, "play QS")
    assert strong(seed).choose(state, 0) == "play AS"


# Five Hundred: never against a partner -------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_never_trump_a_partners_winning_card(seed: int) -> None:
    """Partner's ace is winning the trick of its contract: follow low, do not trump it (it wastes a trump
    the contract needs later)."""
    state = position(4, TRUMP_OR_NOT, [*WON_7H, "discard 7C 6C 4D", "play AS", "play 5S"])
    assert strong(seed).choose(state, 2) not in ("play JD", "play 4H")


@pytest.mark.parametrize("seed", SEEDS)
def test_never_overtake_a_partners_winning_card(seed: int) -> None:
    """Partner's queen is winning: keep the ace and king for tricks of their own, play low."""
    state = position(4, OVERTAKE_OR_NOT, [*WON_7H, "discard 7C 6C 5C", "play QS", "play 5S"])
    assert strong(seed).choose(state, 2) == "play 6S"


@pytest.mark.parametrize("seed", SEEDS)
def test_against_open_misere_defenders_stay_under_the_contractors_card(seed: int) -> None:
    """Against a misère the defenders win together when the contractor takes a trick: when the contractor's
    card is winning, stay under it (8♥ under its 9♥), never over it."""
    state = position(3, MISERE_DEAL, OPEN_MISERE)
    state.act(2, "play 7H")
    state.act(0, "play 9H")
    assert strong(seed).choose(state, 1) == "play 8H"
