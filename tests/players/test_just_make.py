"""The Just Make computer player: legal choices, no peeking, and sound play in set positions."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import cards as C
from bot.games import new_game
from bot.games.just_make import DECK_MASK, JustMake, bid_value
from bot.players import ComputerPlayer
from bot.players.just_make import (
    KNOWLEDGE,
    READ_FROM,
    SLOT,
    WIN_VALUE,
    bid_likelihood,
    outcome_value,
    win_odds,
)

from ..test_just_make import stacked

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"double_hard_bids": True, "target": 3},
    {"scoring": "tricks", "all_fail_reverse": True, "lone_loser_minus_one": True},
    {"sweep_wins": True, "joker_make_wins": True, "tie_break": "final-bid"},
]


def new_match(
    players: int, options: dict[str, Any], seed: int, decks: list[list[str]] | None = None, first: int | None = None
) -> JustMake:
    state = new_game("just-make", players, options, seed=seed, decks=decks, first_dealer=first)
    assert isinstance(state, JustMake)
    return state


@pytest.mark.parametrize("players", range(4, 10))
def test_both_levels_choose_legal_actions_in_every_phase_and_option(players: int) -> None:
    for index, options in enumerate(OPTION_SETS):
        state = new_match(players, options, seed=players * 10 + index)
        # One strong seat (its turn comes in every phase), the others easy.
        computers = [
            ComputerPlayer("strong" if seat == index else "easy", seed=seat, budget_ms=200, samples=2)
            for seat in range(players)
        ]
        while not state.is_over() and not state.sheets:
            seat = state.to_act()[0]
            action = computers[seat].choose(state, seat)
            assert action in state.legal(seat)
            state.act(seat, action)


def test_rollout_plays_exactly_to_the_end_of_the_deal() -> None:
    for players in range(4, 10):
        state = new_match(players, {}, seed=players)
        world = state.determinize(0, Random(1))
        KNOWLEDGE.rollout(world, Random(2))
        assert len(world.sheets) == 1
        assert all(row["bid"] >= 0 for row in world.sheets[0]["rows"])
        assert world.is_over() or (world.phase == 0 and world.plays == [])


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_choice_depends_only_on_what_the_seat_knows(level: str) -> None:
    rng = Random(5)
    computer = ComputerPlayer(level, seed=3, samples=4)
    for players in range(4, 10):
        for index in range(3 if level == "easy" else 1):
            state = new_match(players, OPTION_SETS[(players + index) % 4], seed=players * 10 + index)
            for _ in range(rng.randrange(0, 6 * players)):
                seat = state.to_act()[0]
                state.act(seat, rng.choice(state.legal(seat)))
            seat = state.to_act()[0]
            chosen = computer.choose(state, seat)
            for k in range(3):
                assert computer.choose(state.determinize(seat, Random(k)), seat) == chosen


# Set positions from stacked decks -----------------------------------------------------------

# Seat 1 bids first and leads. Seat 0 bids one trick (♠) and wins the first with its ace;
# seat 1 wins the second with a king and leads the third: queen, jack, ten, then seat 0
# holds the ace of hearts (which would win), a nine and an eight.
MADE_ONE = (
    ["3S AS 7C AH 8D 9C", "2D 2S KS QS 4H 5H", "3D 3H 5C JS 4C 6C", "4D 4S 6D 10S 7H 8H"],
    "bid 2D, bid 3D, bid 4D, bid 3S, play 2S, play 3H, play 4S, play AS,"
    " play 7C, play KS, play 5C, play 6D, play QS, play JS, play 10S",
)
# Seat 0 bids two tricks (♥) and loses the first three to seat 1; in the fourth it plays last
# with the ace of hearts and the two of clubs: it needs both remaining tricks.
NEEDS_TWO = (
    ["2H 5C 6C 7C AH 2C", "2D KS QS JS JK 10H", "3D 3H 6H 4H 8S 9H", "4D 4S 7S 3S 9S 10C"],
    "bid 2D, bid 3D, bid 4D, bid 2H, play KS, play 3H, play 4S, play 5C,"
    " play QS, play 6H, play 7S, play 6C, play JS, play 4H, play 3S, play 7C",
)


def position(hands: list[str], moves: str, *, first: int = 1, **options: Any) -> JustMake:
    """A deal of exactly these hands (each seat's six cards), after ``moves`` (comma-separated, in turn)."""
    state = new_match(len(hands), options, seed=1, decks=[stacked(hands)], first=first)
    for action in filter(None, (move.strip() for move in moves.split(","))):
        state.act(state.to_act()[0], action)
    return state


LEVELS = [ComputerPlayer("easy", seed=1), ComputerPlayer("strong", seed=1, samples=8)]


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_a_made_bid_does_not_win_another_trick(computer: ComputerPlayer) -> None:
    state = position(*MADE_ONE)
    assert state.to_act() == [0] and state.tricks[0] == 1
    assert computer.choose(state, 0) in ("play 9C", "play 8D")


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_needing_every_trick_it_plays_the_card_that_wins_this_one(computer: ComputerPlayer) -> None:
    hands, moves = NEEDS_TWO
    state = position(hands, moves + ", play 10H, play 8S, play 9S")  # no joker: the ace wins
    assert computer.choose(state, 0) == "play AH"
    state = position(hands, moves + ", play JK, play 8S, play 9S")  # a lone joker: the two wins
    assert computer.choose(state, 0) == "play 2C"


@pytest.mark.parametrize("computer", LEVELS, ids=["easy", "strong"])
def test_one_point_from_the_target_it_never_doubles_into_a_bust(computer: ComputerPlayer) -> None:
    hands = ["AC AS AH KS KH 2D", "3D 3H 6H 4H 8S 9H", "4D 4S 7S 3S 9S 10C", "5D KD QS JS JK2 10H"]
    state = position(hands, "", first=0, double_hard_bids=True)
    chosen = computer.choose(state, 0)
    assert chosen.startswith("bid ")
    if chosen.split()[1] in ("AC", "JK"):  # a hard bid at 0 points: doubling costs nothing
        assert chosen.endswith(" double")
    state.totals = [6, 0, 0, 0]
    assert not computer.choose(state, 0).endswith(" double")


def test_the_easy_player_doubles_a_strong_hand_and_bids_nothing_on_a_middling_one() -> None:
    easy = ComputerPlayer("easy")
    others = ["3D 3H 6H 4H 8S 9H", "4D 4S 7S 3S 9S 10C", "5D KD QS JS JK2 10H"]
    assert easy.choose(position(["AC AS AH KS KH 2D", *others], "", first=0, double_hard_bids=True), 0) == (
        "bid AC double"
    )
    assert easy.choose(position(["7D 6S 7H 8D 6C 8C", *others], "", first=0), 0) in ("bid 7D", "bid 8D")


# The model ------------------------------------------------------------------------------------


def test_counted_cards_change_a_cards_chances() -> None:
    unseen = DECK_MASK & ~C.mask_of(C.CODES[c] for c in "KS AS".split())
    king = SLOT[C.CODES["KS"]]
    with_aces, _ = win_odds([], 3, 3, unseen)
    gone = C.mask_of(C.CODES[c] for c in "AH AC AD KH KC KD JK JK2".split())
    counted, _ = win_odds([], 3, 3, unseen & ~gone)
    assert counted[king] == pytest.approx(1.0) and with_aces[king] < 0.8
    assert with_aces[SLOT[C.CODES["AS"]]] > with_aces[king]
    # With a lone joker already in the trick, order is reversed: the two is the best card.
    reversed_order, _ = win_odds([C.JOKER], 2, 3, unseen & ~(1 << C.JOKER))
    assert reversed_order[SLOT[C.CODES["2S"]]] > 2 * reversed_order[SLOT[C.CODES["AS"]]]
    assert reversed_order[SLOT[C.JOKER2]] == 0.0  # the second joker: the first one wins


def test_what_a_deal_is_worth_counts_busts_and_the_match_win() -> None:
    state = new_match(6, {}, seed=1)
    state.totals = [6, 0, 0, 0, 0, 0]
    assert outcome_value(state, 0, 3, True, 1, False) == 1 + WIN_VALUE  # three made: +1 lands on 7
    assert outcome_value(state, 0, 1, True, 1, False) == -3  # alone: +3 would pass 7, so -3
    assert outcome_value(state, 0, 5, False, 0, False) == -3  # the lone loser
    assert outcome_value(state, 0, 3, True, 1, True) == -2  # doubled: +2 busts
    assert outcome_value(state, 0, 0, False, 0, False) == 0


def test_the_shortlist_starts_with_the_easy_choice_and_plays_one_card_of_each_rank() -> None:
    hands = ["2D 7S 7H JK JK2 9C", "3D 3H 6H 4H 8S 9H", "4D 4S 7D 3S 9S 10C", "5D KD QS JS 8H 10H"]
    state = position(hands, "", first=0, double_hard_bids=True)
    legal = state.legal(0)
    easy = KNOWLEDGE.easy(state, 0, legal, Random(1))
    bids = KNOWLEDGE.shortlist(state, 0, legal, Random(1))
    assert bids[0] == easy and sorted(bids) == sorted(legal)  # a bid's suit matters: every one
    state = position(hands, "bid 2D, bid 3D, bid 4D, bid 5D", first=0)
    legal = state.legal(0)
    plays = KNOWLEDGE.shortlist(state, 0, legal, Random(1))
    assert plays[0] == KNOWLEDGE.easy(state, 0, legal, Random(1))
    ranks = sorted("JK" if action.startswith("play JK") else action[5:-1] for action in plays)
    assert ranks == ["7", "9", "JK"] and set(plays) <= set(legal)


# Reading the bids -----------------------------------------------------------------------------


def test_refine_deals_hands_that_explain_the_bids_and_keeps_what_the_seat_saw() -> None:
    easy = ComputerPlayer("easy")
    plain = refined = 0.0
    for players in (4, 6, 9):
        for seed in range(8):
            state = new_match(players, {}, seed=seed)
            while state.phase == 0 or len(state.trick) < seed % 4:  # after the bids, some cards into a trick
                seat = state.to_act()[0]
                state.act(seat, easy.choose(state, seat))
            seat = state.to_act()[0]
            bidders = [h for h in state.bid_order if h != seat and bid_value(state.bids[h]) >= READ_FROM]
            earlier = [C.mask_of(state.bids[o] for o in state.bid_order[: state.bid_order.index(h)]) for h in bidders]
            for k in range(3):
                world = state.determinize(seat, Random(k))
                plain += bid_likelihood(world, world.hands, bidders, earlier)
                KNOWLEDGE.refine(world, seat, Random(k))
                refined += bid_likelihood(world, world.hands, bidders, earlier)
                assert world.view(seat) == state.view(seat) and world.record(seat) == state.record(seat)
                assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
                held = [c for hand in world.hands for c in C.cards_in(hand)]
                assert len(held) == len(set(held)) and not C.mask_of(held) & C.mask_of(c for _, c in world.plays)
                twin = state.determinize(seat, Random(k + 10))  # the same to the seat
                again = twin.determinize(seat, Random(k))
                KNOWLEDGE.refine(again, seat, Random(k))
                assert again.to_json() == world.to_json()
    assert refined - plain > 0.2 * -plain  # summed log-likelihoods of the bids read
