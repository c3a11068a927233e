"""How Just Make is shown (see :mod:`bot.games.shown`)."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from .. import cards as C
from ..just_make import JOKERS, JustMakeRow, JustMakeSheet, JustMakeView, bid_value
from . import Card, Cell, Choice, Joined, OwnBids, Seat, SeatRow, Sheet, Shown, Text, cards_choice, say


def card_bid(card: str) -> int:
    """The tricks a card bids: its suit (♦ 0, ♠ 1, ♥ 2, ♣ 3), a joker 4."""
    code = C.parse(card)
    return 0 if code is None else bid_value(code)


class JustMakePresentation(OwnBids):
    def header(self, view: JustMakeView) -> list[tuple[Text, ...]]:
        return [(say("table.deal_jm", deal=view["deal"], target=view["target"]),)]

    def seat_rows(self, view: JustMakeView) -> list[SeatRow]:
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

    def face_up(self, view: JustMakeView) -> list[Shown]:
        return []  # the bid cards are in the seats' rows

    def sheet(self, sheet: JustMakeSheet) -> Sheet:
        rows = tuple(
            (
                row["seat"],
                (
                    Cell(row["bid"], 3),
                    Cell(row["tricks"], 3),
                    Cell(row["made"], 2, bust=row["bust"]),
                    Cell(row["change"], 3, signed=True),
                    Cell(row["total"], 4),
                ),
            )
            for row in cast(list[JustMakeRow], sheet["rows"])
        )
        return Sheet(
            say("sheet.title", deal=sheet["deal"], made=sheet["made"]), "sheet.head_jm", rows, self._why(sheet)
        )

    @staticmethod
    def _why(sheet: JustMakeSheet) -> tuple[Text, ...]:
        """Who just made it and what it scored, who missed and lost points, who went past the target."""
        notes = []
        for row in cast(list[JustMakeRow], sheet["rows"]):
            name, change = Seat(row["seat"]), f"{row['change']:+d}"
            if row["bust"]:
                notes.append(say("sheet.why_bust_jm", name=name, change=change))
            elif row["made"]:
                key = "sheet.why_made_doubled_jm" if row["doubled"] else "sheet.why_made_jm"
                notes.append(say(key, name=name, bid=row["bid"], change=change))
            elif row["change"]:
                notes.append(say("sheet.why_missed_jm", name=name, change=change))
        return tuple(notes)

    def hand_notes(self, view: JustMakeView) -> list[Text]:
        seat, bids = view.get("seat"), view.get("bids", [])
        notes = []
        others = [b for b in bids if b["seat"] != seat]
        if view["phase"] == "bidding" and others:  # bidding goes round in order: what is bid already
            said = tuple(say("hand.seat_bid", name=Seat(b["seat"]), bid=b["bid"], card=Card(b["card"])) for b in others)
            notes.append(say("hand.bids_so_far", bids=Joined(said)))
        mine = next((b for b in bids if b["seat"] == seat), None)
        if mine is not None and seat is not None:
            notes.append(say("hand.your_bid_jm", bid=mine["bid"], card=Card(mine["card"]), tricks=view["tricks"][seat]))
        return notes

    def beside(self, view: JustMakeView) -> list[Shown]:
        return []

    def choices(self, view: JustMakeView, legal: list[str]) -> list[Choice]:
        """A card of the hand to play, or to bid with (a card that may also be bid doubled: a next step)."""
        plays = [a for a in legal if a.startswith("play ")]
        bids = [a for a in legal if a.startswith("bid ")]
        out = []
        if plays:
            out.append(cards_choice(view, plays, say("hand.pick_play")))
        if bids:  # each card says the number it bids, on its button
            choice = cards_choice(view, bids, say("hand.pick_bid"))
            notes = tuple(
                (card, say("hand.counts_or_more" if C.parse(card) in JOKERS else "hand.counts", value=card_bid(card)))
                for card in choice.cards
            )
            out.append(replace(choice, notes=notes))
        return out

    def label(self, view: JustMakeView, action: str) -> Text:
        verb, *args = action.split()
        if verb == "bid":
            key = "action.bid_double" if args[1:] == ["double"] else "action.bid_card"
            return say(key, card=Card(args[0]), bid=card_bid(args[0]))
        return say("action.card", card=Card(args[0]))

    def advice(self, view: JustMakeView, action: str) -> Text:
        return self.label(view, action)  # its label already says what it does


PRESENTATION: JustMakePresentation = JustMakePresentation()
