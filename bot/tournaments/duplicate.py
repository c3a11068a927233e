"""Duplicate nights: every table of a round plays the same deals, and each seat is scored against the
seats in the same position at the other tables.

**The deals.** A table's deals come from its seed: deal *d* is the game's deck shuffled by a generator
drawn from ``(game, seed, d)``, and the first dealer from ``(game, seed)`` (``bot/games/base.py``); the
dealer then passes by the rules, and the trumps follow from the cards (a turned-up card) or from the
bidding. So the tables of a duplicate round are opened with one seed, ``round_seed(event seed, round)``,
recorded with each table, and they are dealt the same cards to the same seat positions, deal by deal,
with the same first dealer. The engines are unchanged.

**The comparison (matchpoints, as in duplicate bridge).** For each deal scored at every table of the
round and each seat position, a seat's deal score (the change the deal made to its match total, its
side's in a partnership game) is compared with the seat in the same position at every other table:
2 matchpoints for each it beat, 1 for each it tied, 0 for each that beat it. A seat's round score is the
sum over deals, ``2 * (tables - 1) * deals`` at most; its share of that maximum is shown as a percentage.
A deal thrown in, one some table did not reach (a match that ended sooner), or one dealt by another seat at
some table (a Five Hundred table redeals a hand thrown in from the same dealer, so its later deals go round
from another seat) is not compared. With one
table there is nothing to compare and every seat gets 0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def round_seed(event_seed: int, round_no: int) -> int:
    """The seed every table of a duplicate round is opened with (62 bits, like a table's own)."""
    digest = hashlib.sha256(f"duplicate:{event_seed}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def deal_scores(sheets: Sequence[Mapping[str, Any]]) -> dict[int, dict[int, int]]:
    """A match's score sheets as deal number → seat → what the deal changed (deals without rows left out)."""
    out: dict[int, dict[int, int]] = {}
    for sheet in sheets:
        rows = sheet.get("rows") or []
        if rows:
            out[int(sheet["deal"])] = {int(row["seat"]): int(row["change"]) for row in rows}
    return out


def deal_dealers(sheets: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """A match's score sheets as deal number → the seat that dealt it, where the sheet says."""
    return {int(sheet["deal"]): int(sheet["dealer"]) for sheet in sheets if sheet.get("dealer") is not None}


@dataclass(frozen=True)
class Comparison:
    """A round's comparison: the deals compared, and per table, per seat, the matchpoints and the most."""

    deals: tuple[int, ...]
    matchpoints: tuple[tuple[int, ...], ...]
    most: int

    def percent(self, table: int, seat: int) -> float:
        return 100.0 * self.matchpoints[table][seat] / self.most if self.most else 0.0


def compare(tables: Sequence[Sequence[Mapping[str, Any]]], seats: int) -> Comparison:
    """Matchpoints per table and seat position from each table's score sheets (in table order)."""
    scores = [deal_scores(sheets) for sheet_list in [tables] for sheets in sheet_list]
    dealers = [deal_dealers(sheets) for sheets in tables]
    common = sorted(set.intersection(*(set(s) for s in scores))) if scores else []
    common = [deal for deal in common if all(len(s[deal]) == seats for s in scores)]
    # The same seat dealt it everywhere: after a Five Hundred hand thrown in, the same dealer deals again, so that
    # table's later deals go round from another seat than the others' (other bidding order, other lead).
    common = [deal for deal in common if len({table.get(deal) for table in dealers}) == 1]
    points = [[0] * seats for _ in scores]
    for deal in common:
        for seat in range(seats):
            for i, mine in enumerate(scores):
                for j, theirs in enumerate(scores):
                    if i != j:
                        a, b = mine[deal][seat], theirs[deal][seat]
                        points[i][seat] += 2 if a > b else 1 if a == b else 0
    most = 2 * (len(scores) - 1) * len(common)
    return Comparison(tuple(common), tuple(tuple(row) for row in points), most)
