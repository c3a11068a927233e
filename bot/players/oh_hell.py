"""Oh Hell's rule-based player: the ``easy`` level and the policy the search plays deals out with.

One estimate carries it (:func:`win_chance`): a card's chance to take a trick
when its holder tries, from the higher cards of its suit that could be in
play (only the unseen cards dealt to the others are: in a small deal most
of the pack lies unused), the risk of a side card being trumped, and for a
low trump the side suits it can ruff. A bid is the sum of those chances,
rounded (the dealer under the hook takes the nearest bid allowed). In play a
seat that still needs tricks wins cheaply when it can and leads its surest
winners; a seat that has what it bid keeps under the trick, throws its most
dangerous cards when it cannot follow and leads its safest low card.

Every decision reads only the seat's sight: its hand, the turned-up card, the
cards played and the voids shown (``Sight``), so the easy level and the
rollouts cannot peek, and the rollouts play deals that look like real ones.
One exception, inside the search's made-up deals only: the searching seat
plays its rollouts with every hand of the made-up deal in sight
(``whole_sight``), since its real play reads the table better than the easy
policy does.
"""

from __future__ import annotations

import random
from math import exp, log

from bot.games import GameState
from bot.games import cards as C
from bot.games.oh_hell import BID, DECK_MASK, NO_TRUMPS, OVER, PLAY, PLAY_TEXT, OhHell

from .inference import PROPOSALS, Reading
from .knowledge import EverySeatForItself

__all__ = ["KNOWLEDGE", "OhHellKnowledge", "bid_estimate", "choose_bid", "choose_card", "win_chance"]

SUIT_MASK = C.SUIT_MASK
# The cards of the same suit above each card code.
ABOVE = tuple(SUIT_MASK[code >> 4] & ~((2 << code) - 1) for code in range(64))
WIN_VALUE = 40.0  # a match win, in points: about two exact bids
# The weights of ``win_chance``'s logistic model, fitted on self-play deals of every table size,
# deal size and sequence (the label: the card took the trick it was played to). In order: bias,
# trump, higher cards likely out, the same for a trump, side suit length, trumps out against a
# side card, other players, a trump's short side suits, rank, the deal's size, no trumps, the
# deal's size for a trump, a side card with no higher card out.
WEIGHTS = (-1.351, 0.051, -0.479, 0.06, -0.372, 0.004, -0.385, 0.486, 1.251, 2.396, 0.501, -0.989, 0.873)
MOST_BIDS = 6  # bids a search compares: the easy one and those next to it
# The model of how the others bid and play, for reading the table (``likelihood``): the easy player
# softened, since people (and other programs) bid and play otherwise. A bid is drawn around the hand's
# estimate with this spread (tricks); a card is the easy player's card with this chance, else any other.
BID_SPREAD = 0.9
PLAY_FOLLOWS = 0.55
PLAY_WINDOW = 2  # tricks: only the cards of the last two (finished or not) are scored, which bounds the cost
READ_LIKELY = 0.7  # a reading says "likely" of what holds in this share of the weighted deals
READ_GAIN = 0.1  # ... and that share must exceed the unweighted deals' by this much
# Determinizations drawn for each one a bid's search keeps (in play: inference.PROPOSALS). A bid's likelihood
# reads only the bids before it, so drawing many costs little next to playing six bids' deals out, and the
# kept deals then follow what the bids say more closely (docs/benchmarks.md).
BID_PROPOSALS = 16


class Sight:
    """What one seat knows of the deal: its hand, and the cards it has not seen that the
    others may hold (``unseen``), with the share of them really in play (``in_play``)."""

    __slots__ = ("hand", "in_play", "seat", "unseen")

    def __init__(self, seat: int, hand: int, unseen: int, in_play: float) -> None:
        self.seat, self.hand, self.unseen, self.in_play = seat, hand, unseen, in_play


def _others_hands(world: OhHell, seat: int) -> int:
    others = 0
    for s, hand in enumerate(world.hands):
        if s != seat:
            others |= hand
    return others


def sight_of(world: OhHell, seat: int) -> Sight:
    """What ``seat`` sees now: its hand, and as unseen the others' hands with the unused rest of the pack
    (neither its hand, nor played, nor turned up)."""
    others = _others_hands(world, seat)
    unseen = others | world.unused
    return Sight(seat, world.hands[seat], unseen, others.bit_count() / (unseen.bit_count() or 1))


def whole_sight(world: OhHell, seat: int) -> Sight:
    """What ``seat`` would know of a made-up deal with every hand in sight: the unseen cards are exactly the
    others' hands, all in play (the search's own seat in its rollouts, never a real decision)."""
    return Sight(seat, world.hands[seat], _others_hands(world, seat), 1.0)


def win_chance(world: OhHell, sight: Sight, code: int) -> float:
    """The chance ``code`` takes a trick when its holder tries to win with it.

    A logistic model (:data:`WEIGHTS`) of what the seat can see: the higher
    cards of the suit likely out against it, trumps or a side suit (and how
    long it is, how many trumps are out to ruff it, how many players could),
    the short side suits a trump can ruff, the rank and the deal's size.
    """
    suit = code >> 4
    trump = world.trump
    in_play = sight.in_play
    higher = (sight.unseen & ABOVE[code]).bit_count() * in_play
    cards = sight.hand.bit_count() / 10.0
    rank = (code & 15) / 14.0
    if trump != NO_TRUMPS and suit == trump:
        short = 0
        for s in range(4):
            if s != trump and (sight.hand & SUIT_MASK[s]).bit_count() <= 1:
                short += 1
        w = WEIGHTS
        z = w[0] + w[1] + (w[2] + w[3]) * higher + w[7] * short + w[8] * rank + (w[9] + w[11]) * cards
    else:
        mine = (sight.hand & SUIT_MASK[suit]).bit_count()
        trumps_out = (sight.unseen & SUIT_MASK[trump]).bit_count() * in_play if trump != NO_TRUMPS else 0.0
        w = WEIGHTS
        z = w[0] + w[2] * higher + w[4] * mine + w[5] * trumps_out + w[6] * (world.players - 1)
        z += w[8] * rank + w[9] * cards + (w[10] if trump == NO_TRUMPS else 0.0) + (w[12] if higher == 0 else 0.0)
    return 1.0 / (1.0 + exp(-z))


def bid_estimate(world: OhHell, seat: int) -> float:
    """The tricks the seat's hand should take."""
    sight = sight_of(world, seat)
    return sum(win_chance(world, sight, code) for code in C.cards_in(sight.hand))


def choose_bid(world: OhHell, seat: int) -> int:
    """The bid nearest the hand's estimate, or the nearest the hook allows."""
    estimate = bid_estimate(world, seat)
    hooked = world.hooked()
    bids = [b for b in range(world.cards + 1) if b != hooked]
    return min(bids, key=lambda b: (abs(b - estimate), b))


def _winning(world: OhHell) -> int:
    """The card winning the trick so far."""
    trick, trump = world.trick, world.trump
    best = trick[0]
    for c in trick[1:]:
        if (c >> 4 == best >> 4 and c > best) or (c >> 4 == trump and best >> 4 != trump):
            best = c
    return best


def _beats(card: int, best: int, trump: int) -> bool:
    return (card >> 4 == best >> 4 and card > best) or (card >> 4 == trump and best >> 4 != trump)


def choose_card(world: OhHell, seat: int, whole: bool = False) -> int:
    """The card ``seat`` plays now, towards its bid (with ``whole``, every hand of ``world`` in sight: only
    for a deal the search made up).

    Written as plain loops over the legal cards, lowest code first (a tie keeps the first card found): the
    searches' rollouts call it for every card of thousands of deals a decision."""
    hand = world.hands[seat]
    trick = world.trick
    legal = hand
    if trick:
        legal = hand & SUIT_MASK[trick[0] >> 4] or hand
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    sight = whole_sight(world, seat) if whole else sight_of(world, seat)
    wants = world.bids[seat] > world.tricks[seat]
    trump = world.trump
    if not trick:
        if wants:
            return _surest(world, sight, legal)  # the surest winner, cheapest first
        return _likeliest_to_lose(world, sight, legal)
    best = _winning(world)
    last = len(trick) == world.players - 1
    winners = 0
    for code in C.cards_in(legal):
        if _beats(code, best, trump):
            winners |= 1 << code
    losers = legal & ~winners
    if wants:
        if winners:
            if last:
                return _cheapest(winners, trump)  # just enough
            # Not last: the surest winner against the cards still to come, cheapest among equals.
            return _surest(world, sight, winners, rounded=True)
        # No winner: keep the cards that may win later, throw the least useful.
        return _likeliest_to_lose(world, sight, losers)
    if losers:
        # The highest card that still loses: get rid of danger while it is safe.
        return _most_dangerous(world, sight, losers)
    # Every card wins so far: last, win with the most dangerous; else the lowest may be overtaken.
    if last:
        return _dearest(winners, trump)
    return _cheapest(winners, trump)


def _surest(world: OhHell, sight: Sight, cards: int, rounded: bool = False) -> int:
    """The card of ``cards`` likeliest to win (to a tenth when ``rounded``), the lowest rank among equals."""
    chosen, top, rank = -1, -1.0, 0
    for code in C.cards_in(cards):
        chance = win_chance(world, sight, code)
        if rounded:
            chance = round(chance, 1)
        if chance > top or (chance == top and code & 15 < rank):
            chosen, top, rank = code, chance, code & 15
    return chosen


def _likeliest_to_lose(world: OhHell, sight: Sight, cards: int) -> int:
    """The card of ``cards`` least likely to win, the lowest rank among equals."""
    chosen, low, rank = -1, 2.0, 0
    for code in C.cards_in(cards):
        chance = win_chance(world, sight, code)
        if chance < low or (chance == low and code & 15 < rank):
            chosen, low, rank = code, chance, code & 15
    return chosen


def _most_dangerous(world: OhHell, sight: Sight, cards: int) -> int:
    """The card of ``cards`` likeliest to win, the highest rank among equals."""
    chosen, top, rank = -1, -1.0, 0
    for code in C.cards_in(cards):
        chance = win_chance(world, sight, code)
        if chance > top or (chance == top and code & 15 > rank):
            chosen, top, rank = code, chance, code & 15
    return chosen


def _cheapest(cards: int, trump: int) -> int:
    """The lowest side card of ``cards``, else the lowest trump."""
    side = cards & ~SUIT_MASK[trump] if trump != NO_TRUMPS else cards
    return _lowest_rank(side or cards)


def _dearest(cards: int, trump: int) -> int:
    """The highest trump of ``cards``, else the highest side card."""
    trumps = cards & SUIT_MASK[trump] if trump != NO_TRUMPS else 0
    return _highest_rank(trumps or cards)


def _lowest_rank(cards: int) -> int:
    chosen, rank = -1, 16
    for code in C.cards_in(cards):
        if code & 15 < rank:
            chosen, rank = code, code & 15
    return chosen


def _highest_rank(cards: int) -> int:
    chosen, rank = -1, -1
    for code in C.cards_in(cards):
        if code & 15 > rank:
            chosen, rank = code, code & 15
    return chosen


def _sight_at_deal(world: OhHell, seat: int, hand: int) -> Sight:
    """What ``seat`` saw when it bid: ``hand`` (its cards as dealt) and the turned-up card."""
    seen = hand | (1 << world.turn_up if world.turn_up >= 0 else 0)
    unseen = DECK_MASK & ~seen
    return Sight(seat, hand, unseen, (world.players - 1) * world.cards / (unseen.bit_count() or 1))


def bid_log_chance(world: OhHell, seat: int, hand: int, bid: int, bids: list[int]) -> float:
    """The log of the chance a player bids ``bid`` with ``hand`` as dealt, the bids before it ``bids``:
    a softened easy bidder, around the hand's estimate, never the bid the hook forbids."""
    sight = _sight_at_deal(world, seat, hand)
    estimate = sum(win_chance(world, sight, code) for code in C.cards_in(hand))
    hooked = -1
    if seat == world.dealer and world.options["hook"]:
        hooked = world.cards - sum(b for s, b in enumerate(bids) if s != seat and b >= 0)
    return bid_log_chance_given(estimate, bid, world.cards, hooked, BID_SPREAD)


def bid_log_chance_given(estimate: float, bid: int, cards: int, hooked: int, spread: float) -> float:
    """The bid model itself: the log of the chance of ``bid`` (0 to ``cards``, never ``hooked``) from a hand
    estimated to take ``estimate`` tricks, a normal curve of ``spread`` tricks around the estimate
    (``python -m bench reading`` fits it to a player's bids)."""
    scale = 2 * spread * spread
    total = sum(exp(-((b - estimate) ** 2) / scale) for b in range(cards + 1) if b != hooked)
    return -((bid - estimate) ** 2) / scale - log(total)


def deal_likelihood(world: OhHell, seat: int) -> float:
    """The log of the chance the other seats' bids and plays so far came from the hands ``world`` gives them,
    players bidding and playing like the easy player, softened (the cards of the last PLAY_WINDOW tricks only:
    the bids and the voids say most of the rest, and scoring every card cost more than the rollouts). Reads
    only ``world``: a determinization of ``seat``'s knowledge (its hand, the public history, the rest dealt at
    random)."""
    n = world.players
    dealt = list(world.hands)
    for s, code in world.plays:
        dealt[s] |= 1 << code
    total = 0.0
    for s in range(n):
        if s != seat and world.bids[s] >= 0:
            total += bid_log_chance(world, s, dealt[s], world.bids[s], world.bids)
    if not any(s != seat for s, _ in world.plays):
        return total
    replay = world.clone()
    assert isinstance(replay, OhHell)
    replay.hands = dealt
    replay.trick, replay.tricks, replay.tricks_played = [], [0] * n, 0
    replay.plays, replay.voids, replay.last_trick = [], [0] * n, None
    replay.leader = (world.dealer + 1) % n
    follows, strays = log(PLAY_FOLLOWS), log(1 - PLAY_FOLLOWS)
    scored_from = len(world.plays) - len(world.trick) - n * (PLAY_WINDOW - 1)
    for index, (s, code) in enumerate(world.plays):
        if s != seat and index >= scored_from:
            choice = replay.hands[s]
            if replay.trick:
                choice = choice & SUIT_MASK[replay.trick[0] >> 4] or choice
            count = choice.bit_count()
            if count > 1:
                total += follows if choose_card(replay, s) == code else strays - log(count - 1)
        replay._play(s, code)
    return total


RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_CODES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15)  # the rank field of a card code, 2 to A


def read_table(worlds: list[GameState], weights: list[float], seat: int) -> Reading | None:
    """The clearest thing the others' bids and plays say: of one other seat and one suit, the lowest rank
    above which it likely holds nothing of that suit, where the bids and plays made that likelier most
    (``worlds`` as dealt, consistent with the voids; ``weights``, how likely the table makes each)."""
    first = _game(worlds[0])
    hands = [_game(w).hands for w in worlds]
    total = sum(weights)
    best: tuple[float, Reading] | None = None
    for s in range(first.players):
        if s == seat or first.bids[s] < 0:
            continue
        for suit in range(4):
            for index in range(len(RANK_CODES) - 2, -1, -1):  # from below the ace down
                above = SUIT_MASK[suit] & ~((2 << (suit << 4 | RANK_CODES[index])) - 1)
                post = sum(weight for hand, weight in zip(hands, weights, strict=True) if not hand[s] & above) / total
                if post < READ_LIKELY:
                    break
                before = sum(not hand[s] & above for hand in hands) / len(hands)
                gain = post - before
                if gain >= READ_GAIN and (best is None or gain > best[0]):
                    reading = Reading(s, first.bids[s], C.SUITS[suit], RANK_NAMES[index], post, before)
                    best = (gain, reading)
    return None if best is None else best[1]


def _game(world: GameState) -> OhHell:
    assert isinstance(world, OhHell)
    return world


class OhHellKnowledge(EverySeatForItself):
    win_value = WIN_VALUE

    def easy(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> str:
        g = _game(world)
        if g.phase == BID:
            return f"bid {choose_bid(g, seat)}"
        return PLAY_TEXT[choose_card(g, seat)]

    def rollout(self, world: GameState, rng: random.Random, sighted: int = -1) -> None:
        """The deal played out by the easy policy; the searching seat (``sighted``) plays its cards with every
        hand of the made-up deal in sight, as its real play (a search that reads the table) comes nearer to
        than the easy policy does: measured against ISMCTS at a fixed 50 deals a decision, three sets of 120
        duplicate deals, +0.19 +- 0.38 points per seat-deal and 63% exact bids against 61% (docs/benchmarks.md);
        every seat so sighted measured worse (-0.57 +- 0.72)."""
        g = _game(world)
        deal = len(g.sheets)
        while g.phase != OVER and len(g.sheets) == deal:
            seat = g.to_act()[0]
            if g.phase == BID:
                g._bid(seat, choose_bid(g, seat))
            else:
                g._play(seat, choose_card(g, seat, seat == sighted))

    def shortlist(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> list[str]:
        g = _game(world)
        first = self.easy(g, seat, legal, rng)
        if g.phase == BID:
            easy = int(first.split()[1])
            near = sorted(legal, key=lambda a: abs(int(a.split()[1]) - easy))
            return [first, *(a for a in near if a != first)][:MOST_BIDS]
        return [first, *(a for a in legal if a != first)]

    def weighty(self, world: GameState, seat: int) -> bool:
        """Every decision is searched with the whole budget (no early stop once a candidate leads by a standard
        error): against OpenSpiel's ISMCTS at the same median time per decision, with the weighted deals, strong
        went from -0.61 +- 0.59 points per seat-deal (120 deals) to +0.34 +- 0.45 (180 deals, docs/benchmarks.md)."""
        return True

    def proposals(self, world: GameState, seat: int) -> int:
        return BID_PROPOSALS if _game(world).phase == BID else PROPOSALS

    def likelihood(self, world: GameState, seat: int) -> float:
        return deal_likelihood(_game(world), seat)

    def read(self, worlds: list[GameState], weights: list[float], seat: int) -> Reading | None:
        return read_table(worlds, weights, seat)

    def cards_left(self, world: GameState) -> list[int] | None:
        g = _game(world)
        if g.phase != PLAY:
            return None
        return [hand.bit_count() for hand in g.hands]


KNOWLEDGE = OhHellKnowledge()
