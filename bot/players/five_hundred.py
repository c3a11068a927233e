"""What a computer player knows of Five Hundred (../shared/rules/five-hundred.md).

The rule-based player reads a seat's *sight*: for every seat, the cards it
could hold. For the seat itself and an exposed open-misère hand that is the
hand; for another seat it is every card the seat has not seen (not in its hand,
not played, not its own discards) less the suits that seat has shown void in.
In the search's rollouts the deal is made up and whole, so each seat's sight is
the real hands: the same policy, just better informed.

- Bidding counts the tricks a hand should take at each trump and at no trumps
  (top trumps that survive the opponents' higher ones, long trumps once theirs
  are drawn, side aces and kings, ruffs in short suits), adds what the unseen
  kitty and a partner bring and what the auction says, and bids the most
  valuable contract it expects to make, or passes. Misère needs a hand that
  cannot be forced to win a trick (:func:`misere_danger`); open misère a hand
  with no danger at all.
- Play: the contractor draws trumps and cashes winners; everybody wins a trick
  as cheaply as is safe, never overtakes or trumps a partner's safe winner, and
  throws its least useful card; against misère the defenders lead and play low
  under the contractor to force it, and the contractor plays the highest card
  that still loses.

The same policy plays every seat in the search's rollouts, straight on the
engine's bitmasks and its internal play (no action strings).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import ceil

from bot.games import GameState
from bot.games import cards as C
from bot.games.five_hundred import (
    BID,
    BID_SUIT_CARD,
    CALL,
    DECKS,
    DISCARD,
    JOKER_SUIT,
    KITTY,
    MISERE,
    NT,
    OPEN_MISERE,
    OPEN_MISERE_HIGHEST,
    OVER,
    PLAY,
    PLAY_TEXT,
    FiveHundred,
    bid_rank,
    bid_text,
    card_order,
)

from .knowledge import CONTRACT, DEFENCE

WIN_VALUE = 500.0  # a match win, in points: as much as a big contract
NOTHING = -1
MISERES = (MISERE, OPEN_MISERE, OPEN_MISERE_HIGHEST)
CASH_FIRST = 0.25  # a side winner's lead is preferred by this much per card of suit length less


# The card order of a contract ----------------------------------------------------


@dataclass(frozen=True)
class Order:
    """One contract's card order, as lists indexed by card code, for fast lookups."""

    trump: int  # the effective suit that wins tricks: the trump suit, or JOKER_SUIT (the lone joker)
    real_trumps: bool  # a suit contract (not no trumps or misère)
    suit: list[int]  # each card's effective suit (-1: not in this deck)
    power: list[int]
    masks: list[int]  # the cards of each effective suit 0…4
    above: list[int]  # per card: the cards of its effective suit that beat it
    below: list[int]
    special: tuple[int, ...]  # joker, right and left bower (those there are), highest first
    deck: int


_ORDERS: dict[tuple[int, int], Order] = {}


def order_of(players: int, trump: int) -> Order:
    """The card order of a contract with ``trump`` (a card suit, or NT)."""
    cached = _ORDERS.get((players, trump))
    if cached is not None:
        return cached
    suit_of, power_of, masks = card_order(players, trump)
    suit = [-1] * (C.JOKER2 + 1)
    power = [-1] * (C.JOKER2 + 1)
    for c, s in suit_of.items():
        suit[c], power[c] = s, power_of[c]
    above = [0] * (C.JOKER2 + 1)
    below = [0] * (C.JOKER2 + 1)
    for c in suit_of:
        for d in C.cards_in(masks[suit[c]]):
            if power[d] > power[c]:
                above[c] |= 1 << d
            elif power[d] < power[c]:
                below[c] |= 1 << d
    special = tuple(sorted((c for c in suit_of if power[c] >= 98), key=lambda c: -power[c]))
    made = Order(
        trump=JOKER_SUIT if trump == NT else trump,
        real_trumps=trump != NT,
        suit=suit,
        power=power,
        masks=list(masks),
        above=above,
        below=below,
        special=special,
        deck=C.mask_of(DECKS[players]),
    )
    _ORDERS[players, trump] = made
    return made


def order_for(world: FiveHundred) -> Order:
    return order_of(world.players, world._trump)


def highest(order: Order, mask: int) -> int:
    """The most powerful card of ``mask`` (cards of one effective suit)."""
    for c in order.special:
        if mask >> c & 1:
            return c
    return mask.bit_length() - 1


def lowest(order: Order, mask: int) -> int:
    """The least powerful card of ``mask`` (cards of one effective suit)."""
    plain = mask
    for c in order.special:
        plain &= ~(1 << c)
    if plain:
        return (plain & -plain).bit_length() - 1
    return min((c for c in order.special if mask >> c & 1), key=order.power.__getitem__)


def beats(order: Order, card: int, best: int) -> bool:
    """True if ``card`` played now beats ``best``, the card winning the trick."""
    if order.suit[card] == order.suit[best]:
        return order.power[card] > order.power[best]
    return order.suit[card] == order.trump


def winning(order: Order, trick: list[int]) -> int:
    """The index in ``trick`` of the card winning it so far."""
    best = 0
    for i in range(1, len(trick)):
        if beats(order, trick[i], trick[best]):
            best = i
    return best


# Sight: what each seat could hold ------------------------------------------------


@dataclass
class Sight:
    """The seat's picture of the deal: the cards each seat could hold, and who plays with whom."""

    seat: int
    could: list[int]  # per seat: its hand if known, else every card it may hold
    allies: frozenset[int]  # seats in play known to share the seat's aim (not itself)


def sight_of(world: FiveHundred, seat: int) -> Sight:
    """What ``seat`` may know: its hand, an exposed hand, and the unseen cards less shown voids."""
    played = 0
    for _, code, _ in world.plays:
        played |= 1 << code
    contractor = world.contractor
    seen = world.hands[seat] | played
    if world.exposed:
        seen |= world.hands[contractor]
    if seat == contractor:
        seen |= world.discards | world.picked_up
    order = order_for(world)
    unseen = order.deck & ~seen
    called = world.called
    partner_public = world.partner_known or seat == world.partner
    could = []
    for s in range(world.players):
        if s == seat or (world.exposed and s == contractor):
            could.append(world.hands[s])
            continue
        mask = unseen
        for suit in range(4):
            if world.voids[s] >> suit & 1:
                mask &= ~order.masks[suit]
        if called >= 0 and unseen >> called & 1 and (s != world.partner if partner_public else s == contractor):
            mask &= ~(1 << called)
        could.append(mask)
    return Sight(seat, could, frozenset(_allies(world, seat, partner_public)))


def exact_sight(world: FiveHundred, seat: int) -> Sight:
    """The whole made-up deal, for the rollouts."""
    return Sight(seat, world.hands, frozenset(_allies(world, seat, True)))


def _allies(world: FiveHundred, seat: int, partner_public: bool) -> list[int]:
    """The seats in play that ``seat`` knows to share its aim."""
    out = world.sitting_out
    if world.players != 5 or world.contractor < 0:
        side = next(side for side in world.sides if seat in side)
        return [s for s in side if s != seat and s not in out]
    contract_side = {world.contractor, world.partner} - {NOTHING}
    if seat in contract_side:
        return [s for s in contract_side if s != seat] if partner_public else []
    if world.called >= 0 and not partner_public:
        return []  # any of the others may be the secret partner
    return [s for s in range(5) if s != seat and s not in contract_side]


# Bidding: what a hand is worth --------------------------------------------------------


def trump_tricks(order: Order, hand: int, players: int) -> tuple[float, int]:
    """Tricks from trumps (those that survive higher ones, then long ones), and the trumps left over."""
    trumps = hand & order.masks[order.trump]
    length = trumps.bit_count()
    if not length:
        return 0.0, 0
    top = 0.0
    mine_above = missing_above = 0
    for c in sorted(C.cards_in(order.masks[order.trump]), key=lambda c: -order.power[c]):
        if trumps >> c & 1:
            spare = length - mine_above - 1  # my trumps below this one, to feed higher ones
            if spare >= missing_above:
                top += 1
            elif spare == missing_above - 1:
                top += 0.4
            mine_above += 1
        else:
            missing_above += 1
    outside = order.masks[order.trump].bit_count() - length
    unseen = order.deck.bit_count() - 10
    per_hand = outside * 10 / unseen
    most = per_hand * (1.0 if players == 2 else 1.5)  # the longest other holding
    rounds = ceil(most - 0.25)
    sure = int(top)
    long = max(0, length - max(sure, rounds))
    return top + long, max(0, length - sure - long)


def side_tricks(order: Order, hand: int) -> tuple[float, int, int]:
    """Tricks from the side suits' aces and kings, and the number of voids and singletons."""
    tricks = 0.0
    voids = singles = 0
    for s in range(4):
        if s == order.trump:
            continue
        cards = hand & order.masks[s]
        k = cards.bit_count()
        if not k:
            voids += 1
            continue
        singles += k == 1
        ace, king, queen = (cards >> (s * 16 + r) & 1 for r in (C.ACE, C.KING, C.QUEEN))
        t = float(ace)
        if king:
            t += 1.0 if ace else (0.5 if k >= 2 else 0.15)
        if queen and k >= 3:
            t += 0.6 if ace and king else (0.25 if ace or king else 0.1)
        tricks += min(t, 2.5 if order.real_trumps else float(k))
        if not order.real_trumps and ace and king and k >= 5:
            tricks += k - 4  # a long suit runs at no trumps
    return tricks, voids, singles


def no_trump_stoppers(order: Order, hand: int) -> int:
    """The suits the opponents could run at no trumps."""
    open_suits = 0
    for s in range(4):
        cards = hand & order.masks[s]
        k = cards.bit_count()
        ace, king, queen = (cards >> (s * 16 + r) & 1 for r in (C.ACE, C.KING, C.QUEEN))
        if not (ace or (king and k >= 2) or (queen and k >= 3)):
            open_suits += 1
    return open_suits


def hand_tricks(hand: int, players: int, trump: int) -> float:
    """The tricks ``hand`` alone should take as contractor with ``trump`` (a card suit or NT)."""
    order = order_of(players, trump)
    tricks, spare = trump_tricks(order, hand, players)
    side, voids, singles = side_tricks(order, hand)
    tricks += side
    if order.real_trumps:
        tricks += 0.7 * min(spare, voids + 0.5 * singles)  # ruffs with trumps not otherwise winning
    else:
        tricks -= 0.75 * max(0, no_trump_stoppers(order, hand) - (hand >> C.JOKER & 1))
    return tricks


def misere_danger(hand: int, players: int) -> float:
    """How many of ``hand``'s cards could be forced to win a trick at misère (0: none can).

    A card is safe when the other cards of its suit below it are no more than
    the hand's own cards below it: each time the defenders play under it, the
    hand has a lower card to play under them. The joker always wins. The first
    lead needs a card the defenders must beat: the lowest of a suit, with no
    card of that suit left that the lead would leave unguarded.
    """
    order = order_of(players, NT)
    danger = float(hand >> C.JOKER & 1)
    safe_lead = False
    for s in range(4):
        mine = C.cards_in(hand & order.masks[s])
        if not mine:
            continue
        others = order.masks[s] & ~hand
        lowers = [(others & order.below[c]).bit_count() for c in mine]
        danger += sum(lower > j for j, lower in enumerate(lowers))
        if lowers[0] == 0 and all(lower <= j - 1 for j, lower in enumerate(lowers) if j):
            safe_lead = True
    return danger + (0.0 if safe_lead else 1.0)


KITTY_BONUS = {2: 1.0, 3: 0.6, 4: 0.6, 5: 0.6, 6: 0.5}
PARTNER_TRICKS = {(4, 1): 1.2, (5, 1): 1.0, (6, 1): 0.9, (6, 2): 1.7}  # (players, partners): their tricks


def partners_of(world: FiveHundred, seat: int) -> list[int]:
    if world.players == 5:
        return []
    return [s for s in next(side for side in world.sides if seat in side) if s != seat]


def estimates(world: FiveHundred, seat: int) -> list[float]:
    """The tricks ``seat``'s side should take at each bid suit (♠ ♣ ♦ ♥ NT), before the kitty,
    from its hand and the auction so far."""
    hand = world.hands[seat]
    players = world.players
    partners = partners_of(world, seat)
    helpers = 1 if players == 5 else len(partners)
    base = KITTY_BONUS[players] + PARTNER_TRICKS.get((players, helpers), 0.0)
    out = [hand_tricks(hand, players, BID_SUIT_CARD[b]) + base for b in range(5)]
    for s, rank in world.auction:
        if rank < 0 or rank in MISERES:
            if rank < 0 and s in partners:
                for b in range(5):
                    out[b] -= 0.4 / len(partners)  # a partner who passed has little
            continue
        suit = (rank // 2) % 5
        if s in partners:
            for b in range(5):
                out[b] += (1.2 if b == suit else 0.4) / len(partners)  # strength shown
        elif s != seat:
            out[suit] -= 1.0  # the opponents hold these trumps
            if suit != 4:
                out[4] -= 0.4  # and a long suit against no trumps
    return out


def contract_value(rank: int, world: FiveHundred) -> int:
    if rank == MISERE:
        return 250
    if rank in (OPEN_MISERE, OPEN_MISERE_HIGHEST):
        return int(world.options["open_misere_value"])
    step = rank // 2
    return 40 + 100 * (step // 5) + 20 * (step % 5)


def bid_ranks(legal: list[str]) -> list[int]:
    out = []
    for action in legal:
        if action != "pass":
            rank = bid_rank(action[4:])
            assert rank is not None
            out.append(rank)
    return out


def bid_choice(world: FiveHundred, seat: int, allowed: list[int]) -> int:
    """The bid rank to make (NOTHING: pass): the most valuable contract the side expects to make."""
    if not allowed:
        return NOTHING
    estimate = estimates(world, seat)
    partner_high = world.high_bidder in partners_of(world, seat)
    margin = 0.5 if partner_high else 0.0  # taking a partner's contract away needs more
    best, best_key = NOTHING, (0, 0)
    allowed_set = set(allowed)
    for b in range(5):
        top = int(estimate[b] - margin)
        for level in range(6, min(top, 10) + 1):
            rank = 2 * ((level - 6) * 5 + b)
            if rank in allowed_set:
                key = (contract_value(rank, world), -rank)
                if key > best_key:
                    best, best_key = rank, key
    if not partner_high:
        danger = misere_danger(world.hands[seat], world.players)
        open_rank = OPEN_MISERE_HIGHEST if world.options["open_misere_highest"] else OPEN_MISERE
        for rank, limit in ((MISERE, 1.0), (open_rank, 0.0)):
            if rank in allowed_set and danger <= limit:
                key = (contract_value(rank, world), -rank)
                if key > best_key:
                    best, best_key = rank, key
    return best


def bid_candidates(world: FiveHundred, seat: int, allowed: list[int], easy: int) -> list[int]:
    """Bids worth comparing in a search: near what the hand should make, and misère if it is close."""
    estimate = estimates(world, seat)
    allowed_set = set(allowed)
    scored: list[tuple[float, int]] = []
    for b in range(5):
        for level in range(6, 11):
            rank = 2 * ((level - 6) * 5 + b)
            if rank in allowed_set and level <= estimate[b] + 1.0:
                scored.append((abs(estimate[b] - 0.3 - level), rank))
    danger = misere_danger(world.hands[seat], world.players)
    for rank in (MISERE, OPEN_MISERE, OPEN_MISERE_HIGHEST):
        if rank in allowed_set and danger <= (2.0 if rank == MISERE else 1.0):
            scored.append((danger / 2, rank))
    scored.sort()
    out = [easy, NOTHING] if easy != NOTHING else [NOTHING]
    for _, rank in scored:
        if rank not in out:
            out.append(rank)
    return out[:10]


# The kitty: discards -------------------------------------------------------------------


def keep_value(order: Order, hand: int, card: int) -> float:
    """How much a card is worth keeping in a hand at this contract (before play)."""
    s = order.suit[card]
    if s == order.trump:
        return 100.0 + order.power[card]
    length = (hand & order.masks[s]).bit_count()
    rank = card & 15
    value = float(rank)
    if rank == C.ACE:
        value += 20
    elif rank == C.KING and hand >> (card + 1) & 1:
        value += 15
    elif rank == C.KING and length >= 2:
        value += 4
    return value + (1.5 * length if not order.real_trumps else 0.5 * length)


def discard_plans(world: FiveHundred, seat: int) -> list[int]:
    """Good sets of cards to lay aside, best first (bitmasks)."""
    hand = world.hands[seat]
    need = KITTY[world.players]
    if world._misere:
        return misere_discards(world.players, hand, need)
    order = order_for(world)
    trumps = hand & order.masks[order.trump]

    def cheapest(pool: int, count: int, keep: int) -> int:
        cards = sorted(C.cards_in(pool), key=lambda c: keep_value(order, keep, c))
        return C.mask_of(cards[:count])

    plans = [cheapest(hand, need, hand)]
    side = hand & ~trumps
    if order.real_trumps and trumps:
        # Lay aside whole short suits to trump them later (not an ace or a guarded king).
        suits = [s for s in range(4) if s != order.trump and 0 < (hand & order.masks[s]).bit_count() <= need]
        for i, s in enumerate(suits):
            for t in [None, *suits[i + 1 :]]:
                voided = hand & order.masks[s] | (hand & order.masks[t] if t is not None else 0)
                if voided.bit_count() > need:
                    continue
                rest = cheapest(side & ~voided, need - voided.bit_count(), hand)
                if (voided | rest).bit_count() == need:
                    plans.append(voided | rest)
    scored = []
    for i, plan in enumerate(plans):
        scored.append((-hand_tricks(hand & ~plan, world.players, world._trump), i, plan))
    scored.sort()
    out: list[int] = []
    for _, _, plan in scored:
        if plan not in out:
            out.append(plan)
    return out


def misere_discards(players: int, hand: int, need: int) -> list[int]:
    """For misère: lay aside the most dangerous cards (the joker, high cards, short suits)."""
    plans = []
    for first_void in [None, 0, 1, 2, 3]:
        order = order_of(players, NT)
        plan = 0
        if first_void is not None:
            cards = hand & order.masks[first_void]
            if not cards or cards.bit_count() > need:
                continue
            plan = cards
        while plan.bit_count() < need:
            rest = hand & ~plan
            worst = min(C.cards_in(rest), key=lambda c: (misere_danger(rest & ~(1 << c), players), -(c & 15)))
            plan |= 1 << worst
        plans.append(plan)
    scored = sorted(
        (misere_danger(hand & ~plan, players), -sum(c & 15 for c in C.cards_in(plan)), i, plan)
        for i, plan in enumerate(plans)
    )
    out: list[int] = []
    for *_, plan in scored:
        if plan not in out:
            out.append(plan)
    return out


def discard_text(plan: int) -> str:
    return "discard " + " ".join(C.NAMES[c] for c in C.cards_in(plan))


# The five-player call ---------------------------------------------------------------


def call_choices(world: FiveHundred, seat: int) -> list[int]:
    """Cards worth calling, best first (NOTHING: play alone): aces of long side suits, then kings."""
    order = order_for(world)
    hand = world.hands[seat]
    level = (world.contract // 2) // 5 + 6
    alone = hand_tricks(hand, world.players, world._trump) >= level + 1.0
    scored = []
    for c in world._callable():
        s = order.suit[c]
        rank = c & 15
        length = (hand & order.masks[s]).bit_count()
        if rank == C.ACE:
            score = 30 + 2 * length
        elif rank == C.KING and hand >> (c + 1) & 1:
            score = 25 + 2 * length  # the king to my ace
        else:
            score = rank + length
        scored.append((-score, c))
    scored.sort()
    calls = [c for _, c in scored]
    return [NOTHING, *calls] if alone else [*calls[:1], NOTHING, *calls[1:]]


# Card play --------------------------------------------------------------------------


def play_choice(world: FiveHundred, sight: Sight) -> tuple[int, int]:
    """The card ``sight.seat`` plays now, and the suit named if it leads the joker at no trumps (else -1)."""
    order = order_for(world)
    seat = sight.seat
    hand = world.hands[seat]
    trick = world.trick
    if trick:
        led = world._led_suit()
        follow = hand & order.masks[led]
        legal = follow or hand
        if world._misere:
            if seat == world.contractor:
                return _duck(world, order, sight, legal), NOTHING
            return _force_follow(world, order, sight, legal), NOTHING
        return _follow(world, order, sight, legal, led), NOTHING
    if world._misere:
        card = _duck_lead(world, order, sight) if seat == world.contractor else _force_lead(world, order, sight)
    else:
        card = _lead(world, order, sight)
    named = _name_suit(world, order, sight) if card == C.JOKER and not order.real_trumps else NOTHING
    return card, named


def _opponents(world: FiveHundred, sight: Sight) -> list[int]:
    return [s for s in world._order if s != sight.seat and s not in sight.allies]


def _can_beat(order: Order, could: int, best: int, led: int) -> bool:
    """Whether a seat that could hold ``could`` may beat ``best`` in a trick led in ``led``."""
    if could & order.masks[led]:
        return order.suit[best] == led and bool(order.above[best] & could)
    trumps = could & order.masks[order.trump]
    if not trumps:
        return False
    return order.suit[best] != order.trump or bool(order.above[best] & trumps)


def _throw(order: Order, sight: Sight, legal: int, outstanding: int) -> int:
    """The card least worth keeping: a low one from a short suit, never a trump or a winner if avoidable."""
    hand = sight.could[sight.seat]
    best, best_value = NOTHING, 1e9
    for c in C.cards_in(legal):
        s = order.suit[c]
        value = float(order.power[c]) + 2.0 * (hand & order.masks[s]).bit_count()
        if s == order.trump:
            value += 200
        if not order.above[c] & outstanding:
            value += 100  # a winner
        if value < best_value:
            best, best_value = c, value
    return best


def _follow(world: FiveHundred, order: Order, sight: Sight, legal: int, led: int) -> int:
    trick = world.trick
    seats = world._order
    at = len(trick)
    lead = winning(order, trick)
    best = trick[lead]
    could = sight.could
    allies = sight.allies
    others = 0
    for s in seats:
        if s != sight.seat:
            others |= could[s]
    after = [s for s in seats[at + 1 :] if s not in allies]
    if seats[lead] in allies and not any(_can_beat(order, could[o], best, led) for o in after):
        return _throw(order, sight, legal, others)  # the partner's card is safe: never overtake it
    wins = [c for c in C.cards_in(legal) if beats(order, c, best)]
    if not wins:
        return _throw(order, sight, legal, others)
    wins.sort(key=order.power.__getitem__)
    for c in wins:
        if not any(_can_beat(order, could[o], c, led) for o in after):
            return c  # the cheapest card that wins for sure
    if seats[lead] in allies or any(s in allies for s in seats[at + 1 :]):
        return _throw(order, sight, legal, others)  # a partner is winning, or still to play: leave it to them
    if all(_can_beat(order, could[o], wins[-1], led) for o in after):
        return _throw(order, sight, legal, others)  # it would be beaten whatever it plays
    return wins[0]  # the cheapest card that wins now: the next must pay for the trick


def _lead(world: FiveHundred, order: Order, sight: Sight) -> int:
    seat = sight.seat
    could = sight.could
    hand = could[seat]
    opponents = _opponents(world, sight)
    others = 0
    for s in world._order:
        if s != seat:
            others |= could[s]
    trump_mask = order.masks[order.trump]
    mine_trumps = hand & trump_mask
    contract_side = world.contractor >= 0 and (seat == world.contractor or world.contractor in sight.allies)
    if contract_side and order.real_trumps and mine_trumps:
        their_trumps = 0
        for o in opponents:
            their_trumps |= could[o] & trump_mask
        if their_trumps:
            top = highest(order, mine_trumps)
            if not order.above[top] & others:
                return top  # draw trumps with a sure winner
            if mine_trumps.bit_count() >= max(3, their_trumps.bit_count()):
                return lowest(order, mine_trumps)  # long enough to draw them anyway
    # Cash sure winners in side suits (that no opponent can trump), shortest suit first.
    cash, cash_key = NOTHING, 1e9
    for s in range(4):
        if s == order.trump:
            continue
        cards = hand & order.masks[s]
        if not cards:
            continue
        top = highest(order, cards)
        if order.above[top] & others:
            continue
        if any(not could[o] & order.masks[s] and could[o] & trump_mask for o in opponents):
            continue
        key = cards.bit_count() * CASH_FIRST
        if key < cash_key:
            cash, cash_key = top, key
    if cash != NOTHING:
        return cash
    if hand >> C.JOKER & 1 and not order.real_trumps:
        return C.JOKER
    if order.real_trumps:
        # Give a partner a ruff: a suit it is void in while it may still hold trumps.
        for a in sorted(sight.allies):
            for s in range(4):
                if (
                    s != order.trump
                    and hand & order.masks[s]
                    and not could[a] & order.masks[s]
                    and could[a] & trump_mask
                ):
                    return lowest(order, hand & order.masks[s])
    side = hand & ~trump_mask
    if not side:
        top = highest(order, mine_trumps)
        return top if not order.above[top] & others else lowest(order, mine_trumps)
    best, best_score = NOTHING, -1e9
    for s in range(4):
        cards = side & order.masks[s]
        if not cards:
            continue
        k = cards.bit_count()
        score = 0.3 * k if contract_side or not order.real_trumps else 0.0
        if order.real_trumps and any(not could[o] & order.masks[s] and could[o] & trump_mask for o in opponents):
            score -= 5  # they would trump it
        top = highest(order, cards)
        if (order.above[top] & others).bit_count() == 1 and k <= 2:
            score -= 2  # a guarded king led away from
        if not contract_side and order.real_trumps and k == 1 and mine_trumps:
            score += 1.5  # a singleton, to trump the suit later
        if score > best_score:
            best, best_score = s, score
    cards = side & order.masks[best]
    top = highest(order, cards)
    second = highest(order, cards & ~(1 << top)) if cards.bit_count() > 1 else NOTHING
    if second != NOTHING and order.power[top] >= C.QUEEN and not order.above[second] & ~(1 << top) & others:
        return top  # the top of a sequence
    return lowest(order, cards)


def _name_suit(world: FiveHundred, order: Order, sight: Sight) -> int:
    """The suit a joker led at no trumps names: the leader's longest it may name, or against a
    misère contractor the suit it holds most of (it must shed one)."""
    allowed = world._nameable(sight.seat)
    hand = sight.could[sight.seat]
    if world._misere and sight.seat != world.contractor:
        target = sight.could[world.contractor]
        return max(allowed, key=lambda s: ((target & order.masks[s]).bit_count() > 0, -s))
    return max(allowed, key=lambda s: ((hand & order.masks[s]).bit_count(), highest(order, hand & order.masks[s]) & 15))


# Misère: the contractor ducks, the defenders force it ---------------------------------------


def _danger_of(order: Order, card: int, hand: int, outstanding: int) -> int:
    """How exposed a misère contractor's card is: other cards below it less its own below it."""
    if card == C.JOKER:
        return 99
    return (outstanding & order.below[card]).bit_count() - (hand & order.below[card]).bit_count()


def _duck(world: FiveHundred, order: Order, sight: Sight, legal: int) -> int:
    """The misère contractor following: its highest card that still loses, else its most dangerous one."""
    hand = sight.could[sight.seat]
    best = world.trick[winning(order, world.trick)]
    losing = [c for c in C.cards_in(legal) if not beats(order, c, best) and c != C.JOKER]
    if losing:
        outstanding = _outstanding(world, sight)
        if legal & order.masks[order.suit[losing[0]]] == legal:  # following suit
            return max(losing, key=order.power.__getitem__)
        return max(losing, key=lambda c: (_danger_of(order, c, hand, outstanding), c & 15))
    # Every card wins for now: the lowest, in case a later defender has to go over it.
    return min(C.cards_in(legal), key=order.power.__getitem__)


def _outstanding(world: FiveHundred, sight: Sight) -> int:
    out = 0
    for s in world._order:
        if s != sight.seat:
            out |= sight.could[s]
    return out


def _duck_lead(world: FiveHundred, order: Order, sight: Sight) -> int:
    """The misère contractor leading: the highest card some defender must beat, else its safest card."""
    hand = sight.could[sight.seat]
    defenders = [s for s in world._order if s != sight.seat]
    outstanding = _outstanding(world, sight)
    forced, fallback = NOTHING, NOTHING
    fallback_key: tuple[int, int] = (99, 0)
    for c in C.cards_in(hand):
        if c == C.JOKER:
            continue
        suit = order.masks[order.suit[c]]
        if any(sight.could[d] & suit and not sight.could[d] & suit & order.below[c] for d in defenders):
            if forced == NOTHING or order.power[c] > order.power[forced]:
                forced = c  # someone holding the suit has only higher cards of it
            continue
        key = (
            (outstanding & suit & order.below[c]).bit_count() - (outstanding & suit & order.above[c]).bit_count(),
            c & 15,
        )
        if key < fallback_key:
            fallback, fallback_key = c, key
    if forced != NOTHING:
        return forced
    return fallback if fallback != NOTHING else C.JOKER


def _force_lead(world: FiveHundred, order: Order, sight: Sight) -> int:
    """A defender leading against misère: its lowest card of a suit the contractor cannot duck in,
    else of the suit where the contractor has the fewest cards below it."""
    hand = sight.could[sight.seat]
    target = sight.could[world.contractor]
    best, best_key = NOTHING, (1e9, 1e9)
    for s in range(4):
        cards = hand & order.masks[s]
        if not cards:
            continue
        low = lowest(order, cards)
        theirs = target & order.masks[s]
        if not theirs:
            key = (1000.0, float(low & 15))  # it is void there: it would shed a card
        else:
            key = (float((theirs & order.below[low]).bit_count()) - 0.1 * theirs.bit_count(), float(low & 15))
        if key < best_key:
            best, best_key = low, key
    return best if best != NOTHING else C.JOKER


def _force_follow(world: FiveHundred, order: Order, sight: Sight, legal: int) -> int:
    """A defender following against misère: keep the trick under the contractor's cards."""
    trick = world.trick
    seats = world._order
    lead = winning(order, trick)
    best = trick[lead]
    contractor = world.contractor
    played = seats.index(contractor) < len(trick)
    cards = [c for c in C.cards_in(legal) if c != C.JOKER] or C.cards_in(legal)
    by_power = sorted(cards, key=order.power.__getitem__)
    if played and seats[lead] != contractor:
        return by_power[-1]  # it escaped this trick: shed a high card, keep the low ones
    under = [c for c in by_power if not beats(order, c, best)]
    if played:
        return under[-1] if under else by_power[-1]  # stay under it, keeping the low cards for later
    if not legal & order.masks[world._led_suit()]:
        return by_power[-1]  # void: shed the highest
    return under[-1] if under else by_power[0]  # it plays later: keep the trick as low as can be


# The Knowledge -------------------------------------------------------------------


class FiveHundredKnowledge:
    win_value = WIN_VALUE

    def easy(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> str:
        assert isinstance(world, FiveHundred)
        return self._choose(world, seat, legal)[0]

    def _choose(self, world: FiveHundred, seat: int, legal: list[str]) -> list[str]:
        """The rule-based choice first, then the other sensible ones (for the search)."""
        phase = world.phase
        if phase == BID:
            allowed = bid_ranks(legal)
            easy = bid_choice(world, seat, allowed)
            return [_bid_action(r) for r in bid_candidates(world, seat, allowed, easy)]
        if phase == DISCARD:
            return [discard_text(p) for p in discard_plans(world, seat)]
        if phase == CALL:
            return ["alone" if c == NOTHING else "call " + C.NAMES[c] for c in call_choices(world, seat)]
        card, named = play_choice(world, sight_of(world, seat))
        first = PLAY_TEXT[card] + (" " + C.SUITS[named] if named >= 0 else "")
        return [first, *(a for a in legal if a != first)]

    def shortlist(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> list[str]:
        assert isinstance(world, FiveHundred)
        choices = self._choose(world, seat, legal)
        if world.phase == PLAY and len(choices) > 12:
            # Leading the joker at no trumps: keep the easy choice's naming and one other.
            namings = [a for a in choices[1:] if a.startswith("play JK ")]
            choices = [a for a in choices if a not in namings[1:]]
        return choices[:12]

    def rollout(self, world: GameState, rng: random.Random) -> None:
        assert isinstance(world, FiveHundred)
        deal = len(world.sheets)
        sights: list[Sight] = []  # each seat's, once play starts (they follow the hands as they change)
        while world.phase != OVER and len(world.sheets) == deal:
            seat = world.turn
            phase = world.phase
            if phase == PLAY:
                if not sights:
                    sights = [exact_sight(world, s) for s in range(world.players)]
                code, named = play_choice(world, sights[seat])
                world._play_card(seat, code, named)
            elif phase == BID:
                rank = bid_choice(world, seat, bid_ranks(list(world._bid_texts())))
                world.act(seat, _bid_action(rank))
            elif phase == DISCARD:
                world.act(seat, discard_text(discard_plans(world, seat)[0]))
            elif phase == CALL:
                call = call_choices(world, seat)[0]
                world.act(seat, "alone" if call == NOTHING else "call " + C.NAMES[call])

    def cards_left(self, world: GameState) -> list[int] | None:
        assert isinstance(world, FiveHundred)
        if world.phase != PLAY:
            return None
        return [0 if s in world.sitting_out else world.hands[s].bit_count() for s in range(world.players)]

    def units(self, world: GameState) -> list[list[int]]:
        assert isinstance(world, FiveHundred)
        if world.players == 5:
            return [[s] for s in range(5)]
        return [list(side) for side in world.sides]

    def aim(self, world: GameState, seat: int) -> tuple[str, bool] | None:
        assert isinstance(world, FiveHundred)
        if not world.sheets:
            return None
        sheet = world.sheets[-1]
        if sheet["thrown_in"] or sheet["contractor"] is None:
            return None
        if seat in sheet["contract_side"]:
            return CONTRACT, bool(sheet["made"])
        return DEFENCE, not sheet["made"]


def _bid_action(rank: int) -> str:
    return "pass" if rank == NOTHING else "bid " + bid_text(rank)


KNOWLEDGE = FiveHundredKnowledge()
