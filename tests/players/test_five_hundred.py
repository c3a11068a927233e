"""The Five Hundred computer player: legal choices, no peeking, and sound play in set positions."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import cards as C
from bot.games import new_game
from bot.games.five_hundred import BID, DECKS, PLAY, FiveHundred, bid_rank, bid_text
from bot.players import ComputerPlayer
from bot.players.five_hundred import KNOWLEDGE
from bot.players.five_hundred.bidding import MISERES, bid_choice, contract_value, winning_bid
from bot.players.five_hundred.sight import order_for, rollout_sight, sight_of

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"misere_after_seven": True, "open_misere_highest": True, "all_pass": "play-no-trumps"},
    {"passed_may_rebid": True, "all_pass": "move-after-two", "joker_lead_any_suit": True},
    {"open_misere_spread": "after-first-trick", "misere_tricks_score": True, "open_misere_value": 520},
    {"win_by_contract_only": True, "called_partner": "announce", "six_sides": "two-threes"},
]


def new_match(players: int, options: dict[str, Any], seed: int, decks: list[list[str]] | None = None) -> FiveHundred:
    state = new_game("five-hundred", players, options, seed=seed, decks=decks, first_dealer=players - 1)
    assert isinstance(state, FiveHundred)
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_both_levels_choose_legal_actions_in_every_phase_and_option(players: int) -> None:
    phases: set[str] = set()
    for index, options in enumerate(OPTION_SETS):
        state = new_match(players, options, seed=players * 10 + index)
        levels = ["strong" if (seat + index) % 3 == 0 else "easy" for seat in range(players)]
        computers = [ComputerPlayer(lv, seed=s, budget_ms=100, samples=2 + s % 3) for s, lv in enumerate(levels)]
        while not state.is_over() and state.hands_played < 1 + index % 2 and len(state.sheets) < 4:
            seat = state.to_act()[0]
            action = computers[seat].choose(state, seat)
            assert action in state.legal(seat)
            phases.add(state.view()["phase"])
            state.act(seat, action)
    assert phases == {"bidding", "discarding", "playing"} | ({"calling"} if players == 5 else set())


def test_rollout_plays_exactly_to_the_end_of_the_hand() -> None:
    for players in (2, 3, 4, 5, 6):
        for index, options in enumerate(OPTION_SETS):
            state = new_match(players, options, seed=players + index)
            world = state.determinize(0, Random(1))
            KNOWLEDGE.rollout(world, Random(2))
            assert len(world.sheets) == 1
            assert world.is_over() or (world.phase == 0 and world.plays == [] and world.hand_no == 1)


def test_the_rollouts_fast_sight_is_the_seats_sight() -> None:
    rng = Random(3)
    easy = ComputerPlayer("easy")
    checked = 0
    for players in (2, 3, 4, 5, 6):
        for index, options in enumerate(OPTION_SETS):
            state = new_match(players, options, seed=players * 7 + index)
            while not state.is_over() and len(state.sheets) < 2:
                seat = state.to_act()[0]
                legal = state.legal(seat)
                if state.phase == PLAY:
                    assert rollout_sight(state, seat, order_for(state)) == sight_of(state, seat)
                    checked += 1
                misere = [a for a in legal if "misere" in a]
                if misere and rng.random() < 0.2:
                    action = rng.choice(misere)
                elif state.phase == PLAY and rng.random() < 0.3:
                    action = rng.choice(legal)
                else:
                    action = easy.choose(state, seat)
                state.act(seat, action)
    assert checked > 500


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_choice_depends_only_on_what_the_seat_knows(level: str) -> None:
    rng = Random(5)
    for players in (2, 3, 4, 5, 6):
        for index in range(3):
            options = OPTION_SETS[(players + index) % len(OPTION_SETS)]
            state = new_match(players, options, seed=players * 3 + index)
            for _ in range(rng.randrange(0, 12 * players)):
                seat = state.to_act()[0]
                legal = state.legal(seat)
                state.act(seat, "pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal))
            seat = state.to_act()[0]
            computer = ComputerPlayer(level, seed=3, samples=4)
            chosen = computer.choose(state, seat)
            for k in range(3):
                assert computer.choose(state.determinize(seat, Random(k)), seat) == chosen


# Set positions, from stacked decks ------------------------------------------------------------


def packet_deck(hands: dict[int, str], kitty: str) -> list[str]:
    """The four-player deck (dealer 3) that deals these hands and kitty: 3, 4 and 3 cards to each
    of seats 0 to 3 in turn, one to the kitty after each round."""
    written = {seat: text.split() for seat, text in hands.items()}
    spare = kitty.split()
    deck: list[str] = []
    for packet, (start, size) in enumerate(((0, 3), (3, 4), (7, 3))):
        for seat in range(4):
            deck += written[seat][start : start + size]
        deck.append(spare[packet])
    return deck


def one_at_a_time_deck(hands: dict[int, str], kitty: str) -> list[str]:
    """The deck that deals these hands one card at a time from seat 0 (the dealer is the last seat)."""
    written = [hands[seat].split() for seat in range(len(hands))]
    return [hand[i] for i in range(10) for hand in written] + kitty.split()


def position(players: int, deck: list[str], actions: list[str], **options: Any) -> FiveHundred:
    assert sorted(deck) == sorted(C.NAMES[c] for c in DECKS[players])
    state = new_match(players, options, seed=1, decks=[deck])
    for action in actions:
        state.act(state.to_act()[0], action)
    return state


LEVELS = [ComputerPlayer("easy", seed=1), ComputerPlayer("strong", seed=1, samples=12)]

# Seat 0 has made 7♥ and leads; seat 2, its partner, can trump or overtake.
TRUMP_OR_NOT = packet_deck(
    {
        0: "AS KS QS JH AH KH QH 10H 9H 8H",
        1: "5S 6S 7S 8S 9S 10S 5H 6H 7H AC",
        2: "JD 4H 5D 6D 7D 8D 9D 10D QC 5C",
        3: "JS JK AD KD QD KC JC 10C 9C 8C",
    },
    kitty="7C 6C 4D",
)
OVERTAKE_OR_NOT = packet_deck(
    {
        0: "QS 10S JH AH KH QH 10H 9H 8H 7H",
        1: "5S 7S 8S 9S 5H 6H AC KC QC JC",
        2: "AS KS 6S 4H AD KD QD 10D 9D 8D",
        3: "JS JK JD 7D 6D 5D 4D 10C 9C 8C",
    },
    kitty="7C 6C 5C",
)
WON_7H = ["bid 7H", "pass", "pass", "pass"]


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_a_partners_winning_card_is_not_trumped(computer: ComputerPlayer) -> None:
    state = position(4, TRUMP_OR_NOT, [*WON_7H, "discard 7C 6C 4D", "play AS", "play 5S"])
    assert computer.choose(state, 2) not in ("play JD", "play 4H")


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_a_partners_winning_card_is_not_overtaken(computer: ComputerPlayer) -> None:
    state = position(4, OVERTAKE_OR_NOT, [*WON_7H, "discard 7C 6C 5C", "play QS", "play 5S"])
    assert computer.choose(state, 2) == "play 6S"


# Seat 1's hand takes no trick and would lose a misère; seat 0 opens, or seat 3 (its partner)
# bids hearts and seat 0 goes over it.
WEAK_HAND = packet_deck(
    {
        0: "AS KS QS JS 7S 6S AH KH AD KD",
        1: "8S 9S 10S 8H 9H 8D 9D 10D 8C 9C",
        2: "JC JK AC KC QC 10C 7C QH JH 10H",
        3: "5S 7H 6H 5H 4H QD JD 7D 6D 5D",
    },
    kitty="4D 6C 5C",
)


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_a_weak_hand_passes_rather_than_overbids(computer: ComputerPlayer) -> None:
    opened = position(4, WEAK_HAND, ["bid 7S"])
    assert computer.choose(opened, 1) == "pass"
    partner_outbid = position(4, WEAK_HAND, ["bid 6S", "pass", "pass", "bid 6H", "bid 7S"], passed_may_rebid=True)
    assert computer.choose(partner_outbid, 1) == "pass"


# Three players: seat 0 holds a misère hand but for its hearts (9♥ 10♥ with 7♥ and 8♥ out).
MISERE_DEAL = one_at_a_time_deck(
    {
        0: "7S 8S 9H 10H 7C 8C 9C 7D 8D 9D",
        1: "8H QH KH 9S 10S 10C JC 10D JD QD",
        2: "7H JH JS QS KS QC KC KD AD JK",
    },
    kitty="AS AH AC",
)
OPEN_MISERE = ["bid open-misere", "pass", "pass", "discard AS AH AC", "play 7S", "play 9S", "play KS"]


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_defenders_force_an_open_misere_where_it_cannot_duck(computer: ComputerPlayer) -> None:
    state = position(3, MISERE_DEAL, OPEN_MISERE)
    assert computer.choose(state, 2) == "play 7H"  # clubs, diamonds or spades it would duck
    state.act(2, "play 7H")
    state.act(0, "play 9H")
    assert computer.choose(state, 1) == "play 8H"  # under the contractor's card, never over it


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_the_misere_contractor_plays_its_highest_card_that_still_loses(computer: ComputerPlayer) -> None:
    misere = ["bid misere", "pass", "pass", "discard AS AH AC", "play 8S", "play 9S", "play KS"]
    state = position(3, MISERE_DEAL, misere)
    state.act(2, "play QC")
    assert computer.choose(state, 0) == "play 9C"
    state.act(0, "play 9C")
    state.act(1, "play 10C")
    state.act(2, "play KD")
    assert computer.choose(state, 0) == "play 9D"


# Two players: seat 0 has made 8♠, and its joker draws the last trump out.
TRUMPS_OUT = one_at_a_time_deck(
    {0: "JK JS JC AS KS 10S AH AD AC 9H", 1: "QS KH QH JH 10H KD QD JD KC QC"},
    kitty="9S 10D 9D 10C 9C",
)


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_the_contractor_counts_the_trumps_out(computer: ComputerPlayer) -> None:
    state = position(2, TRUMPS_OUT, ["bid 8S", "pass", "discard 10D 9D 10C 9C 9H", "play JK"])
    state.act(1, "play QS")  # the last trump out
    assert computer.choose(state, 0) in ("play AH", "play AD", "play AC")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_with_four_players_strong_bids_the_calibrated_bid_and_never_overbids_it(players: int) -> None:
    """With four players the search of the auction overrated its own contracts: strong bids what
    easy's calibrated estimate says the side can make (or passes), never more, whatever its
    budget (here far from the target, where reading the score changes nothing). At the other
    counts the search measured better: the calibrated bid is its first candidate."""
    checked = 0
    for seed in range(6):
        state = new_match(players, {}, seed=seed)
        while state.phase == BID and not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal(seat)
            easy = ComputerPlayer("easy", seed=seed).choose(state, seat)
            strong = ComputerPlayer("strong", seed=seed, samples=8).decide(state, seat)
            shortlist = KNOWLEDGE.shortlist(state, seat, legal, Random(1))
            assert shortlist[0] == easy
            if players == 4:
                assert strong.action == easy and shortlist == [easy]
            else:
                assert strong.action in shortlist and len(shortlist) <= 5
            if len(legal) > 1:
                checked += 1
            state.act(seat, strong.action)
    assert checked >= 6


def test_near_the_target_strong_bids_the_surest_contract_that_wins_and_never_more_than_easy() -> None:
    """A contract made that takes the side to 500 wins the match: strong then starts from the one
    it expects to make by the most tricks among those worth enough, never above easy's bid."""
    changed = 0
    for seed in range(40):
        state = new_match(4, {}, seed=seed)
        state.totals = [420, 300, 420, 300]  # seats 0 and 2 need 80 more
        seat = state.to_act()[0]
        allowed = [r for r in (bid_rank(a[4:]) for a in state.legal(seat) if a != "pass") if r is not None]
        easy, strong = bid_choice(state, seat, allowed), winning_bid(state, seat, allowed)
        if easy < 0 or easy in MISERES:
            assert strong == easy
            continue
        assert contract_value(strong, state) <= contract_value(easy, state)
        if seat in (0, 2) and contract_value(easy, state) >= 80:
            assert contract_value(strong, state) >= 80
            changed += strong != easy
        else:
            assert strong == easy  # no contract of this hand wins the match: the most valuable one
        assert KNOWLEDGE.shortlist(state, seat, state.legal(seat), Random(1))[0] == _bid(strong)  # the search's default
    assert changed >= 3


def _bid(rank: int) -> str:
    return "pass" if rank < 0 else "bid " + bid_text(rank)
