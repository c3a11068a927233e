"""Just Make, as docs/rules/just-make.md lays it down.

Every player bids with one face-up card (♦ 0, ♠ 1, ♥ 2, ♣ 3, joker 4 or
more), one at a time in seat order, then plays five tricks in which suits do
not matter: ranks that appear more than once cancel, a joker reverses the
order, two jokers give the trick to the first. The aim is to stand exactly on
the target.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Final, NotRequired, TypedDict

from . import cards as C
from .base import GameState, played_cards
from .errors import IllegalAction
from .hidden import Slot, deal_unseen
from .lengths import Length
from .options import Option, OptionValue
from .views import BidRow, DealSheet, LastTrick, Record, View, copied, seats_alone

OPTIONS: tuple[Option, ...] = (
    Option("target", 7, low=3, high=15),
    Option("tie_break", "share", choices=("share", "final-bid")),
    Option("double_hard_bids", False),
    Option("sweep_wins", False),
    Option("joker_make_wins", False),
    Option("lone_loser_minus_one", False),
    Option("all_fail_reverse", False),
    Option("scoring", "table", choices=("table", "tricks")),
)
PLAYERS: tuple[int, ...] = tuple(range(4, 10))
DEFAULT_PLAYERS = 6
QUICK: dict[str, OptionValue] = {"target": 5}  # the short match /play offers first
DEALS_PER_POINT = 1.12  # to 3 took 3 deals, to 5 took 5, to 7 took 8, to 10 took 11.5 (easy players)


def expected_length(players: int, options: Mapping[str, OptionValue]) -> Length:
    """The deals a match is expected to take (five tricks each)."""
    return Length(max(1.0, DEALS_PER_POINT * int(options.get("target", 7))), 5)


class JustMakeRow(BidRow):
    doubled: bool  # a hard bid doubled
    points: int  # what the deal scored before the target's bust and the table's reversal
    bust: bool  # went past the target, so the points came off


class JustMakeSheet(DealSheet):
    first_bidder: int
    made: int  # how many made their bid
    reversed_totals: bool  # everyone failed and the totals were reversed


class JustMakeBid(TypedDict):
    seat: int
    card: str  # the bid card, face up
    bid: int  # what it bids
    doubled: bool


class JustMakeTrick(LastTrick):
    cancelled: list[str]  # ranks that cancelled each other
    reversed: bool  # a joker reversed the order


class JustMakeView(View):
    first_bidder: int
    bids: list[JustMakeBid]  # in bidding order
    target: int
    bid: NotRequired[int | None]  # a seat's own view: its bid


class JustMakeRecord(JustMakeView, Record):
    pass


BID: Final = 0
PLAY: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("bidding", "playing", "over")
HAND_SIZE: Final = 6
TRICKS: Final = 5
JOKERS: Final = (C.JOKER, C.JOKER2)
DECK = C.deck(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], jokers=2)
DECK_MASK: Final = C.mask_of(DECK)
BID_VALUE: Final = (1, 2, 3, 0)  # by suit: S H C D
JOKER_BID: Final = 4


def bid_value(code: int) -> int:
    return JOKER_BID if code in JOKERS else BID_VALUE[code >> 4]


def trick_winner(cards: list[int]) -> tuple[int | None, list[str], bool]:
    """Who wins a trick (its index in play order, or None), the ranks that
    cancelled, and whether a joker reversed the order."""
    jokers = [i for i, c in enumerate(cards) if c in JOKERS]
    if len(jokers) == 2:
        return jokers[0], [], False
    counts: dict[int, int] = {}
    for c in cards:
        if c not in JOKERS:
            counts[c & 15] = counts.get(c & 15, 0) + 1
    cancelled = sorted(r for r, n in counts.items() if n > 1)
    left = [i for i, c in enumerate(cards) if c not in JOKERS and counts[c & 15] == 1]
    reversed_order = bool(jokers)
    if not left:
        return None, [C.RANKS[r] for r in cancelled], reversed_order
    pick = min if reversed_order else max
    best = pick(left, key=lambda i: cards[i] & 15)
    return best, [C.RANKS[r] for r in cancelled], reversed_order


class JustMake(GameState):
    NAME = "just-make"
    PLAYERS = PLAYERS
    OPTIONS = OPTIONS
    OVER = OVER
    SAVED = (
        "players", "options", "seed", "decks", "first_bidder",
        "phase", "deal_no", "bidder", "hands", "bids", "doubled", "bid_order",
        "leader", "trick", "tricks", "tricks_played", "last_trick", "last_winner",
        "plays", "totals", "sheets", "winners",
    )  # fmt: skip

    def _deck(self) -> list[int]:
        return list(DECK)

    def _open_match(self, first_dealer: int | None) -> None:
        self.first_bidder = self._first_seat(first_dealer, range(self.players))
        self.deal_no = -1

    def _clone_native(self) -> JustMake:
        """``clone`` for the compiled class, attribute by attribute (see ``NinetyNine._clone_native``)."""
        new = JustMake()
        self._copy_match_into(new)
        new.first_bidder, new.deal_no, new.bidder = self.first_bidder, self.deal_no, self.bidder
        new.hands, new.bids, new.doubled = self.hands.copy(), self.bids.copy(), self.doubled.copy()
        new.bid_order, new.leader, new.trick = self.bid_order.copy(), self.leader, self.trick.copy()
        new.tricks, new.tricks_played = self.tricks.copy(), self.tricks_played
        new.last_trick = None if self.last_trick is None else self.last_trick.copy()
        new.last_winner, new.plays = self.last_winner, self.plays.copy()
        return new

    def _open_deal(self) -> None:
        self.deal_no += 1
        deck = self._next_deck(self.deal_no)
        n = self.players
        self.hands = [0] * n
        for j in range(n * HAND_SIZE):
            self.hands[j % n] |= 1 << deck[j]  # dealt one at a time from seat 0
        self.bid_order = [(self.first_bidder + i) % n for i in range(n)]
        self.bidder = 0  # index into bid_order
        self.bids: list[int] = [-1] * n  # the bid card's code
        self.doubled = [False] * n
        self.leader = self.first_bidder
        self.trick: list[int] = []
        self.tricks = [0] * n
        self.tricks_played = 0
        self.last_trick: JustMakeTrick | None = None
        self.last_winner = -1  # of this deal's latest trick that had a winner
        self.plays: list[list[int]] = []  # [seat, card] for every card played this deal, in order
        self.phase = BID

    # The contract ---------------------------------------------------------

    def _on_turn(self) -> int:
        if self.phase == BID:
            return self.bid_order[self.bidder]
        return (self.leader + len(self.trick)) % self.players

    def to_act(self) -> list[int]:
        return [] if self.phase == OVER else [self._on_turn()]

    def legal(self, seat: object) -> list[str]:  # anything a caller sends is checked: a non-seat has none
        if self.phase == OVER or type(seat) is not int or seat != self._on_turn():
            return []
        held = C.cards_in(self.hands[seat])
        if self.phase == PLAY:
            return ["play " + C.NAMES[c] for c in held]
        out = []
        for c in held:
            out.append("bid " + C.NAMES[c])
            if self.options["double_hard_bids"] and bid_value(c) >= 3:
                out.append("bid " + C.NAMES[c] + " double")
        return out

    def act(self, seat: object, action: object) -> None:  # anything a caller sends is checked
        seat = self._seat_on_turn(seat)
        words = action.split() if isinstance(action, str) else []
        expected = "'bid' and a card, e.g. 'bid 4C'" if self.phase == BID else "'play' and a card, e.g. 'play KD'"
        if not words or words[0] not in ("bid", "play") or len(words) < 2:
            raise IllegalAction("unparseable", action=action, expected=expected)
        wanted = BID if words[0] == "bid" else PLAY
        if wanted != self.phase:
            raise IllegalAction("wrong_phase", action=action, phase=PHASE_NAMES[self.phase])
        double = words[2:] == ["double"]
        if len(words) > 3 or (len(words) == 3 and (not double or wanted == PLAY)):
            raise IllegalAction("unparseable", action=action, expected=expected)
        code = C.parse(words[1])
        if code is None or code not in DECK:
            raise IllegalAction("unknown_card", card=words[1])
        if not self.hands[seat] >> code & 1:
            raise IllegalAction("card_not_held", card=C.NAMES[code])
        if double and not (self.options["double_hard_bids"] and bid_value(code) >= 3):
            raise IllegalAction("not_legal", action=action, allowed=", ".join(self.legal(seat)[:6]))
        if self.phase == BID:
            self._bid(seat, code, double)
        else:
            self._play(seat, code)

    def _bid(self, seat: int, code: int, double: bool) -> None:
        """Apply a checked bid (also the computer players' fast path)."""
        self.hands[seat] ^= 1 << code
        self.bids[seat] = code
        self.doubled[seat] = double
        self.bidder += 1
        if self.bidder == self.players:
            self.phase = PLAY

    def _play(self, seat: int, code: int) -> None:
        """Apply a checked play (also the computer players' fast path)."""
        self.hands[seat] ^= 1 << code
        self.plays.append([seat, code])
        self.trick.append(code)
        if len(self.trick) == self.players:
            self._end_trick()

    # What a computer player may know ----------------------------------------

    def record(self, seat: object) -> JustMakeRecord:
        """The seat's view and every card played this deal. ``voids`` stays empty:
        any card may be played to any trick, so nobody ever shows a void."""
        return {**self.view(seat), "plays": played_cards(self.plays), "voids": [[] for _ in range(self.players)]}

    def determinize(self, seat: int, rng: random.Random) -> JustMake:
        """The other hands dealt again from every card the seat has not seen.

        Bids and played cards are face up, so the unseen cards are the other
        hands and the undealt rest of the pack; with no suit to follow nothing
        constrains where they are.
        """
        seen = self.hands[seat]
        for code in self.bids:
            if code >= 0:
                seen |= 1 << code
        for _, code in self.plays:
            seen |= 1 << code
        others = [s for s in range(self.players) if s != seat]
        slots = [Slot(self.hands[s].bit_count()) for s in others]
        slots.append(Slot(len(DECK) - self.players * HAND_SIZE))  # the cards nobody was dealt
        dealt = deal_unseen(DECK_MASK & ~seen, slots, rng)
        world = self.clone()
        for s, hand in zip(others, dealt[:-1], strict=True):
            world.hands[s] = hand
        world.seed = rng.getrandbits(62)  # future deals must not follow from the real seed
        world.decks = []
        return world

    # Play and scoring -----------------------------------------------------

    def _end_trick(self) -> None:
        n = self.players
        order = [(self.leader + i) % n for i in range(n)]
        best, cancelled, reversed_order = trick_winner(self.trick)
        winner = order[best] if best is not None else None
        self.last_trick = {
            "cards": [{"seat": s, "card": C.NAMES[c]} for s, c in zip(order, self.trick, strict=True)],
            "winner": winner,
            "cancelled": cancelled,
            "reversed": reversed_order,
        }
        self.trick = []
        self.tricks_played += 1
        if winner is not None:
            self.tricks[winner] += 1
            self.leader = winner
            self.last_winner = winner
        # Nobody won: the same player leads again.
        if self.tricks_played == TRICKS:
            self._score_deal()

    def _made(self, seat: int) -> bool:
        value = bid_value(self.bids[seat])
        return self.tricks[seat] >= JOKER_BID if value == JOKER_BID else self.tricks[seat] == value

    def _points(self, made: list[bool]) -> list[int]:
        n, w = self.players, sum(made)
        if w == 0:
            return [0] * n
        if self.options["scoring"] == "tricks":
            points = [max(self.tricks[s], 1) if made[s] else 0 for s in range(n)]
            if w == n - 1:
                points = [p if made[s] else -3 for s, p in enumerate(points)]
            return points
        if w == n:
            return list(self.tricks)
        if w == n - 1:
            return [1 if made[s] else -3 for s in range(n)]
        each = {1: 3, 2: 2}.get(w, 1)
        return [each if made[s] else 0 for s in range(n)]

    def _score_deal(self) -> None:
        n, target = self.players, self.options["target"]
        made = [self._made(s) for s in range(n)]
        w = sum(made)
        points = self._points(made)
        doubled = [self.doubled[s] and made[s] for s in range(n)]
        points = [p * 2 if doubled[s] else p for s, p in enumerate(points)]
        before = list(self.totals)
        bust = [False] * n
        lone_loser = w == n - 1 and self.options["lone_loser_minus_one"]
        for s in range(n):
            if lone_loser and not made[s]:
                self.totals[s] = -1
                continue
            if before[s] + points[s] > target:
                bust[s] = True
                self.totals[s] = before[s] - points[s]
            else:
                self.totals[s] = before[s] + points[s]
        reversed_totals = w == 0 and self.options["all_fail_reverse"]
        if reversed_totals:
            ranks = sorted(set(self.totals), reverse=True)
            swap = dict(zip(ranks, reversed(ranks), strict=True))
            self.totals = [swap[t] for t in self.totals]
        rows: list[JustMakeRow] = [
            {
                "seat": s,
                "bid": bid_value(self.bids[s]),
                "doubled": self.doubled[s],
                "tricks": self.tricks[s],
                "made": made[s],
                "points": points[s],
                "bust": bust[s],
                "change": self.totals[s] - before[s],
                "total": self.totals[s],
            }
            for s in range(n)
        ]
        sheet: JustMakeSheet = {
            "deal": self.deal_no + 1,
            "first_bidder": self.first_bidder,
            "made": w,
            "reversed_totals": reversed_totals,
            "rows": list(rows),
        }
        self._close_deal(sheet, self._match_winners(made))

    def _deals_dealt(self) -> int:
        return self.deal_no + 1

    def _pass_deal(self) -> None:
        if self.last_winner >= 0:  # the latest trick's winner bids first next deal
            self.first_bidder = self.last_winner

    def _match_winners(self, made: list[bool]) -> list[int]:
        n = self.players
        if self.options["sweep_wins"]:
            sweepers = [s for s in range(n) if self.tricks[s] == TRICKS]
            if sweepers:
                return sweepers
        if self.options["joker_make_wins"]:
            makers = [s for s in range(n) if made[s] and bid_value(self.bids[s]) == JOKER_BID]
            if makers:
                return makers
        on_target = [s for s in range(n) if self.totals[s] == self.options["target"]]
        if len(on_target) > 1 and self.options["tie_break"] == "final-bid":
            top = max(bid_value(self.bids[s]) for s in on_target)
            on_target = [s for s in on_target if bid_value(self.bids[s]) == top]
        return on_target

    # Views ----------------------------------------------------------------

    def view(self, seat: object = None) -> JustMakeView:
        """What ``seat`` may know (None: a spectator); a seat that is not a number is refused."""
        return self._view(self._viewer(seat))

    def _view(self, seat: int | None) -> JustMakeView:
        n = self.players
        order = [(self.leader + i) % n for i in range(n)]
        bids: list[JustMakeBid] = [
            {"seat": s, "card": C.NAMES[self.bids[s]], "bid": bid_value(self.bids[s]), "doubled": self.doubled[s]}
            for s in self.bid_order
            if self.bids[s] >= 0
        ]
        view: JustMakeView = {
            "game": self.NAME,
            "players": n,
            "seat": seat,
            "options": dict(self.options),
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.to_act(),
            "deal": self.deal_no + 1,
            "dealer": None,  # the first bidder starts each deal; nobody deals
            "trump": None,  # Just Make has no trumps
            "sides": seats_alone(n),
            "first_bidder": self.first_bidder,
            "bids": bids,
            "leader": self.leader,
            "trick": [{"seat": s, "card": C.NAMES[c]} for s, c in zip(order, self.trick, strict=False)],
            "last_trick": copied(self.last_trick),
            "tricks_played": self.tricks_played,
            "tricks": list(self.tricks),
            "cards_left": [h.bit_count() for h in self.hands],
            "scores": self.scores(),
            "target": self.options["target"],
            "last_deal": copied(self.sheets[-1]) if self.sheets else None,
            "winners": list(self.winners) if self.winners is not None else None,
        }
        if seat is not None and 0 <= seat < n:
            view["hand"] = [C.NAMES[c] for c in C.cards_in(self.hands[seat])]
            view["bid"] = bid_value(self.bids[seat]) if self.bids[seat] >= 0 else None
        return view
