"""A hint as one line in the reader's language: the action as the hand labels it, and how often it worked.

The service's :class:`~bot.tables.Hint` names an action string and, when the
strong computer searched, what the seat aims at and the share of the deals it
tried in which that aim was reached. The action is rendered from the seat's
own view, exactly as its hand's controls say it, so a hint names only what
the seat may know.
"""

from __future__ import annotations

from typing import Any

from bot.games import presentation_of
from bot.games.views import View
from bot.tables import Hint, Reading

from ..cards import card_label, suit_label
from ..i18n import t
from .render import said

AIMS = ("bid", "contract", "defence")


def advised(action: str, view: View, locale: Any) -> str:
    """The action as advice: ``Play 7♥``, ``Bid 7 ♠``, ``Pass``, ``Bid 9♦ 10♠ A♣ = 4``."""
    words = action.split()
    if words[0] == "play" and len(words) == 2:
        return t(locale, "hint.play", card=card_label(words[1], locale))
    if words[0] == "play":  # the joker led at no trumps, naming a suit
        return t(locale, "hint.play_joker", card=card_label(words[1], locale), suit=suit_label(words[2], locale))
    return said(None, presentation_of(view["game"]).advice(view, action), locale)


def hint_text(hint: Hint, view: View, locale: Any) -> str:
    """``💡 Play 7♥: you make your bid in 64% of the 180 deals I tried.``, or ``💡 Play 7♥.`` for a forced move;
    and where the search read the others' bids and plays, what it read, on a line of its own."""
    action = advised(hint.action, view, locale)
    if hint.aim in AIMS and hint.rate is not None and hint.samples > 0:
        rate = f"{round(100 * hint.rate)}%"
        text = t(locale, f"hint.aim.{hint.aim}", action=action, rate=rate, samples=hint.samples)
    else:
        text = t(locale, "hint.plain", action=action)
    if hint.reading is not None:
        text += "\n" + reading_text(hint.reading, view, locale)
    return text


def reading_text(reading: Reading, view: View, locale: Any) -> str:
    """``🔎 The player on your left bid 0: likely no ♠ Spades above the 9.``: the seat named from the reader's
    own (on your left, across, on your right, or so many seats to your left)."""
    own = view["seat"] if view["seat"] is not None else 0
    offset = (reading.seat - own) % view["players"]
    if offset == 1:
        who = t(locale, "hint.seat.left")
    elif offset == view["players"] - 1:
        who = t(locale, "hint.seat.right")
    elif 2 * offset == view["players"]:
        who = t(locale, "hint.seat.across")
    else:
        who = t(locale, "hint.seat.nth", count=offset)
    return t(locale, "hint.reading", who=who, bid=reading.bid, suit=suit_label(reading.suit, locale), rank=reading.rank)
