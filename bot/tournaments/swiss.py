"""A Swiss round: the entrants into tables of *n*, similar standings together, repeat tablemates avoided.

How a round is seated (docs/events.md says the same):

1. **How many tables.** With ``t = ceil(count / size)`` tables: if computers may fill seats, every table
   has ``size`` seats and the people are spread as evenly as the count allows (the computers go to the
   tables with fewer people). Otherwise, if the game allows smaller tables, ``t`` tables of nearly equal
   size; otherwise ``count // size`` full tables and the rest sit out (byes).
2. **Byes** go to the entrants lowest in the standings among those with the fewest byes so far, so nobody
   sits out twice while another has not sat out at all.
3. **Tables.** The entrants in standings order are cut into tables in turn (the leaders together). Then,
   while it helps, two entrants of tables near each other (at most ``WINDOW`` tables apart) swap seats when
   the swap lowers the number of pairs who already met at a table; among swaps that leave that number
   unchanged, only those bringing people nearer their place in the standings are made. The result never
   has more repeat pairs than the plain cut, and is the same for the same input.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .standings import Entrant

WINDOW = 6  # how many tables apart two entrants may be swapped
MAX_PASSES = 20


@dataclass(frozen=True)
class RoundPlan:
    """A round's tables (each a tuple of seats, None for a computer) and who sits out."""

    tables: tuple[tuple[Entrant | None, ...], ...]
    byes: tuple[Entrant, ...] = ()

    @property
    def seated(self) -> list[Entrant]:
        return [seat for table in self.tables for seat in table if seat is not None]


def table_sizes(count: int, size: int, allowed: Sequence[int], computers: bool) -> tuple[list[int], list[int], int]:
    """For ``count`` entrants at tables of ``size``: the people per table, the computers per table, and
    how many sit out. ``allowed``: the table sizes the game allows. No tables when none can be filled."""
    if count <= 0 or size <= 0:
        return [], [], max(count, 0)
    tables = math.ceil(count / size)
    base, extra = divmod(count, tables)
    people = [base + 1 if index < extra else base for index in range(tables)]
    if computers:
        return people, [size - seated for seated in people], 0
    if all(seated in allowed for seated in people):
        return people, [0] * tables, 0
    full = count // size
    return [size] * full, [0] * full, count - full * size


def pair_key(a: Entrant, b: Entrant) -> tuple[Entrant, Entrant]:
    return (a, b) if a <= b else (b, a)


def first_round_order(entrants: Sequence[Entrant], seed: int) -> list[Entrant]:
    """Round 1 has no standings: the entrants in an order drawn from the event's seed."""
    order = list(entrants)
    random.Random(f"swiss:{seed}:first-round").shuffle(order)
    return order


def swiss_round(
    order: Sequence[Entrant],
    met: Mapping[tuple[Entrant, Entrant], int],
    byes_had: Mapping[Entrant, int],
    size: int,
    allowed: Sequence[int],
    computers: bool,
) -> RoundPlan:
    """The next round's tables for the entrants in standings ``order`` (best first). ``met``: how often
    each pair (``pair_key``) sat at one table before; ``byes_had``: the byes each entrant had."""
    people, robots, sitting_out = table_sizes(len(order), size, allowed, computers)
    playing = list(order)
    byes: list[Entrant] = []
    if sitting_out:
        rank = {entrant: index for index, entrant in enumerate(order)}
        chosen = sorted(order, key=lambda entrant: (byes_had.get(entrant, 0), -rank[entrant]))[:sitting_out]
        byes = sorted(chosen, key=rank.__getitem__)
        playing = [entrant for entrant in order if entrant not in set(byes)]
    groups: list[list[Entrant]] = []
    start = 0
    for seated in people:
        groups.append(playing[start : start + seated])
        start += seated
    improve(groups, met)
    tables = seated_with_computers(groups, robots)
    return RoundPlan(tables, tuple(byes))


def seated_with_computers(
    groups: Sequence[Sequence[Entrant]], robots: Sequence[int]
) -> tuple[tuple[Entrant | None, ...], ...]:
    """Each table's people, then its computers' seats (None)."""
    return tuple((*group, *([None] * extra)) for group, extra in zip(groups, robots, strict=True))


def repeats(group: Sequence[Entrant], met: Mapping[tuple[Entrant, Entrant], int]) -> int:
    """How many times the pairs of ``group`` met before (a pair met twice counts twice)."""
    return sum(met.get(pair_key(a, b), 0) for i, a in enumerate(group) for b in group[i + 1 :])


def improve(groups: list[list[Entrant]], met: Mapping[tuple[Entrant, Entrant], int]) -> None:
    """Swap entrants between nearby tables while that lowers (repeat pairs, distance from home table)."""
    if not met:
        return
    home = {entrant: index for index, group in enumerate(groups) for entrant in group}

    def against(entrant: Entrant, group: Sequence[Entrant], leaving: Entrant) -> int:
        return sum(met.get(pair_key(entrant, other), 0) for other in group if other != leaving)

    for _ in range(MAX_PASSES):
        changed = False
        for i in range(len(groups)):
            for j in range(i + 1, min(len(groups), i + 1 + WINDOW)):
                for x in range(len(groups[i])):
                    for y in range(len(groups[j])):
                        a, b = groups[i][x], groups[j][y]
                        before = against(a, groups[i], a) + against(b, groups[j], b)
                        after = against(b, groups[i], a) + against(a, groups[j], b)
                        away = abs(home[a] - i) + abs(home[b] - j)
                        moved = abs(home[a] - j) + abs(home[b] - i)
                        if (after, moved) < (before, away):
                            groups[i][x], groups[j][y] = b, a
                            changed = True
        if not changed:
            return
