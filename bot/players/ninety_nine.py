"""Ninety-Nine's rule-based player: the ``easy`` level and the policy the search plays deals out with.

Everything rests on one estimate (:class:`_Outlook`): for each card of a
hand, its chance of winning a trick when its holder tries to win with it and
when it tries not to, from the higher cards still out, the cards guarding it,
the length of its suit and the risk of it being trumped. Those add up to the
hand's reach: the fewest and the most tricks it should take, and how sure
each is. A bid lays aside the three cards whose suits name a number the rest
can reach surely (:func:`_bids`); a card is played for the least expected
miss of the bid after this trick (:class:`_Play`), from the odds of each hand
winning the trick, given what the later hands can play and want. Premium
bidders are spoiled when it costs little, and premiums are bid only on sure
hands.

The easy level reads only what its seat knows (:func:`_sight_of`: its own
hand and bid cards, face-up hands and bids, the cards played and shown
voids); the rollout reads the whole made-up deal when playing cards
(:func:`_full_sight`) but bids and chooses premiums from its own hand only,
so that the deals it plays out look like real ones.
"""

from __future__ import annotations

import random
from itertools import combinations, product
from typing import cast

from bot.games import GameState
from bot.games import cards as C
from bot.games.ninety_nine import (
    BID,
    BID_VALUE,
    DECLARE,
    FULL_DECK,
    NT,
    OVER,
    PLAY,
    PREMIUM,
    REVEAL,
    SHORT_DECK,
    NinetyNine,
    NinetyNineRow,
)

from .knowledge import BID as AIM_BID

SUIT_MASK = C.SUIT_MASK
# The cards of the same suit above each card code.
ABOVE = tuple(SUIT_MASK[code >> 4] & ~((2 << code) - 1) for code in range(64))
# The cards of the suits named by each 4-bit set of suits (a hand's shown voids).
VOID_CARDS = tuple(sum(SUIT_MASK[s] for s in range(4) if voids >> s & 1) for voids in range(16))
SHORT_MASK = C.mask_of(SHORT_DECK)
FULL_MASK = C.mask_of(FULL_DECK)

# The trick-taking estimate: each card's chance of winning a trick when its holder tries to
# win with it ("tried") and when it tries not to ("avoided").
TRY_DECAY = 0.5  # each higher card still out halves a card's chance
GUARD = 0.5  # a lower card of the same suit held counts against half a higher card out
TRY_CAP = 0.85  # a card with higher cards out never counts as surer than this
AVOID_SHARE = 0.45  # of a card's chance when tried, what is left when its holder avoids winning
TRUMP_AVOID_SHARE = 0.65  # a trump is harder to get rid of: only under a higher one or following suit
MASTER_TRY = 0.85  # the highest card of a suit that is not trumps: it needs its suit led, or the lead
MASTER_FORCED = 0.75  # the highest card of a suit wins even when avoided unless it can be thrown away
LENGTH_CHANCE = 0.5  # a low card of a long trump (or no-trump) suit once the others run out of it
LENGTH_MARGIN = 1.0  # rounds of the suit after the others' cards would be gone on an even split
LENGTH_FORCED = 0.5  # of that chance, what is left when avoided (the suit may be all it holds)
RUFF_CHANCE = 0.5  # a low trump held with a short side suit, when tried
RUFF_RISK_PER_ROUND = 0.8  # each later round of a side suit makes a ruff likelier
LOW_TRY, LOW_AVOID = 0.05, 0.05  # any card may win when the others are void and throw cards away
WISH_MARGIN = 0.3  # a hand this close to the edge of its reach wants tricks (or wants to lose them)
# Tricks a hand takes beyond its estimate on average (every hand must follow suit, so low
# bids get more tricks than they want), by player count: (with trumps, at no trumps). Measured
# in deals of the rule-based player against itself.
BID_LEAN = {2: (0.0, -0.4), 3: (0.6, 0.2), 4: (0.6, 0.2)}
# How keen a player is to take a trick it can take, by its wish: lose (-1), either (0), win (+1).
KEENNESS = {-1: 0.1, 0: 0.5, 1: 1.0}
RUFF_KEENNESS = {-1: 0.2, 0: 0.6, 1: 1.0}

SURE_LOSER = 0.1  # a card whose chance when tried is this small counts as sure to lose
# What making a premium bidder fail is worth, in the units of the play's cost (about one missed bid).
SPOIL_WEIGHT = {DECLARE: 0.5, REVEAL: 1.0}

BID_CANDIDATES = 8  # bids the search compares
BID_SPREAD = 3.0  # and of those, only bids whose expected miss is within this of the best one's


class _Sight:
    """What the player deciding knows of where the cards are (exactly, in a rollout)."""

    __slots__ = ("bids", "exact", "holds", "in_play", "share", "unseen", "voids")

    def __init__(
        self,
        holds: list[int],
        exact: list[bool],
        share: list[float],
        unseen: int,
        in_play: float,
        bids: list[int],
        voids: list[int],
    ) -> None:
        self.holds = holds  # per hand: the cards it may hold (exactly its hand when known)
        self.exact = exact  # per hand: whether ``holds`` is its hand
        self.share = share  # per hand: the chance an unseen card is in it
        self.unseen = unseen  # the cards whose place is unknown (in a hand or laid aside)
        self.in_play = in_play  # the chance an unseen card is in a hand, not among bid cards
        self.bids = bids  # per hand: its bid, or -1 when unknown to the player deciding
        self.voids = voids  # per hand: a bit per suit it has shown void in


def _deck_mask(g: NinetyNine) -> int:
    return FULL_MASK if g.players == 4 else SHORT_MASK


def _sight_of(g: NinetyNine, me: int) -> _Sight:
    """What seat ``me`` knows: its hand and bid cards, face-up hands and bids, the cards played."""
    nh = g._nh
    seen = g.hands[me] | g.bid_cards[me]
    for _, code in g.plays:
        seen |= 1 << code
    exact = [False] * nh
    for o in range(nh):
        if o == me or g._visible_hand(o, me):
            exact[o] = True
            seen |= g.hands[o]
        if g.shown[o] >= DECLARE:
            seen |= g.bid_cards[o]
    unseen = _deck_mask(g) & ~seen
    count = unseen.bit_count()
    holds = [0] * nh
    share = [0.0] * nh
    hidden_in_hands = 0
    for o in range(nh):
        if exact[o]:
            holds[o] = g.hands[o]
            continue
        size = g.hands[o].bit_count()
        hidden_in_hands += size
        holds[o] = unseen & ~VOID_CARDS[g.voids[o]]
        share[o] = size / count if count else 0.0
    in_play = hidden_in_hands / count if count else 0.0
    bids = [g.bids[o] if o == me or g.shown[o] >= DECLARE else -1 for o in range(nh)]
    return _Sight(holds, exact, share, unseen, in_play, bids, g.voids)


def _full_sight(g: NinetyNine) -> _Sight:
    """Everything of a made-up deal, for the rollout's card play."""
    nh = g._nh
    return _Sight(list(g.hands), [True] * nh, [0.0] * nh, 0, 1.0, list(g.bids), g.voids)


def _wish(need: int, left: int, reach: _Range | None) -> int:
    """Whether a hand wants to win (+1) or lose (-1) a trick, or does not mind (0).

    ``need``: tricks it still needs for its bid; ``left``: tricks left in the
    deal; ``reach``: what its cards should still take, if known. A hand that
    can no longer make its bid takes what it can (each trick scores one).
    """
    if need < 0 or need > left:
        return 1
    if need == 0:
        return -1
    if need == left:
        return 1
    if reach is None:
        return 0
    low, high = reach[0], reach[1]
    if need > high - WISH_MARGIN:
        return 1
    if need < low + WISH_MARGIN:
        return -1
    return 0


# The trick-taking estimate ---------------------------------------------------------


class _Outlook:
    """Each card's chance of taking a trick, for one hand seen by one player."""

    __slots__ = ("in_play", "known_out", "opponents", "risk", "trump", "unseen")

    def __init__(
        self, trump: int, known_out: int, unseen: int, in_play: float, opponents: int, risk: list[float]
    ) -> None:
        self.trump = trump
        self.known_out = known_out  # cards known to be in other hands still to be played
        self.unseen = unseen  # cards that may be in other hands (``in_play`` of them are)
        self.in_play = in_play
        self.opponents = opponents  # how many other hands play to each trick
        self.risk = risk  # per side suit: the chance its next round is trumped by someone who wants to

    def suit(self, suit: int, mine: int, ruff_slots: int, hand_size: int) -> tuple[list[_Card], _Range]:
        """Each card of ``mine`` (one suit of a hand of ``hand_size`` cards) with its chances, and their range."""
        known = self.known_out & SUIT_MASK[suit]
        unseen = self.unseen & SUIT_MASK[suit]
        in_play = self.in_play
        out = known.bit_count() + in_play * unseen.bit_count()
        trump = self.trump
        side = trump != NT and suit != trump
        trumps_out = side and (self.known_out | self.unseen) & SUIT_MASK[trump]
        cards = C.cards_in(mine)
        n = len(cards)
        found: list[_Card] = []
        for i in range(n):
            code = cards[n - 1 - i]  # highest first
            above = ABOVE[code]
            higher_known = (known & above).bit_count()
            higher_unseen = (unseen & above).bit_count()
            if higher_known + higher_unseen == 0:
                # A top trump wins whenever it is played; another top card needs its suit played
                # (or the lead), and it can be thrown away on a suit its holder is void in.
                tried, avoided = (1.0, 1.0) if suit == trump else (MASTER_TRY, MASTER_FORCED)
            else:
                eff = higher_known + in_play * higher_unseen - GUARD * (n - 1 - i)
                tried = max(LOW_TRY, min(TRY_CAP, TRY_DECAY**eff))
                avoided = tried * (TRUMP_AVOID_SHARE if suit == trump else AVOID_SHARE)
                if not side and i >= out / self.opponents + LENGTH_MARGIN:
                    # The others will have run out of the suit by then: it wins whenever it is played,
                    # which its holder avoids unless the suit is most of what it holds.
                    tried = max(tried, LENGTH_CHANCE)
                    avoided = max(avoided, tried * LENGTH_FORCED * n / hand_size)
                avoided = max(LOW_AVOID, avoided)
            if trumps_out:
                safe = (1 - self.risk[suit]) * RUFF_RISK_PER_ROUND**i  # later rounds find more hands void
                tried *= safe
                avoided *= safe
            found.append((code, tried, avoided))
        if suit == trump and ruff_slots:
            # The lowest trumps that are not sure winners can win by ruffing.
            for index in range(n - 1, max(-1, n - 1 - ruff_slots), -1):
                code, tried, avoided = found[index]
                found[index] = (code, max(tried, RUFF_CHANCE), avoided)
        return found, _range_of(found)

    def ruff_slots(self, hand: int) -> int:
        """Chances to ruff: two for each side suit the hand is void in, one for a singleton."""
        if self.trump == NT:
            return 0
        slots = 0
        for suit in range(4):
            if suit == self.trump or not (self.known_out | self.unseen) & SUIT_MASK[suit]:
                continue
            length = (hand & SUIT_MASK[suit]).bit_count()
            if length < 2:
                slots += 2 - length
        return slots if hand & SUIT_MASK[self.trump] else 0

    def hand(self, hand: int) -> tuple[dict[int, _Card], _Range]:
        """Every card of the hand with its chances, and the range they make."""
        slots = self.ruff_slots(hand)
        size = hand.bit_count()
        cards: dict[int, _Card] = {}
        reach = NOTHING
        for suit in range(4):
            mine = hand & SUIT_MASK[suit]
            if mine:
                found, suit_reach = self.suit(suit, mine, slots, size)
                for card in found:
                    cards[card[0]] = card
                reach = _joined(reach, suit_reach)
        return cards, reach


# A card with its chance of winning a trick when tried and when avoided.
_Card = tuple[int, float, float]
# What a set of cards should take: at least (every card avoided), at most (every card tried), and
# the variance of the tricks taken: when every card is avoided, when every card is tried, and when
# each card is used the surer way (the least it can be).
_Range = tuple[float, float, float, float, float]
NOTHING: _Range = (0.0, 0.0, 0.0, 0.0, 0.0)


def _card_range(tried: float, avoided: float) -> _Range:
    avoided_var = avoided * (1 - avoided)
    tried_var = tried * (1 - tried)
    return avoided, tried, avoided_var, tried_var, min(avoided_var, tried_var)


def _range_of(cards: list[_Card]) -> _Range:
    reach = NOTHING
    for _, tried, avoided in cards:
        reach = _joined(reach, _card_range(tried, avoided))
    return reach


def _joined(a: _Range, b: _Range) -> _Range:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4]


def _without(a: _Range, b: _Range) -> _Range:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4]


def _miss(reach: _Range, need: int) -> float:
    """The expected squared miss of a bid needing ``need`` more tricks from cards of this reach.

    Outside the reach, the distance to it plus the variance at its edge; inside,
    the variance of trying with some cards and avoiding with the others, which
    moves from one edge's to the other's and is never below the surest use.
    """
    low, high, low_var, high_var, least_var = reach
    if need <= low:
        return (low - need) ** 2 + low_var
    if need >= high:
        return (need - high) ** 2 + high_var
    share = (need - low) / (high - low)
    return max(least_var, low_var + share * (high_var - low_var))


def _outlook(g: NinetyNine, sight: _Sight, me: int, wishes: list[int]) -> _Outlook:
    """The estimate for hand ``me`` as the player deciding sees the deal."""
    nh = g._nh
    known_out = 0
    for o in range(nh):
        if o != me and sight.exact[o]:
            known_out |= sight.holds[o]
    trump = g.trump
    risk = [0.0] * 4
    if trump != NT:
        trumps = SUIT_MASK[trump]
        for suit in range(4):
            if suit == trump:
                continue
            safe = 1.0
            for o in range(nh):
                if o == me:
                    continue
                held = sight.holds[o]
                if sight.exact[o]:
                    can = 1.0 if not held & SUIT_MASK[suit] and held & trumps else 0.0
                else:
                    miss = 1 - sight.share[o]
                    void = 1.0 if sight.voids[o] >> suit & 1 else miss ** (held & SUIT_MASK[suit]).bit_count()
                    can = void * (1 - miss ** (held & trumps).bit_count())
                safe *= 1 - can * RUFF_KEENNESS[wishes[o]]
            risk[suit] = 1 - safe
    return _Outlook(trump, known_out, sight.unseen, sight.in_play, nh - 1, risk)


# Bidding ----------------------------------------------------------------------------


def _bid_outlook(g: NinetyNine, seat: int) -> _Outlook:
    """The estimate at bidding time: every card not in the hand may be in another hand."""
    unseen = _deck_mask(g) & ~(g.hands[seat] | g.bid_cards[seat])
    count = unseen.bit_count()
    laid_aside = 3 * (g._nh - 1)
    in_play = (count - laid_aside) / count
    opponents = g._nh - 1
    share = (count - laid_aside) / opponents / count
    risk = [0.0] * 4
    if g.trump != NT:
        trumps = (unseen & SUIT_MASK[g.trump]).bit_count()
        for suit in range(4):
            if suit != g.trump:
                miss = 1 - share
                void = miss ** (unseen & SUIT_MASK[suit]).bit_count()
                can = void * (1 - miss**trumps)
                risk[suit] = 1 - (1 - can * RUFF_KEENNESS[0]) ** opponents
    return _Outlook(g.trump, 0, unseen, in_play, opponents, risk)


def _bids(g: NinetyNine, seat: int) -> list[tuple[float, int, int]]:
    """The best way to lay aside three cards for each bid, as (expected miss, the three cards, bid), best first.

    The expected miss (:func:`_miss`) is small when the bid lies between
    what the other cards take when avoiding tricks and what they take when
    trying, and the cards are sure winners or sure losers, whose outcome the
    player controls. The choices are taken suit by suit: how many cards of
    each suit go (which fixes the bid and the hand's shape), then which.
    """
    hand = g.hands[seat]
    kept = hand.bit_count() - 3
    outlook = _bid_outlook(g, seat)
    trump = g.trump
    cards = [C.cards_in(hand & SUIT_MASK[s]) for s in range(4)]
    lengths = [len(suit_cards) for suit_cards in cards]
    others_hold = [bool(outlook.unseen & SUIT_MASK[s]) for s in range(4)]
    kinds = [_suit_kind(trump, s) for s in range(4)]
    trumps_out = trump != NT and bool(outlook.unseen & SUIT_MASK[trump])

    def options(suit: int, k: int, slots: int) -> list[tuple[int, _Range]]:
        """Each way to lay aside ``k`` cards of ``suit``: those cards, and the range of the rest."""
        shift = 16 * suit
        held = hand & SUIT_MASK[suit]
        # The same holding, seen the same way, is met again and again in a search's rollouts:
        # the answer is kept with the cards moved to the first suit.
        key = (kinds[suit], held >> shift, k, slots, kept, g.players, outlook.risk[suit], trumps_out)
        found = _BID_OPTIONS.get(key)
        if found is None:
            found = []
            seen: set[_Range] = set()
            for aside in combinations(cards[suit], k):
                mask = C.mask_of(aside)
                reach = outlook.suit(suit, held ^ mask, slots, kept)[1] if held != mask else NOTHING
                if reach not in seen:  # of cards that leave the same reach, the lowest go
                    seen.add(reach)
                    found.append((mask >> shift, reach))
            if len(_BID_OPTIONS) >= BID_OPTIONS_KEPT:
                _BID_OPTIONS.clear()
            _BID_OPTIONS[key] = found
        return [(mask << shift, reach) for mask, reach in found] if shift else found

    lean = BID_LEAN[g.players][trump == NT]
    best: dict[int, tuple[float, int]] = {}
    for shape in _ASIDE_SHAPES:
        if any(k > length for k, length in zip(shape, lengths, strict=True)):
            continue
        bid = sum(k * BID_VALUE[s] for s, k in enumerate(shape))
        slots = 0
        if trump != NT and lengths[trump] > shape[trump]:
            for s in range(4):
                if s != trump and others_hold[s]:
                    slots += max(0, 2 - lengths[s] + shape[s])
        per_suit = [options(s, shape[s], slots if s == trump else 0) for s in range(4)]
        for a, b, c, d in product(*per_suit):
            ra, rb, rc, rd = a[1], b[1], c[1], d[1]
            low = ra[0] + rb[0] + rc[0] + rd[0]
            high = ra[1] + rb[1] + rc[1] + rd[1]
            lift = lean * min(1.0, high - low)  # a hand of sure winners and losers takes what it should
            reach = (
                low + lift,
                high + lift,
                ra[2] + rb[2] + rc[2] + rd[2],
                ra[3] + rb[3] + rc[3] + rd[3],
                ra[4] + rb[4] + rc[4] + rd[4],
            )
            cost = _miss(reach, bid)
            aside = a[0] | b[0] | c[0] | d[0]
            known = best.get(bid)
            if known is None or (cost, aside) < known:
                best[bid] = (cost, aside)
    return sorted((cost, aside, bid) for bid, (cost, aside) in best.items())


def _suit_kind(trump: int, suit: int) -> int:
    """How a suit plays: 0 at no trumps, 1 as trumps, 2 beside trumps."""
    return 0 if trump == NT else 1 if suit == trump else 2


# Ways to lay aside cards of one suit, by what decides them (see :func:`_bids`).
_BID_OPTIONS: dict[tuple[int, int, int, int, int, int, float, bool], list[tuple[int, _Range]]] = {}
BID_OPTIONS_KEPT = 200_000

# Every way to split the three cards laid aside among the four suits.
_ASIDE_SHAPES = [shape for shape in product(range(4), repeat=4) if sum(shape) == 3]


def _bid_text(g: NinetyNine, aside: int) -> str:
    return "bid " + " ".join(g._names[code] for code in C.cards_in(aside))


# Premium bids -----------------------------------------------------------------------


def _premium_choice(g: NinetyNine, seat: int, allowed: list[str]) -> str:
    """Declare (or reveal) only a hand that cannot miss by the look of it.

    Measured in deals of the rule-based player against itself, even hands it
    rates highly make their bid little more than half the time, and a failed
    premium pays every other hand; so it bids a premium only on a hand of sure
    winners (top trumps) and sure losers, as many winners as its bid, and
    reveals only a zero bid whose every card is the lowest of its suit still in
    play, holding no trump that could be forced to win.
    """
    hand = g.hands[seat]
    outlook = _bid_outlook(g, seat)
    cards = outlook.hand(hand)[0].values()
    winners = sum(1 for _, tried, _ in cards if tried >= 1.0)
    losers = sum(1 for _, tried, _ in cards if tried <= SURE_LOSER)
    lowest = all(not outlook.unseen & SUIT_MASK[code >> 4] & ~ABOVE[code] & ~(1 << code) for code in C.cards_in(hand))
    no_trumps = g.trump == NT or not hand & SUIT_MASK[g.trump]
    if "reveal" in allowed and g.bids[seat] == 0 and lowest and no_trumps:
        return "reveal"
    if "declare" in allowed and winners + losers == len(cards) and winners == g.bids[seat]:
        return "declare"
    return "pass"


# Card play --------------------------------------------------------------------------


def _left(g: NinetyNine) -> int:
    """Tricks left in the deal, the one being played included."""
    return g._hand_size - 3 - g.tricks_played


def _beats(card: int, best: int, trump: int) -> bool:
    if card >> 4 == best >> 4:
        return card > best
    return card >> 4 == trump


def _overtake(sight: _Sight, o: int, best: int, led: int, trump: int, keenness: float) -> tuple[float, int]:
    """The chance hand ``o`` (still to play) takes the trick from ``best``, and the card it
    would do it with (-1 when its hand is hidden)."""
    held = sight.holds[o]
    led_cards = SUIT_MASK[led]
    best_suit = best >> 4
    if sight.exact[o]:
        follow = held & led_cards
        if follow:
            if best_suit != led:
                return 0.0, -1
            over = follow & ABOVE[best]
            chance = 1.0 if over == follow else keenness
        elif trump == NT:
            return 0.0, -1
        else:
            trumps = held & SUIT_MASK[trump]
            over = trumps & ABOVE[best] if best_suit == trump else trumps
            chance = 1.0 if over == held else keenness
        if not over:
            return 0.0, -1
        # Keen to win, it plays its highest such card; otherwise its lowest.
        return chance, over.bit_length() - 1 if keenness > 0.5 else (over & -over).bit_length() - 1
    # A hidden hand: each unseen card is in it with chance ``share``.
    miss = 1 - sight.share[o]
    follows = 0.0 if sight.voids[o] >> led & 1 else 1 - miss ** (held & led_cards).bit_count()
    can = forced = 0.0
    if best_suit == led:
        over = held & led_cards & ABOVE[best]
        can = 1 - miss ** over.bit_count()
        forced = can * miss ** (held & led_cards & ~over).bit_count()  # no lower card to follow with
    if trump != NT and led != trump:
        trumps = held & SUIT_MASK[trump]
        over = trumps & ABOVE[best] if best_suit == trump else trumps
        can += (1 - follows) * (1 - miss ** over.bit_count())
    can = min(1.0, can)
    return forced + (can - forced) * keenness, -1


class _Play:
    """One card decision: the hand to play, the player choosing for it, and what it knows."""

    def __init__(self, g: NinetyNine, sight: _Sight) -> None:
        self.g = g
        self.sight = sight
        self.hand = g.order[len(g.trick)]
        self.me = g.controller if g.players == 2 and self.hand == 2 else self.hand
        self.left = _left(g)
        nh = g._nh
        self.need = g.bids[self.me] - g.tricks[self.me]
        wishes = [0] * nh
        for o in range(nh):
            if o != self.me and sight.bids[o] >= 0 and not (g.players == 2 and o == 2):
                wishes[o] = _wish(sight.bids[o] - g.tricks[o], self.left, None)
        self.outlook = _outlook(g, sight, self.me, wishes)
        self.cards, self.reach = self.outlook.hand(g.hands[self.me])
        wishes[self.me] = _wish(self.need, self.left, self.reach)
        self.wishes = wishes
        self.failed = self.need < 0 or self.need > self.left
        # The premium bidders still able to make it: their failure pays every other hand.
        self.targets: list[tuple[int, float, int, _Range | None]] = []
        for o in range(nh):
            need = sight.bids[o] - g.tricks[o]
            if o != self.me and g.shown[o] and sight.bids[o] >= 0 and 0 <= need <= self.left:
                reach = _outlook(g, sight, o, [0] * nh).hand(sight.holds[o])[1] if sight.exact[o] else None
                self.targets.append((o, SPOIL_WEIGHT[g.shown[o]], need, reach))

    def keenness(self, o: int, owner: int) -> float:
        """How keen hand ``o`` is to take the trick from ``owner`` when it can."""
        g = self.g
        if g.players == 2 and o == 2:
            # The leader chooses the dummy's card last: it overtakes its chooser to lose the trick,
            # and takes it from the other player or not with no wish either way.
            chooser = g.controller
            return KEENNESS[-self.wishes[chooser]] if owner == chooser else KEENNESS[0]
        return KEENNESS[self.wishes[o]]

    def winners(self, card: int) -> dict[int, float]:
        """The chance of each hand winning the trick if ``card`` is played now."""
        g = self.g
        trick, trump = g.trick, g.trump
        if trick:
            led = trick[0] >> 4
            best_at = 0
            for i in range(1, len(trick)):
                if _beats(trick[i], trick[best_at], trump):
                    best_at = i
            best, owner = trick[best_at], g.order[best_at]
            if _beats(card, best, trump):
                best, owner = card, self.hand
        else:
            led, best, owner = card >> 4, card, self.hand
        # Each later hand takes the trick or not; a hand whose cards are known plays a known card.
        branches = [(1.0, best, owner)]
        for o in g.order[len(trick) + 1 :]:
            grown = []
            for chance, top, holder in branches:
                overtake, card = _overtake(self.sight, o, top, led, trump, self.keenness(o, holder))
                if overtake < 1.0:
                    grown.append((chance * (1 - overtake), top, holder))
                if overtake > 0.0:
                    grown.append((chance * overtake, top if card < 0 else card, o))
            branches = grown
        odds: dict[int, float] = {}
        for chance, _, holder in branches:
            odds[holder] = odds.get(holder, 0.0) + chance
        return odds

    def spoil(self, odds: dict[int, float]) -> float:
        """What this trick's outcome is worth in making premium bidders fail (their expected miss)."""
        value = 0.0
        for o, weight, need, reach in self.targets:
            win = odds.get(o, 0.0)
            if reach is None:  # a declared hand: only a trick too many or too few is sure to sink it
                value += weight * (win * (need == 0) + (1 - win) * (need == self.left))
            else:
                value += weight * (win * _miss(reach, need - 1) + (1 - win) * _miss(reach, need))
        return value

    def cost(self, card: int) -> float:
        """How bad playing ``card`` is for the player choosing: its expected squared miss after this trick."""
        odds = self.winners(card)
        win = odds.get(self.me, 0.0)
        reach = self.reach
        if self.hand == self.me:
            _, tried, avoided = self.cards[card]
            reach = _without(reach, _card_range(tried, avoided))
        if self.failed:
            cost = -(win + reach[1])
        else:
            cost = win * _miss(reach, self.need - 1) + (1 - win) * _miss(reach, self.need)
        if self.targets:
            cost -= self.spoil(odds)
        if self.hand != self.me:
            cost -= 0.01 * odds.get(self.hand, 0.0)  # the dummy's trick gives its chooser the lead and the last word
        rank = card & 15
        return cost + (0.0005 * rank if win > 0.5 else -0.0005 * rank)

    def choose(self) -> int:
        cards = C.cards_in(self.g._playable())
        if len(cards) == 1:
            return cards[0]
        return min(cards, key=self.cost)


def _choose_card(g: NinetyNine, sight: _Sight) -> int:
    playable = g._playable()
    if playable & (playable - 1) == 0:
        return playable.bit_length() - 1
    return _Play(g, sight).choose()


# The knowledge the search uses --------------------------------------------------------


def _game(world: GameState) -> NinetyNine:
    if not isinstance(world, NinetyNine):
        raise TypeError(f"not a Ninety-Nine state: {world.NAME}")
    return world


class NinetyNineKnowledge:
    """The rule-based player of Ninety-Nine."""

    #: A match win is worth about a good deal's points on top of them.
    win_value = 100.0

    def easy(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> str:
        g = _game(world)
        if g.phase == BID:
            choice = _bid_text(g, _bids(g, seat)[0][1])
        elif g.phase == PREMIUM:
            choice = _premium_choice(g, seat, legal)
        else:
            choice = g._play[_choose_card(g, _sight_of(g, seat))]
        if choice not in legal:
            raise AssertionError(f"the rule-based choice {choice!r} is not legal")
        return choice

    def rollout(self, world: GameState, rng: random.Random, sighted: int = -1) -> None:
        g = _game(world)
        deal = len(g.sheets)
        while len(g.sheets) == deal and g.phase != OVER:
            phase = g.phase
            if phase == PLAY:
                g._play_card(g.order[len(g.trick)], _choose_card(g, _full_sight(g)))
            elif phase == BID:
                seat = next(s for s in g._live if g.bids[s] < 0)
                g._lay_aside(seat, _bids(g, seat)[0][1])
            elif phase == PREMIUM:
                seat = g.ask[0]
                g._premium(seat, _premium_choice(g, seat, g._premium_choices(seat)))

    def shortlist(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> list[str]:
        g = _game(world)
        first = self.easy(world, seat, legal, rng)
        if g.phase == BID:
            ranked = _bids(g, seat)
            best = ranked[0][0]
            out = [first]
            seen_bids = {ranked[0][2]}
            for cost, aside, bid in ranked:
                if bid in seen_bids or cost > best + BID_SPREAD:
                    continue
                seen_bids.add(bid)
                out.append(_bid_text(g, aside))
                if len(out) == BID_CANDIDATES:
                    break
            return out
        return [first, *(action for action in legal if action != first)]

    def refine(self, world: GameState, seat: int, rng: random.Random) -> None:
        """Lay aside the hidden bid cards of a determinization as the rule-based bidder would have.

        ``determinize`` deals another player's hidden bid cards at random, so its
        bid in the made-up deal is a random sum; a real player laid aside what
        its hand called for. Each live hand whose cards and bid are both hidden
        from ``seat`` gets, from its twelve cards (less those it has played),
        the best bid the rule-based player could have made with them, within
        its shown voids. Only cards the seat has not seen move, between a hand
        and its own bid cards, so the seat still cannot tell the deal from the
        real one, and the result depends only on ``world``.
        """
        g = _game(world)
        for h in g._live:
            if h == seat or g.shown[h] >= DECLARE or g._visible_hand(h, seat) or not g.bid_cards[h]:
                continue
            played = 0
            for who, code in g.plays:
                if who == h:
                    played |= 1 << code
            held = g.hands[h] | g.bid_cards[h]
            dealt = g.clone()
            dealt.hands[h], dealt.bid_cards[h] = held | played, 0
            for _, aside, bid in _bids(dealt, h):
                if not aside & played and not (held ^ aside) & VOID_CARDS[g.voids[h]]:
                    g.hands[h], g.bid_cards[h], g.bids[h] = held ^ aside, aside, bid
                    break

    def cards_left(self, world: GameState) -> list[int] | None:
        g = _game(world)
        if g.phase != PLAY:
            return None
        return [hand.bit_count() for hand in g.hands]

    def units(self, world: GameState) -> list[list[int]]:
        return [[seat] for seat in range(world.players)]

    def aim(self, world: GameState, seat: int) -> tuple[str, bool] | None:
        g = _game(world)
        if not g.sheets:
            return None
        row = cast(NinetyNineRow, g.sheets[-1]["rows"][seat])
        return AIM_BID, row["made"]


KNOWLEDGE = NinetyNineKnowledge()

__all__ = ["KNOWLEDGE", "NinetyNineKnowledge"]
