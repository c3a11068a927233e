"""How Oh Hell is shown (see :mod:`bot.games.shown`)."""

from __future__ import annotations

from typing import cast

from ..oh_hell import OhHellRow, OhHellSheet, OhHellView
from . import NUMBER, Card, Cell, Choice, OwnBids, Seat, SeatRow, Sheet, Shown, Suit, Text, cards_choice, say


class OhHellPresentation(OwnBids):
    def header(self, view: OhHellView) -> list[tuple[Text, ...]]:
        dealer = Seat(view["dealer"] or 0)  # Oh Hell always has one
        lines: list[tuple[Text, ...]] = [
            (
                say(
                    "table.deal_oh",
                    deal=view["deal"],
                    deals=view["deals"],
                    cards=view["cards"],
                    dealer=dealer,
                ),
            ),
            (say("table.trump", trump=Suit(view.get("trump"))),),
        ]
        turn_up = view["turn_up"]
        if turn_up:
            lines.append((say("table.turned_up", card=Card(turn_up)),))
        bids = sum(bid["bid"] for bid in view.get("bids", []))
        if view.get("bids"):
            lines.append((say("table.bids_total_oh", bids=bids, tricks=view["cards"]),))
        hooked = view["hooked"]
        if hooked is not None:
            lines.append((say("table.hooked_oh", dealer=dealer, bid=hooked),))
        return lines

    def seat_rows(self, view: OhHellView) -> list[SeatRow]:
        to_act = set(view.get("to_act") or ())
        totals = view.get("scores", {}).get("total", [])
        bids = {bid["seat"]: bid["bid"] for bid in view.get("bids", [])}
        tricks = view.get("tricks", [])
        rows = []
        for seat in range(view["players"]):
            parts = []
            if view.get("dealer") == seat:
                parts.append(say("table.dealer_mark"))
            if seat in bids:
                parts.append(say("table.bid", bid=bids[seat]))
            parts.append(say("table.tricks", tricks=tricks[seat] if seat < len(tricks) else 0))
            parts.append(say("table.score", score=totals[seat] if seat < len(totals) else 0))
            rows.append(SeatRow(seat, seat in to_act, tuple(parts)))
        return rows

    def face_up(self, view: OhHellView) -> list[Shown]:
        return []  # only the turned-up card, in the header

    def sheet(self, sheet: OhHellSheet) -> Sheet:
        lines = cast(list[OhHellRow], sheet["rows"])
        rows = tuple(
            (
                row["seat"],
                (
                    Cell(row["bid"], 3),
                    Cell(row["tricks"], 3),
                    Cell(bool(row["made"]), 2),
                    Cell(row["points"], 3, signed=True),
                    Cell(row["total"], 4),
                ),
            )
            for row in lines
        )
        made = sum(1 for row in lines if row["made"])
        notes = tuple(
            say("sheet.why_made_oh", name=Seat(row["seat"]), bid=row["bid"], change=f"{row['points']:+d}")
            for row in lines
            if row["made"]
        )
        return Sheet(say("sheet.title", deal=sheet["deal"], made=made), "sheet.head_oh", rows, notes)

    def hand_notes(self, view: OhHellView) -> list[Text]:
        notes = [say("hand.trump", trump=Suit(view.get("trump")))]
        bid, seat = view.get("bid"), view["seat"]
        if bid is not None and seat is not None:
            taken = view["tricks"][seat]
            need = say("hand.need", need=bid - taken) if taken <= bid else say("hand.over_bid")
            notes.append(say("hand.your_bid_oh", bid=bid, tricks=taken, need=need))
        return notes

    def beside(self, view: OhHellView) -> list[Shown]:
        return []

    def choices(self, view: OhHellView, legal: list[str]) -> list[Choice]:
        plays = [a for a in legal if a.startswith("play ")]
        bids = [a for a in legal if a.startswith("bid ")]
        out = []
        if plays:
            out.append(cards_choice(view, plays, say("hand.pick_play")))
        if bids:
            numbers = tuple((int(a.split()[1]), say("action.bid_oh", tricks=int(a.split()[1]))) for a in bids)
            out.append(Choice(NUMBER, tuple(bids), say("hand.pick_bid"), numbers=numbers))
        return out

    def label(self, view: OhHellView, action: str) -> Text:
        verb, arg = action.split()
        if verb == "bid":
            return say("action.bid_oh", tricks=int(arg))
        return say("action.card", card=Card(arg))

    def advice(self, view: OhHellView, action: str) -> Text:
        return self.label(view, action)  # its label already says what it does: Bid 2


PRESENTATION: OhHellPresentation = OhHellPresentation()
