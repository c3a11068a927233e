"""How Five Hundred is shown (see :mod:`bot.games.shown`)."""

from __future__ import annotations

from typing import Any

from . import Card, Cards, Cell, Seat, SeatRow, Sheet, Shown, Suit, SuitSymbol, Text, say


def bid_text(bid: dict[str, Any]) -> Text:
    """A bid or contract as people say it: ``7 ♥``, ``8 No trumps``, ``Misère``."""
    kind = bid.get("kind")
    if kind == "misere":
        return say("bid.misere")
    if kind == "open-misere":
        return say("bid.open_misere")
    if kind == "no-trumps":
        return say("bid.no_trumps", tricks=bid["tricks"])
    return say("bid.suit", tricks=bid["tricks"], suit=SuitSymbol(bid["trump"]))  # spaced: not the card 7♥


def _seat_or_unknown(seat: int | None) -> Seat | str:
    return Seat(seat) if seat is not None else "?"


class FiveHundredPresentation:
    def header(self, view: dict[str, Any]) -> list[tuple[Text, ...]]:
        lines: list[tuple[Text, ...]] = [(say("table.hand_500", hand=view["deal"], dealer=Seat(view["dealer"])),)]
        contract = view.get("contract") or view.get("standing_bid")
        if contract:
            who = view.get("contractor") if view.get("contract") else view.get("high_bidder")
            key = "table.contract" if view.get("contract") else "table.standing_bid"
            lines.append((say(key, bid=bid_text(contract), who=_seat_or_unknown(who)),))
        if view.get("value"):
            lines.append((say("table.value", value=view["value"]),))
        if view.get("called"):
            called = [say("table.called", card=Card(view["called"]))]
            if view.get("partner") is not None:
                called.append(say("table.partner", name=Seat(view["partner"])))
            lines.append(tuple(called))
        if view.get("named_suit"):
            lines.append((say("table.named_suit", suit=Suit(view["named_suit"])),))
        return lines

    def seat_rows(self, view: dict[str, Any]) -> list[SeatRow]:
        to_act = set(view.get("to_act") or ())
        totals = view.get("scores", {}).get("total", [])
        last_call: dict[int, dict[str, Any]] = {}
        for call in view.get("auction", []):
            last_call[call["seat"]] = call
        rows = []
        for hand in view["hands"]:
            seat = hand["seat"]
            parts = []
            if view.get("dealer") == seat:
                parts.append(say("table.dealer_mark"))
            if len(view.get("sides", [])) < view["players"]:
                parts.append(say("table.side", side=hand["side"] + 1))
            call = last_call.get(seat)
            if call is not None and view.get("phase") == "bidding":
                parts.append(say("table.pass") if call["call"] == "pass" else bid_text(call))
            if hand.get("sitting_out"):
                parts.append(say("table.sitting_out"))
            elif view.get("phase") in ("playing", "over"):
                parts.append(say("table.tricks", tricks=hand["tricks"]))
            if seat < len(totals):
                parts.append(say("table.score", score=totals[seat]))
            rows.append(SeatRow(seat, seat in to_act, tuple(parts)))
        return rows

    def face_up(self, view: dict[str, Any]) -> list[Shown]:
        """The open misère hand."""
        return [
            Shown(say("table.revealed_hand", name=Seat(hand["seat"])), Cards(hand["cards"], True))
            for hand in view.get("hands", [])
            if hand.get("cards")
        ]

    def sheet(self, sheet: dict[str, Any]) -> Sheet:
        if sheet.get("thrown_in"):
            title = say("sheet.title_thrown_in", hand=sheet["hand"])
        else:
            contract = sheet.get("contract")
            title = say(
                "sheet.title_made_500" if sheet.get("made") else "sheet.title_failed_500",
                hand=sheet["hand"],
                bid=bid_text(contract) if contract else "?",
                who=_seat_or_unknown(sheet.get("contractor")),
            )
        rows = tuple(
            (row["seat"], (Cell(row["tricks"], 3), Cell(row["points"], 5, signed=True), Cell(row["total"], 5)))
            for row in sheet["rows"]
        )
        return Sheet(title, "sheet.head_500", rows)


PRESENTATION = FiveHundredPresentation()
