"""The words both presentations share, with no Discord in them: cards and suits as people read them, a
game's described texts (:mod:`bot.games.shown`) in words, options, lengths of time, the service's refusals
and hints. The chat table (``cogs/``) and the Activity (``activity/``) say everything through these, in
the reader's language from the same catalogues (:mod:`bot.catalogues`); each adds only its own way of
naming a seat and its own layout."""

from .cards import (
    RANK_ORDER,
    RED,
    SUIT_ORDER,
    SUIT_SYMBOL,
    card_label,
    cards_label,
    hand_lines,
    is_joker,
    sort_key,
    sorted_hand,
    suit_label,
    suit_of,
)
from .hints import AIMS, advised, hint_text
from .texts import (
    SeatNamer,
    cell_text,
    computer_name,
    duration,
    error_text,
    listed,
    option_text,
    rating_text,
    said,
    said_cards,
)

__all__ = [
    "AIMS",
    "RANK_ORDER",
    "RED",
    "SUIT_ORDER",
    "SUIT_SYMBOL",
    "SeatNamer",
    "advised",
    "card_label",
    "cards_label",
    "cell_text",
    "computer_name",
    "duration",
    "error_text",
    "hand_lines",
    "hint_text",
    "is_joker",
    "listed",
    "option_text",
    "rating_text",
    "said",
    "said_cards",
    "sort_key",
    "sorted_hand",
    "suit_label",
    "suit_of",
]
