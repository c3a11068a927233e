"""Just Make, rule by rule (docs/rules/just-make.md)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import IllegalAction, InvalidGame, new_game
from bot.games import cards as C
from bot.games.just_make import DECK, JustMake, trick_winner

from .helpers import play_out, random_player


def stacked(specified: list[str], players: int | None = None) -> list[str]:
    """A whole deck dealt from seat 0 in which seat s's hand starts with the cards
    written for it (its bid card first, then its cards for the tricks in order);
    the rest of each hand is filled from the cards nobody named."""
    n = players or len(specified)
    named = [text.split() for text in specified] + [[] for _ in range(n - len(specified))]
    used = {c for hand in named for c in hand}
    spare = [C.NAMES[c] for c in DECK if C.NAMES[c] not in used]
    hands = [hand + [spare.pop() for _ in range(6 - len(hand))] for hand in named]
    return [hands[s][j] for j in range(6) for s in range(n)] + spare


def game(specified: list[str], **options: Any) -> JustMake:
    state = new_game("just-make", len(specified), options, seed=1, decks=[stacked(specified)], first_dealer=0)
    assert isinstance(state, JustMake)
    return state


def bid_first_cards(state: JustMake, specified: list[str]) -> None:
    for seat, text in enumerate(specified):
        state.act(seat, "bid " + text.split()[0])


# Each seat: a bid card (♦, bidding 0), then its card for the first trick.
EXAMPLES = [
    ("AS KS 7S 6S 4S 2S", 0, [], False),
    ("KS KH 8S 8H 8C 3S", 5, ["8", "K"], False),
    ("JS JH 6S 6H 2S 2H", None, ["2", "6", "J"], False),
    ("JK 8S 7S 5S 3S 3H", 3, ["3"], True),
    ("JK KS 6S JK2 AS KH", 0, [], False),
]


@pytest.mark.parametrize(("cards", "winner", "cancelled", "reversed_order"), EXAMPLES)
def test_the_rules_examples_as_dealt_tricks(
    cards: str, winner: int | None, cancelled: list[str], reversed_order: bool
) -> None:
    bid_cards = ["2D", "3D", "4D", "5D", "6D", "7D"]
    specified = [f"{b} {c}" for b, c in zip(bid_cards, cards.split(), strict=True)]
    state = game(specified)
    bid_first_cards(state, specified)
    for seat, card in enumerate(cards.split()):
        assert state.to_act() == [seat]
        state.act(seat, "play " + card)
    last = state.view()["last_trick"]
    assert last["winner"] == winner and last["cancelled"] == cancelled and last["reversed"] == reversed_order
    assert [entry["card"] for entry in last["cards"]] == cards.split()
    # The winner leads next; if nobody won, the same player leads again.
    assert state.to_act() == [0 if winner is None else winner]
    assert state.view()["tricks"][winner if winner is not None else 0] == (0 if winner is None else 1)


def test_trick_winner_rules_directly() -> None:
    def codes(text: str) -> list[int]:
        return [C.CODES[c] for c in text.split()]

    assert trick_winner(codes("2S 3S 4S 5S"))[0] == 3
    assert trick_winner(codes("JK 2S 3S 4S"))[0] == 1  # reversed: the 2 is highest
    assert trick_winner(codes("JK 2S 2H 4S"))[0] == 3
    assert trick_winner(codes("JK 2S 2H"))[0] is None  # a single joker loses too
    assert trick_winner(codes("2S JK2 JK"))[0] == 1  # the first joker played


def test_bids_are_face_up_one_at_a_time_from_the_first_bidder() -> None:
    state = new_game("just-make", 5, {}, seed=4, first_dealer=3)
    assert state.to_act() == [3]
    order = []
    while state.view()["phase"] == "bidding":
        seat = state.to_act()[0]
        order.append(seat)
        card = state.view(seat)["hand"][0]
        state.act(seat, "bid " + card)
        bids = state.view(None)["bids"]
        assert bids[-1]["seat"] == seat and bids[-1]["card"] == card  # everyone sees it at once
    assert order == [3, 4, 0, 1, 2]
    assert state.to_act() == [3]  # the first bidder leads
    assert all(len(state.view(s)["hand"]) == 5 for s in range(5))


def test_each_player_gets_six_cards_dealt_from_seat_zero() -> None:
    deck = [C.NAMES[c] for c in DECK]
    state = new_game("just-make", 4, {}, seed=1, decks=[deck], first_dealer=2)
    assert state.view(0)["hand"] == sorted(deck[0:24:4], key=C.CODES.__getitem__)
    assert state.view(3)["hand"] == sorted(deck[3:24:4], key=C.CODES.__getitem__)


def test_bid_values_by_suit_and_joker() -> None:
    state = game(["2D", "2S", "2H", "2C", "JK"])
    for seat, card in enumerate(["2D", "2S", "2H", "2C", "JK"]):
        state.act(seat, "bid " + card)
    assert [b["bid"] for b in state.view()["bids"]] == [0, 1, 2, 3, 4]


# Scoring ---------------------------------------------------------------------


def score(
    players: int,
    bids: list[str],
    tricks: list[int],
    totals: list[int] | None = None,
    doubled: list[bool] | None = None,
    **options: Any,
) -> JustMake:
    """Score one deal from the bid cards and tricks won."""
    state = new_game("just-make", players, options, seed=1, first_dealer=0)
    assert isinstance(state, JustMake)
    state.bids = [C.CODES[b] for b in bids]
    state.tricks = list(tricks)
    state.totals = list(totals or [0] * players)
    state.doubled = list(doubled or [False] * players)
    state._score_deal()
    return state


def points(state: JustMake) -> list[int]:
    return [row["points"] for row in state.sheets[-1]["rows"]]


BIDS_FOR = {0: "2D", 1: "2S", 2: "2H", 3: "2C", 4: "JK"}


def deal_for(players: int, makers: int) -> tuple[list[str], list[int]]:
    """Bids and tricks (five in all) in which exactly ``makers`` seats just make it."""
    tricks = [0] * players
    tricks[0] = 5  # seat 0 bids 4+ with the joker; makes it whenever it is a maker
    bids = ["JK" if makers >= 1 else "2S"] + ["2D"] * (players - 1)
    for s in range(1, players):
        if s >= makers:  # these fail: they bid ♠ 1 and take none
            bids[s] = "2S"
    return bids, tricks


@pytest.mark.parametrize("players", range(4, 10))
@pytest.mark.parametrize("makers", range(0, 10))
def test_every_scoring_row_for_every_player_count(players: int, makers: int) -> None:
    if makers > players:
        return
    bids, tricks = deal_for(players, makers)
    state = score(players, bids, tricks)
    made = [row["made"] for row in state.sheets[-1]["rows"]]
    assert sum(made) == makers
    got = points(state)
    if makers == 0:
        assert got == [0] * players
    elif makers == players:
        assert got == tricks
    elif makers == players - 1:
        assert got == [1 if m else -3 for m in made]
    else:
        each = {1: 3, 2: 2}.get(makers, 1)
        assert got == [each if m else 0 for m in made]


def test_with_four_players_three_makers_score_one_and_the_loser_minus_three() -> None:
    state = score(4, ["2D", "2D", "2D", "2S"], [0, 0, 0, 0])  # bid 0,0,0 made; the ♠ bid failed
    assert points(state) == [1, 1, 1, -3]


def test_a_deal_that_would_pass_the_target_is_subtracted() -> None:
    state = score(6, ["JK", "2S", "2S", "2S", "2S", "2S"], [5, 0, 0, 0, 0, 0], totals=[6, 0, 0, 0, 0, 0])
    row = state.sheets[-1]["rows"][0]
    assert row["points"] == 3 and row["bust"] is True and row["total"] == 3 and row["change"] == -3
    state = score(6, ["JK", "2S", "2S", "2S", "2S", "2S"], [5, 0, 0, 0, 0, 0], totals=[4, 0, 0, 0, 0, 0])
    assert state.totals[0] == 7 and state.is_over() and state.result()["winners"] == [0]


def test_the_target_option_moves_the_goal() -> None:
    state = score(4, ["2S", "2D", "2D", "2D"], [1, 0, 0, 0], totals=[2, 0, 0, 0], target=3)
    assert state.totals[0] == 3 and state.is_over()  # all made: each scores tricks, 2 + 1 = 3


def test_everyone_on_the_target_shares_the_win_or_the_final_bid_breaks_it() -> None:
    bids = ["2C", "2D", "2D", "2S"]  # seat 0 bid 3 (made with 3), seats 1, 2 bid 0, seat 3 fails
    tricks = [3, 0, 0, 2]
    state = score(4, bids, tricks, totals=[6, 6, 0, 0])
    assert state.result()["winners"] == [0, 1]
    state = score(4, bids, tricks, totals=[6, 6, 0, 0], tie_break="final-bid")
    assert state.result()["winners"] == [0]  # ♣ 3 beats ♦ 0


def test_double_hard_bids_doubles_a_made_club_or_joker_bid() -> None:
    specified = ["4C", "5D", "6D", "7D"]
    state = game(specified, double_hard_bids=True)
    assert "bid 4C double" in state.legal(0) and "bid 4C" in state.legal(0)
    state.act(0, "bid 4C double")
    assert "bid 5D double" not in state.legal(1)
    with pytest.raises(IllegalAction):
        state.act(1, "bid 5D double")
    assert state.view()["bids"][0]["doubled"] is True
    # Seat 0 bid ♣ 3 doubled and made it; three made it, so +1 each, doubled for seat 0.
    bids, tricks = ["2C", "2D", "2D", "2S", "2S"], [3, 0, 0, 2, 0]
    state = score(5, bids, tricks, doubled=[True, False, False, False, False], double_hard_bids=True)
    assert points(state) == [2, 1, 1, 0, 0]
    # A doubled deal can bust: at 6, +2 takes the player to 4.
    state = score(5, bids, tricks, totals=[6, 0, 0, 0, 0], doubled=[True, False, False, False, False])
    assert state.totals[0] == 4 and state.sheets[-1]["rows"][0]["bust"] is True
    plain = game(specified)
    with pytest.raises(IllegalAction):
        plain.act(0, "bid 4C double")


def test_sweep_wins_the_match_at_once() -> None:
    state = score(5, ["2S", "2D", "2D", "2D", "2D"], [5, 0, 0, 0, 0], sweep_wins=True)
    assert state.is_over() and state.result()["winners"] == [0]
    state = score(5, ["2S", "2D", "2D", "2D", "2D"], [5, 0, 0, 0, 0])
    assert not state.is_over()


def test_a_made_joker_bid_wins_with_joker_make_wins() -> None:
    state = score(5, ["JK", "2D", "2S", "2D", "2D"], [4, 0, 1, 0, 0], joker_make_wins=True)
    assert state.is_over() and state.result()["winners"] == [0]


def test_the_lone_loser_goes_to_minus_one() -> None:
    state = score(4, ["2D", "2D", "2D", "2S"], [0, 0, 0, 0], totals=[0, 0, 0, 5], lone_loser_minus_one=True)
    assert state.totals == [1, 1, 1, -1]


def test_all_fail_reverse_hands_the_totals_back_in_reverse_order() -> None:
    state = score(4, ["2S", "2S", "2S", "2S"], [0, 0, 0, 5], totals=[5, 5, 2, 0], all_fail_reverse=True)
    assert state.totals == [0, 0, 2, 5]
    assert state.sheets[-1]["reversed_totals"] is True
    state = score(4, ["2S", "2S", "2S", "2S"], [0, 0, 0, 5], totals=[5, 5, 2, 0])
    assert state.totals == [5, 5, 2, 0]


def test_scoring_by_tricks() -> None:
    state = score(5, ["2D", "2H", "2S", "2S", "2C"], [0, 2, 1, 2, 0], scoring="tricks")
    assert points(state) == [1, 2, 1, 0, 0]  # a made 0 scores 1
    state = score(4, ["2D", "2H", "2S", "2S"], [0, 2, 1, 2], scoring="tricks")
    assert points(state) == [1, 2, 1, -3]  # the lone loser still loses 3


def test_the_next_first_bidder_won_the_last_trick_or_the_latest_won_one() -> None:
    state = score(4, ["2S", "2D", "2D", "2D"], [1, 0, 0, 0])
    state.last_winner = 2
    state.sheets.clear()
    state.totals = [0] * 4
    state._score_deal()
    assert state.view()["first_bidder"] == 2 and state.to_act() == [2]
    # No trick had a winner: the first bidder stays.
    state = score(4, ["2S", "2D", "2D", "2D"], [0, 0, 0, 0])
    assert state.view()["first_bidder"] == 0


def test_the_last_trick_without_a_winner_passes_to_the_latest_winner() -> None:
    # Tricks 1-3 and 5 cancel out; seat 2 wins trick 4 with the only ace.
    hands = ["2D 5S 7S 9S 2S JS", "3D 5H 7H 9H 3S JH", "4D 6S 8S 10S AS QS", "5D 6H 8H 10H 4S QH"]
    state = game(hands)
    bid_first_cards(state, hands)
    for trick in range(5):
        leader = state.to_act()[0]
        assert leader == (2 if trick == 4 else 0)
        for i in range(4):
            seat = (leader + i) % 4
            state.act(seat, "play " + hands[seat].split()[trick + 1])
    rows = state.sheets[-1]["rows"]
    assert [row["tricks"] for row in rows] == [0, 0, 1, 0]
    assert [row["points"] for row in rows] == [1, 1, -3, 1]
    assert state.view()["deal"] == 2 and state.view()["first_bidder"] == 2 and state.to_act() == [2]


# Bad input -------------------------------------------------------------------


def test_bad_input_is_refused_and_changes_nothing() -> None:
    state = game(["2D 3S", "4D 5S", "6D 7S", "8D 9S"])
    before = state.to_json()
    for seat, action, match in [
        (1, "bid 4D", "not seat 1's turn"),
        (4, "bid 2D", "no seat 4"),
        (0, "play 2D", "bidding phase"),
        (0, "bid", "not an action"),
        (0, "bid 2D 3S", "not an action"),
        (0, "bid 2D triple", "not an action"),
        (0, "bid 1Z", "not a card"),
        (0, "bid 11H", "not a card"),
        (0, "bid 4D", "not in the hand"),
        (0, "bid 2D double", "not legal"),
        (0, 17, "not an action"),
    ]:
        with pytest.raises(IllegalAction, match=match):
            state.act(seat, action)  # type: ignore[arg-type]
        assert state.to_json() == before
    for seat, card in enumerate(["2D", "4D", "6D", "8D"]):
        state.act(seat, "bid " + card)
    with pytest.raises(IllegalAction, match="not in the hand"):
        state.act(0, "play 2D")
    with pytest.raises(IllegalAction, match="playing phase"):
        state.act(0, "bid 3S")
    with pytest.raises(IllegalAction, match="not an action"):
        state.act(0, "play 3S double")


@pytest.mark.parametrize(
    ("players", "options", "match"),
    [
        (3, {}, "played by 4, 5, 6, 7, 8, 9 players, not 3"),
        (10, {}, "not 10"),
        (6, {"target": 2}, "from 3 to 15"),
        (6, {"tie_break": "coin"}, "share, final-bid"),
        (6, {"scoring": "points"}, "table, tricks"),
        (6, {"sweep": True}, "Unknown option 'sweep'"),
    ],
)
def test_new_game_refuses_bad_set_ups(players: int, options: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidGame, match=match):
        new_game("just-make", players, options, seed=1)


def test_a_default_match_for_every_player_count_ends_on_the_target() -> None:
    for players in range(4, 10):
        state = new_game("just-make", players, {}, seed=players)
        play_out(state, random_player(players))
        result = state.result()
        assert result["winners"] and all(result["scores"]["total"][w] == 7 for w in result["winners"])


# What a computer player may know ----------------------------------------------

DETERMINIZE_OPTIONS: list[dict[str, Any]] = [
    {},
    {"double_hard_bids": True, "target": 3},
    {"scoring": "tricks", "all_fail_reverse": True, "lone_loser_minus_one": True},
    {"sweep_wins": True, "joker_make_wins": True, "tie_break": "final-bid"},
]


def random_states(players: int, matches: int) -> list[JustMake]:
    """States met at random moments of random matches (bidding, mid-trick, new deals, the end)."""
    rng = Random(players)
    out = []
    for index in range(matches):
        options = DETERMINIZE_OPTIONS[index % len(DETERMINIZE_OPTIONS)]
        state = new_game("just-make", players, options, seed=players * 100 + index)
        assert isinstance(state, JustMake)
        for _ in range(rng.randrange(1, 200)):
            if state.is_over():
                break
            seat = state.to_act()[0]
            state.act(seat, rng.choice(state.legal(seat)))
        out.append(state)
    return out


def test_record_lists_the_deals_plays_in_order_and_no_voids() -> None:
    hands = ["2D 5S 7S 9S 2S JS", "3D 5H 7H 9H 3S JH", "4D 6S 8S 10S AS QS", "5D 6H 8H 10H 4S QH"]
    state = game(hands)
    bid_first_cards(state, hands)
    for seat in range(4):
        state.act(seat, "play " + hands[seat].split()[1])
    state.act(0, "play 7S")
    record = state.record(1)
    assert record["plays"] == [
        {"seat": 0, "card": "5S"},
        {"seat": 1, "card": "5H"},
        {"seat": 2, "card": "6S"},
        {"seat": 3, "card": "6H"},
        {"seat": 0, "card": "7S"},
    ]
    assert record["voids"] == [[], [], [], []]
    assert record["hand"] == state.view(1)["hand"] and "9S" not in str(record)
    play_out_deal(state)  # a new deal starts an empty record
    assert state.deal_no == 1 and state.record(0)["plays"] == []


def play_out_deal(state: JustMake) -> None:
    deal = len(state.sheets)
    while len(state.sheets) == deal and not state.is_over():
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])


@pytest.mark.parametrize("players", range(4, 10))
def test_determinize_keeps_what_the_seat_saw_and_deals_the_rest(players: int) -> None:
    rng = Random(players)
    for state in random_states(players, 8):
        seat = rng.randrange(players)
        world = state.determinize(seat, Random(1))
        assert world.view(seat) == state.view(seat)
        assert world.record(seat) == state.record(seat)
        assert [bin(h).count("1") for h in world.hands] == [bin(h).count("1") for h in state.hands]
        assert world.hands[seat] == state.hands[seat]
        held = [c for hand in world.hands for c in C.cards_in(hand)]
        shown = [c for c in world.bids if c >= 0] + [c for _, c in world.plays]
        everything = held + shown
        assert len(everything) == len(set(everything)) == players * 6
        assert set(everything) <= set(DECK)
        assert world.decks == [] and world.seed != state.seed


@pytest.mark.parametrize("players", range(4, 10))
def test_determinize_depends_only_on_what_the_seat_knows(players: int) -> None:
    rng = Random(-players)
    for state in random_states(players, 6):
        seat = rng.randrange(players)
        twin = state.determinize(seat, Random(7))  # other unseen cards, another seed, no stacked decks
        for k in range(3):
            assert state.determinize(seat, Random(k)).to_json() == twin.determinize(seat, Random(k)).to_json()


@pytest.mark.parametrize("players", range(4, 10))
def test_a_determinized_match_plays_on_to_its_end(players: int) -> None:
    for index, state in enumerate(random_states(players, 4)):
        world = state.determinize(index % players, Random(index))
        play_out(world, random_player(index))
        assert world.is_over() and world.result()["winners"]


def test_determinize_hides_the_stacked_decks_of_later_deals() -> None:
    hands = ["2D 5S 7S 9S 2S JS", "3D 5H 7H 9H 3S JH", "4D 6S 8S 10S AS QS", "5D 6H 8H 10H 4S QH"]
    deck = stacked(hands)
    state = new_game("just-make", 4, {}, seed=1, decks=[deck, deck], first_dealer=0)
    world = state.determinize(0, Random(3))
    assert world.decks == [] and world.seed != state.seed
    play_out_deal(world)
    assert world.hands[0] != C.mask_of(C.CODES[card] for card in hands[0].split())


# Rare cases, each rule quoted -------------------------------------------------


def test_a_sweep_wins_over_a_player_who_reached_the_target_in_the_same_deal() -> None:
    # "sweep_wins: a player who wins all 5 tricks wins the match at once, whatever their bid (the deal is
    # scored first; the sweeper alone wins)."
    bids, tricks = ["2S", "2D", "2D", "2D", "2S"], [5, 0, 0, 0, 0]  # seats 1-3 made 0: +1 each
    state = score(5, bids, tricks, totals=[0, 6, 0, 0, 0], sweep_wins=True)
    assert state.totals[1] == 7 and state.result()["winners"] == [0]
    state = score(5, bids, tricks, totals=[0, 6, 0, 0, 0])
    assert state.result()["winners"] == [1]


def test_a_sweep_that_busts_the_sweeper_still_wins() -> None:
    # "the deal is scored first; the sweeper alone wins" (and "if a deal's points would take a player past
    # the target, those points are subtracted instead")
    state = score(5, ["JK", "2S", "3S", "4S", "5S"], [5, 0, 0, 0, 0], totals=[5, 0, 0, 0, 0], sweep_wins=True)
    row = state.sheets[-1]["rows"][0]
    assert row["bust"] is True and state.totals[0] == 2  # the one who made: +3, past 7, so 5 - 3
    assert state.result()["winners"] == [0]


def test_a_made_joker_bid_wins_over_a_player_who_reached_the_target() -> None:
    # "joker_make_wins: a player who makes a joker bid wins the match at once (the deal is scored first;
    # that player alone wins)."
    bids, tricks = ["JK", "2D", "2S", "3D", "4D"], [4, 0, 1, 0, 0]  # everyone made: each scores its tricks
    state = score(5, bids, tricks, totals=[0, 0, 6, 0, 0], joker_make_wins=True)
    assert state.totals == [4, 0, 7, 0, 0] and state.result()["winners"] == [0]


def test_a_doubled_bid_beside_the_lone_loser_going_to_minus_one() -> None:
    # "double_hard_bids: ... if they make it, their points for the deal are doubled"; "lone_loser_minus_one:
    # instead of -3, the one player who failed when all others made goes to a total of -1"
    bids, tricks = ["2C", "2D", "3D", "2S"], [3, 0, 0, 2]
    state = score(4, bids, tricks, totals=[0, 0, 0, 4], doubled=[True, False, False, False], lone_loser_minus_one=True)
    assert state.totals == [2, 1, 1, -1]


def test_scoring_by_tricks_with_the_lone_loser_going_to_minus_one() -> None:
    # "scoring: tricks: ... the lone loser's -3 still applies" and lone_loser_minus_one replaces that -3
    state = score(4, ["2H", "2D", "2S", "3S"], [2, 0, 1, 2], totals=[0, 0, 0, 5], scoring="tricks")
    assert state.totals == [2, 1, 1, 2]
    state = score(
        4, ["2H", "2D", "2S", "3S"], [2, 0, 1, 2], totals=[0, 0, 0, 5], scoring="tricks", lone_loser_minus_one=True
    )
    assert state.totals == [2, 1, 1, -1]


def test_all_fail_reverse_mirrors_every_level_of_totals() -> None:
    # "the player with the highest total gets the lowest total, the second highest the second lowest, and so
    # on; players with equal totals stay equal"
    state = score(5, ["2S"] * 5, [0, 0, 0, 0, 5], totals=[6, 4, 4, 1, 0], all_fail_reverse=True)
    assert state.totals == [0, 1, 1, 4, 6] and not state.is_over()


def test_the_final_bid_tie_break_counts_the_joker_as_four_and_shares_equal_bids() -> None:
    # "tie_break: final-bid: of those, the one whose bid in the final deal was highest wins, the joker
    # counting as 4, and equal ones share"
    bids, tricks = ["JK", "2D", "3D", "2S", "3S"], [4, 0, 0, 0, 1]  # seat 3 alone fails: +1 each
    state = score(5, bids, tricks, totals=[6, 6, 6, 0, 0], tie_break="final-bid")
    assert state.totals[:3] == [7, 7, 7] and state.result()["winners"] == [0]
    bids, tricks = ["2H", "3H", "2D", "2S", "3S"], [2, 2, 0, 0, 1]
    state = score(5, bids, tricks, totals=[6, 6, 6, 0, 0], tie_break="final-bid")
    assert state.result()["winners"] == [0, 1]
