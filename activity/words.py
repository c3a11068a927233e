"""A game's description (:mod:`bot.games.shown`) in words, in the reader's language, for the Activity.

The same catalogues as the chat table (:mod:`bot.catalogues`); names are plain text here, and
the page draws them with ``textContent``, never as HTML.
"""

from __future__ import annotations

from bot.catalogues import translate
from bot.games import presentation_of
from bot.games.shown import Card, Cards, Joined, Param, Seat, Suit, SuitSymbol, Text
from bot.games.views import View
from bot.tables import Hint, TableInfo

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
NAME_MAX = 32  # a display name is cut to this on the table


def card_label(card: str, language: str) -> str:
    """``A♠``, ``10♥``; the jokers by name."""
    if card.startswith("JK"):
        return translate(language, "card.joker2" if card == "JK2" else "card.joker")
    return card[:-1] + SUIT_SYMBOL.get(card[-1], card[-1])


def suit_label(suit: str | None, language: str) -> str:
    if suit is None or suit == "NT":
        return translate(language, "suit.none")
    return f"{SUIT_SYMBOL[suit]} {translate(language, f'suit.{suit}')}"


def seat_name(table: TableInfo | None, seat: int, language: str) -> str:
    """A seat's player's name, a computer's number, or the dummy (the Ninety-Nine dummy has no seat row)."""
    if table is None:
        return str(seat + 1)
    for info in table.seats:
        if info.index == seat:
            if info.computer:  # by its level and seat, as in chat: 🤖 Strong 2
                key = f"seat.computer.{info.level}" if info.level else "seat.computer"
                return translate(language, key, number=seat + 1)
            name = info.name or str(info.user_id)
            return name if len(name) <= NAME_MAX else name[: NAME_MAX - 1] + "…"
    return translate(language, "seat.dummy")


def said(table: TableInfo | None, text: Text, language: str) -> str:
    params = {name: _param(table, value, language) for name, value in text.params.items()}
    return translate(language, text.key, **params)


def _param(table: TableInfo | None, value: Param, language: str) -> str | int:
    if isinstance(value, Text):
        return said(table, value, language)
    if isinstance(value, Seat):
        return seat_name(table, value.index, language)
    if isinstance(value, Card):
        return card_label(value.name, language)
    if isinstance(value, Cards):
        return " ".join(card_label(card, language) for card in value.names)
    if isinstance(value, Suit):
        return suit_label(value.letter, language)
    if isinstance(value, SuitSymbol):
        return SUIT_SYMBOL[value.letter]
    if isinstance(value, Joined):
        return translate(language, "list.separator").join(said(table, item, language) for item in value.items)
    return value


AIMS = ("bid", "contract", "defence")


def advised(action: str, view: View, language: str) -> str:
    """The action as advice: ``Play 7♥``, ``Bid 7 ♠``, ``Pass`` (as the chat hand says it)."""
    words = action.split()
    if words[0] == "play" and len(words) == 2:
        return translate(language, "hint.play", card=card_label(words[1], language))
    if words[0] == "play":  # the joker led at no trumps, naming a suit
        card, suit = card_label(words[1], language), suit_label(words[2], language)
        return translate(language, "hint.play_joker", card=card, suit=suit)
    return said(None, presentation_of(view["game"]).advice(view, action), language)


def hint_text(hint: Hint, view: View, language: str) -> str:
    """``💡 Play 7♥: you make your bid in 64% of the 180 deals I tried.``, or ``💡 Play 7♥.``; and what the
    search read of the others' bids and plays, where it read something, on a line of its own."""
    action = advised(hint.action, view, language)
    if hint.aim in AIMS and hint.rate is not None and hint.samples > 0:
        rate = f"{round(100 * hint.rate)}%"
        text = translate(language, f"hint.aim.{hint.aim}", action=action, rate=rate, samples=hint.samples)
    else:
        text = translate(language, "hint.plain", action=action)
    reading = hint.reading
    if reading is not None:
        own = view["seat"] if view["seat"] is not None else 0
        offset = (reading.seat - own) % view["players"]
        if offset == 1:
            who = translate(language, "hint.seat.left")
        elif offset == view["players"] - 1:
            who = translate(language, "hint.seat.right")
        elif 2 * offset == view["players"]:
            who = translate(language, "hint.seat.across")
        else:
            who = translate(language, "hint.seat.nth", count=offset)
        suit = suit_label(reading.suit, language)
        text += "\n" + translate(language, "hint.reading", who=who, bid=reading.bid, suit=suit, rank=reading.rank)
    return text
