"""A hint as one line: the action as the hand labels it, and how often it worked.

The service's :class:`~bot.tables.Hint` names an action string and, when the strong computer searched,
what the seat aims at and the share of the deals it tried in which that aim was reached. The action is
rendered from the seat's own view, exactly as its hand's controls say it, so a hint names only what the
seat may know.
"""

from __future__ import annotations

from typing import Any

from bot.catalogues import translate
from bot.games import presentation_of
from bot.games.views import View
from bot.tables import Hint, Reading

from .cards import card_label, suit_label
from .texts import said

AIMS = ("bid", "contract", "defence")


def advised(action: str, view: View, locale: Any) -> str:
    """The action as advice: ``Play 7♥``, ``Bid 7 ♠``, ``Pass``, ``Bid 9♦ 10♠ A♣ = 4``."""
    words = action.split()
    if words[0] == "play" and len(words) == 2:
        return translate(locale, "hint.play", card=card_label(words[1], locale))
    if words[0] == "play":  # the joker led at no trumps, naming a suit
        card, suit = card_label(words[1], locale), suit_label(words[2], locale)
        return translate(locale, "hint.play_joker", card=card, suit=suit)
    return said(presentation_of(view["game"]).advice(view, action), locale)


def hint_text(hint: Hint, view: View, locale: Any) -> str:
    """``💡 Play 7♥: you make your bid in 64% of the 180 deals I tried.``, or ``💡 Play 7♥.`` for a forced move;
    and where the search read the others' bids and plays, what it read, on a line of its own."""
    action = advised(hint.action, view, locale)
    if hint.aim in AIMS and hint.rate is not None and hint.samples > 0:
        rate = f"{round(100 * hint.rate)}%"
        text = translate(locale, f"hint.aim.{hint.aim}", action=action, rate=rate, samples=hint.samples)
    else:
        text = translate(locale, "hint.plain", action=action)
    if hint.reading is not None:
        text += "\n" + reading_text(hint.reading, view, locale)
    return text


def reading_text(reading: Reading, view: View, locale: Any) -> str:
    """``🔎 The player on your left bid 0: likely no ♠ Spades above the 9.``: the seat named from the reader's
    own (on your left, across, on your right, or so many seats to your left)."""
    own = view["seat"] if view["seat"] is not None else 0
    offset = (reading.seat - own) % view["players"]
    if offset == 1:
        who = translate(locale, "hint.seat.left")
    elif offset == view["players"] - 1:
        who = translate(locale, "hint.seat.right")
    elif 2 * offset == view["players"]:
        who = translate(locale, "hint.seat.across")
    else:
        who = translate(locale, "hint.seat.nth", count=offset)
    suit = suit_label(reading.suit, locale)
    return translate(locale, "hint.reading", who=who, bid=reading.bid, suit=suit, rank=reading.rank)
