"""Knockout by tables: the top *k* of each table go on, until one table is left: the final.

- Seating: the entrants in seed order (the standings so far; round 1 drawn from the event's seed) are
  dealt to the tables like cards, there and back (table 1, 2, …, t, t, …, 2, 1, …), so the strongest are
  spread over the tables. Computers fill seats as in a Swiss round, or the tables are smaller.
- Going on: at each table the *k* best placed entrants, but never the whole table (at a table with *k*
  people or fewer, computers filling the rest, all but the last placed go on); a tie across the cut goes to
  the entrant earlier in the round's seed order.
- The last round is the one whose entrants fit at one table; its places are the podium.
"""

from __future__ import annotations

from collections.abc import Sequence

from .standings import Entrant, TablePlaces
from .swiss import RoundPlan, seated_with_computers, table_sizes


def knockout_round(order: Sequence[Entrant], size: int, allowed: Sequence[int], computers: bool) -> RoundPlan:
    """The tables of a knockout round for the entrants in seed ``order`` (best first). Nobody sits out:
    with neither computers nor smaller tables allowed, the last table is a smaller one only if the game
    allows it, else the lowest seeds sit out (byes, who do not go on)."""
    people, robots, sitting_out = table_sizes(len(order), size, allowed, computers)
    playing = list(order[: len(order) - sitting_out])
    groups: list[list[Entrant]] = [[] for _ in people]
    index, step = 0, 1
    for entrant in playing:
        while len(groups[index]) >= people[index]:
            index, step = _next(index, step, len(groups))
        groups[index].append(entrant)
        index, step = _next(index, step, len(groups))
    tables = seated_with_computers(groups, robots)
    return RoundPlan(tables, tuple(order[len(order) - sitting_out :]))


def _next(index: int, step: int, count: int) -> tuple[int, int]:
    if count == 1:
        return 0, step
    following = index + step
    if 0 <= following < count:
        return following, step
    return index, -step


def advancing(tables: Sequence[TablePlaces], k: int, order: Sequence[Entrant]) -> list[Entrant]:
    """Who goes on: the ``k`` best placed entrants of each table, in seed order for the next round (by
    place, then by this round's ``order``). At least one person of a table is out (so the field shrinks),
    except that a person seated alone with computers goes on by beating them: placed within the table's
    best ``k``, computers counted (they were out whatever they did)."""
    rank = {entrant: index for index, entrant in enumerate(order)}
    going: list[tuple[int, int, Entrant]] = []
    for table in tables:
        people = [
            (place, rank.get(seat, len(rank)), seat)
            for seat, place in zip(table.seats, table.places, strict=True)
            if seat is not None
        ]
        if len(people) == 1:
            going.extend(person for person in people if person[0] <= k)
        else:
            going.extend(sorted(people)[: min(k, len(people) - 1)])
    return [entrant for _, _, entrant in sorted(going)]


def advancing_without(
    tables: Sequence[TablePlaces], k: int, order: Sequence[Entrant], gone: set[Entrant]
) -> list[Entrant]:
    """Who goes on from a knockout round's tables (:func:`advancing`) when some of their people left during it:
    each table sends as many as it would have, the best of those still in (the next best in the place of one who
    left, even where that leaves someone seated only with computers)."""
    rank = {entrant: index for index, entrant in enumerate(order)}
    going: list[tuple[int, int, Entrant]] = []
    for table in tables:
        sent = len(advancing([table], k, order))
        people = sorted(
            (place, rank.get(seat, len(rank)), seat)
            for seat, place in zip(table.seats, table.places, strict=True)
            if seat is not None and seat not in gone
        )
        going.extend(people[:sent])
    return [entrant for _, _, entrant in sorted(going)]


def is_final(count: int, size: int) -> bool:
    """Whether ``count`` entrants left play the final (they fit at one table)."""
    return count <= size
