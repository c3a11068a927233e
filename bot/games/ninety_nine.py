"""Ninety-Nine, as docs/rules/ninety-nine.md lays it down.

Hands are indexed like seats; with two players the dummy is hand 2. Every
hand is a bitmask of card codes (see ``cards``). In ``turn-up`` the joker
stands for the turned card, which is out of play, so the joker is held
internally *as* that card's code and only its name differs ("JK").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any, Final, NotRequired, Self, TypedDict

from . import cards as C
from .base import GameState, played_cards, shown_voids
from .errors import IllegalAction, InvalidGame
from .hidden import Slot, deal_unseen
from .lengths import Length
from .options import Option, OptionValue, resolve
from .views import BidRow, DealSheet, LastTrick, Record, Scores, View, copied, seats_alone


class NinetyNineRow(BidRow):
    premium: str | None  # "declare", "reveal" or None
    trick_points: int
    bid_bonus: int
    premium_points: int  # won by its own premium or from another's failed one
    game_bonus: int
    points: int  # the deal's points (the same as ``change``)
    game_score: int  # the score in the current game after the deal


class NinetyNineSheet(DealSheet):
    game: int  # the game of the match the deal belongs to, from 1
    dealer: int
    trump: str | None
    made: int  # how many hands made their bid
    game_over: bool
    dummy: int | None  # the two-player dummy's hand (2), whose bid and premium score by rules of their own


class NinetyNineScores(Scores):
    game: list[int]  # the current game's score per hand
    bonuses: list[int]
    games_won: list[int]


class NinetyNineHand(TypedDict):
    seat: int
    dummy: bool
    cards_left: int
    has_bid: bool
    bid: int | None  # once declared or revealed (or one's own)
    bid_cards: list[str] | None
    premium: str | None  # "declare", "reveal" or None
    cards: list[str] | None  # face up: a revealed hand, one's own, the two-player dummy in play
    tricks: int


class PremiumOffer(TypedDict):
    seat: int
    offer: str


class NinetyNineView(View):
    to_play: int | None
    game_number: int
    deal_in_game: int
    dummy: int | None  # the two-player game's dummy hand (2)
    dummy_controller: int | None
    turned_up: str | None
    joker_as: str | None
    trump_pile_left: int | None  # Oxford's face-down trump pile
    hands: list[NinetyNineHand]  # a hand per seat, the dummy's too
    premium_offers: list[PremiumOffer]
    asking: int | None
    bid_cards: NotRequired[list[str]]  # a seat's own view: its bid cards
    bid: NotRequired[int | None]


class NinetyNineRecord(NinetyNineView, Record):
    pass


FORMATS = (
    "three-bonuses",
    "target",
    "rounds-per-player",
    "rounds-per-player-bonus",
    "first-to-three",
    "nine-deals",
    "oxford",
)
TRUMP_STYLES = ("previous", "previous-diamonds", "turn-up")

NOT_OXFORD: tuple[str, ...] = tuple(name for name in FORMATS if name != "oxford")  # Oxford: its own trumps, no premiums
OPTIONS: tuple[Option, ...] = (
    Option("format", "three-bonuses", choices=FORMATS),
    Option("target", 200, low=50, high=1000, needs=(("format", ("target",)),)),
    Option("trump_style", "previous", choices=TRUMP_STYLES, needs=(("format", NOT_OXFORD),)),
    Option("premium_bids", True, needs=(("format", NOT_OXFORD),)),
    # a raise answers a reveal, and with two players nobody may reveal
    Option("declarer_may_raise", True, players=(3, 4), needs=(("format", NOT_OXFORD), ("premium_bids", (True,)))),
)
PLAYERS: tuple[int, ...] = (2, 3, 4)
DEFAULT_PLAYERS = 3
QUICK: dict[str, OptionValue] = {"format": "nine-deals"}  # the short match /play offers first

# Deals a match took, by format and player count (easy players; nine-deals is nine).
FORMAT_DEALS: dict[str, dict[int, float]] = {
    "three-bonuses": {2: 30, 3: 36, 4: 51},
    "rounds-per-player": {2: 15, 3: 20, 4: 29},
    "rounds-per-player-bonus": {2: 15, 3: 20, 4: 29},
    "first-to-three": {2: 33, 3: 36, 4: 43},
    "oxford": {3: 16},
}
DEALS_PER_POINT = 0.07  # to a target: 100 points took 6 deals, 200 took 14, 400 took 28


def expected_length(players: int, options: Mapping[str, OptionValue]) -> Length:
    """The deals a match is expected to take, and its tricks a deal."""
    tricks = 10.0 if players == 4 else 9.0
    match_format = str(options.get("format", "three-bonuses"))
    if match_format == "nine-deals":
        return Length(9, tricks)
    if match_format == "target":
        return Length(max(1.0, DEALS_PER_POINT * int(options.get("target", 200))), tricks)
    by_players = FORMAT_DEALS.get(match_format, FORMAT_DEALS["three-bonuses"])
    return Length(by_players.get(players, max(by_players.values())), tricks)


BID: Final = 0
PREMIUM: Final = 1
PLAY: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("bidding", "premium", "playing", "over")

NT: Final = -1
# Bid value of a card by suit (index = suit number: S H C D).
BID_VALUE: Final = (1, 2, 3, 0)
# Trump of the next deal by how many hands made their bid: 0 → ♦, 1 → ♠, 2 → ♥, 3 → ♣, 4 → NT.
TRUMP_BY_MADE: Final = (C.DIAMONDS, C.SPADES, C.HEARTS, C.CLUBS, NT)
DECLARE: Final = 1
REVEAL: Final = 2
PREMIUM_VALUE: Final = (0, 30, 60)
PREMIUM_NAMES: Final = (None, "declare", "reveal")
GAME_TO = 100

SHORT_DECK = C.deck(["6", "7", "8", "9", "10", "J", "Q", "K", "A"])
FULL_DECK = C.deck(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
FULL_DECK_CODES: Final = tuple(FULL_DECK)
SHORT_DECK_CODES: Final = tuple(SHORT_DECK)
OXFORD_PILE = C.deck(["2", "3", "4", "5"])

PLAY_ACTION: Final = ["play " + n for n in C.NAMES]
# The order of play from each leader, per player count (shared: never change one in place).
SEAT_ORDERS: Final = {n: [[(lead + i) % n for i in range(n)] for lead in range(n)] for n in (3, 4)}
ACTION_WORDS = {"bid": BID, "pass": PREMIUM, "declare": PREMIUM, "reveal": PREMIUM, "play": PLAY}
PREMIUM_WORDS: Final = ("pass", "declare", "reveal")  # the fast path's premium moves, by number
# The positions in a hand of n cards of each of its 3-card choices, in ``legal``'s order: a bid move's cards.
TRIPLES: Final = [list(combinations(range(n), 3)) for n in range(14)]
PREMIUM_MOVES: Final = {word: move for move, word in enumerate(PREMIUM_WORDS)}
SUIT_NAMES: Final = {C.SPADES: "spades", C.HEARTS: "hearts", C.CLUBS: "clubs", C.DIAMONDS: "diamonds"}


def _bid_value(mask: int) -> int:
    return sum(BID_VALUE[c >> 4] for c in C.cards_in(mask))


def _trump_name(trump: int) -> str | None:
    return None if trump == NT else C.SUITS[trump]


class NinetyNine(GameState):
    NAME = "ninety-nine"
    PLAYERS = PLAYERS
    OPTIONS = OPTIONS
    OVER = OVER
    SAVED = (
        "players", "options", "seed", "decks", "first_dealer",
        "phase", "deal_no", "game_no", "games_done", "deals_in_game", "dealer",
        "hands", "bid_cards", "bids", "trump", "turned", "joker_as", "pile",
        "offers", "ask", "declarer", "revealer", "raising", "premium", "shown",
        "order", "trick", "leader", "controller", "tricks", "last_trick", "tricks_played",
        "plays", "voids", "game_scores", "totals", "bonuses", "games_won", "sheets", "winners",
    )  # fmt: skip

    def _options_for(self, players: int, given: dict[str, Any]) -> dict[str, Any]:
        options = resolve(self.NAME, OPTIONS, given)
        if options["format"] == "oxford" and players != 3:
            raise InvalidGame("option_needs_players", option="format", value="oxford", allowed="3")
        return options

    def _deck(self) -> list[int]:
        return self._full_deck_for(self.players, self.options)

    def _open_match(self, first_dealer: int | None) -> None:
        players = self.players
        self.first_dealer = self._first_seat(first_dealer, (0, 1) if players == 2 else range(players))
        nh = self._nh
        self.phase = BID
        self.deal_no = -1
        self.game_no = 0
        self.games_done = 0
        self.deals_in_game = 0
        self.dealer = self.first_dealer
        self.game_scores = [0] * nh
        self.totals = [0] * nh  # the dummy's hand scores too
        self.bonuses = [0] * nh
        self.games_won = [0] * nh
        self.trump = self._first_trump()
        self.pile: list[int] = []
        self.turned = -1
        self.joker_as = -1
        if self.options["format"] == "oxford":
            self.pile = list(OXFORD_PILE)
            self._rng("trump-pile").shuffle(self.pile)
        self._after_restore()

    def _first_trump(self) -> int:
        """The trumps of a game's first deal, where neither a turned card nor Oxford's pile sets them."""
        return C.DIAMONDS if self.options["trump_style"] == "previous-diamonds" else NT

    def _clone_native(self) -> NinetyNine:
        """``clone`` for the compiled class, attribute by attribute (a tenth of the generic way's time).

        Saved lists and dicts are copied one level deep, as ``clone`` does; what every match has is
        copied by ``_copy_match_into``. Every attribute must be copied: the engine properties check
        that a copy has exactly the original's attributes.
        """
        new = NinetyNine()
        self._copy_match_into(new)
        new.first_dealer, new.deal_no, new.game_no = self.first_dealer, self.deal_no, self.game_no
        new.games_done, new.deals_in_game, new.dealer = self.games_done, self.deals_in_game, self.dealer
        new.hands, new.bid_cards, new.bids = self.hands.copy(), self.bid_cards.copy(), self.bids.copy()
        new.trump, new.turned, new.joker_as, new.pile = self.trump, self.turned, self.joker_as, self.pile.copy()
        new.offers, new.ask = self.offers.copy(), self.ask.copy()
        new.declarer, new.revealer, new.raising = self.declarer, self.revealer, self.raising
        new.premium, new.shown = self.premium.copy(), self.shown.copy()
        new.order, new.trick, new.leader, new.controller = (
            self.order.copy(),
            self.trick.copy(),
            self.leader,
            self.controller,
        )
        new.tricks, new.tricks_played = self.tricks.copy(), self.tricks_played
        new.last_trick = None if self.last_trick is None else self.last_trick.copy()
        new.plays, new.voids = self.plays.copy(), self.voids.copy()
        new.game_scores, new.bonuses, new.games_won = (
            self.game_scores.copy(),
            self.bonuses.copy(),
            self.games_won.copy(),
        )
        new._oxford, new._premiums, new._live, new._hand_size = (
            self._oxford,
            self._premiums,
            self._live,
            self._hand_size,
        )
        new._names, new._play, new._codes = self._names, self._play, self._codes
        return new

    # Set-up ---------------------------------------------------------------

    @property
    def _nh(self) -> int:
        """How many hands are dealt: the dummy makes three with two players."""
        return 3 if self.players == 2 else self.players

    @staticmethod
    def _full_deck_for(players: int, options: dict[str, Any]) -> list[int]:
        base = FULL_DECK if players == 4 else SHORT_DECK
        if options["trump_style"] == "turn-up" and options["format"] != "oxford":
            return [*base, C.JOKER]
        return list(base)

    def _after_restore(self) -> None:
        fmt = self.options["format"]
        self._oxford = fmt == "oxford"
        self._premiums = self.options["premium_bids"] and not self._oxford
        self._live = [0, 1] if self.players == 2 else list(range(self.players))
        self._hand_size = 13 if self.players == 4 else 12
        self._names = list(C.NAMES)
        self._play = PLAY_ACTION
        self._set_joker_names()

    def _set_joker_names(self) -> None:
        """While a joker is in play, the code it stands for is written "JK"."""
        if self.joker_as >= 0:
            self._names = list(C.NAMES)
            self._names[self.joker_as] = "JK"
            self._play = list(PLAY_ACTION)
            self._play[self.joker_as] = "play JK"
            self._codes = dict(C.CODES)
            self._codes["JK"] = self.joker_as
            del self._codes[C.NAMES[self.joker_as]]  # the turned card itself is out of play
        else:
            self._names = C.NAMES
            self._play = PLAY_ACTION
            self._codes = C.CODES

    def _open_deal(self) -> None:
        nh = self._nh
        self.deal_no += 1
        self.deals_in_game += 1
        deck = self._next_deck(self.deal_no)
        hs = self._hand_size
        seats_from_left = [(self.dealer + 1 + i) % nh for i in range(nh)]
        hands = [0] * nh
        dealt_in_order: list[list[int]] = [[] for _ in range(nh)]
        for j in range(nh * hs):
            h = seats_from_left[j % nh]
            hands[h] |= 1 << deck[j]
            dealt_in_order[h].append(deck[j])
        rest = deck[nh * hs :]
        self.turned = -1
        self.joker_as = -1
        style = self.options["trump_style"]
        if self._oxford:
            self.turned = self.pile.pop(0)
            self.trump = self.turned >> 4
        elif style == "turn-up":
            self.turned = rest[0]
            if self.turned == C.JOKER:
                self.trump = NT
            else:
                self.trump = NT if C.rank_of(self.turned) == C.R9 else self.turned >> 4
                self.joker_as = self.turned
                for h in range(nh):
                    if hands[h] >> C.JOKER & 1:
                        hands[h] ^= (1 << C.JOKER) | (1 << self.turned)
                        dealt_in_order[h] = [self.turned if c == C.JOKER else c for c in dealt_in_order[h]]
        # else: the trump was set for a new game, or from the previous deal's results (``_pass_deal``).
        self._set_joker_names()
        self.hands = hands
        self.bid_cards = [0] * nh
        self.bids = [-1] * nh
        if self.players == 2:
            dummy_bid = C.mask_of(dealt_in_order[2][:3])
            self.bid_cards[2] = dummy_bid
            self.bids[2] = _bid_value(dummy_bid)
            self.hands[2] ^= dummy_bid
        self.offers: list[list[Any]] = []
        self.ask: list[int] = []
        self.declarer = -1
        self.revealer = -1
        self.raising = False
        self.premium = [0] * nh
        self.shown = [0] * nh
        self.tricks = [0] * nh
        self.tricks_played = 0
        self.trick: list[int] = []
        self.last_trick: list[Any] | None = None
        self.plays: list[list[int]] = []  # [hand, code] for every card played this deal, in order
        self.voids = [0] * nh  # per hand, a bit per suit it has failed to follow this deal
        if self.players == 2:
            leader = 1 - self.dealer
            self.controller = leader
            self.order = [leader, 1 - leader, 2]
        else:
            leader = (self.dealer + 1) % nh
            self.controller = -1
            self.order = SEAT_ORDERS[nh][leader]
        self.leader = leader
        self.phase = BID

    # The contract ---------------------------------------------------------

    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            h = self.order[len(self.trick)]
            return [self.controller] if h == 2 and self.players == 2 else [h]
        if phase == BID:
            return [s for s in self._live if self.bids[s] < 0]
        if phase == PREMIUM:
            return [self.ask[0]]
        return []

    def _may_act(self, seat: int) -> bool:
        phase = self.phase
        if phase == PLAY:
            h = self.order[len(self.trick)]
            return seat == (self.controller if h == 2 and self.players == 2 else h)
        if phase == BID:
            return 0 <= seat < len(self._live) and self.bids[seat] < 0
        return phase == PREMIUM and seat == self.ask[0]

    def legal(self, seat: object) -> list[str]:  # anything a caller sends is checked: a non-seat has none
        if type(seat) is not int or not self._may_act(seat):
            return []
        if self.phase == PLAY:
            play = self._play
            return [play[c] for c in C.cards_in(self._playable())]
        if self.phase == BID:
            return self._bids_from(self.hands[seat])
        return self._premium_choices(seat)

    def _bids_from(self, hand: int) -> list[str]:
        """Every 3-card bid from a hand, lowest codes first.

        This is the hot path of the bidding phase (220 bids from 12 cards),
        so the strings come from a shared table of every bid of the match's
        deck (7,140 for the 36-card deck, 22,100 for the full one).
        """
        deck = FULL_DECK_CODES if self.players == 4 else SHORT_DECK_CODES  # a smaller table stays in cache
        return C.triple_texts("bid", C.cards_in(hand), deck, self._names)

    def act(self, seat: object, action: object) -> None:  # anything a caller sends is checked
        phase = self.phase
        if phase == PLAY and type(action) is str and action[:5] == "play " and type(seat) is int:
            # The hot path: a well-formed play by the seat on turn.
            h = self.order[len(self.trick)]
            code = self._codes.get(action[5:])
            if code is not None and seat == (self.controller if h == 2 and self.players == 2 else h):
                self._play_card(h, code)
                return
        seat = self._seat_on_turn(seat)
        word, _, rest = action.strip().partition(" ") if isinstance(action, str) else ("", "", "")
        wanted = ACTION_WORDS.get(word)
        if wanted is None or (wanted == PREMIUM and rest):
            raise IllegalAction("unparseable", action=action, expected=self._expected())
        if wanted != phase:
            raise IllegalAction("wrong_phase", action=action, phase=PHASE_NAMES[phase])
        if phase == PLAY:
            self._play_card(self.order[len(self.trick)], self._card(rest.strip()))
        elif phase == BID:
            self._bid(seat, rest)
        else:
            self._premium(seat, word)

    def scores(self) -> NinetyNineScores:
        return {
            "total": list(self.totals),
            "game": list(self.game_scores),
            "bonuses": list(self.bonuses),
            "games_won": list(self.games_won),
        }

    def _result(self) -> dict[str, Any]:
        return {**super()._result(), "games": self.games_done}

    # Parsing --------------------------------------------------------------

    def _expected(self) -> str:
        return {
            BID: "bid and three cards, e.g. 'bid 9D 10S AC'",
            PREMIUM: "'pass', 'declare' or 'reveal'",
            PLAY: "play and a card, e.g. 'play QH'",
        }[self.phase]

    def _card(self, text: str) -> int:
        """The internal code of a card named in an action (the joker maps to what it stands for)."""
        code = C.parse(text)
        if code is None:
            raise IllegalAction("unknown_card", card=text)
        if code == C.JOKER and self.joker_as >= 0:
            return self.joker_as
        if code == self.joker_as:  # the turned card itself is out of play
            raise IllegalAction("card_not_held", card=text.upper())
        return code

    # Bidding --------------------------------------------------------------

    def _bid(self, seat: int, rest: str) -> None:
        words = rest.split()
        if len(words) != 3:
            raise IllegalAction("bid_needs_three")
        codes = {self._card(w) for w in words}
        mask = C.mask_of(codes)
        if len(codes) != 3:
            raise IllegalAction("bid_needs_three")
        if mask & ~self.hands[seat]:
            missing = next(c for c in codes if not self.hands[seat] >> c & 1)
            raise IllegalAction("card_not_held", card=self._names[missing])
        self._lay_aside(seat, mask)

    def _lay_aside(self, seat: int, mask: int) -> None:
        """Apply a checked bid: the three cards of ``mask`` leave the hand as the seat's bid cards."""
        self.hands[seat] ^= mask
        self.bid_cards[seat] = mask
        self.bids[seat] = _bid_value(mask)
        if any(self.bids[s] < 0 for s in self._live):
            return
        if self._premiums:
            first = (self.dealer + 1) % self.players
            self.ask = [(first + i) % self.players for i in range(self.players)]
            self.phase = PREMIUM
        else:
            self.phase = PLAY

    # Premium bids ---------------------------------------------------------

    def _premium_choices(self, seat: int) -> list[str]:
        if self.players == 2:
            return ["pass", "declare"]
        if self.raising or self.declarer >= 0:
            return ["pass", "reveal"]
        return ["pass", "declare", "reveal"]

    def _premium(self, seat: int, word: str) -> None:
        allowed = self._premium_choices(seat)
        if word not in allowed:
            raise IllegalAction("premium_not_allowed", action=word, allowed=", ".join(allowed))
        self.ask.pop(0)
        if self.raising:
            # The declarer, asked again after a later reveal, raises or lets it stand.
            self.offers.append([seat, "raise" if word == "reveal" else "pass"])
            if word == "reveal":
                self.revealer = -1
            else:
                self.declarer = -1
            self.ask = []
        else:
            self.offers.append([seat, word])
            if word == "declare":
                if self.players == 2:
                    self.premium[seat] = DECLARE
                else:
                    self.declarer = seat
            elif word == "reveal":
                self.revealer = seat
                if self.declarer >= 0 and self.options["declarer_may_raise"]:
                    self.ask = [self.declarer]
                    self.raising = True
                else:
                    self.declarer = -1
                    self.ask = []
        if self.ask:
            return
        # The asking is over: the premium that stands is carried out now.
        self.raising = False
        if self.players != 2:
            if self.revealer >= 0:
                self.premium[self.revealer] = REVEAL
            elif self.declarer >= 0:
                # A declarer who raised holds the reveal; otherwise a plain declare.
                raised = any(kind == "raise" for _, kind in self.offers)
                self.premium[self.declarer] = REVEAL if raised else DECLARE
        self.shown = list(self.premium)
        self.phase = PLAY

    # Play -----------------------------------------------------------------

    def _playable(self) -> int:
        """The mask of cards the hand to play may play now."""
        held = self.hands[self.order[len(self.trick)]]
        if self.trick:
            follow = held & C.SUIT_MASK[self.trick[0] >> 4]
            if follow:
                return follow
        return held

    def _play_card(self, h: int, code: int) -> None:
        held = self.hands[h]
        if not held >> code & 1:
            raise IllegalAction("card_not_held", card=self._names[code])
        if self.trick:
            led_suit = self.trick[0] >> 4
            led = C.SUIT_MASK[led_suit]
            if not led >> code & 1:
                if held & led:
                    raise IllegalAction("must_follow", suit=SUIT_NAMES[led_suit])
                self.voids[h] |= 1 << led_suit
        self.hands[h] = held ^ (1 << code)
        self.trick.append(code)
        self.plays.append([h, code])
        if len(self.trick) == len(self.order):
            self._end_trick()

    def _end_trick(self) -> None:
        trick = self.trick
        best = C.taking(trick, self.trump)
        order = self.order
        winner = order[best]
        self.tricks[winner] += 1
        self.tricks_played += 1
        # The lists are replaced, never changed in place, so they can be kept as they are.
        self.last_trick = [order, trick, winner]
        self.trick = []
        self.leader = winner
        if self.players == 2:
            if winner == 2:
                # The chooser of the dummy's winning card leads for it and plays last.
                self.order = [2, 1 - self.controller, self.controller]
            else:
                self.controller = winner
                self.order = [winner, 1 - winner, 2]
        else:
            self.order = SEAT_ORDERS[self.players][winner]
        if self.tricks_played == self._hand_size - 3:
            self._score_deal()

    # Scoring --------------------------------------------------------------

    def _made(self, h: int) -> bool:
        if self.players == 2 and h == 2:
            return self.tricks[2] <= self.bids[2]
        return self.tricks[h] == self.bids[h]

    def _score_deal(self) -> None:
        nh = self._nh
        made = [self._made(h) for h in range(nh)]
        k = sum(made)
        bid_bonus = 10 if self._oxford else 10 * (4 - k)
        premium_points = [0] * nh
        if self.players == 2:
            if self.tricks[2] == self.bids[2]:
                premium_points[2] += 30  # the dummy's exact bid counts as a successful declare
            declarers = [s for s in (0, 1) if self.premium[s] == DECLARE]
            for s in declarers:
                if made[s]:
                    premium_points[s] += 30
                    continue
                for o in range(nh):
                    if o != s and not (o in declarers and not made[o]):
                        premium_points[o] += 30
        else:
            for s in range(nh):
                if self.premium[s]:
                    value = PREMIUM_VALUE[self.premium[s]]
                    if made[s]:
                        premium_points[s] += value
                    else:
                        for o in range(nh):
                            if o != s:
                                premium_points[o] += value
        rows: list[NinetyNineRow] = []
        for h in range(nh):
            points = self.tricks[h] + (bid_bonus if made[h] else 0) + premium_points[h]
            self.game_scores[h] += points
            self.totals[h] += points
            rows.append(
                {
                    "seat": h,
                    "bid": self.bids[h],
                    "tricks": self.tricks[h],
                    "made": made[h],
                    "premium": PREMIUM_NAMES[self.premium[h]],
                    "trick_points": self.tricks[h],
                    "bid_bonus": bid_bonus if made[h] else 0,
                    "premium_points": premium_points[h],
                    "game_bonus": 0,
                    "points": points,
                    "change": points,
                    "game_score": self.game_scores[h],
                    "total": 0,
                }
            )
        sheet: NinetyNineSheet = {
            "deal": self.deal_no + 1,
            "game": self.game_no + 1,
            "dealer": self.dealer,
            "trump": _trump_name(self.trump),
            "made": k,
            "game_over": False,
            "dummy": 2 if self.players == 2 else None,
            "rows": list(rows),
        }
        game_over, match_over = self._check_game_end(made, rows)
        for h in range(nh):
            rows[h]["total"] = self.totals[h]
            rows[h]["change"] = rows[h]["points"]  # a game's bonus included
        sheet["game_over"] = game_over
        winners: list[int] = []
        if match_over and self.options["format"] == "first-to-three":
            winners = [s for s in self._live if self.games_won[s] >= 3]
        elif match_over:
            best = max(self.totals[s] for s in self._live)
            winners = [s for s in self._live if self.totals[s] == best]
        self._close_deal(sheet, winners)

    def _deals_dealt(self) -> int:
        return self.deal_no + 1

    def _pass_deal(self) -> None:
        """A new game after a game's end; else the trumps the deal's bids made (unless turned up or
        from Oxford's pile); and the next dealer."""
        sheet: NinetyNineSheet = self.sheets[-1]
        nh = self._nh
        if sheet["game_over"]:
            self.game_no += 1
            self.deals_in_game = 0
            self.game_scores = [0] * nh
            self.trump = self._first_trump()
        elif self.options["trump_style"] != "turn-up" and not self._oxford:
            self.trump = TRUMP_BY_MADE[sheet["made"]]
        self.dealer = 1 - self.dealer if self.players == 2 else (self.dealer + 1) % nh

    def _check_game_end(self, made: list[bool], rows: list[NinetyNineRow]) -> tuple[bool, bool]:
        """Apply the format's end of game and match; return (game over, match over)."""
        fmt = self.options["format"]
        live = self._live
        if fmt == "target":
            return False, any(self.totals[s] > self.options["target"] for s in live)
        if fmt == "nine-deals":
            return False, self.deal_no + 1 >= 9
        if fmt == "oxford":
            return False, not self.pile
        reached = [s for s in live if self.game_scores[s] >= GAME_TO]
        if not reached:
            return False, False
        self.games_done += 1
        bonus_for: dict[int, int] = {}
        if fmt == "three-bonuses":
            bonus_for = {s: 100 for s in reached if made[s]}
            for s in bonus_for:
                self.bonuses[s] += 1
        elif fmt == "rounds-per-player-bonus":
            value = {1: 30, 2: 20, 3: 10}.get(len(reached), 0)
            bonus_for = {s: value for s in reached} if value else {}
        for s, value in bonus_for.items():
            self.totals[s] += value
            rows[s]["game_bonus"] = value
            rows[s]["points"] += value
        if fmt == "three-bonuses":
            return True, any(b >= 3 for b in self.bonuses)
        if fmt == "first-to-three":
            top = max(self.game_scores[s] for s in live)
            for s in live:
                if self.game_scores[s] == top:
                    self.games_won[s] += 1
            return True, any(self.games_won[s] >= 3 for s in live)
        return True, self.games_done >= self.players  # rounds-per-player(-bonus)

    # Views ----------------------------------------------------------------

    def _visible_hand(self, h: int, seat: int | None) -> bool:
        if h == seat:
            return True
        if self.shown[h] == REVEAL:
            return True
        return self.players == 2 and h == 2 and self.phase == PLAY

    def view(self, seat: object = None) -> NinetyNineView:
        """What ``seat`` may know (None: a spectator); a seat that is not a number is refused, and a number that
        is no player's seat (the two-player dummy's hand 2 among them: nobody sits there) sees what a spectator
        sees."""
        return self._view(self._viewer(seat))

    def hand_view(self, hand: int) -> NinetyNineView:
        """The view from a hand nobody sits at (the two-player dummy, hand 2), its bid cards and hand as dealt
        included: for the match's review, which shows every hand as it was dealt once the deal is over; never
        a seat's view."""
        return self._view(hand)

    def _view(self, seat: int | None) -> NinetyNineView:
        names = self._names

        def listed(mask: int) -> list[str]:
            return [names[c] for c in C.cards_in(mask)]

        nh = self._nh
        hands = []
        for h in range(nh):
            bid_public = self.shown[h] >= DECLARE or h == seat
            entry: NinetyNineHand = {
                "seat": h,
                "dummy": self.players == 2 and h == 2,
                "cards_left": self.hands[h].bit_count(),
                "has_bid": self.bids[h] >= 0,
                "bid": self.bids[h] if bid_public else None,
                "bid_cards": listed(self.bid_cards[h]) if bid_public else None,
                "premium": PREMIUM_NAMES[self.shown[h]],
                "cards": listed(self.hands[h]) if self._visible_hand(h, seat) else None,
                "tricks": self.tricks[h],
            }
            hands.append(entry)
        trick_seats = self.order[: len(self.trick)]
        last: LastTrick | None = None
        if self.last_trick is not None:
            order, played, winner = self.last_trick
            last = {
                "cards": [{"seat": s, "card": names[c]} for s, c in zip(order, played, strict=True)],
                "winner": winner,
            }
        view: NinetyNineView = {
            "game": self.NAME,
            "players": self.players,
            "seat": seat,
            "options": dict(self.options),
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.to_act(),
            "tricks": list(self.tricks),
            "cards_left": [hand.bit_count() for hand in self.hands],
            "sides": seats_alone(self.players),
            "to_play": self.order[len(self.trick)] if self.phase == PLAY else None,
            "deal": self.deal_no + 1,
            "game_number": self.game_no + 1,
            "deal_in_game": self.deals_in_game,
            "dealer": self.dealer,
            "dummy": 2 if self.players == 2 else None,
            "dummy_controller": self.controller if self.players == 2 else None,
            "trump": _trump_name(self.trump),
            "turned_up": C.NAMES[self.turned] if self.turned >= 0 else None,
            "joker_as": C.NAMES[self.joker_as] if self.joker_as >= 0 else None,
            "trump_pile_left": len(self.pile) if self._oxford else None,
            "hands": hands,
            "premium_offers": [{"seat": s, "offer": kind} for s, kind in self.offers],
            "asking": self.ask[0] if self.phase == PREMIUM else None,
            "leader": self.leader,
            "trick": [{"seat": s, "card": names[c]} for s, c in zip(trick_seats, self.trick, strict=True)],
            "last_trick": last,
            "tricks_played": self.tricks_played,
            "scores": self.scores(),
            "last_deal": copied(self.sheets[-1]) if self.sheets else None,
            "winners": list(self.winners) if self.winners is not None else None,
        }
        if seat is not None and 0 <= seat < self.players:
            view["hand"] = listed(self.hands[seat])
            view["bid_cards"] = listed(self.bid_cards[seat])
            view["bid"] = self.bids[seat] if self.bids[seat] >= 0 else None
        return view

    # The fast path of searches (see ``GameState.moves``) ------------------------
    # A move is the number of a bid in ``legal``'s order while bidding (its cards: ``_bid_mask``), 0
    # (pass), 1 (declare) or 2 (reveal, or raise when the declarer is asked again) in the premium
    # round, a card's code in play.

    def to_move(self) -> int:
        phase = self.phase
        if phase == PLAY:
            h = self.order[len(self.trick)]
            return self.controller if h == 2 and self.players == 2 else h
        if phase == BID:
            for s in self._live:
                if self.bids[s] < 0:
                    return s
            return -1
        if phase == PREMIUM:
            return self.ask[0]
        return -1

    def moves(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return C.cards_in(self._playable())
        if phase == BID:
            return list(range(len(TRIPLES[self.hands[self.to_move()].bit_count()])))
        if phase == PREMIUM:
            return [PREMIUM_MOVES[word] for word in self._premium_choices(self.ask[0])]
        return []

    def move(self, move: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play_card(self.order[len(self.trick)], move)
        elif phase == BID:
            seat = self.to_move()
            self._lay_aside(seat, self._bid_mask(self.hands[seat], move))
        else:
            self._premium(self.ask[0], PREMIUM_WORDS[move])

    def move_action(self, move: int) -> str:
        phase = self.phase
        if phase == PLAY:
            return self._play[move]
        if phase == BID:
            names = self._names
            return "bid " + " ".join(names[c] for c in C.cards_in(self._bid_mask(self.hands[self.to_move()], move)))
        return PREMIUM_WORDS[move]

    @staticmethod
    def _bid_mask(hand: int, move: int) -> int:
        """The three cards of bid number ``move`` of ``hand`` (``legal``'s order: lowest codes first)."""
        held = C.cards_in(hand)
        i, j, k = TRIPLES[len(held)][move]
        return 1 << held[i] | 1 << held[j] | 1 << held[k]

    def random_playout(self, rng: random.Random) -> int:
        pick = rng.random
        made = 0
        while True:
            phase = self.phase
            if phase == PLAY:
                self._play_card(self.order[len(self.trick)], C.nth_card(self._playable(), pick))
            elif phase == BID:
                seat = self.to_move()
                rest = self.hands[seat]
                bid = 0
                for _ in range(3):  # three cards one after another: every 3-card bid equally likely
                    code = C.nth_card(rest, pick)
                    rest ^= 1 << code
                    bid |= 1 << code
                self._lay_aside(seat, bid)
            elif phase == PREMIUM:
                seat = self.ask[0]
                choices = self._premium_choices(seat)
                self._premium(seat, choices[int(pick() * len(choices))])
            else:
                return made
            made += 1

    def deal_afresh(self, rng: random.Random) -> None:
        """Before anybody bids: the cards of the hands (and the two-player dummy's bid cards) dealt
        again at random from ``rng``, each hand keeping its size, the dummy's bid recomputed, and the
        seed replaced; the trumps and a turned-up card stay. For benchmarks and searches that want a
        new deal fast (with the 36-card pack and three players, a whole new deal)."""
        if self.phase != BID or any(self.bids[s] >= 0 for s in self._live):
            raise ValueError("deal_afresh: the deal has started")  # a programming error, never a player's
        pool = self.bid_cards[2] if self.players == 2 else 0
        for hand in self.hands:
            pool |= hand
        deck = C.cards_in(pool)
        C.shuffle_codes(deck, rng.random)
        at = 0
        for h in range(self._nh):
            size = self.hands[h].bit_count()
            self.hands[h] = C.mask_of(deck[at : at + size])
            at += size
        if self.players == 2:
            self.bid_cards[2] = C.mask_of(deck[at:])
            self.bids[2] = _bid_value(self.bid_cards[2])
        self.seed = rng.getrandbits(63)
        self.decks = []

    # What a computer player may know ----------------------------------------

    def record(self, seat: object) -> NinetyNineRecord:
        """The seat's view, every card played this deal (the dummy is seat 2) and shown voids."""
        return {**self.view(seat), "plays": played_cards(self.plays, self._names), "voids": shown_voids(self.voids)}

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """The hidden hands and bid cards dealt again from every card the seat has not seen.

        Hidden hands keep their sizes and get no card of a suit they failed to
        follow; hidden bid cards (anyone's before a declare, the dummy's all
        deal) are dealt too and their bids recomputed. Oxford's face-down pile
        is shuffled, and the seed replaced.
        """
        world = self.clone()
        # The places of cards the seat has not seen, in a fixed order (by hand, then its bid
        # cards), with sizes it knows: never an order that depends on where the cards are.
        pool = 0
        slots: list[Slot] = []
        places: list[tuple[list[int], int]] = []
        for h in range(self._nh):
            if not self._visible_hand(h, seat):
                pool |= self.hands[h]
                void_cards = 0
                for suit in range(4):
                    if self.voids[h] >> suit & 1:
                        void_cards |= C.SUIT_MASK[suit]
                slots.append(Slot(self.hands[h].bit_count(), void_cards))
                places.append((world.hands, h))
            if h != seat and self.shown[h] < DECLARE and self.bid_cards[h]:
                pool |= self.bid_cards[h]
                slots.append(Slot(self.bid_cards[h].bit_count()))
                places.append((world.bid_cards, h))
        for (where, h), cards in zip(places, deal_unseen(pool, slots, rng), strict=True):
            where[h] = cards
        for h in range(self._nh):
            if world.bid_cards[h]:
                world.bids[h] = _bid_value(world.bid_cards[h])
        world.pile = sorted(self.pile)  # Oxford's face-down trump pile: its order is unseen too
        rng.shuffle(world.pile)
        world.seed = rng.getrandbits(63)
        world.decks = []  # later deals come from the new seed, so nothing of the real ones leaks
        return world


# A compact deal for random playouts -------------------------------------------------------------

# A card's index in a compact deal: suit * 13 + its rank among 2 … A (0 … 12), so that a hand's mask
# is below 2**52 and stays an unboxed int where compiled (a card code's mask may reach 2**63).
COMPACT: Final = [(c >> 4) * 13 + (c & 15 if c & 15 <= C.R10 else (c & 15) - C.JACK + C.R10 + 1) for c in range(64)]
COMPACT_SUIT: Final = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)


class PlayoutDeal:
    """One Ninety-Nine deal of three or four players reduced to what a random playout needs (as Oh
    Hell's ``PlayoutDeal``): made from a state in any phase of a deal (``of``), copied (``copy``),
    played out with the same moves as the state's own ``random_playout`` for the same generator, then
    read (``bid``, ``tricks``, ``premium``, ``points``: the deal's points before any game bonus).
    Each hand's fields are its own and the masks are of compact indexes, so a playout allocates nothing.
    """

    players: int
    dealer: int
    trump: int  # a suit, or NT
    premiums: bool
    may_raise: bool
    oxford: bool
    phase: int  # BID, PREMIUM, PLAY or OVER
    asked: int  # premium round: how many of the seats from the dealer's left have been asked
    again: int  # the declarer asked again after a later reveal (-1: nobody)
    declarer: int
    revealer: int
    raised: bool
    leader: int
    played: int
    best: int
    best_seat: int
    best_suit: int
    led: int
    h0: int
    h1: int
    h2: int
    h3: int
    b0: int
    b1: int
    b2: int
    b3: int
    t0: int
    t1: int
    t2: int
    t3: int
    p0: int
    p1: int
    p2: int
    p3: int

    def __init__(self) -> None:
        self.players = 3
        self.dealer = self.asked = self.leader = self.played = 0
        self.trump = self.again = self.declarer = self.revealer = -1
        self.best = self.best_seat = self.best_suit = self.led = -1
        self.premiums = self.may_raise = self.oxford = self.raised = False
        self.phase = OVER
        self.h0 = self.h1 = self.h2 = self.h3 = 0
        self.b0 = self.b1 = self.b2 = self.b3 = -1
        self.t0 = self.t1 = self.t2 = self.t3 = 0
        self.p0 = self.p1 = self.p2 = self.p3 = 0

    @staticmethod
    def of(state: NinetyNine) -> PlayoutDeal:
        """The current deal of ``state`` (three or four players), wherever it stands."""
        if state.players == 2:
            raise ValueError("PlayoutDeal: three or four players")  # a programming error, never a player's
        deal = PlayoutDeal()
        deal.players, deal.dealer, deal.trump = state.players, state.dealer, state.trump
        deal.premiums, deal.oxford = bool(state._premiums), state._oxford
        deal.may_raise = bool(state.options["declarer_may_raise"])
        deal.phase = state.phase if state.winners is None else OVER
        deal.declarer, deal.revealer, deal.raised = state.declarer, state.revealer, False
        for _, kind in state.offers:
            if kind == "raise":
                deal.raised = True
        if state.phase == PREMIUM:
            deal.again = state.ask[0] if state.raising else -1
            deal.asked = state.players - len(state.ask) if not state.raising else state.players
        deal.leader = state.leader
        for h in range(state.players):
            hand = 0
            for code in C.cards_in(state.hands[h]):
                hand |= 1 << COMPACT[code]
            deal._set(0, h, hand)
            deal._set(1, h, state.bids[h])
            deal._set(2, h, state.tricks[h])
            deal._set(3, h, state.premium[h])
        for i, code in enumerate(state.trick):
            deal._follow(state.order[i], COMPACT[code])
        return deal

    def copy(self) -> PlayoutDeal:
        new = PlayoutDeal()
        new.players, new.dealer, new.trump, new.premiums = self.players, self.dealer, self.trump, self.premiums
        new.may_raise, new.oxford, new.phase, new.asked = self.may_raise, self.oxford, self.phase, self.asked
        new.again, new.declarer, new.revealer, new.raised = self.again, self.declarer, self.revealer, self.raised
        new.leader, new.played, new.best, new.best_seat = self.leader, self.played, self.best, self.best_seat
        new.best_suit, new.led = self.best_suit, self.led
        new.h0, new.h1, new.h2, new.h3 = self.h0, self.h1, self.h2, self.h3
        new.b0, new.b1, new.b2, new.b3 = self.b0, self.b1, self.b2, self.b3
        new.t0, new.t1, new.t2, new.t3 = self.t0, self.t1, self.t2, self.t3
        new.p0, new.p1, new.p2, new.p3 = self.p0, self.p1, self.p2, self.p3
        return new

    # Each hand's fields: 0 its cards (compact indexes), 1 its bid, 2 its tricks, 3 its premium ----

    def _get(self, field: int, h: int) -> int:
        if field == 0:
            return self.h0 if h == 0 else self.h1 if h == 1 else self.h2 if h == 2 else self.h3
        if field == 1:
            return self.b0 if h == 0 else self.b1 if h == 1 else self.b2 if h == 2 else self.b3
        if field == 2:
            return self.t0 if h == 0 else self.t1 if h == 1 else self.t2 if h == 2 else self.t3
        return self.p0 if h == 0 else self.p1 if h == 1 else self.p2 if h == 2 else self.p3

    def _set(self, field: int, h: int, value: int) -> None:
        if field == 0:
            if h == 0:
                self.h0 = value
            elif h == 1:
                self.h1 = value
            elif h == 2:
                self.h2 = value
            else:
                self.h3 = value
        elif field == 1:
            if h == 0:
                self.b0 = value
            elif h == 1:
                self.b1 = value
            elif h == 2:
                self.b2 = value
            else:
                self.b3 = value
        elif field == 2:
            if h == 0:
                self.t0 = value
            elif h == 1:
                self.t1 = value
            elif h == 2:
                self.t2 = value
            else:
                self.t3 = value
        elif h == 0:
            self.p0 = value
        elif h == 1:
            self.p1 = value
        elif h == 2:
            self.p2 = value
        else:
            self.p3 = value

    def hand(self, h: int) -> int:
        return self._get(0, h)

    def bid(self, h: int) -> int:
        return self._get(1, h)

    def tricks(self, h: int) -> int:
        return self._get(2, h)

    def premium(self, h: int) -> int:
        """0, DECLARE or REVEAL."""
        return self._get(3, h)

    def mean_points(self, rng: random.Random, playouts: int) -> list[float]:
        """Each hand's points (``points_each``) averaged over ``playouts`` random playouts of copies of
        this deal; this deal stays as it is."""
        total = [0] * self.players
        for _ in range(playouts):
            deal = self.copy()
            deal.random_playout(rng)
            for h, points in enumerate(deal.points_each()):
                total[h] += points
        return [points / max(1, playouts) for points in total]

    def points_each(self) -> list[int]:
        """Every hand's points for the deal once it is over, before any game's bonus (as ``_score_deal``)."""
        n = self.players
        made = 0
        for h in range(n):
            if self.tricks(h) == self.bid(h):
                made += 1
        bonus = 10 if self.oxford else 10 * (4 - made)
        out = [0] * n
        for h in range(n):
            out[h] = self.tricks(h) + (bonus if self.tricks(h) == self.bid(h) else 0)
        for s in range(n):
            kind = self.premium(s)
            if kind:
                value = PREMIUM_VALUE[kind]
                if self.tricks(s) == self.bid(s):
                    out[s] += value
                else:
                    for o in range(n):
                        if o != s:
                            out[o] += value
        return out

    # Playing -----------------------------------------------------------------------------------

    def _follow(self, h: int, index: int) -> None:
        suit = index // 13
        if self.played == 0:
            self.led, self.best, self.best_seat, self.best_suit = suit, index, h, suit
        elif suit == self.best_suit:
            if index > self.best:
                self.best, self.best_seat = index, h
        elif suit == self.trump:
            self.best, self.best_seat, self.best_suit = index, h, suit
        self.played += 1

    def _offer(self, h: int, word: int) -> None:
        """``NinetyNine._premium`` for a compact deal (``word``: 0 pass, 1 declare, 2 reveal)."""
        if self.again >= 0:
            if word == REVEAL:
                self.revealer = -1
                self.raised = True
            else:
                self.declarer = -1
            self.again = -1
            self.asked = self.players
        else:
            self.asked += 1
            if word == DECLARE:
                self.declarer = h
            elif word == REVEAL:
                self.revealer = h
                if self.declarer >= 0 and self.may_raise:
                    self.again = self.declarer
                else:
                    self.declarer = -1
                    self.asked = self.players
        if self.again >= 0 or self.asked < self.players:
            return
        if self.revealer >= 0:
            self._set(3, self.revealer, REVEAL)
        elif self.declarer >= 0:
            self._set(3, self.declarer, REVEAL if self.raised else DECLARE)
        self.phase = PLAY

    def random_playout(self, rng: random.Random) -> None:
        """Uniformly random moves to the end of the deal, as ``NinetyNine.random_playout`` picks them."""
        pick = rng.random
        n = self.players
        while self.phase == BID:
            for h in range(n):
                if self.bid(h) < 0:
                    rest = self.hand(h)
                    value = 0
                    for _ in range(3):
                        count = 0
                        left = rest
                        while left:
                            left &= left - 1
                            count += 1
                        chosen = rest
                        skip = int(pick() * count) if count > 1 else 0
                        while skip:
                            chosen &= chosen - 1
                            skip -= 1
                        low = chosen & -chosen
                        rest ^= low
                        value += BID_VALUE[(low.bit_length() - 1) // 13]
                    self._set(0, h, rest)
                    self._set(1, h, value)
                    break
            else:
                self.phase = PREMIUM if self.premiums else PLAY
        while self.phase == PREMIUM:
            h = self.again if self.again >= 0 else (self.dealer + 1 + self.asked) % n
            two = self.again >= 0 or self.declarer >= 0  # pass or reveal; else pass, declare or reveal
            word = int(pick() * (2 if two else 3))
            self._offer(h, REVEAL if two and word else word)
        while self.phase == PLAY:
            h = (self.leader + self.played) % n
            held = self.hand(h)
            playable = held
            if self.played:
                follow = held & COMPACT_SUIT[self.led]
                if follow:
                    playable = follow
            if playable & (playable - 1):
                count = 0
                left = playable
                while left:
                    left &= left - 1
                    count += 1
                skip = int(pick() * count)
                while skip:
                    playable &= playable - 1
                    skip -= 1
            low = playable & -playable
            self._set(0, h, held ^ low)
            self._follow(h, low.bit_length() - 1)
            if self.played == n:
                winner = self.best_seat
                self._set(2, winner, self.tricks(winner) + 1)
                self.leader, self.played = winner, 0
                if self.hand(winner) == 0:
                    self.phase = OVER
