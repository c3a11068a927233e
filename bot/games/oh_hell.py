"""Oh Hell, as docs/rules/oh-hell.md lays it down.

A fixed sequence of deals of *n* cards each; the next card of the pack is
turned up for trumps (none left: no trumps). Each player in turn from the
dealer's left bids how many tricks they will take, the dealer last (with the
hook, not the one bid that makes the bids add up to *n*); then *n* tricks
are played, following suit, and whoever takes exactly their bid scores.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final, NotRequired, TypedDict

from . import cards as C
from .base import GameState, played_cards, shown_voids
from .errors import ENGLISH, IllegalAction, InvalidGame
from .hidden import Slot, deal_unseen
from .lengths import Length
from .options import Option, OptionValue, resolve
from .views import BidRow, DealSheet, LastTrick, Record, View, copied, seats_alone

PLAYERS: tuple[int, ...] = tuple(range(3, 8))
DEFAULT_PLAYERS = 4
SEQUENCES = ("down", "up", "down-up", "up-down")
SCORINGS = ("ten-plus-bid", "trick-plus-ten", "penalty")
MOST_START_CARDS = 10  # the default start, when the pack allows it
OPTIONS: tuple[Option, ...] = (
    # Not given, the start is 10 or what the pack allows (``start_cards_for``); at most 52 // players.
    Option("start_cards", MOST_START_CARDS, low=1, high=52 // PLAYERS[0]),
    Option("sequence", "down", choices=SEQUENCES),
    Option("hook", True),
    Option("scoring", "ten-plus-bid", choices=SCORINGS),
)


class OhHellRow(BidRow):
    points: int  # what the bid and tricks scored (the same as ``change``)


class OhHellSheet(DealSheet):
    cards: int  # each hand's size this deal
    dealer: int
    trump: str | None


class OhHellBid(TypedDict):
    seat: int
    bid: int


class OhHellView(View):
    deals: int  # how many deals the match has
    cards: int  # each hand's size this deal
    turn_up: str | None  # the card turned up for trumps
    bids: list[OhHellBid]  # in bidding order
    hooked: int | None  # the bid the dealer may not make
    bid: NotRequired[int | None]  # a seat's own view: its bid


class OhHellRecord(OhHellView, Record):
    pass


BID: Final = 0
PLAY: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("bidding", "playing", "over")
DECK: Final = C.deck(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
DECK_MASK: Final = C.mask_of(DECK)
NO_TRUMPS: Final = -1
SUIT_NAMES: Final = ("spades", "hearts", "clubs", "diamonds")
PLAY_TEXT: Final = ["play " + name for name in C.NAMES]

ENGLISH.setdefault("hook", "The dealer may not bid {bid}: the bids would add up to the {cards} tricks.")
ENGLISH.setdefault("bad_bid", "A bid is a number of tricks from 0 to {cards}, not '{bid}'.")


def start_cards_for(players: int) -> int:
    """The default most cards of a deal: 10, or fewer when the pack must keep a card to turn up."""
    return min(MOST_START_CARDS, 51 // players)


def deal_sizes(start: int, sequence: str) -> list[int]:
    """The cards per player of every deal of a match, in order."""
    down = list(range(start, 0, -1))
    up = down[::-1]
    if sequence == "up":
        return up
    if sequence == "down-up":
        return down + up[1:]
    if sequence == "up-down":
        return up + down[1:]
    return down


QUICK: dict[str, OptionValue] = {"start_cards": 5}  # the short match /play offers first


def expected_length(players: int, options: Mapping[str, OptionValue]) -> Length:
    """The deals of the sequence (a fixed number), and their tricks on average."""
    sizes = deal_sizes(int(options.get("start_cards", MOST_START_CARDS)), str(options.get("sequence", "down")))
    return Length(len(sizes), sum(sizes) / max(1, len(sizes)))


def points_for(scoring: str, bid: int, tricks: int) -> int:
    """A deal's points for a seat that bid ``bid`` and took ``tricks``."""
    made = bid == tricks
    if scoring == "trick-plus-ten":
        return tricks + (10 if made else 0)
    if scoring == "penalty" and not made:
        return -abs(bid - tricks)
    return 10 + bid if made else 0


class OhHell(GameState):
    NAME = "oh-hell"
    PLAYERS = PLAYERS
    OPTIONS = OPTIONS
    OVER = OVER
    SAVED = (
        "players", "options", "seed", "decks", "first_dealer",
        "phase", "deal_no", "sizes", "cards", "dealer", "hands", "turn_up", "trump", "unused",
        "bids", "bidder", "leader", "trick", "tricks", "tricks_played", "last_trick",
        "plays", "voids", "totals", "sheets", "winners",
    )  # fmt: skip

    def _options_for(self, players: int, given: dict[str, Any]) -> dict[str, Any]:
        start = given.get("start_cards")
        if "start_cards" in given and (type(start) is not int or not 1 <= start <= 52 // players):
            # refused with this table's own limit (the option's own says 17, the most of any table: three players)
            raise InvalidGame(
                "bad_option_value",
                option="start_cards",
                value=start,
                allowed=f"a whole number from 1 to {52 // players} with {players} players",
                low=1,
                high=52 // players,
                players=players,
            )
        options = resolve(self.NAME, OPTIONS, given)
        if "start_cards" not in given:
            options["start_cards"] = start_cards_for(players)
        return options

    def _deck(self) -> list[int]:
        return list(DECK)

    def _open_match(self, first_dealer: int | None) -> None:
        self.first_dealer = self._first_seat(first_dealer, range(self.players))
        self.dealer = self.first_dealer
        self.sizes = deal_sizes(self.options["start_cards"], self.options["sequence"])
        self.deal_no = -1

    def _clone_native(self) -> OhHell:
        """``clone`` for the compiled class, attribute by attribute (see ``NinetyNine._clone_native``)."""
        new = OhHell()
        self._copy_match_into(new)
        new.first_dealer, new.deal_no, new.sizes = self.first_dealer, self.deal_no, self.sizes.copy()
        new.cards, new.dealer = self.cards, self.dealer
        new.hands, new.turn_up, new.trump, new.unused = self.hands.copy(), self.turn_up, self.trump, self.unused
        new.bids, new.bidder, new.leader = self.bids.copy(), self.bidder, self.leader
        new.trick, new.tricks, new.tricks_played = self.trick.copy(), self.tricks.copy(), self.tricks_played
        new.last_trick = None if self.last_trick is None else self.last_trick.copy()
        new.plays, new.voids = self.plays.copy(), self.voids.copy()
        return new

    def _open_deal(self) -> None:
        self.deal_no += 1
        deck = self._next_deck(self.deal_no)
        n, size = self.players, self.sizes[self.deal_no]
        self.cards = size
        self.hands = [0] * n
        for j in range(n * size):  # one at a time from the dealer's left
            self.hands[(self.dealer + 1 + j) % n] |= 1 << deck[j]
        rest = deck[n * size :]
        self.turn_up = rest[0] if rest else -1
        self.trump = rest[0] >> 4 if rest else NO_TRUMPS
        self.unused = C.mask_of(rest[1:])  # never shown
        self.bids: list[int] = [-1] * n
        self.bidder = (self.dealer + 1) % n  # the seat to bid next
        self.leader = (self.dealer + 1) % n
        self.trick: list[int] = []
        self.tricks = [0] * n
        self.tricks_played = 0
        self.last_trick: list[int] | None = None  # the leader, then the cards in play order, then the winner
        self.plays: list[list[int]] = []  # [seat, card] for every card played this deal, in order
        self.voids = [0] * n  # per seat, a bit per suit it has failed to follow this deal
        self.phase = BID

    # The contract ---------------------------------------------------------

    def _on_turn(self) -> int:
        if self.phase == BID:
            return self.bidder
        return (self.leader + len(self.trick)) % self.players

    def to_act(self) -> list[int]:
        return [] if self.phase == OVER else [self._on_turn()]

    def hooked(self) -> int:
        """The bid the dealer may not make now (-1: none): the one that makes the bids add up to the tricks."""
        if not self.options["hook"] or self.phase != BID or self.bidder != self.dealer:
            return -1
        rest = self.cards
        for bid in self.bids:
            if bid > 0:
                rest -= bid
        return rest if rest >= 0 else -1

    def legal(self, seat: object) -> list[str]:  # anything a caller sends is checked: a non-seat has none
        if self.phase == OVER or type(seat) is not int or seat != self._on_turn():
            return []
        if self.phase == BID:
            hooked = self.hooked()
            return [f"bid {b}" for b in range(self.cards + 1) if b != hooked]
        return [PLAY_TEXT[c] for c in C.cards_in(self._playable(seat))]

    def _playable(self, seat: int) -> int:
        held = self.hands[seat]
        if self.trick:
            follow = held & C.SUIT_MASK[self.trick[0] >> 4]
            if follow:
                return follow
        return held

    def act(self, seat: object, action: object) -> None:  # anything a caller sends is checked
        seat = self._seat_on_turn(seat)
        words = action.split() if isinstance(action, str) else []
        expected = "'bid' and a number, e.g. 'bid 2'" if self.phase == BID else "'play' and a card, e.g. 'play KD'"
        if len(words) != 2 or words[0] not in ("bid", "play"):
            raise IllegalAction("unparseable", action=action, expected=expected)
        if (words[0] == "bid") != (self.phase == BID):
            raise IllegalAction("wrong_phase", action=action, phase=PHASE_NAMES[self.phase])
        if self.phase == BID:
            text = words[1]
            # written as the bid's own number: "bid 01" is not a name of bid 1 (as "play 010H" is no card)
            if not (text.isascii() and text.isdigit() and str(int(text)) == text and int(text) <= self.cards):
                raise IllegalAction("bad_bid", bid=text, cards=self.cards)
            bid = int(text)
            if bid == self.hooked():
                raise IllegalAction("hook", bid=bid, cards=self.cards)
            self._bid(seat, bid)
            return
        code = C.parse(words[1])
        if code is None or not DECK_MASK >> code & 1:
            raise IllegalAction("unknown_card", card=words[1])
        if not self.hands[seat] >> code & 1:
            raise IllegalAction("card_not_held", card=C.NAMES[code])
        if not self._playable(seat) >> code & 1:
            raise IllegalAction("must_follow", suit=SUIT_NAMES[self.trick[0] >> 4])
        self._play(seat, code)

    def _bid(self, seat: int, bid: int) -> None:
        """Apply a checked bid (also the computer players' fast path)."""
        self.bids[seat] = bid
        if seat == self.dealer:
            self.phase = PLAY
        else:
            self.bidder = (seat + 1) % self.players

    def _play(self, seat: int, code: int) -> None:
        """Apply a checked play (also the computer players' fast path)."""
        if self.trick:
            led = self.trick[0] >> 4
            if code >> 4 != led:
                self.voids[seat] |= 1 << led
        self.hands[seat] ^= 1 << code
        self.plays.append([seat, code])
        self.trick.append(code)
        if len(self.trick) == self.players:
            self._end_trick()

    def _end_trick(self) -> None:
        trick = self.trick
        best = C.taking(trick, self.trump)
        winner = (self.leader + best) % self.players
        trick.insert(0, self.leader)  # the trick's list becomes the last trick: one list fewer a trick
        trick.append(winner)
        self.last_trick = trick
        self.tricks[winner] += 1
        self.tricks_played += 1
        self.trick = []
        self.leader = winner
        if self.tricks_played == self.cards:
            self._score_deal()

    def _score_deal(self) -> None:
        scoring = self.options["scoring"]
        rows: list[OhHellRow] = []
        for s in range(self.players):
            points = points_for(scoring, self.bids[s], self.tricks[s])
            self.totals[s] += points
            made = self.bids[s] == self.tricks[s]
            rows.append(
                {
                    "seat": s,
                    "bid": self.bids[s],
                    "tricks": self.tricks[s],
                    "made": made,
                    "points": points,
                    "change": points,
                    "total": self.totals[s],
                }
            )
        sheet: OhHellSheet = {
            "deal": self.deal_no + 1,
            "cards": self.cards,
            "dealer": self.dealer,
            "trump": C.SUITS[self.trump] if self.trump >= 0 else None,
            "rows": list(rows),
        }
        last = self.deal_no + 1 == len(self.sizes)
        best = max(self.totals)
        self._close_deal(sheet, [s for s in range(self.players) if self.totals[s] == best] if last else [])

    def _pass_deal(self) -> None:
        self.dealer = (self.dealer + 1) % self.players

    # The fast path of searches (see ``GameState.moves``) ------------------------
    # A move is a bid's number while bidding, a card's code in play.

    def to_move(self) -> int:
        phase = self.phase
        if phase == BID:
            return self.bidder
        if phase == PLAY:
            return (self.leader + len(self.trick)) % self.players
        return -1

    def moves(self) -> list[int]:
        phase = self.phase
        if phase == BID:
            hooked = self.hooked()
            return [b for b in range(self.cards + 1) if b != hooked]
        if phase == PLAY:
            return C.cards_in(self._playable((self.leader + len(self.trick)) % self.players))
        return []

    def move(self, move: int) -> None:
        if self.phase == BID:
            self._bid(self.bidder, move)
        else:
            self._play((self.leader + len(self.trick)) % self.players, move)

    def move_action(self, move: int) -> str:
        return f"bid {move}" if self.phase == BID else PLAY_TEXT[move]

    def playable(self) -> int:
        """The cards the seat on turn may play now, as a mask (0 outside play)."""
        return self._playable((self.leader + len(self.trick)) % self.players) if self.phase == PLAY else 0

    def random_playout(self, rng: random.Random) -> int:
        pick = rng.random
        made = 0
        n = self.players
        while True:
            phase = self.phase
            if phase == BID:
                hooked = self.hooked()
                choices = self.cards if hooked >= 0 else self.cards + 1
                bid = int(pick() * choices)
                if 0 <= hooked <= bid:
                    bid += 1  # the hooked bid skipped
                self._bid(self.bidder, bid)
            elif phase == PLAY:
                seat = (self.leader + len(self.trick)) % n
                self._play(seat, C.nth_card(self._playable(seat), pick))
            else:
                return made
            made += 1

    def deal_afresh(self, rng: random.Random) -> None:
        """Before anybody bids: the deal's cards dealt again, a uniformly random deal of the whole
        pack from ``rng`` (hands of the same size, the turned-up card and so the trumps, the unused
        rest), and the seed replaced. For benchmarks and searches that want a new deal fast."""
        if self.phase != BID or any(b >= 0 for b in self.bids):
            raise ValueError("deal_afresh: the deal has started")  # a programming error, never a player's
        deck = list(DECK)
        C.shuffle_codes(deck, rng.random)
        n, size = self.players, self.cards
        for s in range(n):
            self.hands[s] = 0
        for j in range(n * size):
            self.hands[j % n] |= 1 << deck[j]
        rest = n * size
        self.turn_up = deck[rest] if rest < len(deck) else -1
        self.trump = self.turn_up >> 4 if self.turn_up >= 0 else NO_TRUMPS
        self.unused = C.mask_of(deck[rest + 1 :])
        self.seed = rng.getrandbits(62)
        self.decks = []

    # What a computer player may know ----------------------------------------

    def record(self, seat: object) -> OhHellRecord:
        """The seat's view, every card played this deal in order and the suits seats showed void in."""
        return {**self.view(seat), "plays": played_cards(self.plays), "voids": shown_voids(self.voids)}

    def determinize(self, seat: int, rng: random.Random) -> OhHell:
        """The other hands and the unused rest of the pack dealt again from every card the seat
        has not seen; a seat gets no card of a suit it failed to follow."""
        seen = self.hands[seat]
        for _, code in self.plays:
            seen |= 1 << code
        if self.turn_up >= 0:
            seen |= 1 << self.turn_up
        others = [s for s in range(self.players) if s != seat]
        slots = []
        for s in others:
            void = 0
            for suit in range(4):
                if self.voids[s] >> suit & 1:
                    void |= C.SUIT_MASK[suit]
            slots.append(Slot(self.hands[s].bit_count(), void))
        slots.append(Slot(self.unused.bit_count()))
        dealt = deal_unseen(DECK_MASK & ~seen, slots, rng)
        world = self.clone()
        for s, hand in zip(others, dealt, strict=False):
            world.hands[s] = hand
        world.unused = dealt[-1]
        world.seed = rng.getrandbits(62)  # later deals must not follow from the real seed
        world.decks = []
        return world

    # Views ----------------------------------------------------------------

    def view(self, seat: object = None) -> OhHellView:
        """What ``seat`` may know (None: a spectator); a seat that is not a number is refused."""
        return self._view(self._viewer(seat))

    def _view(self, seat: int | None) -> OhHellView:
        n = self.players
        last: LastTrick | None = None
        if self.last_trick is not None:
            leader, *played, winner = self.last_trick
            last = {
                "cards": [{"seat": (leader + i) % n, "card": C.NAMES[c]} for i, c in enumerate(played)],
                "winner": winner,
            }
        order = [(self.leader + i) % n for i in range(n)]
        bid_order = [(self.dealer + 1 + i) % n for i in range(n)]
        view: OhHellView = {
            "game": self.NAME,
            "players": n,
            "seat": seat,
            "options": dict(self.options),
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.to_act(),
            "deal": self.deal_no + 1,
            "sides": seats_alone(n),
            "deals": len(self.sizes),
            "cards": self.cards,
            "dealer": self.dealer,
            "trump": C.SUITS[self.trump] if self.trump >= 0 else None,
            "turn_up": C.NAMES[self.turn_up] if self.turn_up >= 0 else None,
            "bids": [{"seat": s, "bid": self.bids[s]} for s in bid_order if self.bids[s] >= 0],
            "hooked": self.hooked() if self.hooked() >= 0 else None,
            "leader": self.leader,
            "trick": [{"seat": s, "card": C.NAMES[c]} for s, c in zip(order, self.trick, strict=False)],
            "last_trick": last,
            "tricks_played": self.tricks_played,
            "tricks": list(self.tricks),
            "cards_left": [h.bit_count() for h in self.hands],
            "scores": self.scores(),
            "last_deal": copied(self.sheets[-1]) if self.sheets else None,
            "winners": list(self.winners) if self.winners is not None else None,
        }
        if seat is not None and 0 <= seat < n:
            view["hand"] = [C.NAMES[c] for c in C.cards_in(self.hands[seat])]
            view["bid"] = self.bids[seat] if self.bids[seat] >= 0 else None
        return view


# A compact deal for random playouts -------------------------------------------------------------

# A card's index in a compact deal: suit * 13 + its rank among 2 … A (0 … 12), so that a hand's mask
# is below 2**52 and stays an unboxed int where compiled (a card code's mask may reach 2**63).
COMPACT: Final = [(c >> 4) * 13 + (c & 15 if c & 15 <= C.R10 else (c & 15) - C.JACK + C.R10 + 1) for c in range(64)]
COMPACT_SUIT: Final = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)


class PlayoutDeal:
    """One Oh Hell deal reduced to what a random playout needs, for searches that play thousands.

    Made from a state in any phase of a deal (``of``), copied for each playout (``copy``), played out
    with uniformly random moves (``random_playout``: the same moves, for the same generator, as the
    state's own ``random_playout``), then read (``tricks``, ``bid``, ``points``). Hands are masks of
    compact indexes (see ``COMPACT``); each seat's hand, bid and tricks are fields of their own, so
    a playout allocates nothing. The state's own moves and views stay the only way to a table.
    """

    players: int
    cards: int
    dealer: int
    trump: int  # a suit, or NO_TRUMPS
    hook: bool
    scoring: str
    phase: int  # BID, PLAY or OVER
    bidder: int
    leader: int
    played: int  # cards in the trick so far
    led: int  # the suit led (while a trick is going)
    best: int  # the compact index winning the trick so far
    best_seat: int
    best_suit: int
    h0: int
    h1: int
    h2: int
    h3: int
    h4: int
    h5: int
    h6: int
    b0: int
    b1: int
    b2: int
    b3: int
    b4: int
    b5: int
    b6: int
    t0: int
    t1: int
    t2: int
    t3: int
    t4: int
    t5: int
    t6: int

    def __init__(self) -> None:
        self.players = self.cards = self.dealer = self.bidder = self.leader = self.played = 0
        self.trump = self.led = self.best = self.best_seat = self.best_suit = -1
        self.hook = True
        self.scoring = "ten-plus-bid"
        self.phase = OVER
        self.h0 = self.h1 = self.h2 = self.h3 = self.h4 = self.h5 = self.h6 = 0
        self.b0 = self.b1 = self.b2 = self.b3 = self.b4 = self.b5 = self.b6 = -1
        self.t0 = self.t1 = self.t2 = self.t3 = self.t4 = self.t5 = self.t6 = 0

    @staticmethod
    def of(state: OhHell) -> PlayoutDeal:
        """The current deal of ``state``, wherever it stands (a finished match gives a finished deal)."""
        deal = PlayoutDeal()
        deal.players, deal.cards, deal.dealer = state.players, state.cards, state.dealer
        deal.trump, deal.hook, deal.scoring = state.trump, bool(state.options["hook"]), state.options["scoring"]
        deal.phase = state.phase if state.winners is None else OVER
        deal.bidder, deal.leader = state.bidder, state.leader
        for seat in range(state.players):
            hand = 0
            for code in C.cards_in(state.hands[seat]):
                hand |= 1 << COMPACT[code]
            deal._set_hand(seat, hand)
            deal._set_bid(seat, state.bids[seat])
            deal._set_tricks(seat, state.tricks[seat])
        for i, code in enumerate(state.trick):
            deal._follow((state.leader + i) % state.players, COMPACT[code])
        return deal

    def copy(self) -> PlayoutDeal:
        new = PlayoutDeal()
        new.players, new.cards, new.dealer, new.trump = self.players, self.cards, self.dealer, self.trump
        new.hook, new.scoring, new.phase, new.bidder = self.hook, self.scoring, self.phase, self.bidder
        new.leader, new.played, new.led, new.best, new.best_seat, new.best_suit = (
            self.leader, self.played, self.led, self.best, self.best_seat, self.best_suit
        )  # fmt: skip
        new.h0, new.h1, new.h2, new.h3, new.h4, new.h5, new.h6 = (
            self.h0, self.h1, self.h2, self.h3, self.h4, self.h5, self.h6
        )  # fmt: skip
        new.b0, new.b1, new.b2, new.b3, new.b4, new.b5, new.b6 = (
            self.b0, self.b1, self.b2, self.b3, self.b4, self.b5, self.b6
        )  # fmt: skip
        new.t0, new.t1, new.t2, new.t3, new.t4, new.t5, new.t6 = (
            self.t0, self.t1, self.t2, self.t3, self.t4, self.t5, self.t6
        )  # fmt: skip
        return new

    # Each seat's fields ------------------------------------------------------------------------

    def hand(self, seat: int) -> int:
        """The seat's hand, a mask of compact indexes (``COMPACT``)."""
        if seat < 4:
            return self.h0 if seat == 0 else self.h1 if seat == 1 else self.h2 if seat == 2 else self.h3
        return self.h4 if seat == 4 else self.h5 if seat == 5 else self.h6

    def _set_hand(self, seat: int, hand: int) -> None:
        if seat == 0:
            self.h0 = hand
        elif seat == 1:
            self.h1 = hand
        elif seat == 2:
            self.h2 = hand
        elif seat == 3:
            self.h3 = hand
        elif seat == 4:
            self.h4 = hand
        elif seat == 5:
            self.h5 = hand
        else:
            self.h6 = hand

    def bid(self, seat: int) -> int:
        """The seat's bid (-1 before it bids)."""
        if seat < 4:
            return self.b0 if seat == 0 else self.b1 if seat == 1 else self.b2 if seat == 2 else self.b3
        return self.b4 if seat == 4 else self.b5 if seat == 5 else self.b6

    def _set_bid(self, seat: int, bid: int) -> None:
        if seat == 0:
            self.b0 = bid
        elif seat == 1:
            self.b1 = bid
        elif seat == 2:
            self.b2 = bid
        elif seat == 3:
            self.b3 = bid
        elif seat == 4:
            self.b4 = bid
        elif seat == 5:
            self.b5 = bid
        else:
            self.b6 = bid

    def tricks(self, seat: int) -> int:
        """The tricks the seat has taken this deal."""
        if seat < 4:
            return self.t0 if seat == 0 else self.t1 if seat == 1 else self.t2 if seat == 2 else self.t3
        return self.t4 if seat == 4 else self.t5 if seat == 5 else self.t6

    def _set_tricks(self, seat: int, tricks: int) -> None:
        if seat == 0:
            self.t0 = tricks
        elif seat == 1:
            self.t1 = tricks
        elif seat == 2:
            self.t2 = tricks
        elif seat == 3:
            self.t3 = tricks
        elif seat == 4:
            self.t4 = tricks
        elif seat == 5:
            self.t5 = tricks
        else:
            self.t6 = tricks

    def points(self, seat: int) -> int:
        """What the deal scores the seat once it is over (``points_for`` with the match's scoring)."""
        return points_for(self.scoring, self.bid(seat), self.tricks(seat))

    def mean_points(self, rng: random.Random, playouts: int) -> list[float]:
        """Each seat's points averaged over ``playouts`` random playouts of copies of this deal (what
        OpenSpiel's ``RandomRolloutEvaluator`` gives its searches); this deal stays as it is."""
        total = [0] * self.players
        for _ in range(playouts):
            deal = self.copy()
            deal.random_playout(rng)
            for seat in range(self.players):
                total[seat] += points_for(self.scoring, deal.bid(seat), deal.tricks(seat))
        return [points / max(1, playouts) for points in total]

    def points_each(self) -> list[int]:
        """Every seat's ``points``, in seat order."""
        return [points_for(self.scoring, self.bid(seat), self.tricks(seat)) for seat in range(self.players)]

    # Playing -----------------------------------------------------------------------------------

    def _follow(self, seat: int, index: int) -> None:
        """``index`` added to the trick by ``seat`` (already out of its hand)."""
        suit = index // 13
        if self.played == 0:
            self.led, self.best, self.best_seat, self.best_suit = suit, index, seat, suit
        elif suit == self.best_suit:
            if index > self.best:
                self.best, self.best_seat = index, seat
        elif suit == self.trump:
            self.best, self.best_seat, self.best_suit = index, seat, suit
        self.played += 1

    def random_playout(self, rng: random.Random) -> None:
        """Uniformly random moves (``rng.random()`` picks each, as ``OhHell.random_playout`` does) to the
        end of the deal."""
        pick = rng.random
        n = self.players
        while self.phase == BID:
            seat = self.bidder
            hooked = -1
            if self.hook and seat == self.dealer:
                rest = self.cards
                for s in range(n):
                    if self.bid(s) > 0:
                        rest -= self.bid(s)
                hooked = rest
            bid = int(pick() * (self.cards if hooked >= 0 else self.cards + 1))
            if 0 <= hooked <= bid:
                bid += 1
            self._set_bid(seat, bid)
            if seat == self.dealer:
                self.phase = PLAY
            else:
                self.bidder = (seat + 1) % n
        while self.phase == PLAY:
            seat = (self.leader + self.played) % n
            held = self.hand(seat)
            playable = held
            if self.played:
                follow = held & COMPACT_SUIT[self.led]
                if follow:
                    playable = follow
            if playable & (playable - 1):  # a choice (a forced card draws nothing, as in ``C.nth_card``)
                count = 0
                rest = playable
                while rest:
                    rest &= rest - 1
                    count += 1
                skip = int(pick() * count)
                while skip:
                    playable &= playable - 1
                    skip -= 1
            low = playable & -playable
            self._set_hand(seat, held ^ low)
            self._follow(seat, low.bit_length() - 1)
            if self.played == n:
                winner = self.best_seat
                self._set_tricks(winner, self.tricks(winner) + 1)
                self.leader, self.played = winner, 0
                if self.hand(winner) == 0:
                    self.phase = OVER
