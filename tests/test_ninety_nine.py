"""Ninety-Nine, rule by rule, on stacked decks (docs/rules/ninety-nine.md)."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from bot.games import IllegalAction, InvalidGame, new_game
from bot.games import cards as C
from bot.games.ninety_nine import NinetyNine

from .helpers import hands_deck, play_out, random_player

# Three players, dealer 2, so seat 0 leads. At no trumps seat 0 takes all nine
# tricks with its spades; everyone's bid decides the rest.
H0 = "6S 7S 8S 9S 10S JS QS KS AS 6C 7C 8C"
H1 = "6D 7D 8D 6H 7H 8H 9H 10H JH QH KH AH"
H2 = "9D 10D JD QD KD AD 9C 10C JC QC KC AC"
DOMINANT = hands_deck({0: H0, 1: H1, 2: H2}, dealer=2)
MADE = {0: "6C 7C 8C", 1: "6D 7D 8D", 2: "9D 10D JD"}  # 9, 0, 0: all make it


def dominant(**options: Any) -> NinetyNine:
    state = new_game("ninety-nine", 3, options, seed=1, decks=[DOMINANT], first_dealer=2)
    assert isinstance(state, NinetyNine)
    return state


def bid_all(state: NinetyNine, bids: dict[int, str]) -> None:
    for seat, cards in bids.items():
        state.act(seat, "bid " + cards)


def pass_premiums(state: NinetyNine) -> None:
    while state.view()["phase"] == "premium":
        state.act(state.to_act()[0], "pass")


def play_deal(state: NinetyNine) -> None:
    """Play the tricks of the current deal, each hand playing its lowest legal card."""
    deal = state.view()["deal"]
    while not state.is_over() and state.view()["deal"] == deal:
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])


def last_rows(state: NinetyNine) -> list[dict[str, Any]]:
    sheet = state.view()["last_deal"]
    assert sheet is not None
    rows: list[dict[str, Any]] = sheet["rows"]
    return rows


# Dealing ---------------------------------------------------------------------


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left() -> None:
    deck = [C.NAMES[c] for c in sorted(C.deck(["6", "7", "8", "9", "10", "J", "Q", "K", "A"]))]
    state = new_game("ninety-nine", 3, {}, seed=3, decks=[deck], first_dealer=1)
    # Dealer 1: seat 2 gets the 1st, 4th, 7th… card, then seat 0, then seat 1.
    assert state.view(2)["hand"] == sorted(deck[0::3], key=C.CODES.__getitem__)
    assert state.view(0)["hand"] == sorted(deck[1::3], key=C.CODES.__getitem__)
    assert state.view(1)["hand"] == sorted(deck[2::3], key=C.CODES.__getitem__)
    assert state.view()["dealer"] == 1


def test_four_players_get_thirteen_cards_and_play_ten_tricks() -> None:
    state = new_game("ninety-nine", 4, {}, seed=5)
    assert [len(state.view(s)["hand"]) for s in range(4)] == [13] * 4
    play_deal(state)
    assert sum(row["tricks"] for row in last_rows(state)) == 10


def test_two_players_deal_a_dummy_whose_bid_is_its_first_three_cards() -> None:
    dummy = "6D 7D 8D 7S 8S 9S 10S JS QS KS AS 9D"
    deck = hands_deck({1: "6S 6H 7H 8H 9H 10H JH QH KH AH 6C 7C", 2: dummy, 0: D2_SEAT0}, dealer=0, order=[1, 2, 0])
    state = new_game("ninety-nine", 2, {}, seed=1, decks=[deck], first_dealer=0)
    assert state.to_act() == [0, 1]
    assert state.view(0)["hands"][2]["cards"] is None  # face down until the premium bids are over
    assert state.view(0)["hands"][2]["has_bid"] is True
    assert state.view(0)["hands"][2]["bid"] is None
    assert isinstance(state, NinetyNine) and state.bids[2] == 0  # ♦ ♦ ♦


def test_the_first_dealer_comes_from_the_seed() -> None:
    dealers = {new_game("ninety-nine", 3, {}, seed=s).view()["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2}
    assert new_game("ninety-nine", 3, {}, seed=9).view() == new_game("ninety-nine", 3, {}, seed=9).view()
    assert {new_game("ninety-nine", 2, {}, seed=s).view()["dealer"] for s in range(40)} == {0, 1}


# Bidding ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "cards", "value"),
    [
        (0, "6C 7C 8C", 9),
        (1, "6D 7D 8D", 0),
        (1, "6D 6H 7H", 4),
        (2, "9D 10D 9C", 3),
        (0, "6S 7S 8S", 3),
        (1, "6D 6H 7D", 2),
    ],
)
def test_bid_value_is_the_sum_of_the_suits(seat: int, cards: str, value: int) -> None:
    state = dominant()
    state.act(seat, "bid " + cards)
    assert state.view(seat)["bid"] == value
    assert state.view(seat)["bid_cards"] == sorted(cards.split(), key=C.CODES.__getitem__)
    assert len(state.view(seat)["hand"]) == 9


def test_diamond_heart_club_bids_five() -> None:
    # Swap A♥ and 6♣ between seats 0 and 1, so seat 1 holds all three suits.
    h0 = H0.replace("6C", "AH")
    h1 = H1.replace("AH", "6C")
    deck = hands_deck({0: h0, 1: h1, 2: H2}, dealer=2)
    state = new_game("ninety-nine", 3, {}, seed=2, decks=[deck], first_dealer=2)
    state.act(1, "bid 6D 6H 6C")
    assert state.view(1)["bid"] == 5  # ♦ 0 + ♥ 2 + ♣ 3
    state.act(2, "bid 9C 9D 10D")
    assert state.view(2)["bid"] == 3  # ♣ ♦ ♦


def test_bids_are_simultaneous_and_secret() -> None:
    state = dominant()
    assert state.to_act() == [0, 1, 2]
    assert len(state.legal(0)) == 220  # every three of twelve cards
    state.act(1, "bid 6D 7D 8D")
    assert state.to_act() == [0, 2]
    assert state.legal(1) == []
    for viewer in (None, 0, 2):
        entry = state.view(viewer)["hands"][1]
        assert entry["has_bid"] is True
        assert entry["bid"] is None and entry["bid_cards"] is None


def test_a_bid_may_be_written_in_any_order_and_case() -> None:
    state = dominant()
    state.act(0, "bid 8c 6C 7c")
    assert state.view(0)["bid_cards"] == ["6C", "7C", "8C"]


# Premium bids ----------------------------------------------------------------


def test_asking_starts_at_the_dealers_left_and_ends_with_the_dealer() -> None:
    state = dominant()
    bid_all(state, MADE)
    assert state.view()["phase"] == "premium"
    asked = []
    while state.view()["phase"] == "premium":
        seat = state.to_act()[0]
        assert state.legal(seat) == ["pass", "declare", "reveal"]
        asked.append(seat)
        state.act(seat, "pass")
    assert asked == [0, 1, 2]
    assert state.view()["phase"] == "playing"
    assert state.to_act() == [0]  # the dealer's left leads


def test_a_declare_is_shown_only_when_the_asking_is_over() -> None:
    state = dominant()
    bid_all(state, MADE)
    state.act(0, "declare")
    assert state.legal(1) == ["pass", "reveal"]
    with pytest.raises(IllegalAction):
        state.act(1, "declare")
    assert state.view(None)["hands"][0]["bid_cards"] is None
    assert state.view(None)["premium_offers"] == [{"seat": 0, "offer": "declare"}]
    state.act(1, "pass")
    state.act(2, "pass")
    public = state.view(None)["hands"][0]
    assert public["bid_cards"] == ["6C", "7C", "8C"] and public["bid"] == 9 and public["premium"] == "declare"
    assert public["cards"] is None


def test_a_reveal_shows_the_bid_and_the_whole_hand_as_it_is_played() -> None:
    state = dominant()
    bid_all(state, MADE)
    state.act(0, "reveal")
    assert state.view()["phase"] == "playing"  # a reveal ends the asking
    assert state.view(1)["hands"][0]["cards"] == H0.split()[:9]
    state.act(0, "play 6S")
    assert state.view(2)["hands"][0]["cards"] == H0.split()[1:9]


def test_the_declarer_may_raise_over_a_later_reveal() -> None:
    state = dominant()
    bid_all(state, MADE)
    state.act(0, "declare")
    state.act(1, "reveal")
    assert state.to_act() == [0]
    assert state.legal(0) == ["pass", "reveal"]
    state.act(0, "reveal")
    view = state.view(None)
    assert view["phase"] == "playing"
    assert view["hands"][0]["premium"] == "reveal" and view["hands"][0]["cards"] is not None
    assert view["hands"][1]["premium"] is None and view["hands"][1]["cards"] is None
    assert view["hands"][1]["bid_cards"] is None
    assert [o["offer"] for o in view["premium_offers"]] == ["declare", "reveal", "raise"]


def test_a_declarer_who_does_not_raise_loses_the_declare_unseen() -> None:
    state = dominant()
    bid_all(state, MADE)
    state.act(0, "declare")
    state.act(1, "reveal")
    state.act(0, "pass")
    view = state.view(None)
    assert view["hands"][1]["premium"] == "reveal" and view["hands"][1]["cards"] is not None
    assert view["hands"][0]["premium"] is None and view["hands"][0]["bid_cards"] is None


def test_without_the_raise_a_reveal_settles_it_at_once() -> None:
    state = dominant(declarer_may_raise=False)
    bid_all(state, MADE)
    state.act(0, "declare")
    state.act(1, "reveal")
    view = state.view(None)
    assert view["phase"] == "playing"
    assert view["hands"][1]["premium"] == "reveal" and view["hands"][0]["premium"] is None


def test_premium_bids_can_be_switched_off() -> None:
    state = dominant(premium_bids=False)
    bid_all(state, MADE)
    assert state.view()["phase"] == "playing"
    with pytest.raises(IllegalAction):
        state.act(0, "declare")


# Play ------------------------------------------------------------------------


def test_following_suit_is_required_and_a_void_plays_anything() -> None:
    state = dominant()
    bid_all(state, MADE)
    pass_premiums(state)
    state.act(0, "play 6S")
    assert state.to_act() == [1]
    assert len(state.legal(1)) == 9  # no spades: any card
    state.act(1, "play 6H")
    assert state.legal(2) == [f"play {c}" for c in "9C 10C JC QC KC AC QD KD AD".split()]
    state.act(2, "play AD")
    view = state.view()
    assert view["last_trick"] == {
        "cards": [{"seat": 0, "card": "6S"}, {"seat": 1, "card": "6H"}, {"seat": 2, "card": "AD"}],
        "winner": 0,
    }
    assert view["hands"][0]["tricks"] == 1


# Three players, dealer 2; trump is set to ♥ by the deal before.
TRUMP_H0 = "6S 7S 8S 9S 10S JS QS KS AS 6C 7C 8C"
TRUMP_H1 = "6D 7D 8D 6H 7H 8H 9H 10H JH QH KH AH"


def test_the_highest_trump_wins_else_the_highest_of_the_suit_led() -> None:
    state = dominant()
    state.trump = C.HEARTS  # as if the deal before had two hands make it
    bid_all(state, MADE)
    pass_premiums(state)
    state.act(0, "play 6S")
    state.act(1, "play 6H")  # the lowest trump beats the suit led
    state.act(2, "play AD")
    assert state.view()["last_trick"]["winner"] == 1
    state.act(1, "play 7H")
    state.act(2, "play QC")
    state.act(0, "play 7S")
    assert state.view()["last_trick"]["winner"] == 1
    state.act(1, "play 8H")
    state.act(2, "play KC")
    state.act(0, "play 8S")
    state.act(1, "play 9H")
    # Off-suit cards never win at no trumps or otherwise.
    assert state.view()["last_trick"]["winner"] == 1


def test_at_no_trumps_the_highest_of_the_suit_led_wins() -> None:
    state = dominant()
    assert state.view()["trump"] is None
    bid_all(state, MADE)
    pass_premiums(state)
    state.act(0, "play AS")
    state.act(1, "play AH")
    state.act(2, "play AC")
    assert state.view()["last_trick"]["winner"] == 0


# Two players: the dummy is seat 2 and plays first or last.
D2_SEAT1 = "6S 6H 7H 8H 9H 10H JH QH KH AH 6C 7C"
D2_DUMMY = "6D 7D 8D 7S 8S 9S 10S JS QS KS AS 9D"
D2_SEAT0 = "8C 9C 10C JC QC KC AC 10D JD QD KD AD"


def two_player_deal(**options: Any) -> NinetyNine:
    deck = hands_deck({1: D2_SEAT1, 2: D2_DUMMY, 0: D2_SEAT0}, dealer=0, order=[1, 2, 0])
    state = new_game("ninety-nine", 2, options, seed=1, decks=[deck], first_dealer=0)
    assert isinstance(state, NinetyNine)
    return state


def test_the_dummy_plays_last_chosen_by_the_leader_and_leads_after_winning() -> None:
    state = two_player_deal()
    state.act(0, "bid 8C 9C 10C")
    state.act(1, "bid 6H 7H 8H")
    assert state.view()["phase"] == "premium"
    assert state.legal(1) == ["pass", "declare"]  # two players: no reveal
    state.act(1, "pass")
    state.act(0, "pass")
    view = state.view(None)
    assert view["hands"][2]["cards"] == "7S 8S 9S 10S JS QS KS AS 9D".split()  # face up for play
    assert view["hands"][2]["bid"] is None  # its bid stays hidden
    # The live player who is not the dealer leads; the other plays; the leader picks the dummy's card.
    assert state.to_act() == [1]
    state.act(1, "play 6S")
    assert state.to_act() == [0]
    state.act(0, "play JC")
    assert state.to_act() == [1] and state.view()["to_play"] == 2
    assert state.legal(1) == [f"play {c}" for c in "7S 8S 9S 10S JS QS KS AS".split()]  # the dummy follows suit
    with pytest.raises(IllegalAction):
        state.act(1, "play 9H")  # the leader's own card, not the dummy's
    state.act(1, "play 7S")
    assert state.view()["last_trick"]["winner"] == 2
    # The chooser of the dummy's winning card leads for it, the other plays, the chooser plays last.
    assert state.to_act() == [1] and state.view()["to_play"] == 2
    state.act(1, "play 9D")
    assert state.to_act() == [0]
    state.act(0, "play 10D")
    assert state.to_act() == [1] and state.view()["to_play"] == 1
    state.act(1, "play 9H")
    assert state.view()["last_trick"]["winner"] == 0
    # A live winner leads; the dummy plays last for that player.
    assert state.to_act() == [0]
    state.act(0, "play JD")
    state.act(1, "play 10H")
    assert state.to_act() == [0] and state.view()["to_play"] == 2 and state.view()["dummy_controller"] == 0


# The joker in turn-up --------------------------------------------------------

TU_H0 = "JK 6S 7S 8S 9S 10S JS QS KS AS 6C 7C"
TU_H1 = "6H 7H 8H 9H JH QH KH AH 8C 9C 10C JC"
TU_H2 = "QC KC AC 6D 7D 8D 9D 10D JD QD KD AD"


def turn_up(h0: str, rest: str) -> NinetyNine:
    deck = hands_deck({0: h0, 1: TU_H1, 2: TU_H2}, dealer=2, rest=rest)
    state = new_game("ninety-nine", 3, {"trump_style": "turn-up"}, seed=1, decks=[deck], first_dealer=2)
    assert isinstance(state, NinetyNine)
    return state


def test_the_joker_is_the_turned_card_for_following_and_winning() -> None:
    state = turn_up(TU_H0, rest="10H")
    view = state.view(0)
    assert view["trump"] == "H" and view["turned_up"] == "10H" and view["joker_as"] == "10H"
    assert "JK" in view["hand"]
    state.act(0, "bid 6S 6C 7C")
    state.act(1, "bid 8C 9C 10C")
    state.act(2, "bid 6D 7D 8D")
    pass_premiums(state)
    state.act(0, "play 7S")
    state.act(1, "play 6H")  # ruffs
    state.act(2, "play 9D")
    assert state.view()["last_trick"]["winner"] == 1
    state.act(1, "play 9H")
    state.act(2, "play 10D")
    assert state.legal(0) == ["play JK"]  # the joker is a heart: it must follow
    with pytest.raises(IllegalAction, match="not in the hand"):
        state.act(0, "play 10H")  # the turned card itself is out of play
    with pytest.raises(IllegalAction, match="follow suit"):
        state.act(0, "play 8S")
    state.act(0, "play JK")
    last = state.view()["last_trick"]
    assert last["winner"] == 0  # as the ten of trumps it beats the nine
    assert last["cards"][2] == {"seat": 0, "card": "JK"}


def test_the_joker_bids_as_the_turned_suit() -> None:
    state = turn_up(TU_H0, rest="10H")
    state.act(0, "bid JK 6C 7C")
    assert state.view(0)["bid"] == 8  # ♥ 2 + ♣ 3 + ♣ 3
    assert sorted(state.view(0)["bid_cards"]) == ["6C", "7C", "JK"]


def test_a_turned_nine_means_no_trumps_and_the_joker_is_that_nine() -> None:
    state = turn_up("JK 6S 7S 8S 10S JS QS KS AS 6C 7C 10H", rest="9S")
    view = state.view(0)
    assert view["trump"] is None and view["joker_as"] == "9S"


def test_a_turned_joker_means_no_trumps_and_no_joker_in_play() -> None:
    state = turn_up("6S 7S 8S 9S 10S JS QS KS AS 6C 7C 10H", rest="JK")
    view = state.view(None)
    assert view["trump"] is None and view["turned_up"] == "JK" and view["joker_as"] is None


def test_turn_up_adds_a_joker_to_the_deck() -> None:
    with pytest.raises(InvalidGame, match="37-card"):
        new_game("ninety-nine", 3, {"trump_style": "turn-up"}, seed=1, decks=[DOMINANT])
    state = new_game("ninety-nine", 4, {"trump_style": "turn-up"}, seed=4)
    assert state.view()["turned_up"] is not None


# Scoring ---------------------------------------------------------------------


def score_dominant(bids: dict[int, str], premiums: dict[int, str] | None = None, **options: Any) -> list[int]:
    state = dominant(**options)
    bid_all(state, bids)
    while state.view()["phase"] == "premium":
        seat = state.to_act()[0]
        state.act(seat, (premiums or {}).get(seat, "pass"))
    play_deal(state)
    return [row["points"] for row in last_rows(state)]


def test_everyone_made_it_scores_ten_each_with_three_players() -> None:
    assert score_dominant(MADE) == [9 + 10, 10, 10]


def test_two_made_it_score_twenty_each() -> None:
    assert score_dominant({**MADE, 1: "6H 7H 8H"}) == [9 + 20, 0, 20]


def test_one_made_it_scores_thirty() -> None:
    assert score_dominant({0: "6C 7C 8C", 1: "6H 7H 8H", 2: "9C 10C JC"}) == [9 + 30, 0, 0]


def test_a_made_reveal_with_the_lone_bid_scores_ninety_nine() -> None:
    assert score_dominant({0: "6C 7C 8C", 1: "6H 7H 8H", 2: "9C 10C JC"}, {0: "reveal"}) == [99, 0, 0]


def test_a_made_declare_scores_thirty_more() -> None:
    assert score_dominant(MADE, {0: "declare"}) == [9 + 10 + 30, 10, 10]


def test_a_failed_premium_pays_every_other_hand() -> None:
    points = score_dominant({**MADE, 1: "6H 7H 8H"}, {1: "declare"})
    assert points == [9 + 20 + 30, 0, 20 + 30]
    points = score_dominant({**MADE, 1: "6H 7H 8H"}, {1: "reveal"})
    assert points == [9 + 20 + 60, 0, 20 + 60]


# Four players, dealer 3: seat 0 takes nine spade tricks, seat 1 the last with A♥.
F0 = "6S 7S 8S 9S 10S JS QS KS AS 2H 2C 3C 4C"
F1 = "2S 2D 3D 3S 4S 5S 3H 4H 5H 6H 7H 8H AH"
F2 = "4D 5D 6D 5C 6C 7C 8C 9C 10C JC QC KC AC"
F3 = "7D 8D 9D 10D JD QD KD AD 9H 10H JH QH KH"


def test_four_made_it_score_nothing_for_the_bid() -> None:
    deck = hands_deck({0: F0, 1: F1, 2: F2, 3: F3}, dealer=3)
    state = new_game("ninety-nine", 4, {}, seed=1, decks=[deck], first_dealer=3)
    assert isinstance(state, NinetyNine)
    bid_all(state, {0: "2C 3C 4C", 1: "2S 2D 3D", 2: "4D 5D 6D", 3: "7D 8D 9D"})
    state.act(0, "reveal")
    play_deal(state)
    rows = last_rows(state)
    assert [row["tricks"] for row in rows] == [9, 1, 0, 0]
    assert all(row["made"] for row in rows)
    assert [row["points"] for row in rows] == [9 + 60, 1, 0, 0]
    assert state.view()["trump"] is None  # four made it: no trumps next


def test_the_score_sheet_says_why_the_points_moved() -> None:
    state = dominant()
    bid_all(state, {**MADE, 1: "6H 7H 8H"})
    state.act(0, "declare")
    pass_premiums(state)
    play_deal(state)
    sheet = state.view()["last_deal"]
    assert sheet["deal"] == 1 and sheet["game"] == 1 and sheet["trump"] is None and sheet["made"] == 2
    assert sheet["rows"][0] == {
        "seat": 0, "bid": 9, "tricks": 9, "made": True, "premium": "declare",
        "trick_points": 9, "bid_bonus": 20, "premium_points": 30, "game_bonus": 0,
        "points": 59, "change": 59, "game_score": 59, "total": 59,
    }  # fmt: skip
    assert sheet["rows"][1]["made"] is False and sheet["rows"][1]["bid"] == 6
    assert state.scores()["total"] == [59, 0, 20]


def two_player_scores(bids: list[int], tricks: list[int], declares: tuple[int, ...] = ()) -> list[int]:
    """Score a two-player deal from its bids and tricks (seat 2 is the dummy)."""
    state = two_player_deal()
    state.bids = list(bids)
    state.tricks = list(tricks)
    state.premium = [1 if s in declares else 0 for s in range(3)]
    state._score_deal()
    return [row["points"] for row in state.sheets[-1]["rows"]]


def test_two_players_the_dummy_makes_it_by_taking_no_more_than_its_bid() -> None:
    # The dummy took fewer than it bid: made (k = 2 with seat 0).
    assert two_player_scores([3, 5, 4], [3, 4, 2]) == [3 + 20, 4, 2 + 20]
    # Exactly its bid: made, and scored as a successful declare.
    assert two_player_scores([3, 5, 2], [3, 4, 2]) == [3 + 20, 4, 2 + 20 + 30]
    # More than its bid: failed.
    assert two_player_scores([3, 5, 1], [3, 4, 2]) == [3 + 30, 4, 2]


def test_two_players_both_may_declare_and_failures_pay_as_parlett_rules() -> None:
    # Both declare and fail: neither scores the other's 30; the dummy scores 60 (and its own made bid).
    assert two_player_scores([2, 2, 5], [3, 4, 2], declares=(0, 1)) == [3, 4, 2 + 30 + 60]
    # One makes it, one fails: the maker scores 30 + 30, the dummy 30.
    assert two_player_scores([3, 2, 5], [3, 4, 2], declares=(0, 1)) == [3 + 20 + 30 + 30, 4, 2 + 20 + 30]


def test_two_players_both_live_players_may_declare() -> None:
    state = two_player_deal()
    state.act(0, "bid 8C 9C 10C")
    state.act(1, "bid 6H 7H 8H")
    state.act(1, "declare")
    assert state.legal(0) == ["pass", "declare"]
    state.act(0, "declare")
    view = state.view(None)
    assert view["hands"][0]["premium"] == "declare" and view["hands"][1]["premium"] == "declare"
    with pytest.raises(IllegalAction):
        two_player_deal().act(1, "reveal")


# Trumps after a deal ------------------------------------------------------------


@pytest.mark.parametrize(
    ("bids", "trump"),
    [
        (MADE, "C"),  # three made it → ♣
        ({**MADE, 1: "6H 7H 8H"}, "H"),  # two → ♥
        ({0: "6C 7C 8C", 1: "6H 7H 8H", 2: "9C 10C JC"}, "S"),  # one → ♠
        ({0: "6S 7S 8S", 1: "6H 7H 8H", 2: "9C 10C JC"}, "D"),  # none → ♦
    ],
)
def test_the_next_trump_follows_how_many_made_their_bid(bids: dict[int, str], trump: str) -> None:
    state = dominant()
    bid_all(state, bids)
    pass_premiums(state)
    play_deal(state)
    assert state.view()["trump"] == trump
    assert state.view()["deal"] == 2 and state.view()["dealer"] == 0


def test_previous_diamonds_starts_each_game_with_diamonds() -> None:
    assert new_game("ninety-nine", 3, {"trump_style": "previous-diamonds"}, seed=1).view()["trump"] == "D"
    assert new_game("ninety-nine", 3, {}, seed=1).view()["trump"] is None


def test_every_game_of_a_match_starts_at_no_trumps() -> None:
    state = dominant()
    state.game_scores = [90, 0, 0]
    bid_all(state, MADE)
    pass_premiums(state)
    play_deal(state)
    assert state.view()["game_number"] == 2 and state.view()["trump"] is None


# Formats ---------------------------------------------------------------------


def finish_dominant_deal(state: NinetyNine, bids: dict[int, str] = MADE) -> None:
    bid_all(state, bids)
    pass_premiums(state)
    play_deal(state)


def test_three_bonuses_a_game_ends_at_100_and_only_makers_earn_the_bonus() -> None:
    state = dominant()
    state.game_scores = [90, 100, 0]
    state.totals = [300, 280, 100]
    finish_dominant_deal(state, {**MADE, 1: "6H 7H 8H"})  # seat 1 fails at 100
    rows = last_rows(state)
    assert [row["game_bonus"] for row in rows] == [100, 0, 0]
    assert state.scores()["bonuses"] == [1, 0, 0]
    assert state.scores()["game"] == [0, 0, 0] and state.view()["game_number"] == 2
    assert state.scores()["total"] == [300 + 29 + 100, 280, 120]
    assert not state.is_over()
    assert state.view()["dealer"] == 0  # the next dealer in turn


def test_three_bonuses_the_match_ends_at_a_third_bonus_and_the_highest_total_wins() -> None:
    state = dominant()
    state.game_scores = [90, 0, 0]
    state.bonuses = [2, 2, 0]
    state.totals = [300, 500, 100]
    finish_dominant_deal(state)
    assert state.is_over()
    result = state.result()
    assert result["scores"]["bonuses"] == [3, 2, 0]
    assert result["winners"] == [1]  # 500 + 10 beats 300 + 19 + 100
    assert result["deals"] == 1 and len(result["sheets"]) == 1
    with pytest.raises(IllegalAction, match="over"):
        state.act(0, "pass")


def test_target_needs_more_than_the_target() -> None:
    state = dominant(format="target", target=200)
    state.totals = [181, 0, 0]
    finish_dominant_deal(state)
    assert state.scores()["total"][0] == 200 and not state.is_over()
    state = dominant(format="target", target=200)
    state.totals = [182, 195, 0]
    finish_dominant_deal(state)
    assert state.is_over() and state.result()["winners"] == [1]  # 205 beats 201


def test_rounds_per_player_plays_one_game_per_player_without_bonus() -> None:
    state = dominant(format="rounds-per-player")
    state.games_done = 2
    state.game_scores = [90, 0, 0]
    finish_dominant_deal(state)
    assert state.is_over()
    assert [row["game_bonus"] for row in last_rows(state)] == [0, 0, 0]
    assert state.result()["games"] == 3 and state.result()["winners"] == [0]


@pytest.mark.parametrize(("reached", "bonus"), [((0,), 30), ((0, 1), 20), ((0, 1, 2), 10)])
def test_rounds_per_player_bonus_pays_those_at_100(reached: tuple[int, ...], bonus: int) -> None:
    state = dominant(format="rounds-per-player-bonus")
    state.game_scores = [100 if s in reached else 50 for s in range(3)]
    finish_dominant_deal(state)
    assert [row["game_bonus"] for row in last_rows(state)] == [bonus if s in reached else 0 for s in range(3)]
    assert not state.is_over() and state.view()["game_number"] == 2


def test_first_to_three_counts_games_won_by_the_highest_scorer() -> None:
    state = dominant(format="first-to-three")
    state.game_scores = [90, 0, 0]
    state.games_won = [2, 2, 0]
    state.totals = [0, 900, 0]
    finish_dominant_deal(state)
    assert state.is_over()
    assert state.result()["scores"]["games_won"] == [3, 2, 0]
    assert state.result()["winners"] == [0]  # by games, not by total


def test_first_to_three_equal_highest_each_win_the_game() -> None:
    state = dominant(format="first-to-three")
    state.game_scores = [91, 100, 0]  # both end the deal on 110
    state.games_won = [2, 2, 0]
    finish_dominant_deal(state)
    assert state.result()["winners"] == [0, 1]


def test_nine_deals_ends_after_the_ninth() -> None:
    state = dominant(format="nine-deals")
    state.deal_no = 8
    finish_dominant_deal(state)
    assert state.is_over() and state.result()["deals"] == 9
    state = dominant(format="nine-deals")
    state.deal_no = 7
    finish_dominant_deal(state)
    assert not state.is_over()


def test_oxford_turns_trump_from_its_pile_and_scores_a_flat_ten() -> None:
    state = new_game("ninety-nine", 3, {"format": "oxford"}, seed=11, decks=[DOMINANT], first_dealer=2)
    assert isinstance(state, NinetyNine)
    view = state.view()
    assert view["trump_pile_left"] == 15 and C.rank_of(C.CODES[view["turned_up"]]) <= C.RANK_INDEX["5"]
    assert view["trump"] == view["turned_up"][-1]
    state.trump, state.pile = C.SPADES, []  # the last card of the pile turned ♠
    bid_all(state, {**MADE, 1: "6H 7H 8H"})
    assert state.view()["phase"] == "playing"  # no premium bids
    play_deal(state)
    assert [row["points"] for row in last_rows(state)] == [9 + 10, 0, 10]
    assert state.is_over() and state.result()["winners"] == [0]


def test_oxford_plays_sixteen_deals_with_every_pile_card_once() -> None:
    state = new_game("ninety-nine", 3, {"format": "oxford"}, seed=2)
    turned = []
    while not state.is_over():
        view = state.view()
        if view["phase"] == "bidding" and len(view["to_act"]) == 3:
            turned.append(view["turned_up"])
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])
    assert len(turned) == 16 and len(set(turned)) == 16
    assert state.result()["deals"] == 16


def test_two_players_the_dummy_never_ends_a_game_nor_wins() -> None:
    state = two_player_deal(format="target", target=50)
    state.totals = [0, 0, 500]
    state.bids = [9, 9, 9]
    state.tricks = [0, 0, 0]
    state._score_deal()
    assert not state.is_over()
    state = two_player_deal()
    state.game_scores = [0, 0, 150]
    state.bids = [9, 9, 9]
    state.tricks = [0, 0, 0]
    state._score_deal()
    assert state.view()["game_number"] == 1 and state.scores()["bonuses"] == [0, 0, 0]


# Bad input -------------------------------------------------------------------


def unchanged_after(state: NinetyNine, seat: Any, action: Any, match: str) -> None:
    before = state.to_json()
    with pytest.raises(IllegalAction, match=match):
        state.act(seat, action)
    assert state.to_json() == before


def test_every_kind_of_bad_input_is_refused_and_changes_nothing() -> None:
    state = dominant()
    unchanged_after(state, 3, "bid 6C 7C 8C", "no seat 3")
    unchanged_after(state, -1, "bid 6C 7C 8C", "no seat")
    unchanged_after(state, "0", "bid 6C 7C 8C", "no seat")
    unchanged_after(state, 0, "jump", "not an action")
    unchanged_after(state, 0, "", "not an action")
    unchanged_after(state, 0, None, "not an action")
    unchanged_after(state, 0, "pass now", "not an action")
    unchanged_after(state, 0, "play 6S", "bidding phase")
    unchanged_after(state, 0, "declare", "bidding phase")
    unchanged_after(state, 0, "bid 6C 7C", "exactly three")
    unchanged_after(state, 0, "bid 6C 7C 8C 9S", "exactly three")
    unchanged_after(state, 0, "bid 6C 6C 8C", "exactly three")
    unchanged_after(state, 0, "bid 6C 7C 6D", "6D is not in the hand")
    unchanged_after(state, 0, "bid 6C 7C 1X", "'1X' is not a card")
    unchanged_after(state, 0, "bid 6C 7C JK", "not in the hand")
    state.act(0, "bid 6C 7C 8C")
    unchanged_after(state, 0, "bid 6S 7S 8S", "not seat 0's turn")
    state.act(1, "bid 6D 7D 8D")
    state.act(2, "bid 9D 10D JD")
    unchanged_after(state, 1, "pass", "not seat 1's turn")
    unchanged_after(state, 0, "bid 6S 7S 8S", "premium phase")
    pass_premiums(state)
    unchanged_after(state, 1, "play 6H", "not seat 1's turn")
    unchanged_after(state, 0, "play 6C", "not in the hand")  # a bid card is out of play
    unchanged_after(state, 0, "play", "not a card")
    unchanged_after(state, 0, "pass", "playing phase")
    state.act(0, "play 6S")
    state.act(1, "play 6H")
    unchanged_after(state, 2, "play 9D", "not in the hand")


def test_a_must_follow_refusal_names_the_suit() -> None:
    state = two_player_deal()
    state.act(0, "bid 8C 9C 10C")
    state.act(1, "bid 6H 7H 8H")
    state.act(1, "pass")
    state.act(0, "pass")
    state.act(1, "play 6S")
    state.act(0, "play JC")
    unchanged_after(state, 1, "play 9D", "must follow suit: you hold spades")  # the dummy holds spades


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"name": "whist"}, "Unknown game 'whist'. Games: ninety-nine"),
        ({"players": 5}, "played by 2, 3, 4 players, not 5"),
        ({"players": 1}, "not 1"),
        ({"options": {"colour": "red"}}, "Unknown option 'colour'.*Options: format, target"),
        ({"options": {"format": "sprint"}}, "Allowed: three-bonuses, target"),
        ({"options": {"target": 20}}, "from 50 to 1000"),
        ({"options": {"target": "200"}}, "from 50 to 1000"),
        ({"options": {"premium_bids": "yes"}}, "true or false"),
        ({"options": {"trump_style": "random"}}, "previous, previous-diamonds, turn-up"),
        ({"options": {"format": "oxford"}, "players": 4}, "format=oxford needs 3 players"),
        ({"decks": [["AS"] * 36]}, "whole 36-card deck"),
        ({"decks": [DOMINANT[:-1]]}, "whole 36-card deck"),
        ({"first_dealer": 3}, "first_dealer must be one of 0, 1, 2"),
        ({"players": 2, "first_dealer": 2}, "one of 0, 1"),
    ],
)
def test_new_game_refuses_what_it_cannot_set_up(kwargs: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {"name": "ninety-nine", "players": 3, "options": {}, "seed": 1, **kwargs}
    with pytest.raises(InvalidGame, match=match) as info:
        new_game(**args)
    assert isinstance(info.value, ValueError) and info.value.key


def test_errors_carry_a_key_and_params_for_translation() -> None:
    state = dominant()
    with pytest.raises(IllegalAction) as info:
        state.act(0, "bid 6C 7C 6D")
    assert info.value.key == "card_not_held" and info.value.params == {"card": "6D"}


def test_a_whole_default_match_plays_to_a_result() -> None:
    for players in (2, 3, 4):
        state = new_game("ninety-nine", players, {}, seed=players)
        play_out(state)
        result = state.result()
        assert max(result["scores"]["bonuses"]) >= 3
        live = range(players)
        best = max(result["scores"]["total"][s] for s in live)
        assert result["winners"] == [s for s in live if result["scores"]["total"][s] == best]


# What a computer player may know ---------------------------------------------------

DETERMINIZE_CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"trump_style": "turn-up", "format": "nine-deals"}),
    (3, {}),
    (3, {"trump_style": "turn-up", "declarer_may_raise": False}),
    (3, {"format": "oxford"}),
    (3, {"premium_bids": False, "trump_style": "previous-diamonds"}),
    (4, {"format": "target", "target": 120}),
    (4, {"trump_style": "turn-up"}),
]


def copy_of(state: NinetyNine) -> NinetyNine:
    copy = NinetyNine.restore(json.loads(state.to_json()))
    assert isinstance(copy, NinetyNine)
    return copy


def random_states(players: int, options: dict[str, Any], matches: int) -> list[NinetyNine]:
    """States met in random matches: every phase, about every seventh action of each deal."""
    out = []
    for seed in range(matches):
        rng = Random(seed)
        state = new_game("ninety-nine", players, options, seed=seed)
        assert isinstance(state, NinetyNine)
        while not state.is_over() and len(state.sheets) < 3:
            if rng.random() < 0.15:
                out.append(copy_of(state))
            seat = rng.choice(state.to_act())
            state.act(seat, rng.choice(state.legal(seat)))
    return out


def deal_cards(state: NinetyNine) -> list[int]:
    """Every card of the current deal where it is now: hands, bid cards, played."""
    held = [c for mask in (*state.hands, *state.bid_cards) for c in C.cards_in(mask)]
    return held + [c for _, c in state.plays]


def test_record_lists_the_plays_in_order_and_the_voids_shown() -> None:
    state = dominant()
    bid_all(state, MADE)
    pass_premiums(state)
    state.act(0, "play AS")
    state.act(1, "play AH")  # seat 1 has no spade
    state.act(2, "play KD")  # nor seat 2
    state.act(0, "play KS")
    record = state.record(1)
    assert record["plays"] == [
        {"seat": 0, "card": "AS"},
        {"seat": 1, "card": "AH"},
        {"seat": 2, "card": "KD"},
        {"seat": 0, "card": "KS"},
    ]
    assert record["voids"] == [[], ["S"], ["S"]]
    assert record["hand"] == state.view(1)["hand"] and "QS" not in str(record)
    play_deal(state)  # a new deal starts an empty record
    assert state.record(0)["plays"] == [] and state.record(0)["voids"] == [[], [], []]


def test_record_names_the_joker_as_it_was_played() -> None:
    # Turn-up: 6♠ is turned, so the joker in seat 0's hand is the 6♠ of trumps.
    deck = hands_deck({0: "JK " + H0.split(" ", 1)[1], 1: H1, 2: H2}, dealer=2, rest="6S")
    state = new_game("ninety-nine", 3, {"trump_style": "turn-up"}, seed=1, decks=[deck], first_dealer=2)
    assert isinstance(state, NinetyNine)
    bid_all(state, MADE)
    pass_premiums(state)
    state.act(0, "play JK")
    assert state.record(2)["plays"] == [{"seat": 0, "card": "JK"}]


@pytest.mark.parametrize(("players", "options"), DETERMINIZE_CASES)
def test_determinize_keeps_what_the_seat_saw_and_deals_the_rest(players: int, options: dict[str, Any]) -> None:
    rng = Random(players)
    for state in random_states(players, options, 6):
        seat = rng.randrange(players)
        world = state.determinize(seat, Random(rng.random()))
        assert world.view(seat) == state.view(seat)
        assert world.record(seat) == state.record(seat)
        assert world.hands[seat] == state.hands[seat] and world.bid_cards[seat] == state.bid_cards[seat]
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
        assert [b.bit_count() for b in world.bid_cards] == [b.bit_count() for b in state.bid_cards]
        everything = deal_cards(world)
        assert len(everything) == len(set(everything)) and sorted(everything) == sorted(deal_cards(state))
        assert sorted(world.pile) == sorted(state.pile)
        for h, voids in enumerate(world.voids):
            for suit in range(4):
                assert not (voids >> suit & 1 and world.hands[h] & C.SUIT_MASK[suit])
        for h, cards in enumerate(world.bid_cards):
            assert not cards or world.bids[h] == sum((1, 2, 3, 0)[c >> 4] for c in C.cards_in(cards))
        assert world.decks == [] and world.seed != state.seed


def swap_unseen(state: NinetyNine, seat: int, rng: Random) -> NinetyNine:
    """A copy of ``state`` with hidden cards swapped between the places the rules hide from ``seat``
    (other hands face down, bid cards not declared), within shown voids: a state it cannot tell apart."""
    twin = copy_of(state)
    places: list[tuple[list[int], int]] = []
    for h in range(len(state.hands)):
        if h == seat:
            continue
        if not (state.shown[h] == 2 or (state.players == 2 and h == 2 and state.phase == 2)):
            places.append((twin.hands, h))
        if state.shown[h] == 0:
            places.append((twin.bid_cards, h))

    def fits(place: tuple[list[int], int], card: int) -> bool:
        where, h = place
        return where is not twin.hands or not twin.voids[h] >> (card >> 4) & 1

    for _ in range(20):
        one, other = rng.sample(places, 2) if len(places) > 1 else (places[0], places[0])
        if not one[0][one[1]] or not other[0][other[1]]:
            continue
        a, b = rng.choice(C.cards_in(one[0][one[1]])), rng.choice(C.cards_in(other[0][other[1]]))
        if fits(one, b) and fits(other, a):
            one[0][one[1]] ^= 1 << a | 1 << b
            other[0][other[1]] ^= 1 << a | 1 << b
    for h, cards in enumerate(twin.bid_cards):
        if cards:
            twin.bids[h] = sum((1, 2, 3, 0)[c >> 4] for c in C.cards_in(cards))
    twin.pile = sorted(twin.pile, reverse=True)
    twin.seed += 1
    return twin


@pytest.mark.parametrize(("players", "options"), DETERMINIZE_CASES)
def test_determinize_depends_only_on_what_the_seat_knows(players: int, options: dict[str, Any]) -> None:
    rng = Random(-players)
    for state in random_states(players, options, 5):
        seat = rng.randrange(players)
        twins = [swap_unseen(state, seat, rng), state.determinize(seat, Random(7))]
        assert twins[0].view(seat) == state.view(seat)
        for k in range(3):
            expected = state.determinize(seat, Random(k)).to_json()
            assert all(twin.determinize(seat, Random(k)).to_json() == expected for twin in twins)


@pytest.mark.parametrize(("players", "options"), DETERMINIZE_CASES)
def test_a_determinized_match_plays_on_to_its_end(players: int, options: dict[str, Any]) -> None:
    states = random_states(players, {**options, "format": "nine-deals"} if "format" not in options else options, 2)
    for index, state in enumerate(states[:6]):
        world = state.determinize(index % players, Random(index))
        play_out(world, random_player(index))
        assert world.is_over() and world.result()["winners"]


def test_determinize_respects_voids_and_hides_the_stacked_decks() -> None:
    state = new_game("ninety-nine", 3, {}, seed=1, decks=[DOMINANT, DOMINANT], first_dealer=2)
    assert isinstance(state, NinetyNine)
    bid_all(state, MADE)
    pass_premiums(state)
    state.act(0, "play AS")
    state.act(1, "play AH")
    state.act(2, "play KD")
    for k in range(20):
        world = state.determinize(0, Random(k))
        assert not (world.hands[1] | world.hands[2]) & C.SUIT_MASK[C.SPADES]  # both showed void in spades
        assert world.hands[0] == state.hands[0]
    world = state.determinize(0, Random(3))
    assert world.decks == []
    play_deal(world)
    assert world.hands[0] != C.mask_of(C.CODES[card] for card in H0.split())  # the next deal is not the stacked one


def test_the_dummys_hand_number_is_no_seat_to_view_from() -> None:
    """Two players: the dummy's bid cards stay hidden until the deal is scored, and its hand until play; hand 2
    is nobody's seat, so ``view(2)`` is the spectator's view (it showed the dummy's hand and bid cards). The
    match's review still rebuilds the dummy's cards as dealt (``hand_view``)."""
    state = two_player_deal()
    assert state.view(2) == state.view(None)
    assert state.view(2)["hands"][2]["cards"] is None and state.view(2)["hands"][2]["bid_cards"] is None
    assert "hand" not in state.view(2)
    assert state.hand_view(2)["hands"][2]["cards"] and state.hand_view(2)["hands"][2]["bid_cards"]
    assert state.record(2)["hands"][2]["bid_cards"] is None
