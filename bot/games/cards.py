"""Card codes shared by every engine.

A card is a small int, ``suit * 16 + rank``, so a hand is a bitmask and
"the cards of one suit" is a single AND. Ranks run low to high:
``2``…``10``, then the six-player Five Hundred ranks ``11`` ``12`` ``13``,
then ``J`` ``Q`` ``K`` ``A``; comparing two codes of one suit compares ranks.
Suit order (♠ ♥ ♣ ♦) alternates colours so sorted hands read easily.
The jokers sit above every suit. Strings (``"10H"``, ``"JK"``) are the
boundary format; engines work on the ints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Final

SUITS: Final = "SHCD"  # index = suit number
SPADES: Final = 0
HEARTS: Final = 1
CLUBS: Final = 2
DIAMONDS: Final = 3
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
# Rank indices of the court cards and the ace, handy for engines.
R9, R10, JACK, QUEEN, KING, ACE = (RANK_INDEX[r] for r in ("9", "10", "J", "Q", "K", "A"))

JOKER: Final = 64
JOKER2: Final = 65

SUIT_MASK: Final = tuple(0xFFFF << (16 * s) for s in range(4))


def taking(trick: list[int], trump: int) -> int:
    """The index in ``trick`` (cards in the order played) of the card that takes it: the highest
    trump, else the highest card of the suit led (``trump`` -1: no trumps). Suits and ranks as the
    codes have them (no joker, no bower)."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c >> 4 == b >> 4:
            if c > b:
                best = i
        elif c >> 4 == trump:
            best = i
    return best


def card(rank: str, suit: str) -> int:
    return SUITS.index(suit) * 16 + RANK_INDEX[rank]


def suit_of(code: int) -> int:
    return code >> 4


def rank_of(code: int) -> int:
    return code & 15


def _name(code: int) -> str:
    if code == JOKER:
        return "JK"
    if code == JOKER2:
        return "JK2"
    return RANKS[code & 15] + SUITS[code >> 4]


# Every code that names a card, and the reverse table for parsing.
ALL_CODES = tuple([s * 16 + r for s in range(4) for r in range(16)] + [JOKER, JOKER2])
NAMES: list[str] = [""] * (JOKER2 + 1)
for _c in ALL_CODES:
    NAMES[_c] = _name(_c)
CODES: dict[str, int] = {NAMES[c]: c for c in ALL_CODES}


def name(code: int) -> str:
    return NAMES[code]


def parse(text: str) -> int | None:
    """The code of a card string, or None if it names no card."""
    return CODES.get(text.upper())


def mask_of(codes: Iterable[int]) -> int:
    m = 0
    for c in codes:
        m |= 1 << c
    return m


def cards_in(mask: int) -> list[int]:
    """The codes in a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def nth_card(mask: int, pick: Callable[[], float]) -> int:
    """One card of a non-empty ``mask``, chosen uniformly by ``pick()`` (a float in [0, 1)), without
    listing the cards: the searches' random playouts. A single card is chosen without calling ``pick``."""
    if not mask & (mask - 1):
        return mask.bit_length() - 1
    count = 0
    rest = mask
    while rest:  # counted by hand: int.bit_count() is a method call even where compiled
        rest &= rest - 1
        count += 1
    skip = int(pick() * count)
    while skip:
        mask &= mask - 1
        skip -= 1
    return (mask & -mask).bit_length() - 1


def shuffle_codes(codes: list[int], pick: Callable[[], float]) -> None:
    """Shuffle ``codes`` in place (Fisher and Yates), each swap chosen by ``pick()`` (a float in
    [0, 1)): fast where compiled, unlike ``random.shuffle``; the table's deals keep ``random.shuffle``."""
    for i in range(len(codes) - 1, 0, -1):
        j = int(pick() * (i + 1))
        codes[i], codes[j] = codes[j], codes[i]


def deck(ranks: Iterable[str], suits: str = SUITS, jokers: int = 0) -> list[int]:
    """A deck of the given ranks in every given suit, plus jokers."""
    ranks = list(ranks)
    out = [card(r, s) for s in suits for r in ranks]
    out += [JOKER, JOKER2][:jokers]
    return out


# "<prefix> A B C" for every three cards of a deck, keyed by their codes in
# order, so that listing every 3-card choice from a hand (Ninety-Nine's bids,
# Five Hundred's discards: 220 to 286 strings) stays in C. Built on first use.
_TRIPLE_TEXTS: dict[tuple[str, tuple[int, ...]], dict[tuple[int, ...], str]] = {}


def triple_texts(prefix: str, held: list[int], deck_codes: tuple[int, ...], names: list[str] = NAMES) -> list[str]:
    """``"<prefix> A B C"`` for every three of ``held`` (ascending codes from ``deck_codes``)."""
    if names is not NAMES:  # a renamed card (Ninety-Nine's joker) is not in the shared table
        return [f"{prefix} {names[a]} {names[b]} {names[c]}" for a, b, c in combinations(held, 3)]
    table = _TRIPLE_TEXTS.get((prefix, deck_codes))
    if table is None:
        table = {t: f"{prefix} {NAMES[t[0]]} {NAMES[t[1]]} {NAMES[t[2]]}" for t in combinations(sorted(deck_codes), 3)}
        _TRIPLE_TEXTS[prefix, deck_codes] = table
    return list(map(table.__getitem__, combinations(held, 3)))
