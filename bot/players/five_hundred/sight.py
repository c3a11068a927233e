"""A contract's card order as fast lookup tables, and what a seat can see of the deal."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games import cards as C
from bot.games.five_hundred import DECKS, JOKER_SUIT, NT, FiveHundred, card_order

NOTHING = -1  # no card, no suit, no bid


@dataclass(frozen=True)
class Order:
    """One contract's card order, as lists indexed by card code."""

    trump: int  # the effective suit that wins tricks: the trump suit, or JOKER_SUIT (the lone joker)
    real_trumps: bool  # a suit contract (not no trumps or misère)
    suit: list[int]  # each card's effective suit (-1: not in this deck)
    power: list[int]
    masks: list[int]  # the cards of each effective suit 0…4
    above: list[int]  # per card: the cards of its effective suit that beat it
    below: list[int]
    special: tuple[int, ...]  # joker, right and left bower (those there are), highest first
    trumps: tuple[int, ...]  # the cards of the trump suit, highest first
    deck: int


_ORDERS: dict[tuple[int, int], Order] = {}


def order_of(players: int, trump: int) -> Order:
    """The card order of a contract with ``trump`` (a card suit, or NT for no trumps and misère)."""
    cached = _ORDERS.get((players, trump))
    if cached is not None:
        return cached
    suit_of, power_of, masks = card_order(players, trump)
    size = C.JOKER2 + 1
    suit, power, above, below = [-1] * size, [-1] * size, [0] * size, [0] * size
    for c, s in suit_of.items():
        suit[c], power[c] = s, power_of[c]
    for c in suit_of:
        for d in C.cards_in(masks[suit[c]]):
            if power[d] > power[c]:
                above[c] |= 1 << d
            elif power[d] < power[c]:
                below[c] |= 1 << d
    made = Order(
        trump=JOKER_SUIT if trump == NT else trump,
        real_trumps=trump != NT,
        suit=suit,
        power=power,
        masks=list(masks),
        above=above,
        below=below,
        special=tuple(sorted((c for c in suit_of if power[c] >= 98), key=lambda c: -power[c])),
        trumps=tuple(sorted(C.cards_in(masks[JOKER_SUIT if trump == NT else trump]), key=lambda c: -power[c])),
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


@dataclass
class Sight:
    """A seat's picture of the deal: the cards each seat could hold, and who plays with whom."""

    seat: int
    could: list[int]  # per seat: its hand if known, else every card it may hold
    known: list[bool]  # per seat: True when ``could`` is exactly its hand
    allies: frozenset[int]  # seats in play known to share the seat's aim (not itself)


def sight_of(world: FiveHundred, seat: int) -> Sight:
    """What ``seat`` may know: its hand, an exposed hand, and the cards it has not seen
    (less the suits each seat has shown void in, and the called card's known places)."""
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
    could, known = [], []
    for s in range(world.players):
        if s == seat or (world.exposed and s == contractor):
            could.append(world.hands[s])
            known.append(True)
            continue
        mask = unseen
        for suit in range(4):
            if world.voids[s] >> suit & 1:
                mask &= ~order.masks[suit]
        if called >= 0 and unseen >> called & 1 and (s != world.partner if partner_public else s == contractor):
            mask &= ~(1 << called)
        could.append(mask)
        known.append(False)
    return Sight(seat, could, known, frozenset(allies_of(world, seat, partner_public)))


def rollout_sight(world: FiveHundred, seat: int, order: Order) -> Sight:
    """:func:`sight_of`, faster, for a whole deal in play (no kitty left but the one nobody sees):
    what is played is what no hand, kitty or discard holds. A seat that sees only its own
    cards plays the made-up deal as it would play the real one, where a seat that saw them
    all would judge its moves by a play no one can make."""
    hands = world.hands
    contractor = world.contractor
    exposed = world.exposed
    gone = world.kitty | world.discards
    for hand in hands:
        gone |= hand
    unseen = order.deck & gone & ~hands[seat]  # every card not yet played, less its own
    if exposed:
        unseen &= ~hands[contractor]
    if seat == contractor:
        unseen &= ~(world.discards | world.picked_up)
    called = world.called
    partner_public = world.partner_known or seat == world.partner
    could, known = [], []
    for s in range(world.players):
        if s == seat or (exposed and s == contractor):
            could.append(hands[s])
            known.append(True)
            continue
        mask = unseen
        void = world.voids[s]
        if void:
            for suit in range(4):
                if void >> suit & 1:
                    mask &= ~order.masks[suit]
        if called >= 0 and unseen >> called & 1 and (s != world.partner if partner_public else s == contractor):
            mask &= ~(1 << called)
        could.append(mask)
        known.append(False)
    return Sight(seat, could, known, frozenset(allies_of(world, seat, partner_public)))


def allies_of(world: FiveHundred, seat: int, partner_public: bool) -> list[int]:
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
