"""The Oh Hell computer player in set positions (tests/players/test_all_games.py checks what every game's must do)."""

from __future__ import annotations

from random import Random

from bot.games import cards as C
from bot.games.oh_hell import BID, OVER, OhHell
from bot.players import ComputerPlayer
from bot.players.oh_hell import KNOWLEDGE, bid_estimate, choose_bid, choose_card, sight_of, whole_sight, win_chance

from ..test_oh_hell import bid_all, game, oh_hell


def test_the_player_has_what_the_search_needs() -> None:
    assert KNOWLEDGE.win_value > 0
    state = oh_hell(4, {}, seed=2)
    assert KNOWLEDGE.cards_left(state) is None  # bidding
    assert KNOWLEDGE.units(state) == [[0], [1], [2], [3]]


# Judging a hand --------------------------------------------------------------------------------


def test_top_trumps_and_aces_are_likelier_winners_than_small_cards() -> None:
    state = game({0: "AH KH AS 2C 3D", 1: "2S 3S 4S 5S 6S", 2: "2H 3H 4H 5H 6H"}, dealer=2, turn_up="9H")
    sight = sight_of(state, 0)
    chance = {name: win_chance(state, sight, C.CODES[name]) for name in ("AH", "KH", "AS")}
    small = win_chance(state, sight, C.CODES["2C"])
    assert chance["AH"] > chance["KH"] > small and chance["AS"] > small
    assert all(0.0 < p < 1.0 for p in (*chance.values(), small))


def test_a_strong_hand_bids_more_than_a_weak_one() -> None:
    state = game({0: "AH KH QH AS AC", 1: "2S 3S 4C 5D 6D", 2: "7S 8C 9C 10D JD"}, dealer=2, turn_up="2H")
    assert bid_estimate(state, 0) > bid_estimate(state, 1) + 1.5
    assert choose_bid(state, 0) >= 3 and choose_bid(state, 1) <= 1


def test_the_dealer_under_the_hook_takes_the_nearest_bid_allowed() -> None:
    state = game({0: "2S 3C", 1: "4S 5C", 2: "AH KH"}, dealer=2, turn_up="9H")
    state.act(0, "bid 0")
    state.act(1, "bid 0")
    assert state.hooked() == 2 and choose_bid(state, 2) == 1  # two sure trumps, but 2 is hooked
    assert ComputerPlayer("easy").choose(state, 2) == "bid 1"


# Playing to the bid ----------------------------------------------------------------------------


def test_a_seat_that_still_needs_tricks_wins_cheaply_when_last() -> None:
    state = game({0: "10S 2D", 1: "JS 3D", 2: "QS AS"}, dealer=2, turn_up="9H", hook=False)
    bid_all(state, {0: 0, 1: 0, 2: 1})
    state.act(0, "play 10S")
    state.act(1, "play JS")
    assert choose_card(state, 2) == C.CODES["QS"]  # not the ace
    assert ComputerPlayer("easy").choose(state, 2) == "play QS"


def test_a_seat_that_has_its_bid_keeps_under_the_trick() -> None:
    state = game({0: "AS 2D", 1: "KS 3D", 2: "QS 4D"}, dealer=2, turn_up="9H", hook=False)
    bid_all(state, {0: 2, 1: 0, 2: 0})
    state.act(0, "play AS")
    assert ComputerPlayer("easy").choose(state, 1) == "play KS"  # the highest card that loses
    state.act(1, "play KS")
    assert ComputerPlayer("easy").choose(state, 2) == "play QS"


def test_a_seat_with_its_bid_made_throws_its_most_dangerous_card_when_void() -> None:
    state = game({0: "2S 5C 6C", 1: "AD KH 7C", 2: "3S 4S 8C"}, dealer=2, turn_up="9H", hook=False)
    bid_all(state, {0: 1, 1: 0, 2: 1})
    state.act(0, "play 2S")
    assert ComputerPlayer("easy").choose(state, 1) in ("play KH", "play AD")  # never the small club


def test_strong_keeps_a_zero_bid_where_easy_might_not() -> None:
    # With a zero bid and the lead, strong leads its lowest card and takes no trick.
    state = game({0: "2S AD", 1: "KS 3D", 2: "QS 4D"}, dealer=2, turn_up="9H", hook=False)
    bid_all(state, {0: 0, 1: 1, 2: 1})
    assert ComputerPlayer("strong", seed=1, samples=30).choose(state, 0) == "play 2S"


def test_rollouts_finish_the_deal() -> None:
    state = oh_hell(5, {}, seed=4)
    assert isinstance(state, OhHell)
    world = state.determinize(state.to_act()[0], Random(1))
    KNOWLEDGE.rollout(world, Random(1))
    assert len(world.sheets) == 1


def _played_out(world: OhHell, whole: set[int]) -> OhHell:
    """``world``'s deal played out by the easy policy, the seats in ``whole`` with every hand in sight."""
    deal = len(world.sheets)
    while world.phase != OVER and len(world.sheets) == deal:
        seat = world.to_act()[0]
        if world.phase == BID:
            world._bid(seat, choose_bid(world, seat))
        else:
            world._play(seat, choose_card(world, seat, seat in whole))
    return world


def test_only_the_searching_seat_plays_its_rollouts_with_the_made_up_deal_in_sight() -> None:
    """The search's seat (``sighted``) reads every hand of the deal it made up; the others play on their own
    sight, as the easy player does at a real table."""
    differs = 0
    for seed in range(40):
        state = oh_hell(4, {}, seed=seed)
        world = state.determinize(0, Random(seed))
        assert isinstance(world, OhHell)
        sighted, plain = world.clone(), world.clone()
        KNOWLEDGE.rollout(sighted, Random(1), sighted=0)
        KNOWLEDGE.rollout(plain, Random(1))
        assert sighted.sheets == _played_out(world.clone(), {0}).sheets
        assert plain.sheets == _played_out(world.clone(), set()).sheets
        differs += sighted.sheets != plain.sheets
    assert differs  # the sight changes how some deals end


def test_the_whole_sight_of_a_made_up_deal_is_exactly_the_other_hands() -> None:
    state = game({0: "AH KH AS 2C 3D", 1: "2S 3S 4S 5S 6S", 2: "2H 3H 4H 5H 6H"}, dealer=2, turn_up="9H")
    sight = whole_sight(state, 0)
    assert sight.unseen == state.hands[1] | state.hands[2] and sight.in_play == 1.0
    assert sight_of(state, 0).unseen & state.unused  # the seat's own sight counts the unused pack as unseen
