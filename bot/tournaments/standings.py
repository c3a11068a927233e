"""Points from table places, and the standings with their tie-breaks.

The rules, as /rules and docs/events.md state them:

- At a table of *s* seats, place *p* (1 best) earns ``s - p`` points: 3, 2, 1, 0 at a table of four.
  Seats tied for a place share the points of the places they cover equally (two tied for first at a
  table of four each earn (3 + 2) / 2 = 2.5). Computers take places too but are not ranked.
- A bye (an entrant who sat out a round because the count did not divide) earns the average points of
  a place at a table of the round's size, ``(s - 1) / 2``.
- Standings order entrants by, in turn: points; opponents' points (the sum, over every table played, of
  the points its other entrants have now: a harder schedule ranks higher); first places; the average
  place (lower is better); and the sign-up order last, so two entrants are never left tied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

Entrant = int  # an entrant's id (a Discord user id)


@dataclass(frozen=True)
class TablePlaces:
    """One finished table of a round: each seat's entrant (None for a computer) and its place (1 best)."""

    round: int
    seats: tuple[Entrant | None, ...]
    places: tuple[int, ...]
    points: tuple[Fraction, ...] | None = None  # each seat's points when not from places (a duplicate round's)

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.places) or not self.seats:
            raise ValueError("a place for every seat")
        if self.points is not None and len(self.points) != len(self.seats):
            raise ValueError("points for every seat")
        if any(not 1 <= place <= len(self.places) for place in self.places):
            raise ValueError("places run from 1 to the number of seats")


def place_points(places: Sequence[int]) -> list[Fraction]:
    """The points each seat earns for its place: ``s - p``, ties sharing the places they cover."""
    size = len(places)
    order = sorted(range(size), key=lambda seat: places[seat])
    points = [Fraction(0)] * size
    start = 0
    while start < size:
        end = start
        while end + 1 < size and places[order[end + 1]] == places[order[start]]:
            end += 1
        covered = [size - 1 - rank for rank in range(start, end + 1)]
        share = Fraction(sum(covered), len(covered))
        for rank in range(start, end + 1):
            points[order[rank]] = share
        start = end + 1
    return points


def bye_points(size: int) -> Fraction:
    """What a bye earns at a round of tables of ``size``: the average place's points."""
    return Fraction(size - 1, 2)


@dataclass
class Standing:
    """One entrant's line of the standings."""

    entrant: Entrant
    points: Fraction = Fraction(0)
    opponents_points: Fraction = Fraction(0)
    firsts: int = 0
    places: list[int] = field(default_factory=list)
    byes: int = 0
    rank: int = 0

    @property
    def average_place(self) -> Fraction:
        return Fraction(sum(self.places), len(self.places)) if self.places else Fraction(0)


def standings(
    entrants: Sequence[Entrant],
    tables: Iterable[TablePlaces],
    byes: Mapping[int, Iterable[tuple[Entrant, int]]] | None = None,
) -> list[Standing]:
    """The standings after ``tables`` (and ``byes``: per round, each entrant who sat out and the round's
    table size), ranked 1.. by the tie-breaks of the module. ``entrants`` in sign-up order."""
    lines = {entrant: Standing(entrant) for entrant in entrants}
    tables = list(tables)
    for table in tables:
        earned = table.points if table.points is not None else place_points(table.places)
        for seat, points in zip(table.seats, earned, strict=True):
            if seat is not None and seat in lines:
                line = lines[seat]
                line.points += points
                line.places.append(table.places[table.seats.index(seat)])
                line.firsts += table.places[table.seats.index(seat)] == 1
    for sat_out in (byes or {}).values():
        for entrant, size in sat_out:
            if entrant in lines:
                lines[entrant].points += bye_points(size)
                lines[entrant].byes += 1
    for table in tables:
        people = [seat for seat in table.seats if seat is not None and seat in lines]
        for seat in people:
            lines[seat].opponents_points += sum((lines[other].points for other in people if other != seat), Fraction(0))
    order = {entrant: index for index, entrant in enumerate(entrants)}
    ranked = sorted(
        lines.values(),
        key=lambda line: (-line.points, -line.opponents_points, -line.firsts, line.average_place, order[line.entrant]),
    )
    for rank, line in enumerate(ranked, start=1):
        line.rank = rank
    return ranked


def shown(points: Fraction) -> str:
    """Points as people read them: ``3``, ``2.5``, ``1.33``."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0").rstrip(".")
