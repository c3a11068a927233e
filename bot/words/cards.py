"""How cards, suits and hands read: ``A♠``, ``10♥``, the joker by name; hands sorted by suit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.catalogues import translate

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_ORDER = "SHCD"  # alternating colours, as people hold them
RED = frozenset("HD")
RANK_ORDER = {
    rank: order for order, rank in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"])
}
RANK_ORDER.update({"J": 20, "Q": 21, "K": 22, "A": 23})


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def suit_of(card: str) -> str | None:
    return None if is_joker(card) else card[-1]


def card_label(card: str, locale: Any = None) -> str:
    """``A♠``, ``10♥``; the jokers by name."""
    if is_joker(card):
        return translate(locale, "card.joker2") if card == "JK2" else translate(locale, "card.joker")
    return card[:-1] + SUIT_SYMBOL.get(card[-1], card[-1])


def cards_label(cards: Iterable[str], locale: Any = None) -> str:
    return " ".join(card_label(card, locale) for card in cards)


def suit_label(suit: str | None, locale: Any = None) -> str:
    """A trump or named suit, ``None`` meaning no trumps."""
    if suit is None or suit == "NT":
        return translate(locale, "suit.none")
    return f"{SUIT_SYMBOL[suit]} {translate(locale, f'suit.{suit}')}"


def sort_key(card: str) -> tuple[int, int]:
    """By suit (♠ ♥ ♣ ♦, jokers last), high cards first."""
    if is_joker(card):
        return (len(SUIT_ORDER), -1 if card == "JK" else 0)
    return (SUIT_ORDER.index(card[-1]), -RANK_ORDER.get(card[:-1], 0))


def sorted_hand(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)


def hand_lines(cards: Iterable[str], locale: Any = None) -> str:
    """A hand as one line per suit: ``♠ A K 10``."""
    by_suit: dict[str, list[str]] = {}
    for card in sorted_hand(cards):
        by_suit.setdefault(suit_of(card) or "JK", []).append(card)
    lines = []
    for suit, cards_of_suit in by_suit.items():
        if suit == "JK":
            lines.append(cards_label(cards_of_suit, locale))
        else:
            lines.append(SUIT_SYMBOL[suit] + " " + " ".join(card[:-1] for card in cards_of_suit))
    return "\n".join(lines) or translate(locale, "hand.empty")
