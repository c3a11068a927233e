"""A match replayed deal by deal (the chat's "Last deal" and "Replay a deal", the Activity's Last deal): each
card credited to the hand it came from, as the table showed it, and every hand as dealt, the dummy's too."""

from __future__ import annotations

import random

import pytest

from bot.games import new_game
from bot.tables.review import DealReview, TrickReview, review_deals


def random_match(game: str, players: int, seed: int) -> tuple[list[tuple[int, str]], list[TrickReview]]:
    """A match of random legal moves: its log, and the tricks of its first deal but the last, as the engine
    itself showed them once taken (the last is gone from the view with the deal)."""
    rng = random.Random(seed)
    state = new_game(game, players=players, options={}, seed=seed)
    log: list[tuple[int, str]] = []
    tricks: list[TrickReview] = []
    while not state.is_over() and len(log) < 3000:
        seat = state.to_act()[0]
        action = rng.choice(state.legal(seat))
        before = state.view(None)
        state.act(seat, action)
        log.append((seat, action))
        after = state.view(None)
        last = after["last_trick"]
        taken = after["tricks_played"] > before["tricks_played"] and after["deal"] == before["deal"] == 1
        if last is not None and taken and after["last_deal"] is None:
            tricks.append(TrickReview(tuple((p["seat"], p["card"]) for p in last["cards"]), last["winner"]))
    return log, tricks


def test_two_player_ninety_nine_credits_the_dummys_cards_to_the_dummy() -> None:
    """A live seat chooses the dummy's card: the review said that seat played it, so one seat played two
    cards to a trick and the dummy won tricks it had played no card to."""
    log, shown = random_match("ninety-nine", 2, 0)
    deals = review_deals("ninety-nine", 2, {}, 0, log)
    assert list(deals[0].tricks[: len(shown)]) == shown and len(shown) == 8
    assert all(sorted(seat for seat, _ in trick.cards) == [0, 1, 2] for deal in deals for trick in deal.tricks)
    for deal in deals:
        assert len(deal.hands) == 3 and all(len(hand) == 12 for hand in deal.hands)  # the dummy's as dealt too
        for trick in deal.tricks:
            assert all(card in deal.hands[seat] for seat, card in trick.cards)


def consistent(deal: DealReview, check_hands: bool) -> list[str]:
    """What is wrong with a reviewed deal: a card not in its seat's hand as dealt, or tricks taken that
    differ from its score sheet's."""
    wrong = []
    for trick in deal.tricks:
        for seat, card in trick.cards:
            if check_hands and (seat >= len(deal.hands) or card not in deal.hands[seat]):
                wrong.append(f"deal {deal.deal}: {card} is not in hand {seat}")
    if deal.sheet is not None:
        won = [trick.winner for trick in deal.tricks]
        for row in deal.sheet["rows"]:
            if row["tricks"] != won.count(row["seat"]):
                wrong.append(f"deal {deal.deal}: hand {row['seat']} took {row['tricks']}, shown {won}")
    return wrong


@pytest.mark.parametrize(
    ("game", "players"),
    [("oh-hell", 3), ("oh-hell", 7), ("just-make", 4), ("ninety-nine", 2), ("ninety-nine", 3), ("ninety-nine", 4)]
    + [("five-hundred", n) for n in (2, 4, 5, 6)],
)
def test_every_reviewed_deal_agrees_with_its_hands_and_sheet(game: str, players: int) -> None:
    for seed in range(2):
        log, _ = random_match(game, players, seed)
        deals = review_deals(game, players, {}, seed, log)
        assert deals
        # Five Hundred's hands change with the kitty after the deal: its cards are not all in the hand dealt.
        problems = [problem for deal in deals for problem in consistent(deal, game != "five-hundred")]
        assert problems == []
