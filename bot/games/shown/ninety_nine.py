"""How Ninety-Nine is shown (see :mod:`bot.games.shown`)."""

from __future__ import annotations

from typing import cast

from .. import cards as C
from ..ninety_nine import BID_VALUE, PREMIUM_VALUE, NinetyNineRow, NinetyNineSheet, NinetyNineView
from . import (
    CARD,
    CARDS,
    WORD,
    Card,
    Cards,
    Cell,
    Choice,
    OwnBids,
    Seat,
    SeatRow,
    Sheet,
    Shown,
    Suit,
    Text,
    cards_choice,
    say,
)

WORDS = ("pass", "declare", "reveal")
# What the seat asked is asked, by the answers it may give (after a declare only a reveal or a pass).
PREMIUM_ASK = {
    frozenset(WORDS): "hand.ask.premium",
    frozenset(("pass", "declare")): "hand.pick_premium_declare",
    frozenset(("pass", "reveal")): "hand.pick_premium_reveal",
}


def bid_value(cards: list[str], joker_as: str | None) -> int:
    """The number three bid cards say: each card's suit (♦ 0, ♠ 1, ♥ 2, ♣ 3); the joker stands for the
    turned-up card it replaces."""
    total = 0
    for card in cards:
        code = C.parse(joker_as if card == "JK" and joker_as else card)
        total += BID_VALUE[code >> 4] if code is not None and code < C.JOKER else 0
    return total


def _offers(view: NinetyNineView) -> dict[int, str]:
    """Each seat's answer so far while the premium bids are asked ("pass", "declare" or "reveal"); nothing
    once the asking is over, when the premium that stands is the hands' own."""
    if view["phase"] != "premium":
        return {}
    return {offer["seat"]: offer["offer"] for offer in view["premium_offers"]}


def _premium_words(view: NinetyNineView) -> tuple[str, ...]:
    """What the seat asked may answer, as the rules allow: two players may only declare or pass; after a
    declare (or a reveal the declarer is asked to raise to) only a reveal or a pass is left."""
    if view["players"] == 2:
        return ("pass", "declare")
    if set(_offers(view).values()) & {"declare", "reveal"}:
        return ("pass", "reveal")
    return WORDS


def _raising(view: NinetyNineView, seat: int) -> int | None:
    """Who revealed after the seat declared, when the seat is asked again whether to raise to reveal."""
    offers = _offers(view)
    revealed = [s for s, offer in offers.items() if offer == "reveal"]
    return revealed[0] if offers.get(seat) == "declare" and revealed else None


def _standing(view: NinetyNineView, seat: int) -> Text | None:
    """What stands for the seat asked: for a declarer asked again, who revealed since (a reveal takes the
    premium back; a pass voids the declare); for anyone else, who declared before it."""
    revealer = _raising(view, seat)
    if revealer is not None:
        return say("hand.premium_raise", name=Seat(revealer))
    declared = [s for s, offer in _offers(view).items() if offer == "declare" and s != seat]
    if declared:
        key = "hand.premium_declared_too" if view["players"] == 2 else "hand.premium_declared"
        return say(key, name=Seat(declared[0]))
    return None


class NinetyNinePresentation(OwnBids):
    def header(self, view: NinetyNineView) -> list[tuple[Text, ...]]:
        lines: list[tuple[Text, ...]] = [
            (say("table.deal_99", deal=view["deal"], game=view["game_number"], dealer=Seat(view["dealer"] or 0)),),
            (say("table.trump", trump=Suit(view["trump"])),),
        ]
        turned_up, pile_left = view["turned_up"], view["trump_pile_left"]
        if turned_up:
            lines.append((say("table.turned_up", card=Card(turned_up)),))
        if pile_left is not None:
            lines.append((say("table.trump_pile", count=pile_left),))
        return lines

    def seat_rows(self, view: NinetyNineView) -> list[SeatRow]:
        to_act = set(view.get("to_act") or ())
        totals = view["scores"]["total"]
        offers = _offers(view)
        rows = []
        for hand in view["hands"]:
            seat = hand["seat"]
            parts = []
            if view.get("dealer") == seat:
                parts.append(say("table.dealer_mark"))
            bid = hand["bid"]
            if bid is not None and bid >= 0:
                parts.append(say("table.bid", bid=bid))
            elif hand["has_bid"]:
                parts.append(say("table.has_bid"))
            if hand.get("premium"):  # the premium that stood, carried out when the asking ended
                parts.append(say(f"premium.{hand['premium']}"))
            elif seat in offers:  # while asking, every offer is public (none is carried out yet)
                parts.append(say(f"premium.{offers[seat]}"))
            parts.append(say("table.tricks", tricks=hand["tricks"]))
            if seat < len(totals):
                parts.append(say("table.score", score=totals[seat]))
            rows.append(SeatRow(seat, seat in to_act or view.get("to_play") == seat, tuple(parts)))
        return rows

    def face_up(self, view: NinetyNineView) -> list[Shown]:
        """Declared bid cards and revealed hands (and, with two players, the dummy in play)."""
        shown = []
        for hand in view["hands"]:
            cards, bid_cards = hand["cards"], hand["bid_cards"]
            if cards:
                shown.append(Shown(say("table.revealed_hand", name=Seat(hand["seat"])), Cards(tuple(cards), True)))
            if bid_cards:
                shown.append(Shown(say("table.bid_cards", name=Seat(hand["seat"])), Cards(tuple(bid_cards))))
        return shown

    def sheet(self, sheet: NinetyNineSheet) -> Sheet:
        rows = []
        for row in cast(list[NinetyNineRow], sheet["rows"]):
            bonus = row["bid_bonus"] + row["premium_points"] + row["game_bonus"]
            cells = (
                Cell(row["bid"], 3),
                Cell(row["tricks"], 3),
                Cell(bool(row["made"]), 1),
                Cell(bonus, 5),
                Cell(row["points"], 4),
                Cell(row["total"], 5),
            )
            rows.append((row["seat"], cells))
        return Sheet(
            say("sheet.title", deal=sheet["deal"], made=sheet["made"]), "sheet.head_99", tuple(rows), self._why(sheet)
        )

    @staticmethod
    def _why(sheet: NinetyNineSheet) -> tuple[Text, ...]:
        """Each bonus and its cause: bids made, a premium made or failed, a game won. With two players the
        dummy's own rules too: its bid is made by taking no more than it bid, an exact one scores as a made
        declare, and two failed declares pay the dummy alone."""
        rows = cast(list[NinetyNineRow], sheet["rows"])
        # The two-player dummy's row (none with three or four, nor on a sheet scored before sheets named it).
        dummy = next((row for row in rows if row["seat"] == sheet.get("dummy")), None)
        notes = []
        made = [row for row in rows if row["made"]]
        if made and made[0]["bid_bonus"]:
            bonus, count = made[0]["bid_bonus"], len(made)
            if dummy is not None and dummy["made"] and dummy["tricks"] < dummy["bid"]:
                notes.append(say("sheet.why_bids_dummy_99", bonus=bonus, count=count, name=Seat(dummy["seat"])))
            else:
                notes.append(say("sheet.why_bids_99", bonus=bonus, count=count))
        if dummy is not None and dummy["tricks"] == dummy["bid"]:
            notes.append(say("sheet.why_dummy_exact_99", value=PREMIUM_VALUE[1], name=Seat(dummy["seat"])))
        failed = [row for row in rows if row["premium"] is not None and not row["made"]]
        paid = dummy if dummy is not None and len(failed) == 2 else None  # each pays the dummy, neither the other
        if paid is not None:
            notes.append(say("sheet.why_declares_failed_99", value=2 * PREMIUM_VALUE[1], name=Seat(paid["seat"])))
        for row in rows:
            premium = row["premium"]
            if premium is not None and (row["made"] or paid is None):
                value = PREMIUM_VALUE[1] if premium == "declare" else PREMIUM_VALUE[2]
                key = "sheet.why_premium_made" if row["made"] else "sheet.why_premium_failed"
                notes.append(say(key, value=value, name=Seat(row["seat"]), premium=say(f"sheet.premium_{premium}")))
            if row["game_bonus"]:
                notes.append(say("sheet.why_game_99", bonus=row["game_bonus"], name=Seat(row["seat"])))
        return tuple(notes)

    def hand_notes(self, view: NinetyNineView) -> list[Text]:
        notes = []
        seat = view.get("seat")
        if view.get("bid_cards") and seat is not None:
            bid = view.get("bid") or 0
            taken = view["tricks"][seat] if seat < len(view["tricks"]) else 0
            notes.append(
                say(
                    "hand.your_bid_99",
                    cards=Cards(tuple(view["bid_cards"])),
                    bid=bid,
                    tricks=taken,
                    need=say("hand.need", need=bid - taken) if taken <= bid else say("hand.over_bid"),
                )
            )
        notes.append(say("hand.trump", trump=Suit(view.get("trump"))))
        dummy = view.get("dummy")
        if dummy is not None and view.get("dummy_controller") == seat and view.get("to_play") == dummy:
            notes.append(say("hand.play_for_dummy"))  # the cards below are the dummy's, not yours
        if view["phase"] == "premium" and seat is not None and seat in view["to_act"]:
            notes += self._premium_notes(view, seat)
        return notes

    @staticmethod
    def _premium_notes(view: NinetyNineView, seat: int) -> list[Text]:
        """For the seat asked: what stands, then what each answer it may give risks and scores."""
        words = _premium_words(view)
        standing = _standing(view, seat)
        notes = [standing] if standing is not None else []
        if "declare" in words:  # two players: a miss pays the other player only if they did not miss a declare too
            key = "hand.explain_declare_2" if view["players"] == 2 else "hand.explain_declare"
            notes.append(say(key, value=PREMIUM_VALUE[1]))
        if "reveal" in words:
            notes.append(say("hand.explain_reveal", value=PREMIUM_VALUE[2]))
        if _raising(view, seat) is None:  # else the line of what stands says what a pass does
            notes.append(say("hand.explain_pass"))
        return notes

    def beside(self, view: NinetyNineView) -> list[Shown]:
        """The dummy's hand, for the seat that plays it."""
        cards = self._dummy_cards(view)
        return [Shown(say("hand.dummy"), Cards(cards, True))] if cards else []

    @staticmethod
    def _dummy_cards(view: NinetyNineView) -> tuple[str, ...]:
        """The two-player dummy's hand, as the seat that plays it sees it (nothing for anyone else)."""
        dummy = view.get("dummy")
        if dummy is None or view.get("dummy_controller") != view.get("seat"):
            return ()
        return tuple(view["hands"][dummy].get("cards") or ())

    def choices(self, view: NinetyNineView, legal: list[str]) -> list[Choice]:
        plays = [a for a in legal if a.startswith("play ")]
        bids = [a for a in legal if a.startswith("bid ")]
        words = [a for a in legal if a in WORDS]
        out = []
        if plays:
            choice = cards_choice(view, plays, say("hand.pick_play"))
            dummy = self._dummy_cards(view)
            if dummy and not {a.split()[1] for a in plays} <= set(view.get("hand") or ()):
                # Playing for the dummy: its whole hand, the cards it may not play disabled.
                choice = Choice(CARD, tuple(plays), say("hand.pick_play_dummy"), tuple(dummy))
            out.append(choice)
        if bids:  # three cards, confirmed as a next step that shows the number; each says what it counts
            cards = sorted({card for bid in bids for card in bid.split()[1:]})
            joker_as = view.get("joker_as")
            notes = tuple((card, say("hand.counts", value=bid_value([card], joker_as))) for card in cards)
            out.append(Choice(CARDS, tuple(bids), say("hand.pick_bid_99"), count=3, notes=notes))
        if words:  # a reveal shows the whole hand: asked again before it is done
            confirm = (("reveal", say("hand.confirm_reveal")),)
            out.append(
                Choice(WORD, tuple(words), say(PREMIUM_ASK.get(frozenset(words), "hand.ask.premium")), confirm=confirm)
            )
        return out

    def label(self, view: NinetyNineView, action: str) -> Text:
        verb, *args = action.split()
        if verb in WORDS:
            return say(f"action.{verb}")
        if verb == "bid":
            return say("action.bid_99", cards=Cards(tuple(args)), bid=bid_value(args, view.get("joker_as")))
        return say("action.card", card=Card(args[0]))

    def advice(self, view: NinetyNineView, action: str) -> Text:
        return self.label(view, action)  # its label already says what it does


PRESENTATION: NinetyNinePresentation = NinetyNinePresentation()
