"""How Five Hundred is shown (see :mod:`bot.games.shown`)."""

from __future__ import annotations

from typing import cast

from ..five_hundred import (
    AuctionCall,
    Bid,
    FiveHundredRow,
    FiveHundredSheet,
    FiveHundredView,
    bid_rank,
    bid_view,
)
from . import (
    CARDS,
    LIST,
    NUMBER,
    WORD,
    Card,
    Cards,
    Cell,
    Choice,
    Seat,
    SeatRow,
    Sheet,
    Shown,
    Suit,
    SuitSymbol,
    Text,
    cards_choice,
    say,
)

WORDS = ("pass", "alone")
MISERES = ("misere", "open-misere")


def bid_text(bid: Bid | AuctionCall) -> Text:
    """A bid or contract as people say it: ``7 ♥``, ``8 No trumps``, ``Misère``."""
    kind, tricks = bid.get("kind"), bid.get("tricks", 0)
    if kind == "misere":
        return say("bid.misere")
    if kind == "open-misere":
        return say("bid.open_misere")
    if kind == "no-trumps":
        return say("bid.no_trumps", tricks=tricks)
    return say("bid.suit", tricks=tricks, suit=SuitSymbol(bid.get("trump") or ""))  # spaced: not the card 7♥


TRICKS_A_HAND = 10  # every hand of Five Hundred plays ten tricks, whatever the player count


def _seat_or_unknown(seat: int | None) -> Seat | str:
    return Seat(seat) if seat is not None else "?"


def _all_passed(view: FiveHundredView) -> bool:
    """A hand played with no contract: everyone passed and the table plays it at no trumps (option
    ``all_pass``: ``play-no-trumps``)."""
    return view["phase"] == "playing" and view["contract"] is None


ALL_PASSED = say("table.all_passed_500")  # the same words on the table and in the hand


class FiveHundredPresentation:
    aims = "contracts"

    def aim(self, sheet: FiveHundredSheet, seat: int) -> bool | None:
        """The contracts the seat won at auction, made or not (a hand thrown in has none)."""
        if sheet.get("thrown_in") or sheet.get("contractor") != seat:
            return None
        return bool(sheet.get("made"))

    def header(self, view: FiveHundredView) -> list[tuple[Text, ...]]:
        lines: list[tuple[Text, ...]] = [(say("table.hand_500", hand=view["deal"], dealer=Seat(view["dealer"] or 0)),)]
        contract = view["contract"] or view["standing_bid"]
        if contract:
            who = view["contractor"] if view["contract"] else view["high_bidder"]
            key = "table.contract" if view["contract"] else "table.standing_bid"
            lines.append((say(key, bid=bid_text(contract), who=_seat_or_unknown(who)),))
        elif _all_passed(view):
            lines.append((ALL_PASSED,))
        value, called_card, partner, named = view["value"], view["called"], view["partner"], view["named_suit"]
        if value:
            lines.append((say("table.value", value=value),))
        if called_card:
            called = [say("table.called", card=Card(called_card))]
            if partner is not None:
                called.append(say("table.partner", name=Seat(partner)))
            lines.append(tuple(called))
        if named:
            lines.append((say("table.named_suit", suit=Suit(named)),))
        return lines

    def seat_rows(self, view: FiveHundredView) -> list[SeatRow]:
        to_act = set(view.get("to_act") or ())
        totals = view["scores"]["total"]
        last_call: dict[int, AuctionCall] = {}
        for call in view["auction"]:
            last_call[call["seat"]] = call
        rows = []
        for hand in view["hands"]:
            seat = hand["seat"]
            parts = []
            if view.get("dealer") == seat:
                parts.append(say("table.dealer_mark"))
            if len(view.get("sides", [])) < view["players"]:
                parts.append(say("table.side", side=hand["side"] + 1))
            last = last_call.get(seat)
            if last is not None and view["phase"] == "bidding":
                parts.append(say("table.pass") if last["call"] == "pass" else bid_text(last))
            if hand.get("sitting_out"):
                parts.append(say("table.sitting_out"))
            elif view.get("phase") in ("playing", "over"):
                parts.append(say("table.tricks", tricks=hand["tricks"]))
            if seat < len(totals):
                parts.append(say("table.score", score=totals[seat]))
            rows.append(SeatRow(seat, seat in to_act, tuple(parts)))
        return rows

    def face_up(self, view: FiveHundredView) -> list[Shown]:
        """The open misère hand."""
        return [
            Shown(say("table.revealed_hand", name=Seat(hand["seat"])), Cards(tuple(cards), True))
            for hand in view["hands"]
            if (cards := hand["cards"])
        ]

    def sheet(self, sheet: FiveHundredSheet) -> Sheet:
        if sheet.get("thrown_in"):
            title = say("sheet.title_thrown_in", hand=sheet["hand"])
        elif sheet.get("contract") is None:  # all passed and played at no trumps: nobody made or failed
            title = say("sheet.title_all_passed_500", hand=sheet["hand"])
        else:
            contract = sheet.get("contract")
            title = say(
                "sheet.title_made_500" if sheet.get("made") else "sheet.title_failed_500",
                hand=sheet["hand"],
                bid=bid_text(contract) if contract else "?",
                who=_seat_or_unknown(sheet.get("contractor")),
            )
        scored = cast(list[FiveHundredRow], sheet["rows"])
        rows = tuple(
            (row["seat"], (Cell(row["tricks"], 3), Cell(row["points"], 5, signed=True), Cell(row["total"], 5)))
            for row in scored
        )
        notes: tuple[Text, ...] = ()
        contract, value = sheet.get("contract"), sheet.get("value")
        if contract and value is not None and not sheet.get("thrown_in"):
            key = "sheet.why_contract_made" if sheet.get("made") else "sheet.why_contract_failed"
            who = _seat_or_unknown(sheet.get("contractor"))
            notes = (say(key, value=value, bid=bid_text(contract), name=who),)
            if "tricks" in contract:  # the defenders' tricks count; a misère's do not
                notes += (say("sheet.why_tricks_500"),)
            else:  # with misere_tricks_score each trick the contractor took pays every other side 10
                side = sheet.get("contract_side") or []
                taken = next((row["tricks"] for row in scored if row["seat"] == sheet.get("contractor")), 0)
                if taken and any(row["points"] > 0 for row in scored if row["seat"] not in side):
                    notes += (say("sheet.why_misere_tricks_500", value=10 * taken, name=who),)
        elif contract is None and sheet["rows"] and not sheet.get("thrown_in"):  # played after all passed
            notes = (say("sheet.why_all_passed_500"),)
        return Sheet(title, "sheet.head_500", rows, notes)

    def hand_notes(self, view: FiveHundredView) -> list[Text]:
        notes = []
        contract, kitty, seat = view["contract"], view.get("kitty"), view.get("seat")
        if view["phase"] == "bidding":  # what a bid must beat
            standing, bidder = view["standing_bid"], view["high_bidder"]
            if standing is not None and bidder is not None:
                notes.append(say("hand.highest_bid", bid=bid_text(standing), name=Seat(bidder)))
            else:
                notes.append(say("hand.no_bid_yet"))
        if _all_passed(view):
            notes.append(ALL_PASSED)
        if contract:
            contractor = view["contractor"]
            notes.append(say("hand.contract_by", bid=bid_text(contract), name=_seat_or_unknown(contractor)))
            side_need = self._side_need(view, contract, seat)
            if side_need is not None:
                notes.append(side_need)
        if view.get("you_are_partner"):
            notes.append(say("hand.you_are_partner" if view.get("partner") is None else "hand.you_are_partner_known"))
        if kitty and view["phase"] == "discarding":
            notes.append(say("hand.kitty", cards=Cards(tuple(kitty))))
        return notes

    @staticmethod
    def _side_need(view: FiveHundredView, contract: Bid, seat: int | None) -> Text | None:
        """How many tricks the seat's side has, and still needs to make (or to defeat) the contract."""
        contractor = view["contractor"]
        if seat is None or contractor is None or view["phase"] != "playing" or "tricks" not in contract:
            return None  # a misère is won by taking nothing: no count to give
        hands = view["hands"]
        side_of = {hand["seat"]: hand["side"] for hand in hands}
        if seat not in side_of or contractor not in side_of:
            return None
        # Five players: the called partner plays with the contractor. Its tricks count for the contract once
        # the seat knows who it is (the partner itself always does); while it is secret nobody else can count.
        partner = seat if view.get("you_are_partner") else view.get("partner")
        if view.get("called") is not None and partner is None:
            return None
        making_sides = {side_of[contractor]} | ({side_of[partner]} if partner in side_of else set())
        side_tricks = view["side_tricks"]
        making = sum(side_tricks[side] for side in making_sides if side < len(side_tricks))
        wanted = contract["tricks"]
        if side_of[seat] in making_sides:
            return say("hand.side_to_make", tricks=making, need=max(0, wanted - making))
        defending = sum(side_tricks) - making  # every other side defends together
        return say("hand.side_to_defeat", tricks=defending, need=max(0, TRICKS_A_HAND - wanted + 1 - defending))

    def beside(self, view: FiveHundredView) -> list[Shown]:
        return []

    def choices(self, view: FiveHundredView, legal: list[str]) -> list[Choice]:
        """Cards to play; a bid's number then its suit as a next step, misère and pass as buttons; the
        kitty's discards as cards to choose; the partner's call from a list."""
        by_verb: dict[str, list[str]] = {}
        for action in legal:
            by_verb.setdefault(action.split()[0], []).append(action)
        out = []
        if by_verb.get("play"):
            out.append(cards_choice(view, by_verb["play"], say("hand.pick_play")))
        bids = by_verb.get("bid", [])
        contracts = [a for a in bids if a.split()[1] not in MISERES]
        if contracts:
            numbers = sorted({_tricks(a) for a in contracts})
            shown = tuple((n, say("hand.bid_tricks", tricks=n)) for n in numbers)
            out.append(Choice(NUMBER, tuple(contracts), say("hand.pick_bid"), numbers=shown))
        if by_verb.get("discard"):
            count = len(by_verb["discard"][0].split()) - 1
            out.append(Choice(CARDS, tuple(by_verb["discard"]), say("hand.pick_discard", count=count), count=count))
        if by_verb.get("call"):
            out.append(Choice(LIST, tuple(by_verb["call"]), say("hand.pick_call")))
        words = [a for a in bids if a.split()[1] in MISERES] + [a for a in legal if a in WORDS]
        if words:
            out.append(Choice(WORD, tuple(words)))
        return out

    def label(self, view: FiveHundredView, action: str) -> Text:
        verb, *args = action.split()
        if verb in WORDS:
            return say(f"action.{verb}")
        if verb == "bid":  # bids, not cards: "bid 6S" is six spades
            rank = bid_rank(args[0])
            return bid_text(bid_view(rank if rank is not None else -1))
        if verb == "call":
            return say("action.call", card=Cards(tuple(args)))
        if verb == "discard":
            return say("action.discard", cards=Cards(tuple(args)))
        if len(args) == 2:  # the joker led at no trumps, naming a suit
            return say("action.joker_suit", card=Card(args[0]), suit=Suit(args[1]))
        return say("action.card", card=Card(args[0]))

    def advice(self, view: FiveHundredView, action: str) -> Text:
        label = self.label(view, action)
        return say("hint.bid", bid=label) if action.startswith("bid ") else label  # a bid's label is the bid alone


def _tricks(action: str) -> int:
    """The number of a contract bid (``bid 7H`` → 7)."""
    return int(action.split()[1].rstrip("SHDCNT"))


PRESENTATION: FiveHundredPresentation = FiveHundredPresentation()
