"""Oh Hell, rule by rule (docs/rules/oh-hell.md)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import IllegalAction, InvalidGame, from_json
from bot.games import cards as C
from bot.games.oh_hell import DECK, OhHell, deal_sizes, points_for

from .helpers import hands_deck, play_out, random_player


def oh_hell(
    players: int = 4,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    decks: list[list[str]] | None = None,
    first_dealer: int | None = None,
) -> OhHell:
    """A new match, as ``oh_hell(...)`` makes it once the game is in the registry."""
    return OhHell.new(players, options or {}, seed, decks, first_dealer)


def pack(hands: dict[int, str], dealer: int, turn_up: str | None = None) -> list[str]:
    """The whole pack, top first: the hands dealt from the dealer's left as written, then the
    turned-up card, then every other card in a fixed order."""
    top = hands_deck(hands, dealer) + ([turn_up] if turn_up else [])
    return top + [C.NAMES[c] for c in DECK if C.NAMES[c] not in top]


def game(hands: dict[int, str], dealer: int = 0, turn_up: str | None = "2D", **options: Any) -> OhHell:
    cards = len(hands[0].split())
    options = {"start_cards": cards, **options}
    state = oh_hell(len(hands), options, seed=1, decks=[pack(hands, dealer, turn_up)], first_dealer=dealer)
    assert isinstance(state, OhHell)
    return state


def bid_all(state: OhHell, bids: dict[int, int]) -> None:
    for _ in range(state.players):
        seat = state.to_act()[0]
        state.act(seat, f"bid {bids[seat]}")


def play_trick(state: OhHell, cards: dict[int, str]) -> None:
    for _ in range(state.players):
        seat = state.to_act()[0]
        state.act(seat, "play " + cards[seat])


# Cards, players and the deals of a match ------------------------------------------------


def test_three_to_seven_players_four_by_default() -> None:
    assert oh_hell().players == 4
    for players in (2, 8):
        with pytest.raises(InvalidGame):
            oh_hell(players)


@pytest.mark.parametrize(("players", "start"), [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_the_default_start_is_ten_or_what_leaves_a_card_to_turn_up(players: int, start: int) -> None:
    state = oh_hell(players, seed=3)
    assert state.options["start_cards"] == start
    assert state.view(None)["cards"] == start and state.view(None)["turn_up"] is not None


def test_start_cards_may_be_up_to_the_whole_pack_shared_out() -> None:
    assert oh_hell(3, {"start_cards": 17}).view(None)["cards"] == 17
    assert oh_hell(7, {"start_cards": 1}).view(None)["cards"] == 1
    for players, start in ((4, 14), (6, 9), (7, 8), (3, 0), (3, 18)):
        with pytest.raises(InvalidGame):
            oh_hell(players, {"start_cards": start})


def test_the_sequences_of_deals() -> None:
    assert deal_sizes(3, "down") == [3, 2, 1]
    assert deal_sizes(3, "up") == [1, 2, 3]
    assert deal_sizes(3, "down-up") == [3, 2, 1, 2, 3]
    assert deal_sizes(3, "up-down") == [1, 2, 3, 2, 1]
    with pytest.raises(InvalidGame):
        oh_hell(4, {"sequence": "sideways"})


def test_a_match_plays_its_sequence_and_the_deal_passes_left() -> None:
    state = oh_hell(4, {"start_cards": 4, "sequence": "up-down"}, seed=5, first_dealer=2)
    assert isinstance(state, OhHell)
    seen = []
    while not state.is_over():
        seen.append((state.view(None)["cards"], state.dealer))
        deal = len(state.sheets)
        while len(state.sheets) == deal:
            seat = state.to_act()[0]
            state.act(seat, state.legal(seat)[0])
    assert seen == [(1, 2), (2, 3), (3, 0), (4, 1), (3, 2), (2, 3), (1, 0)]
    assert [sheet["cards"] for sheet in state.sheets] == [1, 2, 3, 4, 3, 2, 1]


# Dealing and trumps ------------------------------------------------------------------------


def test_the_hands_are_dealt_from_the_dealers_left_and_the_next_card_is_trumps() -> None:
    state = game({0: "AS 2S", 1: "KH 3H", 2: "QC 4C"}, dealer=1, turn_up="9D")
    assert state.view(2)["hand"] == ["4C", "QC"]
    assert state.view(0)["hand"] == ["2S", "AS"]
    public = state.view(None)
    assert public["trump"] == "D" and public["turn_up"] == "9D"
    assert "hand" not in public


def test_no_card_left_to_turn_up_means_no_trumps() -> None:
    state = oh_hell(4, {"start_cards": 13}, seed=2)
    assert state.view(None)["trump"] is None and state.view(None)["turn_up"] is None
    assert sum(len(state.view(s)["hand"]) for s in range(4)) == 52


def test_the_unused_cards_are_never_shown() -> None:
    state = game({0: "AS", 1: "KH", 2: "QC"}, turn_up="9D")
    shown = {c for viewer in (None, 0, 1, 2) for c in str(state.view(viewer)).replace("'", " ").split()}
    assert "9D" in shown and not shown & {"2C", "3C", "JH"}  # from the unused rest


# Bidding -------------------------------------------------------------------------------------


def test_bids_go_round_from_the_dealers_left_ending_with_the_dealer_and_are_public() -> None:
    state = game({0: "AS 2S", 1: "KH 3H", 2: "QC 4C"}, dealer=0)
    assert state.to_act() == [1]
    assert state.legal(1) == ["bid 0", "bid 1", "bid 2"]
    state.act(1, "bid 2")
    assert state.view(None)["bids"] == [{"seat": 1, "bid": 2}]
    assert state.view(0)["bids"] == [{"seat": 1, "bid": 2}]
    assert state.to_act() == [2]
    state.act(2, "bid 0")
    assert state.to_act() == [0]


def test_the_hook_forbids_the_dealer_the_bid_that_makes_the_total() -> None:
    state = game({0: "AS 2S 5S", 1: "KH 3H 5H", 2: "QC 4C 5C"}, dealer=2)
    state.act(0, "bid 1")
    state.act(1, "bid 1")
    assert state.view(None)["hooked"] == 1
    assert state.legal(2) == ["bid 0", "bid 2", "bid 3"]
    with pytest.raises(IllegalAction) as refused:
        state.act(2, "bid 1")
    assert refused.value.key == "hook"
    state.act(2, "bid 2")
    assert state.view(None)["hooked"] is None


def test_the_hook_forbids_nothing_when_the_others_already_bid_more_than_the_tricks() -> None:
    state = game({0: "AS 2S", 1: "KH 3H", 2: "QC 4C"}, dealer=2)
    state.act(0, "bid 2")
    state.act(1, "bid 1")
    assert state.legal(2) == ["bid 0", "bid 1", "bid 2"]


def test_without_the_hook_the_dealer_may_make_the_total() -> None:
    state = game({0: "AS 2S", 1: "KH 3H", 2: "QC 4C"}, dealer=2, hook=False)
    state.act(0, "bid 1")
    state.act(1, "bid 1")
    assert "bid 0" in state.legal(2)
    state.act(2, "bid 0")


@pytest.mark.parametrize(
    "action", ["bid 3", "bid -1", "bid one", "bid ²", "bid", "bid 1 2", "play AS", "bid 01", "bid 00"]
)
def test_bids_out_of_range_or_malformed_are_refused(action: str) -> None:
    state = game({0: "AS 2S", 1: "KH 3H", 2: "QC 4C"}, dealer=0)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.act(1, action)
    assert state.to_json() == before


# Play -----------------------------------------------------------------------------------------


def test_the_dealers_left_leads_suit_must_be_followed_and_the_highest_of_the_led_suit_wins() -> None:
    state = game({0: "9S KH", 1: "AS 3H", 2: "2S QH"}, dealer=2, turn_up="2D")
    bid_all(state, {0: 1, 1: 1, 2: 1})
    assert state.to_act() == [0]
    state.act(0, "play KH")
    with pytest.raises(IllegalAction) as refused:
        state.act(1, "play AS")
    assert refused.value.key == "must_follow"
    assert state.legal(1) == ["play 3H"]
    state.act(1, "play 3H")
    state.act(2, "play QH")
    view = state.view(None)
    assert view["last_trick"] == {
        "cards": [{"seat": 0, "card": "KH"}, {"seat": 1, "card": "3H"}, {"seat": 2, "card": "QH"}],
        "winner": 0,
    }
    assert view["tricks"] == [1, 0, 0] and state.to_act() == [0]


def test_a_trump_beats_the_led_suit_and_a_void_may_discard_anything() -> None:
    state = game({0: "AS 2H", 1: "3D 4H", 2: "KC 5H"}, dealer=2, turn_up="9D")
    bid_all(state, {0: 1, 1: 1, 2: 1})
    state.act(0, "play AS")
    assert state.legal(1) == ["play 4H", "play 3D"]
    state.act(1, "play 3D")  # a small trump
    state.act(2, "play KC")  # a discard
    assert state.view(None)["last_trick"]["winner"] == 1
    assert state.record(0)["voids"] == [[], ["S"], ["S"]]
    assert state.to_act() == [1]


def test_at_no_trumps_the_led_suit_wins() -> None:
    state = oh_hell(4, {"start_cards": 13}, seed=9)
    assert isinstance(state, OhHell)
    play_out(state, random_player(1))
    assert state.sheets[0]["trump"] is None
    assert sum(row["tricks"] for row in state.sheets[0]["rows"]) == 13


# Scoring ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scoring", "bid", "tricks", "points"),
    [
        ("ten-plus-bid", 2, 2, 12),
        ("ten-plus-bid", 0, 0, 10),
        ("ten-plus-bid", 2, 3, 0),
        ("trick-plus-ten", 2, 2, 12),
        ("trick-plus-ten", 0, 0, 10),
        ("trick-plus-ten", 2, 3, 3),
        ("trick-plus-ten", 3, 1, 1),
        ("penalty", 2, 2, 12),
        ("penalty", 2, 5, -3),
        ("penalty", 4, 1, -3),
    ],
)
def test_the_three_scorings(scoring: str, bid: int, tricks: int, points: int) -> None:
    assert points_for(scoring, bid, tricks) == points


@pytest.mark.parametrize(
    ("scoring", "points"),
    [("ten-plus-bid", [11, 0, 0]), ("trick-plus-ten", [11, 1, 0]), ("penalty", [11, -1, -2])],
)
def test_a_deal_is_scored_by_the_tables_scoring(scoring: str, points: list[int]) -> None:
    state = game({0: "AS 3S", 1: "KS 4S", 2: "2H 5H"}, dealer=2, turn_up="9D", scoring=scoring)
    bid_all(state, {0: 1, 1: 0, 2: 2})
    play_trick(state, {0: "AS", 1: "KS", 2: "2H"})  # seat 0's
    play_trick(state, {0: "3S", 1: "4S", 2: "5H"})  # seat 1's
    rows = state.sheets[0]["rows"]
    assert [row["tricks"] for row in rows] == [1, 1, 0]
    assert [row["points"] for row in rows] == points
    assert state.scores()["total"] == points


def test_the_sheet_rows_say_bid_tricks_made_points_and_total() -> None:
    state = game({0: "AS 3S", 1: "KS 4S", 2: "2H 5H"}, dealer=2, turn_up="9D", hook=False)
    bid_all(state, {0: 2, 1: 0, 2: 1})
    play_trick(state, {0: "AS", 1: "KS", 2: "2H"})
    play_trick(state, {0: "3S", 1: "4S", 2: "5H"})
    rows = state.sheets[0]["rows"]
    assert [(r["bid"], r["tricks"], r["made"], r["points"], r["total"]) for r in rows] == [
        (2, 1, False, 0, 0),
        (0, 1, False, 0, 0),
        (1, 0, False, 0, 0),
    ]
    assert state.view(None)["last_deal"] == state.sheets[0]


# The end --------------------------------------------------------------------------------------


def test_the_highest_total_wins_and_ties_share() -> None:
    state = oh_hell(3, {"start_cards": 2}, seed=4)
    assert isinstance(state, OhHell)
    play_out(state, random_player(4))
    totals = state.scores()["total"]
    assert state.result()["winners"] == [s for s in range(3) if totals[s] == max(totals)]
    assert len(state.sheets) == 2 and state.to_act() == []
    with pytest.raises(IllegalAction):
        state.act(0, "bid 0")


def test_a_snapshot_round_trips_mid_deal() -> None:
    state = oh_hell(5, {"scoring": "penalty"}, seed=8)
    for _ in range(9):
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[-1])
    assert from_json(state.to_json()) == state


# Rare cases, each rule quoted -----------------------------------------------------------------


def test_the_hook_forbids_zero_when_the_others_already_bid_all_the_tricks() -> None:
    # "the dealer's forbidden bid is the one value n - (sum of the other bids), when it lies between 0 and n"
    state = game({0: "AS 2S", 1: "KH 3H", 2: "QC 4C"}, dealer=2)
    state.act(0, "bid 2")
    state.act(1, "bid 0")
    assert state.view(None)["hooked"] == 0
    assert state.legal(2) == ["bid 1", "bid 2"]
    with pytest.raises(IllegalAction):
        state.act(2, "bid 0")


def test_the_hook_on_a_one_card_deal() -> None:
    # "The hook: the dealer, bidding last, may not make a bid that brings the total of all bids to exactly n"
    state = game({0: "AS", 1: "KH", 2: "QC"}, dealer=1)
    state.act(2, "bid 0")
    state.act(0, "bid 0")
    assert state.legal(1) == ["bid 0"]


def test_a_later_deals_stacked_pack_is_dealt_from_that_deals_dealers_left() -> None:
    # "The deal passes to the left." / "the hands are dealt from it one card at a time from the dealer's left,
    # the next card is the turned-up card"
    first = pack({0: "AS 2S", 1: "KH 3H", 2: "QC 4C"}, dealer=0, turn_up="9D")
    second = pack({0: "AD", 1: "KD", 2: "QD"}, dealer=1, turn_up="5H")
    state = oh_hell(3, {"start_cards": 2}, seed=1, decks=[first, second], first_dealer=0)
    for _ in range(3 + 6):
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])
    view = state.view(None)
    assert view["deal"] == 2 and view["dealer"] == 1 and view["cards"] == 1
    assert view["turn_up"] == "5H" and view["trump"] == "H"
    assert [state.view(s)["hand"] for s in range(3)] == [["AD"], ["KD"], ["QD"]]
    assert state.to_act() == [2]  # the new dealer's left bids first


def test_with_three_players_and_seventeen_cards_the_last_card_is_turned_up() -> None:
    # "start_cards ... Allowed: 1 to floor(52 / players)"; "The next card of the pack is turned face up"
    top = [C.NAMES[c] for c in DECK]  # the pack in suit order, AD last
    state = oh_hell(3, {"start_cards": 17}, seed=1, decks=[top], first_dealer=0)
    assert state.view(None)["turn_up"] == top[51] == "AD" and state.view(None)["trump"] == "D"
    assert sum(len(state.view(s)["hand"]) for s in range(3)) == 51
    assert "bid 17" in state.legal(1)


def test_going_up_with_four_players_the_thirteen_card_deal_is_at_no_trumps() -> None:
    # "If no card is left (four players with 13 cards each), the deal is played at no trumps."
    state = oh_hell(4, {"start_cards": 13, "sequence": "up"}, seed=6)
    play_out(state, random_player(6))
    assert [sheet["trump"] is None for sheet in state.sheets] == [False] * 12 + [True]
    assert [sheet["cards"] for sheet in state.sheets] == list(range(1, 14))


@pytest.mark.parametrize("value", [True, "5", 5.0, None, [5]])
def test_a_start_cards_of_the_wrong_kind_is_refused(value: object) -> None:
    # "`start_cards` ... Allowed: 1 to floor(52 / players)": a whole number, nothing else
    with pytest.raises(InvalidGame, match="start_cards") as refused:
        oh_hell(4, {"start_cards": value})
    assert "from 1 to 13 with 4 players" in str(refused.value)  # this table's limit, not three players' 17


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_a_start_cards_too_small_says_this_tables_own_limit(players: int) -> None:
    with pytest.raises(InvalidGame) as refused:
        oh_hell(players, {"start_cards": 0})
    assert f"from 1 to {52 // players} with {players} players" in str(refused.value)
