"""A hint reads as one line: the action as the hand labels it, and how often its aim was reached; and where the
search read the others' bids and plays, one more line saying what it read."""

from __future__ import annotations

import pytest

from bot.tables import Hint, Reading
from bot.words import hint_text
from tests.e2e.driver import cards_named

FIVE_HUNDRED = {"game": "five-hundred"}
NINETY_NINE = {"game": "ninety-nine", "joker_as": None}
JUST_MAKE = {"game": "just-make"}

ENGLISH = [
    (Hint("play 7H", "bid", 0.643, 180), JUST_MAKE, "💡 Play 7♥: you make your bid in 64% of the 180 deals I tried."),
    (Hint("bid 4C", "bid", 0.5, 40), JUST_MAKE, "💡 Bid 4♣ = 3: you make your bid in 50% of the 40 deals I tried."),
    (
        Hint("bid 7S", "contract", 0.71, 120),
        FIVE_HUNDRED,
        "💡 Bid 7 ♠: your side makes the contract in 71% of the 120 deals I tried.",
    ),
    (
        Hint("play KD", "defence", 0.58, 90),
        FIVE_HUNDRED,
        "💡 Play K♦: you beat the contract in 58% of the 90 deals I tried.",
    ),
    (Hint("play JK H", None, None, 0), FIVE_HUNDRED, "💡 Play 🃏 Joker as ♥ Hearts."),
    (
        Hint("bid misere", "contract", 1.0, 30),
        FIVE_HUNDRED,
        "💡 Bid Misère: your side makes the contract in 100% of the 30 deals I tried.",
    ),
    (Hint("pass", None, None, 0), FIVE_HUNDRED, "💡 Pass."),
    (Hint("discard 5C 7D 9S", None, None, 0), FIVE_HUNDRED, "💡 Discard 5♣ 7♦ 9♠."),
    (Hint("call AS", None, None, 0), FIVE_HUNDRED, "💡 Call A♠."),
    (
        Hint("bid 9D 10S AC", "bid", 0.25, 64),
        NINETY_NINE,
        "💡 Bid 9♦ 10♠ A♣ = 4: you make your bid in 25% of the 64 deals I tried.",
    ),
    (Hint("declare", None, None, 0), NINETY_NINE, "💡 Declare."),
    (Hint("play 7H", "bid", None, 0), JUST_MAKE, "💡 Play 7♥."),  # no rate: nothing was searched
]


@pytest.mark.parametrize(("hint", "view", "expected"), ENGLISH, ids=[h.action for h, _, _ in ENGLISH])
def test_a_hint_reads_as_the_hand_labels_its_action(hint: Hint, view: dict[str, object], expected: str) -> None:
    assert hint_text(hint, view, "en-US") == expected
    # the cards a hint names are the action's own cards: nothing else of the deal
    assert cards_named(expected) <= set(hint.action.split()[1:])


def test_hints_in_japanese() -> None:
    assert hint_text(Hint("play 7H", "bid", 0.643, 180), JUST_MAKE, "ja") == (
        "💡 7♥を出す：試した180通りの配り方のうち64%で、ビッドどおりになります。"
    )
    assert hint_text(Hint("play JK H", None, None, 0), FIVE_HUNDRED, "ja") == "💡 🃏 ジョーカーを♥ ハートとして出す。"
    assert hint_text(Hint("bid 7S", "contract", 0.71, 120), FIVE_HUNDRED, "ja") == (
        "💡 7 ♠をビッド：試した120通りの配り方のうち71%で、コントラクトを果たせます。"
    )


OH_HELL = {"game": "oh-hell", "seat": 3, "players": 4}
READ = Hint("bid 1", "bid", 0.64, 180, Reading(seat=0, bid=0, suit="S", rank="9", chance=0.8, before=0.5))


def test_a_hint_says_what_it_read_of_the_table_in_one_line() -> None:
    assert hint_text(READ, OH_HELL, "en-US") == (
        "💡 Bid 1: you make your bid in 64% of the 180 deals I tried.\n"
        "🔎 The player on your left bid 0: likely no ♠ Spades above the 9."
    )
    assert (
        hint_text(READ, OH_HELL, "ja").splitlines()[1]
        == "🔎 左隣の人は0をビッド：♠ スペードの9より上はおそらく持っていません。"
    )
    across = Hint("bid 1", "bid", 0.64, 180, Reading(1, 2, "H", "Q", 0.8, 0.5))
    assert hint_text(across, OH_HELL, "en-US").splitlines()[1] == (
        "🔎 The player across bid 2: likely no ♥ Hearts above the Q."
    )
    assert hint_text(Hint("bid 1", "bid", 0.64, 180, Reading(2, 1, "D", "10", 0.8, 0.5)), OH_HELL, "en-US").endswith(
        "🔎 The player on your right bid 1: likely no ♦ Diamonds above the 10."
    )
