"""How Just Make is shown (see :mod:`bot.games.shown`)."""

from __future__ import annotations

from typing import Any

from . import Card, Cell, SeatRow, Sheet, Shown, Text, say


class JustMakePresentation:
    def header(self, view: dict[str, Any]) -> list[tuple[Text, ...]]:
        return [(say("table.deal_jm", deal=view["deal"], target=view["target"]),)]

    def seat_rows(self, view: dict[str, Any]) -> list[SeatRow]:
        to_act = set(view.get("to_act") or ())
        totals = view.get("scores", {}).get("total", [])
        bids = {bid["seat"]: bid for bid in view.get("bids", [])}
        tricks = view.get("tricks", [])
        rows = []
        for seat in range(view["players"]):
            parts = []
            bid = bids.get(seat)
            if bid is not None:
                key = "table.bid_card_doubled" if bid.get("doubled") else "table.bid_card"
                parts.append(say(key, bid=bid["bid"], card=Card(bid["card"])))
            parts.append(say("table.tricks", tricks=tricks[seat] if seat < len(tricks) else 0))
            parts.append(say("table.score", score=totals[seat] if seat < len(totals) else 0))
            rows.append(SeatRow(seat, seat in to_act, tuple(parts)))
        return rows

    def face_up(self, view: dict[str, Any]) -> list[Shown]:
        return []  # the bid cards are in the seats' rows

    def sheet(self, sheet: dict[str, Any]) -> Sheet:
        rows = tuple(
            (
                row["seat"],
                (
                    Cell(row["bid"], 3),
                    Cell(row["tricks"], 3),
                    Cell(bool(row["made"]), 2, bust=bool(row.get("bust"))),
                    Cell(row["change"], 3, signed=True),
                    Cell(row["total"], 4),
                ),
            )
            for row in sheet["rows"]
        )
        return Sheet(say("sheet.title", deal=sheet["deal"], made=sheet.get("made", 0)), "sheet.head_jm", rows)


PRESENTATION = JustMakePresentation()
