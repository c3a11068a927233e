"""How each game is shown: a discord-free description the presentation renders for any game.

Each game has a module here (``bot.games.shown.<game>``, dashes as
underscores) with a ``PRESENTATION`` (its entry's ``shown`` in ``bot.games.GAMES``; callers find it
with ``bot.games.presentation_of``) that turns a *view* (``state.view(seat)``
or ``view(None)``, nothing else) into what a table shows: the header lines,
one row per seat, the face-up hands, and the last deal's score sheet. Every
word is a translation key with parameters (:class:`Text`); a parameter that
names a seat, a card, cards or a suit is typed (:class:`Seat`, :class:`Card`,
:class:`Cards`, :class:`Suit`, :class:`SuitSymbol`) so the presentation says
it in the reader's language (a seat by its player's name). Nothing here knows
Discord, and the cogs know no game: a new game brings its own module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, TypeVar, Union, cast

from ..views import BidRow, DealSheet, View


@dataclass(frozen=True)
class Seat:
    """A seat, shown by its player's name (the Ninety-Nine dummy's seat is 2 with two players)."""

    index: int


@dataclass(frozen=True)
class Card:
    name: str  # as in views: ``10H``, ``JK``


@dataclass(frozen=True)
class Cards:
    names: tuple[str, ...]
    by_suit: bool = False  # a whole hand, shown a line per suit


@dataclass(frozen=True)
class Suit:
    """A trump or named suit by name (``♥ Hearts``); None: no trumps."""

    letter: str | None


@dataclass(frozen=True)
class SuitSymbol:
    """A suit as its symbol alone (``♥``), as in a bid ``7 ♥``."""

    letter: str


@dataclass(frozen=True)
class Joined:
    """Several texts in a line, in the reader's way of listing (``Alice 2 · Bob 0``)."""

    items: tuple[Text, ...]


Param = Union[int, str, Seat, Card, Cards, Suit, SuitSymbol, "Text", Joined]


@dataclass(frozen=True)
class Text:
    """Words to show: a translation key and its parameters."""

    key: str
    params: dict[str, Param] = field(default_factory=dict)


def say(key: str, **params: Param) -> Text:
    return Text(key, params)


@dataclass(frozen=True)
class SeatRow:
    """One seat's line on the table: whether it is to act, and what is said of it after its name."""

    seat: int
    acting: bool
    parts: tuple[Text, ...]


@dataclass(frozen=True)
class Cell:
    """One figure of a score-sheet row: a number (``signed``: with its sign) or, for a bool, made ✓ or
    missed ✗ (``bust``: missed by going past the target, ✗!), right-aligned to ``width``."""

    value: int | bool
    width: int
    signed: bool = False
    bust: bool = False


@dataclass(frozen=True)
class Sheet:
    """A deal's score sheet: its title, the column heads (a key given ``name``: the name column's
    padding), and a row per seat."""

    title: Text
    head: str
    rows: tuple[tuple[int, tuple[Cell, ...]], ...]
    notes: tuple[Text, ...] = ()  # why points moved: each bonus or penalty and its cause


@dataclass(frozen=True)
class Shown:
    """Face-up cards on the table: whose, and which."""

    title: Text
    cards: Cards


# How a group of a seat's legal actions is picked (``Choice.kind``).
CARD = "card"  # a button per card of ``cards`` (an action's second word); several actions for a card: a next step
CARDS = "cards"  # choose ``count`` of the cards the actions name, then confirm the action they make
NUMBER = "number"  # choose a number (``numbers``), then one of the actions starting ``<verb> <number>``
WORD = "word"  # a button per action
LIST = "list"  # a list to pick one action from


@dataclass(frozen=True)
class Choice:
    """Some of a seat's legal actions and the control that picks among them."""

    kind: str
    actions: tuple[str, ...]
    prompt: Text | None = None  # what a list or a card choice asks
    cards: tuple[str, ...] = ()  # CARD: the cards shown, in order (those with no action disabled)
    count: int = 1  # CARDS: how many cards make an action
    numbers: tuple[tuple[int, Text], ...] = ()  # NUMBER: each number and how it reads
    notes: tuple[tuple[str, Text], ...] = ()  # CARD, CARDS: what a card means here, on its control (a bid's value)
    confirm: tuple[tuple[str, Text], ...] = ()  # WORD: actions asked again before they are done, and what to say

    def confirmation(self, action: str) -> Text | None:
        return next((text for named, text in self.confirm if named == action), None)

    def note(self, card: str) -> Text | None:
        return next((text for named, text in self.notes if named == card), None)


def cards_choice(view: View, actions: list[str], prompt: Text) -> Choice:
    """Card actions (``play QH``, ``play JK H``) as a button per card held: the seat's hand, or the
    cards the actions name when they are not in it (the Ninety-Nine dummy's, played for it)."""
    named = list(dict.fromkeys(action.split()[1] for action in actions))
    hand = list(view.get("hand") or [])
    return Choice(CARD, tuple(actions), prompt, tuple(hand if set(named) <= set(hand) else named))


ViewT = TypeVar("ViewT", bound=View, contravariant=True)
SheetT = TypeVar("SheetT", bound=DealSheet, contravariant=True)


class Presentation(Protocol[ViewT, SheetT]):
    """One game's description, from its views (``ViewT``) and score sheets (``SheetT``) alone."""

    #: What a seat aims at each deal, as the records count it: "bids" (its own bid) or "contracts"
    #: (a contract its side won at auction); the stats say ``stats.<aims>``.
    aims: str

    def aim(self, sheet: SheetT, seat: int) -> bool | None:
        """Whether ``seat`` reached its aim in a scored deal (its sheet), or None if it had none."""
        ...

    def header(self, view: ViewT) -> list[tuple[Text, ...]]:
        """The lines above the seats (each line: texts joined by a space): the deal, trumps, a contract."""
        ...

    def seat_rows(self, view: ViewT) -> list[SeatRow]:
        """A row per seat in table order: its bid, tricks, score and marks (the dealer, a side)."""
        ...

    def face_up(self, view: ViewT) -> list[Shown]:
        """Hands and cards face up by rule (a revealed hand, declared bid cards, an open misère)."""
        ...

    def sheet(self, sheet: SheetT) -> Sheet:
        """A deal's score sheet (``view["last_deal"]``)."""
        ...

    def hand_notes(self, view: ViewT) -> list[Text]:
        """What a seat's own view adds under its hand: its bid, trumps, a contract, the kitty."""
        ...

    def beside(self, view: ViewT) -> list[Shown]:
        """Other cards the seat plays from its own view (the dummy's hand)."""
        ...

    def choices(self, view: ViewT, legal: list[str]) -> list[Choice]:
        """The seat's legal actions, each in exactly one choice, in the order they are shown."""
        ...

    def label(self, view: ViewT, action: str) -> Text:
        """How an action reads on its button or in a list."""
        ...

    def advice(self, view: ViewT, action: str) -> Text:
        """An action other than playing a card, as a hint advises it (``Bid 7 ♠``, ``Pass``)."""
        ...


class OwnBids:
    """The records of games in which every seat bids for itself each deal: its aim is its own bid,
    made or not as its row of the sheet says."""

    aims = "bids"

    def aim(self, sheet: DealSheet, seat: int) -> bool | None:
        rows = cast(list[BidRow], sheet["rows"])
        row = next((row for row in rows if row["seat"] == seat), None)
        return None if row is None else row["made"]


__all__ = [
    "CARD",
    "CARDS",
    "LIST",
    "NUMBER",
    "WORD",
    "Card",
    "Cards",
    "Cell",
    "Choice",
    "Joined",
    "OwnBids",
    "Param",
    "Presentation",
    "Seat",
    "SeatRow",
    "Sheet",
    "Shown",
    "Suit",
    "SuitSymbol",
    "Text",
    "cards_choice",
    "say",
]
