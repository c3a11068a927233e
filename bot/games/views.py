"""What every game's view has in common, typed: the core the service and the presentation rely on.

A view is plain JSON data (``state.view(seat)``), and its type is a
``TypedDict``: :class:`View` is the core every game has, with the same keys
and meanings everywhere, and each engine extends it with its own keys
(``NinetyNineView`` and so on, beside the engine). Code that serves any game
(the table service, storage, the cogs) reads only the core; a game's own
presentation (``bot.games.shown.<game>``) reads its own extension.
"""

# No ``from __future__ import annotations`` here: a TypedDict reads ``NotRequired`` from its
# annotations when the class is made, so tests can check views against ``__required_keys__``.
from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict, TypeVar, cast

from .options import OptionValue


class Played(TypedDict):
    """A card played to a trick, and by whom."""

    seat: int
    card: str  # as in every view: ``10H``, ``JK``


class LastTrick(TypedDict):
    """The trick last completed: its cards in the order played, and who took it."""

    cards: list[Played]
    winner: int | None  # None: nobody took it (Just Make's cancelled trick)


class Scores(TypedDict):
    total: list[int]  # the match total per seat


class SheetRow(TypedDict):
    """One seat's line of a deal's score sheet: the columns every game has."""

    seat: int
    tricks: int
    change: int  # what the deal did to the seat's match total (bonuses and penalties included)
    total: int  # the match total after the deal


class BidRow(SheetRow):
    """A row of the games where every seat bids for itself each deal."""

    bid: int
    made: bool  # took exactly its bid (Ninety-Nine, Oh Hell) or made it (Just Make)


class DealSheet(TypedDict):
    """A scored deal."""

    deal: int  # the deal's number in the match, from 1
    rows: list[SheetRow]  # a row per seat (none for a deal thrown in)


class View(TypedDict):
    """What any seat (or a spectator) may know of any game, with the same keys in every game."""

    game: str
    players: int
    seat: int | None  # whose view this is; None for the public table
    options: dict[str, OptionValue]
    phase: str
    to_act: list[int]
    deal: int  # the deal in progress, from 1
    dealer: int | None  # None where the game has no dealer
    trump: str | None  # a suit letter; None for no trumps (or none yet)
    leader: int | None  # who led (or leads) the trick in progress
    trick: list[Played]  # the trick in progress, in the order played
    last_trick: LastTrick | None
    tricks_played: int  # tricks completed this deal
    tricks: list[int]  # tricks taken this deal, per seat
    cards_left: list[int]  # cards in hand, per seat
    sides: list[list[int]]  # the seats that score together (each seat alone, but for partnerships)
    scores: Scores
    last_deal: DealSheet | None  # the score sheet of the deal last scored
    winners: list[int] | None  # once the match is over
    hand: NotRequired[list[str]]  # a seat's own view: its cards


class Record(View):
    """A seat's record of the deal for a computer player: its view, every card played, shown voids."""

    plays: list[Played]
    voids: list[Sequence[str]]  # per seat, the suit letters it has shown it lacks


def seats_alone(players: int) -> list[list[int]]:
    """``sides`` for a game where every seat plays for itself."""
    return [[seat] for seat in range(players)]


Plain = TypeVar("Plain")


def copied(value: Plain) -> Plain:
    """A copy of plain JSON data (its dicts and lists anew, the rest as it is): what a view or a result hands out
    of the state's own (a score sheet, the last trick) is a copy, so a caller that changes it changes nothing of
    the game."""
    return cast(Plain, _copy(value))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
