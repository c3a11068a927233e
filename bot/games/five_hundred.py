"""Five Hundred, Australian rules, as docs/rules/five-hundred.md lays it down.

Bids are ranked on one scale: ``2 * ((tricks - 6) * 5 + suit)`` with suits
♠ ♣ ♦ ♥ NT = 0…4, so misère (19) sits between 7NT (18) and 8♠ (20) and open
misère (45) between 10♦ (44) and 10♥ (46). A card's "effective suit" folds the
left bower (and, at a suit contract, the joker) into trumps; at no trumps and
misère the joker has a suit of its own, ``JOKER_SUIT``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Final, NotRequired, TypedDict

from . import cards as C
from .base import GameState
from .errors import IllegalAction
from .hidden import Slot, deal_unseen
from .lengths import Length
from .options import Option, OptionValue
from .views import DealSheet, LastTrick, Played, Record, Scores, SheetRow, View, copied

OPTIONS: tuple[Option, ...] = (
    Option("six_sides", "three-twos", choices=("three-twos", "two-threes"), players=(6,)),
    Option("misere_after_seven", False),
    Option("open_misere_highest", False),
    Option("passed_may_rebid", False),
    Option("all_pass", "redeal", choices=("redeal", "play-no-trumps", "move-after-two")),
    Option("open_misere_spread", "before-first-lead", choices=("before-first-lead", "after-first-trick")),
    Option("called_partner", "secret", choices=("secret", "announce"), players=(5,)),
    Option("joker_lead_any_suit", False),
    Option("misere_tricks_score", False),
    Option("open_misere_value", 500, low=500, high=520, values=(500, 520)),
    Option("win_by_contract_only", False),
)
PLAYERS: tuple[int, ...] = (2, 3, 4, 5, 6)
DEFAULT_PLAYERS = 4
QUICK: dict[str, OptionValue] = {}  # the rules have no shorter match than to 500
HANDS = {2: 6.0, 3: 11.0, 4: 7.0, 5: 11.0, 6: 11.0}  # hands a match took to 500 or -500 (easy players)


def expected_length(players: int, options: Mapping[str, OptionValue]) -> Length:
    """The hands a match is expected to take (ten tricks each)."""
    return Length(HANDS.get(players, 10.0), 10)


BID: Final = 0
DISCARD: Final = 1
CALL: Final = 2
PLAY: Final = 3
OVER: Final = 4
PHASE_NAMES: Final = ("bidding", "discarding", "calling", "playing", "over")
NT: Final = -1
JOKER_SUIT: Final = 4
TRICKS: Final = 10

# Bid suits in rank order, and their card suit numbers (S H C D in ``cards``).
BID_SUITS = ("S", "C", "D", "H", "NT")
BID_SUIT_CARD = (C.SPADES, C.CLUBS, C.DIAMONDS, C.HEARTS, NT)
MISERE: Final = 19
OPEN_MISERE: Final = 45
OPEN_MISERE_HIGHEST = 50

_R = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5"]
DECKS = {
    2: C.deck(_R[:6], jokers=1),
    3: C.deck(_R[:8], jokers=1),
    4: sorted([*C.deck(_R), C.card("4", "H"), C.card("4", "D"), C.JOKER]),
    5: C.deck(["2", "3", "4", *_R], jokers=1),
    6: sorted(
        [*C.deck(["2", "3", "4", "11", "12", *_R]), C.card("13", "H"), C.card("13", "D"), C.JOKER]
    ),
}  # fmt: skip
KITTY: Final = {2: 5, 3: 3, 4: 3, 5: 3, 6: 3}
PHASE_OF = {"bid": BID, "pass": BID, "discard": DISCARD, "call": CALL, "alone": CALL, "play": PLAY}
# Per (players, trump): each card's effective suit, its trick-winning power, and the mask of each suit.
_ORDERS: dict[tuple[int, int], tuple[dict[int, int], dict[int, int], list[int]]] = {}


# legal() writes a play as "play " + the card's name; act() maps those strings straight back.
PLAY_TEXT: list[str] = ["play " + name for name in C.NAMES]
PLAY_CODE: dict[str, int] = {"play " + C.NAMES[c]: c for c in C.ALL_CODES if C.NAMES[c]}
_BID_TEXTS: dict[tuple[int, bool, bool], tuple[str, ...]] = {}  # the auction's choices after each standing bid
_PLAY_CHUNKS: dict[int, tuple[str, ...]] = {}  # the play strings of one suit's cards in a mask, built on use


def discard_three_texts(held: list[int]) -> list[str]:
    """``discard A B C`` for every three of ``held`` (ascending), in combinations() order.

    Built by concatenation: a table of every three-card string is faster only
    while it sits in the CPU cache, which it does not between two hands.
    """
    spaced = [" " + C.NAMES[c] for c in held]
    out: list[str] = []
    for i in range(len(held) - 2):
        first = "discard" + spaced[i]
        for j in range(i + 1, len(held) - 1):
            two = first + spaced[j]
            out += [two + third for third in spaced[j + 1 :]]
    return out


def play_texts(mask: int) -> list[str]:
    """``play X`` for every card in ``mask``, lowest code first (a suit at a time, from a cache)."""
    out: list[str] = []
    for shift in (0, 16, 32, 48, 64):
        chunk = mask & (0xFFFF << shift)
        if chunk:
            texts = _PLAY_CHUNKS.get(chunk)
            if texts is None:
                texts = _PLAY_CHUNKS[chunk] = tuple(PLAY_TEXT[c] for c in C.cards_in(chunk))
            out += texts
    return out


def card_order(players: int, trump: int) -> tuple[dict[int, int], dict[int, int], list[int]]:
    """The left bower (and, at a suit contract, the joker) join trumps; at no trumps the joker is a suit of its own."""
    cached = _ORDERS.get((players, trump))
    if cached is not None:
        return cached
    suit_of: dict[int, int] = {}
    power: dict[int, int] = {}
    for c in DECKS[players]:
        if c == C.JOKER:
            suit_of[c], power[c] = (trump if trump != NT else JOKER_SUIT), 100
        elif trump != NT and c == C.card("J", C.SUITS[trump]):
            suit_of[c], power[c] = trump, 99
        elif trump != NT and c == C.card("J", C.SUITS[trump ^ 2]):  # same colour: S↔C, H↔D
            suit_of[c], power[c] = trump, 98
        else:
            suit_of[c], power[c] = c >> 4, c & 15
    masks = [C.mask_of(c for c in suit_of if suit_of[c] == s) for s in range(5)]
    _ORDERS[players, trump] = suit_of, power, masks
    return suit_of, power, masks


def bid_rank(text: str) -> int | None:
    """The rank of a bid written as in an action (``7H``, ``6NT``, ``misere``, ``open-misere``)."""
    text = text.upper()
    if text == "MISERE":
        return MISERE
    if text == "OPEN-MISERE":
        return OPEN_MISERE
    number, suit = (text[:2], text[2:]) if text.startswith("10") else (text[:1], text[1:])
    if number in ("6", "7", "8", "9", "10") and suit in BID_SUITS:
        return 2 * ((int(number) - 6) * 5 + BID_SUITS.index(suit))
    return None


def bid_text(rank: int) -> str:
    if rank == MISERE:
        return "misere"
    if rank in (OPEN_MISERE, OPEN_MISERE_HIGHEST):
        return "open-misere"
    step = rank // 2
    return f"{6 + step // 5}{BID_SUITS[step % 5]}"


class Bid(TypedDict):
    """A bid or contract: its kind ("suit", "no-trumps", "misere", "open-misere") and, but for
    the misères, its tricks and trump suit (None at no trumps)."""

    kind: str
    tricks: NotRequired[int]
    trump: NotRequired[str | None]


class AuctionCall(TypedDict):
    seat: int
    call: str  # "pass" or "bid" (with the bid's keys)
    kind: NotRequired[str]
    tricks: NotRequired[int]
    trump: NotRequired[str | None]


class FiveHundredRow(SheetRow):
    points: int  # what the hand scored (the same as ``change``)
    before: int  # the total before the hand


class FiveHundredSheet(DealSheet):
    hand: int  # the same as ``deal``: a hand, as Five Hundred says
    thrown_in: bool  # everyone passed and the hand was thrown in (no rows)
    contract: Bid | None
    dealer: NotRequired[int]
    contractor: NotRequired[int | None]
    partner: NotRequired[int | None]
    contract_side: NotRequired[list[int]]
    value: NotRequired[int]
    made: NotRequired[bool | None]


class FiveHundredScores(Scores):
    sides: list[int]  # per side, its total


class FiveHundredPlay(Played):
    named_suit: str | None  # the suit named with a joker led at no trumps


class FiveHundredTrick(LastTrick):
    named_suit: str | None  # the suit a joker led at no trumps was named


class FiveHundredHand(TypedDict):
    seat: int
    side: int
    cards_left: int
    cards: list[str] | None  # one's own, or an open misère's
    out_of_bidding: bool
    sitting_out: bool  # the contractor's partner playing alone's
    tricks: int


class FiveHundredView(View):
    hands: list[FiveHundredHand]
    auction: list[AuctionCall]
    standing_bid: Bid | None
    high_bidder: int | None
    contract: Bid | None
    contractor: int | None
    value: int | None  # the contract's value
    called: str | None  # the card called for a partner (five players)
    partner: int | None  # once known
    kitty_size: int
    named_suit: str | None
    side_tricks: list[int]
    kitty: NotRequired[list[str]]  # the contractor's own view: the kitty picked up
    discards: NotRequired[list[str]]
    you_are_partner: NotRequired[bool]


class FiveHundredRecord(FiveHundredView, Record):
    pass


def bid_view(rank: int) -> Bid:
    """A bid as views show it: never a string that looks like a card code."""
    if rank == MISERE:
        return {"kind": "misere"}
    if rank in (OPEN_MISERE, OPEN_MISERE_HIGHEST):
        return {"kind": "open-misere"}
    step = rank // 2
    suit = BID_SUITS[step % 5]
    return {
        "kind": "no-trumps" if suit == "NT" else "suit",
        "tricks": 6 + step // 5,
        "trump": None if suit == "NT" else suit,
    }


class FiveHundred(GameState):
    NAME = "five-hundred"
    PLAYERS = PLAYERS
    OPTIONS = OPTIONS
    OVER = OVER
    SAVED = (
        "players", "options", "seed", "decks", "first_dealer", "sides",
        "phase", "hand_no", "hands_played", "all_passes", "dealer", "hands", "kitty", "picked_up", "discards",
        "auction", "turn", "out", "high", "high_bidder", "passes_since_bid",
        "contract", "contractor", "called", "partner", "partner_known", "sitting_out", "exposed",
        "leader", "trick", "named_suit", "voids", "plays", "tricks", "tricks_played", "last_trick",
        "totals", "sheets", "winners",
    )  # fmt: skip

    def _deck(self) -> list[int]:
        return list(DECKS[self.players])

    def _open_match(self, first_dealer: int | None) -> None:
        players = self.players
        self.first_dealer = self.dealer = self._first_seat(first_dealer, range(players))
        if players == 4:
            self.sides = [[0, 2], [1, 3]]
        elif players == 6 and self.options["six_sides"] == "three-twos":
            self.sides = [[0, 3], [1, 4], [2, 5]]
        elif players == 6:
            self.sides = [[0, 2, 4], [1, 3, 5]]
        else:
            self.sides = [[s] for s in range(players)]
        self.hand_no = -1
        self.hands_played = 0
        self.all_passes = 0
        self.contract = -1

    def _clone_native(self) -> FiveHundred:
        """``clone`` for the compiled class, attribute by attribute (see ``NinetyNine._clone_native``)."""
        new = FiveHundred()
        self._copy_match_into(new)
        new.first_dealer, new.sides = self.first_dealer, self.sides.copy()
        new.hand_no, new.hands_played = self.hand_no, self.hands_played
        new.all_passes, new.dealer, new.hands = self.all_passes, self.dealer, self.hands.copy()
        new.kitty, new.picked_up, new.discards = self.kitty, self.picked_up, self.discards
        new.auction, new.turn, new.out = self.auction.copy(), self.turn, self.out.copy()
        new.high, new.high_bidder, new.passes_since_bid = self.high, self.high_bidder, self.passes_since_bid
        new.contract, new.contractor, new.called = self.contract, self.contractor, self.called
        new.partner, new.partner_known = self.partner, self.partner_known
        new.sitting_out, new.exposed = self.sitting_out.copy(), self.exposed
        new.leader, new.trick, new.named_suit = self.leader, self.trick.copy(), self.named_suit
        new.voids, new.plays, new.tricks = self.voids.copy(), self.plays.copy(), self.tricks.copy()
        new.tricks_played = self.tricks_played
        new.last_trick = None if self.last_trick is None else self.last_trick.copy()
        new._misere, new._trump, new._order = self._misere, self._trump, self._order
        new._suit_of, new._power, new._suit_masks = self._suit_of, self._power, self._suit_masks
        return new

    # Set-up ---------------------------------------------------------------

    def _open_deal(self) -> None:
        self._start_hand()

    def _start_hand(self) -> None:
        """Deal the next hand (Five Hundred's word for a deal) and open its bidding."""
        n = self.players
        self.hand_no += 1
        deck = self._next_deck(self.hand_no)
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        hands = [0] * n
        kitty: list[int] = []
        pos = 0
        if n == 4:
            for packet in (3, 4, 3):  # packets to each player, then one to the kitty
                for seat in order:
                    for c in deck[pos : pos + packet]:
                        hands[seat] |= 1 << c
                    pos += packet
                kitty.append(deck[pos])
                pos += 1
        else:
            for j in range(n * 10):
                hands[order[j % n]] |= 1 << deck[j]
            kitty = deck[n * 10 :]
        self.hands = hands
        self.kitty = C.mask_of(kitty)
        self.picked_up = 0
        self.discards = 0
        self.auction: list[list[Any]] = []
        self.turn = order[0]
        self.out = [False] * n
        self.high = -1
        self.high_bidder = -1
        self.passes_since_bid = 0
        self.contract = -1
        self.contractor = -1
        self.called = -1
        self.partner = -1
        self.partner_known = False
        self.sitting_out: list[int] = []
        self.exposed = False
        self.leader = -1
        self.trick: list[int] = []
        self.named_suit = -1
        self.voids = [0] * n
        self.plays: list[list[int]] = []  # [seat, card, named suit or -1], every card played this hand in order
        self.tricks = [0] * n
        self.tricks_played = 0
        self.last_trick: list[Any] | None = None  # [seats, card codes, named suit, winner]; view() writes it out
        self.phase = BID
        self._after_restore()

    def _after_restore(self) -> None:
        """Derive the card order of the contract: effective suits and trick-winning power."""
        self._misere = self.contract in (MISERE, OPEN_MISERE, OPEN_MISERE_HIGHEST)
        trump = NT if self.contract < 0 or self._misere else BID_SUIT_CARD[(self.contract // 2) % 5]
        self._trump = trump
        self._suit_of, self._power, self._suit_masks = card_order(self.players, trump)
        self._order = self._seat_order()

    # The contract ---------------------------------------------------------

    def to_act(self) -> list[int]:
        return [] if self.phase == OVER else [self.turn]

    def _bid_choices(self) -> list[int]:
        top = OPEN_MISERE_HIGHEST if self.options["open_misere_highest"] else OPEN_MISERE
        ranks = [r for r in range(0, 50, 2) if r > self.high]
        if self.high < MISERE and not (self.options["misere_after_seven"] and not 10 <= self.high <= 18):
            ranks.append(MISERE)
        if self.high < top:
            ranks.append(top)
        return sorted(ranks)

    def _bid_texts(self) -> tuple[str, ...]:
        """``pass`` and every bid above the standing one, cached per standing bid and options."""
        key = (self.high, self.options["misere_after_seven"], self.options["open_misere_highest"])
        texts = _BID_TEXTS.get(key)
        if texts is None:
            texts = _BID_TEXTS[key] = ("pass", *("bid " + bid_text(r) for r in self._bid_choices()))
        return texts

    def legal(self, seat: object) -> list[str]:  # anything a caller sends is checked: a non-seat has none
        if self.phase == OVER or type(seat) is not int or seat != self.turn:
            return []
        if self.phase == PLAY:
            return self._play_choices(seat)
        if self.phase == BID:
            return list(self._bid_texts())
        if self.phase == DISCARD:
            held = C.cards_in(self.hands[seat])
            if KITTY[self.players] == 3:
                return discard_three_texts(held)
            return ["discard " + " ".join(C.NAMES[c] for c in combo) for combo in combinations(held, 5)]
        return ["alone"] + ["call " + C.NAMES[c] for c in self._callable()]

    def act(self, seat: object, action: object) -> None:  # anything a caller sends is checked
        if self.phase == PLAY and seat == self.turn and type(seat) is int and type(action) is str:
            # The hot path: a plain card play, written as legal() writes it.
            code = PLAY_CODE.get(action)
            led_joker_at_nt = code == C.JOKER and not self.trick and self._trump == NT  # it must name a suit
            if code is not None and self.hands[seat] >> code & 1 and not led_joker_at_nt:
                self._play_card(seat, code, -1)
                return
        seat = self._seat_on_turn(seat)
        words = action.split() if isinstance(action, str) else []
        word = words[0] if words else ""
        if word not in PHASE_OF:
            raise IllegalAction("unparseable", action=action, expected=self._expected())
        if PHASE_OF[word] != self.phase:
            raise IllegalAction("wrong_phase", action=action, phase=PHASE_NAMES[self.phase])
        if self.phase == BID:
            self._bid(seat, words)
        elif self.phase == DISCARD:
            self._discard(seat, words)
        elif self.phase == CALL:
            self._call(seat, words)
        else:
            self._play(seat, words)

    def _side_of(self, seat: int) -> int:
        return next(i for i, side in enumerate(self.sides) if seat in side)

    def scores(self) -> FiveHundredScores:
        return {"total": list(self.totals), "sides": [self.totals[side[0]] for side in self.sides]}

    def _result(self) -> dict[str, Any]:
        return {**super()._result(), "hands": self.hands_played, "sides": copied(self.sides)}

    def _expected(self) -> str:
        return {
            BID: "'pass' or a bid such as 'bid 7H', 'bid 6NT', 'bid misere', 'bid open-misere'",
            DISCARD: f"'discard' and {KITTY[self.players]} cards",
            CALL: "'call' and a card, or 'alone'",
            PLAY: "'play' and a card ('play JK H' to lead the joker at no trumps naming hearts)",
        }[self.phase]

    def _card(self, text: str, seat: int) -> int:
        code = C.parse(text)
        if code is None or code not in self._suit_of:
            raise IllegalAction("unknown_card", card=text)
        if not self.hands[seat] >> code & 1:
            raise IllegalAction("card_not_held", card=C.NAMES[code])
        return code

    # The auction ----------------------------------------------------------

    def _next_bidder(self, seat: int) -> int:
        n = self.players
        for i in range(1, n + 1):
            nxt = (seat + i) % n
            if not self.out[nxt]:
                return nxt
        return seat

    def _bid(self, seat: int, words: list[str]) -> None:
        if words[0] == "pass":
            if len(words) != 1:
                raise IllegalAction("unparseable", action=" ".join(words), expected=self._expected())
            self.auction.append([seat, -1])
            if not self.options["passed_may_rebid"]:
                self.out[seat] = True
            self.passes_since_bid += 1
        else:
            rank = bid_rank(words[1]) if len(words) == 2 else None
            if rank is None:
                raise IllegalAction("unparseable", action=" ".join(words), expected=self._expected())
            if rank == OPEN_MISERE and self.options["open_misere_highest"]:
                rank = OPEN_MISERE_HIGHEST
            if "bid " + bid_text(rank) not in self._bid_texts():
                allowed = ", ".join(self.legal(seat)[:8])
                raise IllegalAction("not_legal", action=" ".join(words), allowed=allowed)
            self.auction.append([seat, rank])
            self.high, self.high_bidder = rank, seat
            self.passes_since_bid = 0
        n = self.players
        if self.high_bidder >= 0:
            if self.options["passed_may_rebid"]:
                done = self.passes_since_bid >= n - 1
            else:
                done = all(self.out[s] for s in range(n) if s != self.high_bidder)
            if done:
                self._won_auction()
                return
        elif self.passes_since_bid >= n:
            self._all_passed()
            return
        self.turn = self._next_bidder(seat)

    def _all_passed(self) -> None:
        rule = self.options["all_pass"]
        if rule == "play-no-trumps":
            # No contractor and no kitty; the dealer's left leads at no trumps.
            self.leader = self.turn = (self.dealer + 1) % self.players
            self._order = self._seat_order()
            self.phase = PLAY
            return
        number = self.hand_no + 1
        self.sheets.append({"deal": number, "hand": number, "thrown_in": True, "contract": None, "rows": []})
        self.all_passes += 1
        if rule == "move-after-two" and self.all_passes >= 2:
            self.all_passes = 0
            self.dealer = (self.dealer + 1) % self.players
        self._start_hand()  # a hand thrown in is not played: the deal passes only by that rule

    def _won_auction(self) -> None:
        self.all_passes = 0
        self.contract = self.high
        self.contractor = self.high_bidder
        self._after_restore()
        self.hands[self.contractor] |= self.kitty
        self.picked_up = self.kitty
        self.kitty = 0
        self.turn = self.contractor
        self.phase = DISCARD

    def _discard(self, seat: int, words: list[str]) -> None:
        need = KITTY[self.players]
        codes = {self._card(w, seat) for w in words[1:]}
        if len(words) != need + 1 or len(codes) != need:
            raise IllegalAction("unparseable", action=" ".join(words), expected=self._expected())
        self.discards = C.mask_of(codes)
        self.hands[seat] ^= self.discards
        if self.players == 5 and not self._misere:
            self.phase = CALL
            return
        self._start_play()

    def _callable(self) -> list[int]:
        own = self.hands[self.contractor] | self.discards
        trumps = self._suit_masks[self._trump] if self._trump != NT else 0
        return [c for c in C.cards_in(C.mask_of(DECKS[5]) & ~own & ~trumps) if c != C.JOKER]

    def _call(self, seat: int, words: list[str]) -> None:
        if words == ["alone"]:
            self.called = -1
        else:
            code = C.parse(words[1]) if len(words) == 2 and words[0] == "call" else None
            if code is None or code not in self._callable():
                raise IllegalAction(
                    "not_legal",
                    action=" ".join(words),
                    allowed="'alone' or a card not in your hand, your discards or trumps",
                )
            self.called = code
            self.partner = next(s for s in range(self.players) if self.hands[s] >> code & 1)
            self.partner_known = self.options["called_partner"] == "announce"
        self._start_play()

    # Play -----------------------------------------------------------------

    def _start_play(self) -> None:
        if self._misere:
            side = self.sides[self._side_of(self.contractor)]
            self.sitting_out = [s for s in side if s != self.contractor]
            if self.contract != MISERE and self.options["open_misere_spread"] == "before-first-lead":
                self.exposed = True
        self.leader = self.turn = self.contractor
        self._order = self._seat_order()
        self.phase = PLAY

    def _in_play(self) -> list[int]:
        """The seats that play to this trick, from its leader round."""
        return self._order

    def _seat_order(self) -> list[int]:
        n = self.players
        if self.leader < 0:
            return []
        return [(self.leader + i) % n for i in range(n) if (self.leader + i) % n not in self.sitting_out]

    def _led_suit(self) -> int:
        if not self.trick:
            return -1
        if self.named_suit >= 0:
            return self.named_suit
        return self._suit_of[self.trick[0]]

    def _play_choices(self, seat: int) -> list[str]:
        held = self.hands[seat]
        if self.trick:
            follow = held & self._suit_masks[self._led_suit()]
            return play_texts(follow or held)
        if not (held >> C.JOKER & 1 and self._trump == NT):
            return play_texts(held)
        out = []
        for c in C.cards_in(held):
            if c == C.JOKER and self._trump == NT:
                out += ["play JK " + C.SUITS[s] for s in self._nameable(seat)]
            else:
                out.append(PLAY_TEXT[c])
        return out

    def _nameable(self, seat: int) -> list[int]:
        """The suits a joker led at no trumps may name: not one the leader has shown void in."""
        if self.options["joker_lead_any_suit"]:
            return [0, 1, 2, 3]
        allowed = [s for s in range(4) if not self.voids[seat] >> s & 1]
        return allowed or [0, 1, 2, 3]

    def _play(self, seat: int, words: list[str]) -> None:
        if len(words) not in (2, 3):
            raise IllegalAction("unparseable", action=" ".join(words), expected=self._expected())
        code = self._card(words[1], seat)
        named = -1
        if code == C.JOKER and not self.trick and self._trump == NT:
            if len(words) != 3 or words[2].upper() not in ("S", "H", "C", "D"):
                raise IllegalAction("not_legal", action=" ".join(words), allowed=", ".join(self._play_choices(seat)))
            named = C.SUITS.index(words[2].upper())
            if named not in self._nameable(seat):
                raise IllegalAction("not_legal", action=" ".join(words), allowed=", ".join(self._play_choices(seat)))
        elif len(words) == 3:
            raise IllegalAction("unparseable", action=" ".join(words), expected=self._expected())
        self._play_card(seat, code, named)

    def _play_card(self, seat: int, code: int, named: int) -> None:
        if self.trick:
            led = self._led_suit()
            follow = self.hands[seat] & self._suit_masks[led]
            if follow and not follow >> code & 1:
                raise IllegalAction(
                    "must_follow",
                    suit=("spades", "hearts", "clubs", "diamonds")[led],  # a led joker always names a suit
                )
            if not follow:
                self.voids[seat] |= 1 << led
        else:
            self.named_suit = named
        self.hands[seat] ^= 1 << code
        self.plays.append([seat, code, self.named_suit if not self.trick else -1])
        self.trick.append(code)
        if code == self.called:
            self.partner_known = True  # the secret partnership is public from the moment the card is played
        order = self._in_play()
        if len(self.trick) < len(order):
            self.turn = order[len(self.trick)]
            return
        self._end_trick(order)

    def _end_trick(self, order: list[int]) -> None:
        suit_of, power, trump = self._suit_of, self._power, self._trump
        trump_suit = JOKER_SUIT if trump == NT else trump
        best = 0
        for i in range(1, len(self.trick)):
            c, b = self.trick[i], self.trick[best]
            if suit_of[c] == suit_of[b]:
                if power[c] > power[b]:
                    best = i
            elif suit_of[c] == trump_suit:
                best = i
        winner = order[best]
        self.last_trick = [order, self.trick, self.named_suit, winner]
        self.tricks[winner] += 1
        self.tricks_played += 1
        self.trick = []
        self.named_suit = -1
        self.leader = self.turn = winner
        self._order = self._seat_order()
        if self.tricks_played == 1 and self._misere and self.contract != MISERE:
            self.exposed = True
        misere_lost = self._misere and winner == self.contractor and not self.options["misere_tricks_score"]
        if self.tricks_played == TRICKS or misere_lost:
            self._score_hand()

    # Scoring --------------------------------------------------------------

    def _contract_value(self) -> int:
        if self.contract == MISERE:
            return 250
        if self.contract in (OPEN_MISERE, OPEN_MISERE_HIGHEST):
            return int(self.options["open_misere_value"])
        step = self.contract // 2
        return 40 + 100 * (step // 5) + 20 * (step % 5)

    def _score_hand(self) -> None:
        n = self.players
        self.hands_played += 1
        points = [0] * n  # per seat, for this hand
        if self.contractor < 0:
            # All passed and played at no trumps: every side scores 10 per trick.
            for seat in range(n):
                for mate in self.sides[self._side_of(seat)]:
                    points[mate] += 10 * self.tricks[seat]
            contract_side: list[int] = []
            made = None
            value = 0
        else:
            if self.players == 5:
                contract_side = [self.contractor] + ([self.partner] if self.partner >= 0 else [])
            else:
                contract_side = self.sides[self._side_of(self.contractor)]
            taken = sum(self.tricks[s] for s in contract_side)
            value = self._contract_value()
            if self._misere:
                made = self.tricks[self.contractor] == 0
            else:
                made = taken >= (self.contract // 2) // 5 + 6
                if made and taken == TRICKS and (self.contract // 2) // 5 + 6 < 10 and value < 250:
                    value = 250  # the slam
            for s in contract_side:
                points[s] = value if made else -value
            for side in self._other_sides(contract_side):
                if self._misere:
                    earned = 10 * self.tricks[self.contractor] if self.options["misere_tricks_score"] else 0
                else:
                    earned = 10 * sum(self.tricks[s] for s in side)
                for s in side:
                    points[s] = earned
        before = list(self.totals)
        for s in range(n):
            self.totals[s] += points[s]
        rows: list[FiveHundredRow] = [
            {
                "seat": s,
                "tricks": self.tricks[s],
                "points": points[s],
                "change": points[s],
                "total": self.totals[s],
                "before": before[s],
            }
            for s in range(n)
        ]
        sheet: FiveHundredSheet = {
            "deal": self.hand_no + 1,
            "hand": self.hand_no + 1,
            "thrown_in": False,
            "dealer": self.dealer,
            "contract": bid_view(self.contract) if self.contract >= 0 else None,
            "contractor": self.contractor if self.contractor >= 0 else None,
            "partner": self.partner if self.partner >= 0 else None,
            "contract_side": contract_side,
            "value": value,
            "made": made,
            "rows": list(rows),
        }
        self._close_deal(sheet, self._match_winners(contract_side, bool(made)))

    def _deals_dealt(self) -> int:
        return self.hand_no + 1

    def _pass_deal(self) -> None:
        self.dealer = (self.dealer + 1) % self.players

    def _other_sides(self, contract_side: list[int]) -> list[list[int]]:
        if self.players == 5:
            return [[s] for s in range(5) if s not in contract_side]
        return [side for side in self.sides if side != contract_side]

    def _match_winners(self, contract_side: list[int], made: bool) -> list[int]:
        """The winners if the hand just scored ended the match, else none."""
        units = [[s] for s in range(5)] if self.players == 5 else self.sides
        score = [self.totals[u[0]] for u in units]
        by_contract = made and any(self.totals[s] >= 500 for s in contract_side)
        if self.options["win_by_contract_only"]:
            if by_contract:
                return sorted(contract_side)
            ended = any(x <= -500 for x in score)
        else:
            ended = any(x >= 500 or x <= -500 for x in score)
        if not ended:
            return []
        best = max(score)
        top = [u for u, x in zip(units, score, strict=True) if x == best]
        if len(top) > 1 and any(set(u) & set(contract_side) for u in top):
            return sorted(contract_side)  # the contractor's side wins a tie
        return sorted(s for u in top for s in u)

    # Views ----------------------------------------------------------------

    def _last_trick_view(self) -> FiveHundredTrick | None:
        if self.last_trick is None:
            return None
        order, trick, named, winner = self.last_trick
        return {
            "cards": [{"seat": s, "card": C.NAMES[c]} for s, c in zip(order, trick, strict=True)],
            "named_suit": C.SUITS[named] if named >= 0 else None,
            "winner": winner,
        }

    def view(self, seat: object = None) -> FiveHundredView:
        """What ``seat`` may know (None: a spectator); a seat that is not a number is refused."""
        return self._view(self._viewer(seat))

    def _view(self, seat: int | None) -> FiveHundredView:
        n = self.players
        order = self._in_play() if self.phase == PLAY else []
        partner_public = self.partner_known and self.partner >= 0
        hands: list[FiveHundredHand] = []
        for s in range(n):
            visible = s == seat or (self.exposed and s == self.contractor)
            hands.append(
                {
                    "seat": s,
                    "side": self._side_of(s),
                    "cards_left": self.hands[s].bit_count(),
                    "cards": [C.NAMES[c] for c in C.cards_in(self.hands[s])] if visible else None,
                    "out_of_bidding": self.out[s],
                    "sitting_out": s in self.sitting_out,
                    "tricks": self.tricks[s],
                }
            )
        auction: list[AuctionCall] = [
            {"seat": s, "call": "pass"} if r < 0 else {"seat": s, "call": "bid", **bid_view(r)} for s, r in self.auction
        ]
        view: FiveHundredView = {
            "game": self.NAME,
            "players": n,
            "seat": seat,
            "options": dict(self.options),
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.to_act(),
            "tricks": list(self.tricks),
            "cards_left": [hand.bit_count() for hand in self.hands],
            "deal": self.hand_no + 1,
            "dealer": self.dealer,
            "sides": [list(side) for side in self.sides],
            "hands": hands,
            "auction": auction,
            "standing_bid": bid_view(self.high) if self.high >= 0 else None,
            "high_bidder": self.high_bidder if self.high_bidder >= 0 else None,
            "contract": bid_view(self.contract) if self.contract >= 0 else None,
            "contractor": self.contractor if self.contractor >= 0 else None,
            "value": self._contract_value() if self.contract >= 0 else None,
            "trump": None if self._trump == NT else C.SUITS[self._trump],
            "called": C.NAMES[self.called] if self.called >= 0 else None,
            "partner": self.partner if partner_public else None,
            "kitty_size": KITTY[n],
            "leader": self.leader if self.leader >= 0 else None,
            "trick": [{"seat": s, "card": C.NAMES[c]} for s, c in zip(order, self.trick, strict=False)],
            "named_suit": C.SUITS[self.named_suit] if self.named_suit >= 0 and self.trick else None,
            "last_trick": self._last_trick_view(),
            "tricks_played": self.tricks_played,
            "side_tricks": [sum(self.tricks[s] for s in side) for side in self.sides],
            "scores": self.scores(),
            "last_deal": copied(self.sheets[-1]) if self.sheets else None,
            "winners": list(self.winners) if self.winners is not None else None,
        }
        if seat is not None and 0 <= seat < n:
            view["hand"] = [C.NAMES[c] for c in C.cards_in(self.hands[seat])]
            if seat == self.contractor:
                view["kitty"] = [C.NAMES[c] for c in C.cards_in(self.picked_up)]
                view["discards"] = [C.NAMES[c] for c in C.cards_in(self.discards)]
            view["you_are_partner"] = seat == self.partner
        return view

    # What a computer player may know -----------------------------------------

    def record(self, seat: object) -> FiveHundredRecord:
        plays: list[FiveHundredPlay] = [
            {"seat": s, "card": C.NAMES[c], "named_suit": C.SUITS[named] if named >= 0 else None}
            for s, c, named in self.plays
        ]
        voids: list[Sequence[str]] = [
            "".join(C.SUITS[x] for x in range(4) if self.voids[s] >> x & 1) for s in range(self.players)
        ]
        return {**self.view(seat), "plays": list(plays), "voids": voids}

    def determinize(self, seat: int, rng: random.Random) -> FiveHundred:
        world = self.clone()
        contractor = self.contractor
        played = 0
        for _, code, _ in self.plays:
            played |= 1 << code
        # The places hidden from ``seat``, in seat order, then the discards, then the kitty.
        seats = [s for s in range(self.players) if s != seat and not (self.exposed and s == contractor)]
        hide_discards = self.discards != 0 and seat != contractor
        pool = self.kitty | (self.discards if hide_discards else 0)
        forbidden = []
        for s in seats:
            pool |= self.hands[s]
            void = 0
            for suit in range(4):
                if self.voids[s] >> suit & 1:
                    void |= self._suit_masks[suit]
            forbidden.append(void)
        forbidden_discards = forbidden_kitty = 0
        called = self.called
        if called >= 0 and not (played | self.hands[seat]) >> called & 1:
            # The called card is in a partner's hand: the named one, or any but the contractor's.
            bit = 1 << called
            for i, s in enumerate(seats):
                if (s != self.partner) if self.partner_known else s == contractor:
                    forbidden[i] |= bit
            forbidden_discards = forbidden_kitty = bit
        slots = [Slot(self.hands[s].bit_count(), forbidden[i]) for i, s in enumerate(seats)]
        if hide_discards:
            slots.append(Slot(KITTY[self.players], forbidden_discards))
        slots.append(Slot(self.kitty.bit_count(), forbidden_kitty))
        dealt = deal_unseen(pool, slots, rng)
        for s, cards in zip(seats, dealt, strict=False):
            world.hands[s] = cards
        if hide_discards:
            world.discards = dealt[len(seats)]
        world.kitty = dealt[-1]
        if called >= 0 and not played >> called & 1:
            world.partner = next(s for s in range(self.players) if world.hands[s] >> called & 1)
        if self.picked_up and seat != contractor:
            # What the contractor picked up is its secret: any cards of its hand and discards will do.
            held = C.cards_in(world.hands[contractor] | world.discards)
            world.picked_up = C.mask_of(rng.sample(held, KITTY[self.players]))
        world.seed = rng.getrandbits(62)
        world.decks = []
        return world
