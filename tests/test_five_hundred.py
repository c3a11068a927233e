"""Five Hundred, rule by rule (docs/rules/five-hundred.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import IllegalAction, InvalidGame, new_game
from bot.games import cards as C
from bot.games.five_hundred import DECKS, PHASE_NAMES, FiveHundred, bid_rank

from .helpers import strings_in
from .test_five_hundred_properties import hidden_cards


def fresh(players: int = 4, first_dealer: int | None = None, **options: Any) -> FiveHundred:
    dealer = players - 1 if first_dealer is None else first_dealer
    state = new_game("five-hundred", players, options, seed=3, first_dealer=dealer)
    assert isinstance(state, FiveHundred)
    return state


def at_play(contract: str, hands: dict[int, str], contractor: int = 0, players: int = 4, **options: Any) -> FiveHundred:
    """A hand about to be led by the contractor, with exactly these cards in play."""
    state = fresh(players, **options)
    rank = bid_rank(contract)
    assert rank is not None
    if contract == "open-misere" and options.get("open_misere_highest"):
        rank = 50
    state.contract = state.high = rank
    state.contractor = state.high_bidder = contractor
    state.hands = [C.mask_of(C.CODES[c] for c in hands.get(s, "").split()) for s in range(players)]
    state.kitty = 0
    state._after_restore()
    state._start_play()
    return state


def play(state: FiveHundred, *actions: str) -> None:
    for action in actions:
        state.act(state.to_act()[0], action)


# Decks and the deal ------------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "kitty"), [(2, 25, 5), (3, 33, 3), (4, 43, 3), (5, 53, 3), (6, 63, 3)])
def test_each_player_count_has_its_deck_and_kitty(players: int, size: int, kitty: int) -> None:
    assert len(DECKS[players]) == size == len(set(DECKS[players]))
    state = fresh(players)
    assert all(len(state.view(s)["hand"]) == 10 for s in range(players))
    assert state.kitty.bit_count() == kitty == state.view()["kitty_size"]


def test_the_six_player_deck_has_elevens_twelves_and_two_thirteens() -> None:
    names = {C.NAMES[c] for c in DECKS[6]}
    assert {"11S", "12S", "11D", "12C", "13H", "13D"} <= names and "13S" not in names and "13C" not in names
    assert "4H" in {C.NAMES[c] for c in DECKS[4]} and "4S" not in {C.NAMES[c] for c in DECKS[4]}


def test_four_players_are_dealt_in_packets_of_three_four_three() -> None:
    deck = [C.NAMES[c] for c in DECKS[4]]
    state = new_game("five-hundred", 4, {}, seed=1, decks=[deck], first_dealer=3)
    assert isinstance(state, FiveHundred)
    # Dealer 3: seat 0 gets cards 0-2, 13-16 and 30-32; the kitty cards 12, 29 and 42.
    assert state.view(0)["hand"] == sorted(deck[0:3] + deck[13:17] + deck[30:33], key=C.CODES.__getitem__)
    assert state.view(1)["hand"] == sorted(deck[3:6] + deck[17:21] + deck[33:36], key=C.CODES.__getitem__)
    assert state.kitty == C.mask_of(C.CODES[c] for c in (deck[12], deck[29], deck[42]))


def test_other_counts_deal_ten_each_one_at_a_time_and_the_rest_to_the_kitty() -> None:
    deck = [C.NAMES[c] for c in DECKS[3]]
    state = new_game("five-hundred", 3, {}, seed=1, decks=[deck], first_dealer=0)
    assert isinstance(state, FiveHundred)
    assert state.view(1)["hand"] == sorted(deck[0:30:3], key=C.CODES.__getitem__)
    assert state.kitty == C.mask_of(C.CODES[c] for c in deck[30:])


# The auction -----------------------------------------------------------------


def test_bidding_goes_round_from_the_dealers_left_and_a_pass_is_out() -> None:
    state = fresh(4, first_dealer=1)
    assert state.to_act() == [2]
    play(state, "bid 6S", "pass", "bid 6C", "bid 7S")  # seats 2, 3, 0, 1
    assert state.to_act() == [2]
    play(state, "bid 7C")
    assert state.to_act() == [0]  # seat 3 passed and is skipped
    play(state, "pass", "pass")
    assert state.view()["phase"] == "discarding" and state.to_act() == [2]
    assert state.view()["contract"] == {"kind": "suit", "tricks": 7, "trump": "C"}
    auction = state.view(None)["auction"]
    assert auction[1] == {"seat": 3, "call": "pass"}
    assert auction[0] == {"seat": 2, "call": "bid", "kind": "suit", "tricks": 6, "trump": "S"}


def test_bids_must_be_higher_in_the_rules_order() -> None:
    state = fresh()
    play(state, "bid 7NT")
    legal = state.legal(state.to_act()[0])
    assert "bid misere" in legal and "bid 8S" in legal and "bid 7H" not in legal
    with pytest.raises(IllegalAction, match="not legal"):
        play(state, "bid 7H")
    play(state, "bid misere")
    assert "bid misere" not in state.legal(state.to_act()[0]) and "bid 8S" in state.legal(state.to_act()[0])
    play(state, "bid 10D")
    legal = state.legal(state.to_act()[0])
    assert "bid open-misere" in legal and "bid 10H" in legal and "bid 10C" not in legal
    play(state, "bid 10H")
    assert state.legal(state.to_act()[0]) == ["pass", "bid 10NT"]


def test_open_misere_highest_outranks_ten_no_trumps() -> None:
    state = fresh(open_misere_highest=True)
    play(state, "bid 10NT")
    assert state.legal(state.to_act()[0]) == ["pass", "bid open-misere"]


def test_misere_after_seven_needs_a_seven_bid_first() -> None:
    state = fresh(misere_after_seven=True)
    legal = state.legal(state.to_act()[0])
    assert "bid misere" not in legal and "bid open-misere" in legal
    play(state, "bid 7S")
    assert "bid misere" in state.legal(state.to_act()[0])


def test_all_pass_redeals_with_the_same_dealer() -> None:
    state = fresh(first_dealer=2)
    first_hand = state.view(0)["hand"]
    play(state, "pass", "pass", "pass", "pass")
    view = state.view(0)
    assert view["deal"] == 2 and view["dealer"] == 2 and view["phase"] == "bidding"
    assert view["hand"] != first_hand and view["last_deal"]["thrown_in"] is True


def test_move_after_two_passes_the_deal_after_a_second_all_pass() -> None:
    state = fresh(first_dealer=2, all_pass="move-after-two")
    play(state, "pass", "pass", "pass", "pass")
    assert state.view()["dealer"] == 2
    play(state, "pass", "pass", "pass", "pass")
    assert state.view()["dealer"] == 3


def test_all_pass_can_be_played_at_no_trumps_with_ten_a_trick_for_all() -> None:
    state = fresh(first_dealer=2, all_pass="play-no-trumps")
    play(state, "pass", "pass", "pass", "pass")
    view = state.view()
    assert view["phase"] == "playing" and view["contract"] is None and view["trump"] is None
    assert state.to_act() == [3]  # the dealer's left leads
    while state.view()["deal"] == 1:
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])
    rows = state.sheets[-1]["rows"]
    side_tricks = [rows[0]["tricks"] + rows[2]["tricks"], rows[1]["tricks"] + rows[3]["tricks"]]
    assert state.scores()["sides"] == [10 * side_tricks[0], 10 * side_tricks[1]]


def test_passed_players_may_rebid_with_the_option() -> None:
    state = fresh(first_dealer=3, passed_may_rebid=True)
    play(state, "pass", "bid 6S", "pass", "pass")  # seats 0, 1, 2, 3
    assert state.to_act() == [0] and "bid 6C" in state.legal(0)
    play(state, "bid 6C", "pass", "pass")
    assert state.view()["phase"] == "bidding"  # seat 3 still to pass after the new bid
    play(state, "pass")
    assert state.view()["contractor"] == 0


# The kitty -------------------------------------------------------------------


def test_the_contractor_takes_the_kitty_and_lays_aside_as_many() -> None:
    state = fresh(first_dealer=3)
    kitty = [C.NAMES[c] for c in C.cards_in(state.kitty)]
    play(state, "bid 6NT", "pass", "pass", "pass")
    view = state.view(0)
    assert view["kitty"] == kitty and len(view["hand"]) == 13
    assert "kitty" not in state.view(1) and all(k not in str(state.view(None)) for k in kitty)
    assert len(state.legal(0)) == 286  # any three of thirteen
    with pytest.raises(IllegalAction):
        state.act(0, "discard " + " ".join(view["hand"][:2]))
    state.act(0, "discard " + " ".join(view["hand"][:3]))
    assert state.view(0)["discards"] == view["hand"][:3] and len(state.view(0)["hand"]) == 10
    assert state.view()["phase"] == "playing" and state.to_act() == [0]  # the contractor leads


def test_two_players_lay_aside_five() -> None:
    state = fresh(2, first_dealer=1)
    play(state, "bid 6S", "pass")
    hand = state.view(0)["hand"]
    assert len(hand) == 15
    state.act(0, "discard " + " ".join(hand[:5]))
    assert len(state.view(0)["hand"]) == 10


# Ranking and following -----------------------------------------------------------


def test_joker_beats_right_bower_beats_left_bower_beats_the_ace() -> None:
    state = at_play("7H", {0: "AH 5S", 1: "JD 10D", 2: "JH 5C", 3: "JK 6S"})
    play(state, "play AH")
    assert state.legal(1) == ["play JD"]  # the left bower is a heart: it must follow
    play(state, "play JD")
    assert state.legal(2) == ["play JH"]
    play(state, "play JH")
    assert state.legal(3) == ["play JK"]  # the joker is the top trump
    play(state, "play JK")
    assert state.view()["last_trick"]["winner"] == 3
    state = at_play("7H", {0: "AH", 1: "JD", 2: "JH", 3: "4H"})
    play(state, "play AH", "play JD", "play JH", "play 4H")
    assert state.view()["last_trick"]["winner"] == 2


def test_the_left_bower_is_not_its_printed_suit() -> None:
    state = at_play("7H", {0: "AD 5S", 1: "JD 5C", 2: "4D 6C", 3: "KS 7C"})
    play(state, "play AD")
    assert state.legal(1) == ["play 5C", "play JD"]  # no diamond: JD is a heart here
    play(state, "play JD")  # a trump: it wins
    play(state, "play 4D", "play 7C")
    assert state.view()["last_trick"]["winner"] == 1


def test_at_no_trumps_there_are_no_bowers() -> None:
    state = at_play("7NT", {0: "AD 5S", 1: "JD 5C", 2: "4D 6C", 3: "KS 7C"})
    play(state, "play AD")
    assert state.legal(1) == ["play JD"]  # a plain diamond again
    play(state, "play JD", "play 4D", "play 7C")
    assert state.view()["last_trick"]["winner"] == 0


def test_at_no_trumps_the_joker_follows_only_a_void_and_beats_everything() -> None:
    state = at_play("7NT", {0: "AS 5H", 1: "JK 5S", 2: "KS 6H", 3: "QS 7H"})
    play(state, "play AS")
    assert state.legal(1) == ["play 5S"]  # holds a spade: the joker may not be played
    state = at_play("7NT", {0: "AS 5H", 1: "JK 5C", 2: "KS 6H", 3: "QS 7H"})
    play(state, "play AS")
    assert state.legal(1) == ["play 5C", "play JK"]
    play(state, "play JK", "play KS", "play QS")
    assert state.view()["last_trick"]["winner"] == 1


def test_a_joker_led_at_no_trumps_names_the_suit_to_follow() -> None:
    state = at_play("7NT", {0: "JK 5C", 1: "10H 5S", 2: "6H 6C", 3: "AS 7C"})
    assert "play JK H" in state.legal(0) and "play JK" not in state.legal(0)
    with pytest.raises(IllegalAction):
        state.act(0, "play JK")  # a suit must be named
    play(state, "play JK H")
    assert state.view()["named_suit"] == "H"
    assert state.legal(1) == ["play 10H"]
    play(state, "play 10H", "play 6H", "play AS")
    last = state.view()["last_trick"]
    assert last["winner"] == 0 and last["named_suit"] == "H"
    assert state.voids[3] == 1 << C.HEARTS  # seat 3 showed a void in hearts


def test_the_joker_may_not_name_a_suit_its_leader_showed_void_in() -> None:
    state = at_play("7NT", {0: "JK 5C", 1: "10H 5S"})
    state.voids[0] = 1 << C.HEARTS
    assert "play JK H" not in state.legal(0) and "play JK S" in state.legal(0)
    with pytest.raises(IllegalAction):
        state.act(0, "play JK H")
    state = at_play("7NT", {0: "JK 5C", 1: "10H 5S"}, joker_lead_any_suit=True)
    state.voids[0] = 1 << C.HEARTS
    assert "play JK H" in state.legal(0)


def test_a_joker_led_as_the_last_card_after_a_void_in_every_suit_may_name_any() -> None:
    """The rules bar a suit the leader showed void in and are silent when that is every suit (the joker their last
    card): the leader is not left without a move, any suit may be named (docs/rules/five-hundred.md)."""
    state = at_play("6NT", {0: "JK", 1: "6H", 2: "8H", 3: "10H"})
    state.voids[0] = 0b1111
    assert sorted(state.legal(0)) == ["play JK C", "play JK D", "play JK H", "play JK S"]
    state.voids[0] = 0b1011
    assert len(state.legal(0)) == 1


def test_at_a_suit_contract_the_joker_led_is_a_trump_lead() -> None:
    state = at_play("7S", {0: "JK 5C", 1: "JC 5H", 2: "6H 6C", 3: "AS 7C"})
    assert "play JK" in state.legal(0) and "play JK S" not in state.legal(0)
    play(state, "play JK")
    assert state.legal(1) == ["play JC"]  # the left bower must follow a trump lead
    play(state, "play JC", "play 6C")
    assert state.legal(3) == ["play AS"]


# Misère --------------------------------------------------------------------


def test_in_misere_the_partner_sits_out_and_tricks_are_one_card_short() -> None:
    state = at_play("misere", {0: "5S 6S", 1: "7S 8S", 2: "AS KS", 3: "9S 10S"})
    assert state.view()["hands"][2]["sitting_out"] is True
    play(state, "play 5S", "play 7S")
    assert state.to_act() == [3]  # seat 2 is skipped
    play(state, "play 9S")
    assert state.view()["last_trick"]["winner"] == 3 and len(state.view()["last_trick"]["cards"]) == 3


def test_misere_stops_as_soon_as_the_contractor_wins_a_trick() -> None:
    state = at_play("misere", {0: "AS 6S", 1: "7S 8S", 2: "QS KS", 3: "9S 10S"})
    state.totals = [0, 0, 0, 0]
    play(state, "play AS", "play 7S", "play 9S")
    sheet = state.view()["last_deal"]
    assert sheet["made"] is False and sheet["value"] == 250
    assert [row["points"] for row in sheet["rows"]] == [-250, 0, -250, 0]  # no trick points after misère
    assert state.view()["deal"] == 2


def test_misere_tricks_score_plays_on_and_pays_the_opponents_per_trick() -> None:
    state = at_play("misere", {0: "AS 6S", 1: "7S 8S", 2: "QS KS", 3: "9S 10S"}, misere_tricks_score=True)
    play(state, "play AS", "play 7S", "play 9S")
    assert state.view()["deal"] == 1 and state.view()["phase"] == "playing"
    state.tricks = [2, 3, 0, 5]
    state._score_hand()
    assert [row["points"] for row in state.sheets[-1]["rows"]] == [-250, 20, -250, 20]


def test_open_misere_spreads_the_hand_before_the_first_lead() -> None:
    state = at_play("open-misere", {0: "5S 6S", 1: "7S 8S", 3: "9S 10S"})
    assert state.view(None)["hands"][0]["cards"] == ["5S", "6S"]
    state = at_play("open-misere", {0: "5S 6S", 1: "7S 8S", 3: "9S 10S"}, open_misere_spread="after-first-trick")
    assert state.view(None)["hands"][0]["cards"] is None
    play(state, "play 5S", "play 7S", "play 9S")
    assert state.view(None)["hands"][0]["cards"] == ["6S"]


# Scoring ---------------------------------------------------------------------


def scored(contract: str, tricks: list[int], contractor: int = 0, players: int = 4, **options: Any) -> list[int]:
    state = at_play(contract, {}, contractor=contractor, players=players, **options)
    state.tricks = list(tricks)
    state._score_hand()
    return [row["points"] for row in state.sheets[-1]["rows"]]


@pytest.mark.parametrize(
    ("contract", "value"),
    [("6S", 40), ("6C", 60), ("6D", 80), ("6H", 100), ("6NT", 120), ("7S", 140), ("8D", 280), ("9H", 400),
     ("10S", 440), ("10C", 460), ("10D", 480), ("10H", 500), ("10NT", 520)],
)  # fmt: skip
def test_the_avondale_table(contract: str, value: int) -> None:
    tricks = int(contract[:-1] if contract[-1] != "T" else contract[:-2])
    assert scored(contract, [tricks, 10 - tricks, 0, 0])[0] == value
    assert scored(contract, [tricks - 1, 11 - tricks, 0, 0])[0] == -value


def test_the_other_side_scores_ten_a_trick_either_way() -> None:
    assert scored("7H", [5, 1, 3, 1]) == [200, 20, 200, 20]
    assert scored("7H", [3, 2, 3, 2]) == [-200, 40, -200, 40]


def test_a_slam_on_a_contract_worth_less_than_250_scores_250() -> None:
    assert scored("7S", [6, 0, 4, 0])[0] == 250
    assert scored("8H", [6, 0, 4, 0])[0] == 300  # worth more than 250: its own value
    assert scored("7S", [6, 0, 3, 1])[0] == 140


def test_misere_and_open_misere_values() -> None:
    assert scored("misere", [0, 6, 0, 4]) == [250, 0, 250, 0]
    assert scored("open-misere", [0, 6, 0, 4]) == [500, 0, 500, 0]
    assert scored("open-misere", [0, 6, 0, 4], open_misere_value=520)[0] == 520


def test_each_player_alone_scores_for_themself() -> None:
    assert scored("6C", [7, 2, 1], players=3) == [60, 20, 10]


# Five players: the called partner -------------------------------------------------


def test_five_players_call_a_partner_who_stays_secret_until_the_card_is_played() -> None:
    state = at_play("7S", {0: "AH 5C", 1: "KH 6C", 2: "QH 7C", 3: "AD 8C", 4: "10H 9C"}, players=5)
    state.phase, state.turn = 2, 0  # back to the call, after the discard
    callable_cards = state.legal(0)
    assert callable_cards[0] == "alone"
    assert "call AD" in callable_cards and "call AH" not in callable_cards  # not one's own card
    assert "call AS" not in callable_cards and "call JC" not in callable_cards  # no trump, no left bower
    assert "call JK" not in callable_cards
    play(state, "call AD")
    assert state.view(None)["called"] == "AD" and state.view(None)["partner"] is None
    assert state.view(0)["partner"] is None  # secret from the contractor too
    assert state.view(3)["you_are_partner"] is True
    play(state, "play AH", "play KH", "play QH")
    assert state.view(None)["partner"] is None
    play(state, "play AD")
    assert state.view(None)["partner"] == 3  # known as the card is played, not only once the trick is over
    assert state.view(4)["partner"] == 3 and state.view(0)["partner"] == 3
    play(state, "play 10H")
    assert state.view(None)["partner"] == 3


def test_the_called_partner_can_be_announced_and_shares_the_contract() -> None:
    state = at_play("8C", {0: "AH", 1: "KH", 2: "QH", 3: "AD", 4: "10H"}, players=5, called_partner="announce")
    state.phase, state.turn = 2, 0
    play(state, "call AD")
    assert state.view(None)["partner"] == 3
    state.tricks = [5, 1, 1, 3, 0]
    state._score_hand()
    assert [row["points"] for row in state.sheets[-1]["rows"]] == [260, 10, 10, 260, 0]


def test_a_call_is_alone_or_call_and_a_card_nothing_else() -> None:
    """'alone 3H' was read as calling 3H: a contractor who meant to play alone got a partner."""
    state = at_play("6S", {0: "AH", 1: "KH", 2: "QH", 3: "AD", 4: "10H"}, players=5)
    state.phase, state.turn = 2, 0
    before = state.to_json()
    for wrong in ("alone AD", "pass AD", "play AD", "call", "call AD AD", "alone alone"):
        with pytest.raises(IllegalAction):
            state.act(0, wrong)
        assert state.to_json() == before
    play(state, "call AD")
    assert state.partner == 3


def test_the_contractor_may_play_alone() -> None:
    state = at_play("6S", {0: "AH", 1: "KH", 2: "QH", 3: "AD", 4: "10H"}, players=5)
    state.phase, state.turn = 2, 0
    play(state, "alone")
    state.tricks = [6, 1, 1, 2, 0]
    state._score_hand()
    assert [row["points"] for row in state.sheets[-1]["rows"]] == [40, 10, 10, 20, 0]


# The end of the game -------------------------------------------------------------


def ended(contract: str, tricks: list[int], totals: list[int], **options: Any) -> FiveHundred:
    state = at_play(contract, {}, **options)
    state.totals = list(totals)
    state.tricks = list(tricks)
    state._score_hand()
    return state


def test_500_ends_the_game_and_the_highest_side_wins() -> None:
    state = ended("7H", [5, 0, 3, 2], [300, 100, 300, 100])
    assert state.is_over() and state.result()["winners"] == [0, 2]
    assert not ended("7H", [5, 0, 3, 2], [290, 100, 290, 100]).is_over()


def test_the_contractors_side_wins_a_tie() -> None:
    state = ended("7H", [4, 1, 3, 2], [300, 470, 300, 470])  # both sides end on 500
    assert state.result()["winners"] == [0, 2]


def test_minus_500_ends_the_game() -> None:
    state = ended("7H", [3, 2, 3, 2], [-300, 0, -300, 0])
    assert state.is_over() and state.result()["winners"] == [1, 3]


def test_win_by_contract_only() -> None:
    state = ended("7H", [3, 2, 3, 2], [0, 470, 0, 470], win_by_contract_only=True)
    assert not state.is_over() and state.scores()["sides"] == [-200, 510]
    state = ended("7H", [5, 0, 3, 2], [300, 600, 300, 600], win_by_contract_only=True)
    assert state.is_over() and state.result()["winners"] == [0, 2]


def test_six_players_sides() -> None:
    assert fresh(6).sides == [[0, 3], [1, 4], [2, 5]]
    assert fresh(6, six_sides="two-threes").sides == [[0, 2, 4], [1, 3, 5]]
    assert fresh(5).sides == [[s] for s in range(5)]


# Bad input -------------------------------------------------------------------


def test_bad_input_is_refused_and_changes_nothing() -> None:
    state = fresh(first_dealer=3)
    before = state.to_json()
    for seat, action in [(1, "pass"), (0, "bid 5H"), (0, "bid 11S"), (0, "bid 7X"), (0, "play AS"),
                         (0, "discard AS KS QS"), (0, "call AS"), (0, "bid"), (0, "fold"), (7, "pass")]:  # fmt: skip
        with pytest.raises(IllegalAction):
            state.act(seat, action)
        assert state.to_json() == before
    play(state, "bid 6S", "pass", "pass", "pass")
    hand = state.view(0)["hand"]
    other = next(C.NAMES[c] for c in DECKS[4] if C.NAMES[c] not in hand)
    for action in [
        "discard " + " ".join(hand[:4]),
        f"discard {hand[0]} {hand[1]} {other}",
        f"discard {hand[0]} {hand[0]} {hand[1]}",
    ]:
        with pytest.raises(IllegalAction):
            state.act(0, action)


@pytest.mark.parametrize(
    ("players", "options", "match"),
    [(7, {}, "not 7"), (1, {}, "not 1"), (4, {"all_pass": "shrug"}, "redeal, play-no-trumps, move-after-two"),
     (4, {"open_misere_value": 510}, "500, 520"), (4, {"bowers": False}, "Unknown option 'bowers'")],
)  # fmt: skip
def test_new_game_refuses_bad_set_ups(players: int, options: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidGame, match=match):
        new_game("five-hundred", players, options, seed=1)


def test_stacked_decks_must_be_whole() -> None:
    with pytest.raises(InvalidGame, match="43-card"):
        new_game("five-hundred", 4, {}, seed=1, decks=[[C.NAMES[c] for c in DECKS[4]][:-1]])


# What a computer player may know: record and determinize --------------------------------

KNOWLEDGE_OPTIONS: list[dict[str, Any]] = [
    {},
    {"called_partner": "announce", "all_pass": "play-no-trumps", "six_sides": "two-threes"},
    {"open_misere_spread": "after-first-trick", "misere_tricks_score": True, "joker_lead_any_suit": True},
    {"passed_may_rebid": True, "misere_after_seven": True, "open_misere_highest": True},
]


def sampled_states(players: int, options: dict[str, Any], seed: int, every: int = 7) -> list[FiveHundred]:
    """Copies of a random match's states (every few actions) over its first three hands; bids are rare
    enough that hands get played, and misère comes up often enough to be tested."""
    rng = random.Random(seed)
    state = fresh(players, **options)
    state.seed = seed
    state._start_hand()  # a deal of this seed
    out: list[FiveHundred] = []
    step = 0
    while not state.is_over() and len(state.sheets) < 3:
        if step % every == rng.randrange(every):
            out.append(state.clone())
        seat = state.to_act()[0]
        actions = state.legal(seat)
        if actions[0] == "pass" and rng.random() < 0.8:
            action = "pass"
        else:
            misere = [a for a in actions if "misere" in a]
            action = rng.choice(misere if misere and rng.random() < 0.3 else actions)
        state.act(seat, action)
        step += 1
    return out


def every_place(state: FiveHundred) -> list[int]:
    played = [1 << code for _, code, _ in state.plays]
    return [*state.hands, state.kitty, state.discards, *played]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_determinized_deal_is_one_the_seat_cannot_tell_from_the_real_one(players: int) -> None:
    seen: set[str] = set()
    for seed in range(16):
        options = KNOWLEDGE_OPTIONS[seed % len(KNOWLEDGE_OPTIONS)]
        for state in sampled_states(players, options, seed):
            for seat in range(players):
                world = state.determinize(seat, random.Random(seed * 31 + seat))
                cases = {"misere": state._misere, "voids": any(state.voids), "exposed": state.exposed}
                seen |= {PHASE_NAMES[state.phase], *(case for case, met in cases.items() if met)}
                seen |= {"called"} if state.called >= 0 else set()
                # Everything the seat saw is where it was; every card is somewhere, once.
                assert world.view(seat) == state.view(seat)
                assert world.record(seat) == state.record(seat)
                places = every_place(world)
                assert sum(p.bit_count() for p in places) == len(DECKS[players])
                assert C.mask_of(DECKS[players]) == sum(places)
                assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
                assert world.kitty.bit_count() == state.kitty.bit_count()
                assert world.discards.bit_count() == state.discards.bit_count()
                if seat == state.contractor:
                    assert (world.discards, world.picked_up) == (state.discards, state.picked_up)
                # Shown voids are kept (under the contract's suits: bowers and a suit contract's joker are trumps).
                for s in range(players):
                    for suit in range(4):
                        if state.voids[s] >> suit & 1:
                            assert not world.hands[s] & state._suit_masks[suit]
                # The called card is with a partner: the known one, or anyone but the contractor.
                if state.called >= 0 and not any(code == state.called for _, code, _ in state.plays):
                    assert world.hands[world.partner] >> state.called & 1 and world.partner != state.contractor
                    if state.partner_known or seat == state.partner:
                        assert world.partner == state.partner
                # Nothing of the real deal survives that the seat could not know.
                assert world.seed != state.seed and world.decks == []
                assert not set(strings_in(state.record(seat))) & hidden_cards(state, seat)
                # Another deal of the unseen cards determinizes to exactly the same state.
                other = state.determinize(seat, random.Random(seed * 31 + seat + 1000))
                again = random.Random(7)
                assert other.determinize(seat, again).to_json() == state.determinize(seat, random.Random(7)).to_json()
                # And the engine plays on to the end of the hand from it.
                if seat == state.to_act()[0]:
                    play_to_hand_end(world, random.Random(seat))
    assert {"bidding", "discarding", "playing", "voids"} <= seen  # the cases above were all met
    assert {"misere", "exposed"} <= seen or players == 2  # two players have no misère here
    assert "called" in seen or players != 5


def play_to_hand_end(world: FiveHundred, rng: random.Random) -> None:
    sheets = len(world.sheets)
    while not world.is_over() and len(world.sheets) == sheets:
        seat = world.to_act()[0]
        world.act(seat, rng.choice(world.legal(seat)))
    places = every_place(world)
    assert sum(p.bit_count() for p in places) == len(DECKS[world.players])
    assert sum(places) == C.mask_of(DECKS[world.players])


def test_the_record_lists_every_card_played_this_hand_with_a_named_suit_and_the_voids() -> None:
    state = at_play("6NT", {0: "JK AS", 1: "KS 5H", 2: "QS 5C", 3: "7H 8H"})
    play(state, "play JK S", "play KS", "play QS", "play 7H")
    record = state.record(1)
    assert record["plays"] == [
        {"seat": 0, "card": "JK", "named_suit": "S"},
        {"seat": 1, "card": "KS", "named_suit": None},
        {"seat": 2, "card": "QS", "named_suit": None},
        {"seat": 3, "card": "7H", "named_suit": None},
    ]
    assert record["voids"] == ["", "", "", "S"]
    assert record["hand"] == ["5H"] and record["hands"][0]["cards"] is None
