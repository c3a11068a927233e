"""The Ninety-Nine computer player: legal choices everywhere, no peeking, and sound play in set positions."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import cards as C
from bot.games import new_game
from bot.games.ninety_nine import BID, OVER, PLAY, PREMIUM, NinetyNine
from bot.players import ComputerPlayer
from bot.players.ninety_nine import KNOWLEDGE

from ..helpers import hands_deck

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"trump_style": "turn-up", "format": "nine-deals"}),
    (3, {}),
    (3, {"trump_style": "turn-up", "declarer_may_raise": False}),
    (3, {"format": "oxford"}),
    (3, {"trump_style": "previous-diamonds", "premium_bids": False}),
    (4, {"format": "target", "target": 120}),
    (4, {"trump_style": "turn-up"}),
]


def match(players: int, options: dict[str, Any], seed: int = 1, **kwargs: Any) -> NinetyNine:
    state = new_game("ninety-nine", players, options, seed=seed, **kwargs)
    assert isinstance(state, NinetyNine)
    return state


# Legal choices and no peeking --------------------------------------------------------


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_the_easy_player_chooses_legal_actions_through_whole_deals(players: int, options: dict[str, Any]) -> None:
    state = match(players, options, seed=players)
    computers = [ComputerPlayer("easy", seed=seat) for seat in range(players)]
    while not state.is_over() and len(state.sheets) < 3:
        seat = state.to_act()[0]
        action = computers[seat].choose(state, seat)
        assert action in state.legal(seat)
        state.act(seat, action)
    assert len(state.sheets) == 3


@pytest.mark.parametrize(("players", "options"), SETUPS[::2])
def test_the_strong_player_chooses_legal_actions_through_a_deal(players: int, options: dict[str, Any]) -> None:
    state = match(players, options, seed=10 + players)
    strong = ComputerPlayer("strong", seed=1, budget_ms=100, samples=2)
    easy = ComputerPlayer("easy", seed=2)
    while not state.sheets:
        seat = state.to_act()[0]
        action = (strong if seat == 0 else easy).choose(state, seat)
        assert action in state.legal(seat)
        state.act(seat, action)


def states_to_decide(players: int, options: dict[str, Any], count: int, seed: int) -> list[NinetyNine]:
    """States of random play, each with a real choice for the seat on turn, in every phase."""
    rng = Random(seed)
    out: list[NinetyNine] = []
    state = match(players, options, seed=seed)
    while len(out) < count:
        if state.is_over():
            state = match(players, options, seed=rng.randrange(1000))
        seat = state.to_act()[0]
        legal = state.legal(seat)
        if len(legal) > 1 and rng.random() < 0.2:
            out.append(state.determinize(seat, Random(0)))  # a copy to keep (the seat cannot tell it apart)
        state.act(seat, rng.choice(legal))
    return out


@pytest.mark.parametrize(("players", "options"), SETUPS[::3])
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_choice_depends_only_on_what_the_seat_knows(players: int, options: dict[str, Any], level: str) -> None:
    computer = ComputerPlayer(level, seed=3, samples=4)
    for state in states_to_decide(players, options, 4 if level == "strong" else 12, seed=players):
        seat = state.to_act()[0]
        chosen = computer.choose(state, seat)
        for k in range(3 if level == "easy" else 2):
            assert computer.choose(state.determinize(seat, Random(k)), seat) == chosen


def test_rollout_plays_from_any_phase_exactly_to_the_end_of_the_deal() -> None:
    for players, options in SETUPS:
        for state in states_to_decide(players, options, 3, seed=7):
            deal = len(state.sheets)
            world = state.determinize(state.to_act()[0], Random(1))
            KNOWLEDGE.rollout(world, Random(2))
            assert len(world.sheets) == deal + 1
            assert world.phase == OVER or (world.phase == BID and world.plays == [])


def test_the_shortlist_starts_with_the_easy_choice_and_offers_several_bids() -> None:
    state = match(3, {}, seed=4)
    legal = state.legal(0)
    shortlist = KNOWLEDGE.shortlist(state, 0, legal, Random(1))
    assert shortlist[0] == KNOWLEDGE.easy(state, 0, legal, Random(1))
    assert 3 <= len(shortlist) <= 10 and len(set(shortlist)) == len(shortlist)
    assert set(shortlist) <= set(legal)
    bids = {sum((1, 2, 3, 0)[state._codes[card] >> 4] for card in action.split()[1:]) for action in shortlist}
    assert len(bids) == len(shortlist)  # the best way to make each bid, once


def test_refine_lays_hidden_bid_cards_aside_as_the_rule_based_bidder_would() -> None:
    refined = 0
    for players, options in SETUPS:
        for state in states_to_decide(players, options, 4, seed=11):
            seat = state.to_act()[0]
            world = state.determinize(seat, Random(2))
            dealt = world.clone()
            KNOWLEDGE.refine(world, seat, Random(3))
            assert world.view(seat) == state.view(seat) and world.record(seat) == state.record(seat)
            for h, voids in enumerate(world.voids):
                assert not any(voids >> suit & 1 and world.hands[h] & C.SUIT_MASK[suit] for suit in range(4))
            held = sorted(c for h in range(len(world.hands)) for c in C.cards_in(world.hands[h] | world.bid_cards[h]))
            assert held == sorted(
                c for h in range(len(state.hands)) for c in C.cards_in(state.hands[h] | state.bid_cards[h])
            )
            twin = state.determinize(seat, Random(2))
            KNOWLEDGE.refine(twin, seat, Random(4))
            assert twin.to_json() == world.to_json()  # it depends on the made-up deal alone
            for h in state._live:
                hidden = h != seat and not state.shown[h] and not state._visible_hand(h, seat)
                if not hidden or not world.bid_cards[h]:
                    assert world.bid_cards[h] == dealt.bid_cards[h]
                elif not any(who == h for who, _ in world.plays):
                    assert world.bid_cards[h] == rule_based_aside(world, h)
                    refined += 1
    assert refined > 5


def rule_based_aside(state: NinetyNine, seat: int) -> int:
    """The three cards the rule-based player would lay aside from the seat's hand and bid cards."""
    bidding = state.clone()
    bidding.hands[seat], bidding.bid_cards[seat], bidding.bids[seat] = state.hands[seat] | state.bid_cards[seat], 0, -1
    bidding.phase = BID
    action = KNOWLEDGE.easy(bidding, seat, bidding.legal(seat), Random(0))
    return C.mask_of(bidding._codes[card] for card in action.split()[1:])


def test_cards_left_units_and_aim() -> None:
    state = match(2, {}, seed=5)
    assert KNOWLEDGE.cards_left(state) is None  # bidding
    assert KNOWLEDGE.units(state) == [[0], [1]]  # the dummy scores for nobody's side
    while state.phase != PLAY:
        seat = state.to_act()[0]
        state.act(seat, KNOWLEDGE.easy(state, seat, state.legal(seat), Random(0)))
    assert KNOWLEDGE.cards_left(state) == [9, 9, 9]
    assert KNOWLEDGE.aim(state, 0) is None
    KNOWLEDGE.rollout(state, Random(0))
    rows = state.sheets[-1]["rows"]
    assert KNOWLEDGE.aim(state, 1) == ("bid", rows[1]["made"])


# Set positions -------------------------------------------------------------------------

LEVELS = [ComputerPlayer("easy", seed=1), ComputerPlayer("strong", seed=1, samples=12)]


def deal(players: int, hands: dict[int, str], dealer: int, options: dict[str, Any] | None = None) -> NinetyNine:
    order = [1, 2, 0] if players == 2 else None
    deck = hands_deck(hands, dealer=dealer, order=order)
    return match(players, options or {}, decks=[deck], first_dealer=dealer)


def bid_and_pass(state: NinetyNine, bids: dict[int, str], premiums: dict[int, str] | None = None) -> None:
    for seat, cards in bids.items():
        state.act(seat, "bid " + cards)
    while state.phase == PREMIUM:
        seat = state.to_act()[0]
        state.act(seat, (premiums or {}).get(seat, "pass"))


def plays(state: NinetyNine, *actions: str) -> None:
    for action in actions:
        state.act(state.to_act()[0], "play " + action)


def test_a_hand_that_has_made_its_bid_ducks_with_its_highest_losing_card() -> None:
    # No trumps; seat 2 bid nothing and is last to play to 10♠ and 7♠, holding A♠ 9♠ 8♠ 6♠.
    hands = {
        0: "10S JS QS KS AH KH QH JH AC KC QC JC",
        1: "7S 8H 9H 10H 9C 10C 9D 10D JD QD KD AD",
        2: "AS 9S 8S 6S 6H 7H 6C 7C 8C 6D 7D 8D",
    }
    state = deal(3, hands, dealer=2)
    bid_and_pass(state, {0: "JC QC KC", 1: "9D 10D JD", 2: "6D 7D 8D"})
    plays(state, "10S", "7S")
    assert LEVELS[0].choose(state, 2) == "play 9S"
    assert LEVELS[1].choose(state, 2) in {"play 9S", "play 8S", "play 6S"}


def test_a_hand_that_needs_every_trick_wins_with_its_cheapest_sure_winner() -> None:
    # Seat 2 bid nine (three clubs) and must win 10♥ led: K♥ does it as surely as A♥.
    hands = {
        1: "10S 9S 8S 10H 8H 7H QD JD 10D 9D AC KC",
        2: "AH KH 6H AS KS QS JS AD KD 6C 7C 8C",
        0: "7S 6S QH JH 9H 8D 7D 6D QC JC 10C 9C",
    }
    state = deal(3, hands, dealer=0)
    bid_and_pass(state, {1: "7H KC AC", 2: "6C 7C 8C", 0: "9C 10C JC"})
    plays(state, "10H")
    assert LEVELS[0].choose(state, 2) == "play KH"
    assert LEVELS[1].choose(state, 2) in {"play KH", "play AH"}


def test_a_hand_that_has_made_its_bid_does_not_trump() -> None:
    # Diamonds are trumps; seat 2 bid nothing and has no spade when K♠ is led.
    hands = {
        0: "7S 8S 9S 10S JS QS KS AS JD QD KD AD",
        1: "6S 8H 9H 10H JH QH KH 9C 10C JC QC KC",
        2: "6D 7D 8D 9D 10D AH 6H 7H AC 6C 7C 8C",
    }
    state = deal(3, hands, dealer=2, options={"trump_style": "previous-diamonds"})
    bid_and_pass(state, {0: "JD QD KD", 1: "9C 10C JC", 2: "6D 7D 8D"})
    plays(state, "KS", "6S")
    for level in LEVELS:
        assert not level.choose(state, 2).endswith("D")


def test_a_hand_that_has_made_its_bid_does_not_lead_a_suit_everyone_else_is_void_in() -> None:
    # No trumps; seat 0 (bid one) took A♥ while both others showed void in hearts.
    hands = {
        0: "AH KH QH JH 10H 9H 6S 6C 7C 7S 6D 7D",
        1: "8H 7H 6H 8S 9S 10S JS 8C 9C 10C 8D 9D",
        2: "QS KS AS JC QC KC AC 10D JD QD KD AD",
    }
    state = deal(3, hands, dealer=2)
    bid_and_pass(state, {0: "7S 6D 7D", 1: "8H 7H 6H", 2: "10D JD QD"})
    plays(state, "AH", "8D", "KD")
    assert state.to_act() == [0] and state.record(0)["voids"] == [[], ["H"], ["H"]]
    for level in LEVELS:
        assert not level.choose(state, 0).endswith("H")


def test_no_lead_into_the_strength_of_a_revealed_hand_that_needs_every_trick() -> None:
    # No trumps; seat 1 revealed a bid of nine with eight top spades and A♥: whoever gets
    # the lead gives it the deal unless a diamond comes first, which it cannot follow.
    hands = {
        0: "6S 6H 7H 8H 9H 10H 6D 7D 8D 9D 10D JD",
        1: "7S 8S 9S 10S JS QS KS AS AH 6C 7C 8C",
        2: "JH QH KH QD KD AD 9C 10C JC QC KC AC",
    }
    state = deal(3, hands, dealer=2)
    bid_and_pass(state, {0: "9D 10D JD", 1: "6C 7C 8C", 2: "9C 10C JC"}, premiums={1: "reveal"})
    assert state.view(0)["hands"][1]["premium"] == "reveal"
    for level in LEVELS:
        assert level.choose(state, 0).endswith("D")


# Two players: seat 1 leads 9♠, seat 0 follows 7♠, and seat 1 chooses the dummy's card.
TWO_HANDS = {
    1: "9S 6S 6H 7H 8H 6C 7C 8C 6D 7D 8D 9D",
    2: "AD QH KH 10S 8S JS QS KS AH QC KC AC",
    0: "7S AS 9H 10H JH 9C 10C JC 10D JD QD KD",
}


def test_the_dummy_overtakes_its_chooser_who_wants_to_lose() -> None:
    state = deal(2, TWO_HANDS, dealer=0)
    bid_and_pass(state, {1: "7D 8D 9D", 0: "10D JD QD"})  # seat 1 bid nothing
    plays(state, "9S", "7S")
    assert state.to_act() == [1] and state.view(1)["to_play"] == 2
    for level in LEVELS:
        assert level.choose(state, 1) in {"play 10S", "play JS", "play QS", "play KS"}


def test_the_dummy_does_not_overtake_its_chooser_who_needs_the_trick() -> None:
    state = deal(2, TWO_HANDS, dealer=0)
    bid_and_pass(state, {1: "6S 7D 8D", 0: "10D JD QD"})  # seat 1 bid one and holds nothing else to win with
    plays(state, "9S", "7S")
    for level in LEVELS:
        assert level.choose(state, 1) == "play 8S"


def test_a_hand_of_the_lowest_cards_bids_nothing_and_reveals_it() -> None:
    hands = {
        0: "6S 7S 8S 6H 7H 8H 6C 7C 8C 6D 7D 8D",
        1: "9S 10S JS 9H 10H JH 9C 10C JC 9D 10D JD",
        2: "QS KS AS QH KH AH QC KC AC QD KD AD",
    }
    state = deal(3, hands, dealer=2)
    for level in LEVELS:
        assert level.choose(state, 0) == "bid 6D 7D 8D"
    state.act(0, "bid 6D 7D 8D")
    state.act(1, "bid 9D 10D JD")
    state.act(2, "bid QD KD AD")
    assert state.to_act() == [0]
    assert LEVELS[0].choose(state, 0) == "reveal"
