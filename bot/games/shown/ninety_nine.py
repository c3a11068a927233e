"""How Ninety-Nine is shown (see :mod:`bot.games.shown`)."""

from __future__ import annotations

from typing import Any

from . import Card, Cards, Cell, Seat, SeatRow, Sheet, Shown, Suit, Text, say


class NinetyNinePresentation:
    def header(self, view: dict[str, Any]) -> list[tuple[Text, ...]]:
        lines: list[tuple[Text, ...]] = [
            (say("table.deal_99", deal=view["deal"], game=view["game_number"], dealer=Seat(view["dealer"])),),
            (say("table.trump", trump=Suit(view.get("trump"))),),
        ]
        if view.get("turned_up"):
            lines.append((say("table.turned_up", card=Card(view["turned_up"])),))
        if view.get("trump_pile_left") is not None:
            lines.append((say("table.trump_pile", count=view["trump_pile_left"]),))
        return lines

    def seat_rows(self, view: dict[str, Any]) -> list[SeatRow]:
        to_act = set(view.get("to_act") or ())
        totals = view.get("scores", {}).get("total", [])
        rows = []
        for hand in view["hands"]:
            seat = hand["seat"]
            parts = []
            if view.get("dealer") == seat:
                parts.append(say("table.dealer_mark"))
            if hand.get("bid") is not None and hand["bid"] >= 0:
                parts.append(say("table.bid", bid=hand["bid"]))
            elif hand.get("has_bid"):
                parts.append(say("table.has_bid"))
            if hand.get("premium"):
                parts.append(say(f"premium.{hand['premium']}"))
            parts.append(say("table.tricks", tricks=hand["tricks"]))
            if seat < len(totals):
                parts.append(say("table.score", score=totals[seat]))
            rows.append(SeatRow(seat, seat in to_act or view.get("to_play") == seat, tuple(parts)))
        return rows

    def face_up(self, view: dict[str, Any]) -> list[Shown]:
        """Declared bid cards and revealed hands (and, with two players, the dummy in play)."""
        shown = []
        for hand in view.get("hands", []):
            if hand.get("cards"):
                shown.append(Shown(say("table.revealed_hand", name=Seat(hand["seat"])), Cards(hand["cards"], True)))
            if hand.get("bid_cards"):
                shown.append(Shown(say("table.bid_cards", name=Seat(hand["seat"])), Cards(hand["bid_cards"])))
        return shown

    def sheet(self, sheet: dict[str, Any]) -> Sheet:
        rows = []
        for row in sheet["rows"]:
            bonus = row["bid_bonus"] + row["premium_points"] + row["game_bonus"]
            cells = (
                Cell(row["bid"], 3),
                Cell(row["tricks"], 3),
                Cell(bool(row["made"]), 1),
                Cell(bonus, 4),
                Cell(row["points"], 4),
                Cell(row["total"], 5),
            )
            rows.append((row["seat"], cells))
        return Sheet(say("sheet.title", deal=sheet["deal"], made=sheet.get("made", 0)), "sheet.head_99", tuple(rows))


PRESENTATION = NinetyNinePresentation()
