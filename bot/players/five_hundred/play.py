"""Card play, on a seat's sight: the same rules for the easy player and the rollouts.

Everybody but a misère contractor wants tricks: the contractor's side draws
trumps and cashes its winners; a card is played to win only when it is safe
or worth a try, never over a partner's safe winner; otherwise the least useful
card goes. Against misère the defenders keep the trick low under the
contractor's cards, and it plays the highest card that still loses.
"""

from __future__ import annotations

from bot.games import cards as C
from bot.games.five_hundred import FiveHundred

from .bidding import misere_danger
from .sight import NOTHING, Order, Sight, beats, highest, lowest, order_for, winning


def play_choice(world: FiveHundred, sight: Sight) -> tuple[int, int]:
    """The card ``sight.seat`` plays now, and the suit it names if it leads the joker at no trumps."""
    order = order_for(world)
    seat = sight.seat
    hand = world.hands[seat]
    if world.trick:
        led = world._led_suit()
        legal = hand & order.masks[led] or hand
        if not legal & (legal - 1):
            return legal.bit_length() - 1, NOTHING  # the only card it may play
        if not world._misere:
            return _follow(world, order, sight, legal, led), NOTHING
        if seat == world.contractor:
            return _duck(world, order, sight, legal), NOTHING
        return _force_follow(world, order, sight, legal, led), NOTHING
    if not world._misere:
        card = _lead(world, order, sight)
    elif seat == world.contractor:
        card = _duck_lead(world, order, sight)
    else:
        card = _force_lead(world, order, sight)
    named = _name_suit(world, order, sight) if card == C.JOKER and not order.real_trumps else NOTHING
    return card, named


def needless(world: FiveHundred, sight: Sight) -> int:
    """The cards (a mask) no player should play here, for the search to leave out: beating a
    partner's card that no one later can beat; winning a trick the misère contractor is losing
    for the defence; and, for the misère contractor, winning a trick it could lose. Empty
    when every legal card would be one of those."""
    if not world.trick:
        return 0
    order = order_for(world)
    seat = sight.seat
    led = world._led_suit()
    hand = world.hands[seat]
    legal = hand & order.masks[led] or hand
    lead = winning(order, world.trick)
    best = world.trick[lead]
    winner = world._order[lead]
    if world._misere:
        if seat != world.contractor and winner != world.contractor:
            return 0
    elif winner not in sight.allies:
        return 0
    else:
        later = [s for s in world._order[len(world.trick) + 1 :] if s not in sight.allies]
        if any(_can_beat(order, sight.could[o], best, led) for o in later):
            return 0
    winners = C.mask_of(c for c in C.cards_in(legal) if beats(order, c, best))
    return winners if winners != legal else 0


def _others(world: FiveHundred, sight: Sight) -> int:
    """Every card the other seats in play could hold."""
    out = 0
    for s in world._order:
        if s != sight.seat:
            out |= sight.could[s]
    return out


def _can_beat(order: Order, could: int, best: int, led: int) -> bool:
    """Whether a seat that could hold ``could`` may beat ``best`` in a trick led in ``led``."""
    if could & order.masks[led]:
        return order.suit[best] == led and bool(order.above[best] & could)
    trumps = could & order.masks[order.trump]
    if not trumps:
        return False
    return order.suit[best] != order.trump or bool(order.above[best] & trumps)


def _throw(order: Order, sight: Sight, legal: int, others: int) -> int:
    """The card least worth keeping: low, from a suit with no winners to come; never a trump,
    a card no other can beat, or a guarded honour if there is anything else."""
    hand = sight.could[sight.seat]
    length_weight = 0.5 if order.real_trumps else 1.5  # at no trumps a long suit's small cards win
    best, best_value = NOTHING, 1e9
    for c in C.cards_in(legal):
        s = order.suit[c]
        suit_cards = hand & order.masks[s]
        beaten_by = (order.above[c] & others).bit_count()
        value = float(order.power[c] & 15) + length_weight * suit_cards.bit_count()
        if s == order.trump:
            value += 200
        if not beaten_by:
            value += 100
        elif beaten_by < suit_cards.bit_count():
            value += 30  # enough cards with it to draw the higher ones out
        if value < best_value:
            best, best_value = c, value
    return best


def _follow(world: FiveHundred, order: Order, sight: Sight, legal: int, led: int) -> int:
    """Playing to a trick, wanting tricks."""
    trick = world.trick
    seats = world._order
    lead = winning(order, trick)
    best = trick[lead]
    could = sight.could
    allies = sight.allies
    others = _others(world, sight)
    later = seats[len(trick) + 1 :]
    opponents_later = [s for s in later if s not in allies]
    if seats[lead] in allies and not any(_can_beat(order, could[o], best, led) for o in opponents_later):
        return _throw(order, sight, legal, others)  # a partner's card that stays on top: never overtake it
    wins = sorted((c for c in C.cards_in(legal) if beats(order, c, best)), key=order.power.__getitem__)
    if not wins:
        return _throw(order, sight, legal, others)
    for c in wins:
        if not any(_can_beat(order, could[o], c, led) for o in opponents_later):
            return c  # the cheapest card sure to win
    if seats[lead] in allies:
        return _throw(order, sight, legal, others)
    if any(s in allies and _can_beat(order, could[s], best, led) for s in later):
        return _throw(order, sight, legal, others)  # second hand low: a partner can still win it
    for c in wins:
        if any(sight.known[o] and _can_beat(order, could[o], c, led) for o in opponents_later):
            continue  # a hand in sight will beat it
        if order.suit[c] != led or (order.above[c] & others).bit_count() <= 1:
            return c  # a ruff, or worth a try: one card at most could beat it
    return _throw(order, sight, legal, others)


def _lead(world: FiveHundred, order: Order, sight: Sight) -> int:
    """Leading, wanting tricks."""
    seat = sight.seat
    could = sight.could
    hand = could[seat]
    opponents = [s for s in world._order if s != seat and s not in sight.allies]
    others = _others(world, sight)
    trump_mask = order.masks[order.trump]
    my_trumps = hand & trump_mask
    contract_side = world.contractor >= 0 and (seat == world.contractor or world.contractor in sight.allies)

    def ruffed(suit: int) -> bool:  # an opponent could trump a lead of this suit
        return any(not could[o] & order.masks[suit] and could[o] & trump_mask for o in opponents)

    if contract_side and order.real_trumps and my_trumps:
        their_trumps = 0
        for o in opponents:
            their_trumps |= could[o] & trump_mask
        if their_trumps:
            top = highest(order, my_trumps)
            if not order.above[top] & others:
                return top  # draw trumps with a sure winner
            second = highest(order, my_trumps & ~(1 << top)) if my_trumps.bit_count() > 1 else NOTHING
            if second != NOTHING and not order.above[second] & ~(1 << top) & others:
                return top  # the top of a sequence drives out the one card above it
            if my_trumps.bit_count() >= 3 or seat != world.contractor:
                return lowest(order, my_trumps)  # draw them anyway, or lead up to the contractor
    # Cash sure winners in side suits that no opponent can trump, shortest suit first.
    cash, cash_length = NOTHING, 99
    for s in range(4):
        cards = hand & order.masks[s]
        if s == order.trump or not cards:
            continue
        top = highest(order, cards)
        if not order.above[top] & others and not ruffed(s) and cards.bit_count() < cash_length:
            cash, cash_length = top, cards.bit_count()
    if cash != NOTHING:
        return cash
    if hand >> C.JOKER & 1 and not order.real_trumps:
        return C.JOKER
    if order.real_trumps:
        for a in sorted(sight.allies):  # a partner void in a suit, that may still trump it
            for s in range(4):
                cards = hand & order.masks[s]
                if s != order.trump and cards and not could[a] & order.masks[s] and could[a] & trump_mask:
                    return lowest(order, cards)
    side = hand & ~trump_mask
    if not side:
        top = highest(order, my_trumps)
        return top if not order.above[top] & others else lowest(order, my_trumps)
    best_suit, best_score = NOTHING, -1e9
    for s in range(4):
        cards = side & order.masks[s]
        if not cards:
            continue
        k = cards.bit_count()
        score = 0.3 * k if contract_side or not order.real_trumps else 0.0
        if order.real_trumps and ruffed(s):
            score -= 5  # they would trump it
        top = highest(order, cards)
        if (order.above[top] & others).bit_count() == 1 and k <= 2:
            score -= 2  # a king with one guard: led away from, it falls to the ace
        if not contract_side and order.real_trumps and k == 1 and my_trumps:
            score += 1.5  # a singleton, to trump the suit later
        if score > best_score:
            best_suit, best_score = s, score
    cards = side & order.masks[best_suit]
    top = highest(order, cards)
    second = highest(order, cards & ~(1 << top)) if cards.bit_count() > 1 else NOTHING
    if second != NOTHING and order.power[top] >= C.QUEEN and not order.above[second] & ~(1 << top) & others:
        return top  # the top of a sequence
    return lowest(order, cards)


def _name_suit(world: FiveHundred, order: Order, sight: Sight) -> int:
    """The suit a joker led at no trumps names: the leader's longest that it may name (the others
    must follow it, which sets the suit up); against misère, one the contractor holds."""
    allowed = world._nameable(sight.seat)
    if world._misere and sight.seat != world.contractor:
        target = sight.could[world.contractor]
        return max(allowed, key=lambda s: (target & order.masks[s]).bit_count())
    hand = sight.could[sight.seat]
    return max(allowed, key=lambda s: ((hand & order.masks[s]).bit_count(), hand & order.masks[s]))


# Misère -----------------------------------------------------------------------------


def _duck(world: FiveHundred, order: Order, sight: Sight, legal: int) -> int:
    """The misère contractor following: its highest card that still loses (void: its most
    exposed card), else its lowest, in case a later defender has to go over it."""
    best = world.trick[winning(order, world.trick)]
    losing = [c for c in C.cards_in(legal) if c != C.JOKER and not beats(order, c, best)]
    if not losing:
        return min(C.cards_in(legal), key=order.power.__getitem__)
    if len({order.suit[c] for c in C.cards_in(legal)}) == 1:
        return max(losing, key=order.power.__getitem__)
    hand = sight.could[sight.seat]
    others = _others(world, sight)
    return max(losing, key=lambda c: (_exposure(order, c, hand, others), c & 15))


def _exposure(order: Order, card: int, hand: int, others: int) -> int:
    """How far a misère contractor's card is from safe: the others' cards below it less its own."""
    return (others & order.below[card]).bit_count() - (hand & order.below[card]).bit_count()


def _duck_lead(world: FiveHundred, order: Order, sight: Sight) -> int:
    """The misère contractor leading: a card that a defender holding its suit must beat, the one
    that leaves the rest of the hand safest; else the card with the fewest others below it."""
    hand = sight.could[sight.seat]
    others = _others(world, sight)
    defenders = [s for s in world._order if s != sight.seat]
    best, best_key = NOTHING, (1e9, 0)
    fallback, fallback_key = NOTHING, (99, 99)
    for c in C.cards_in(hand & ~(1 << C.JOKER)):
        suit = order.masks[order.suit[c]]
        if any(sight.could[d] & suit and not sight.could[d] & order.below[c] for d in defenders):
            key = (misere_danger(hand & ~(1 << c), world.players, others, leading=False), -order.power[c])
            if key < best_key:
                best, best_key = c, key
            continue
        low_key = ((others & order.below[c]).bit_count() - (others & order.above[c]).bit_count(), c & 15)
        if low_key < fallback_key:
            fallback, fallback_key = c, low_key
    if best != NOTHING:
        return best
    return fallback if fallback != NOTHING else C.JOKER


def _force_lead(world: FiveHundred, order: Order, sight: Sight) -> int:
    """A defender leading against misère: its lowest card of a suit the contractor cannot duck in
    (nor a defender in sight before it has to go over its cards), else of the suit where the
    contractor has the fewest cards below it; never one it is void in."""
    seat = sight.seat
    hand = sight.could[seat]
    contractor = world.contractor
    target = sight.could[contractor]
    seats = world._order
    before = seats[1 : seats.index(contractor)]  # defenders playing between this lead and the contractor
    best, best_key = NOTHING, (1e9, 99)
    for s in range(4):
        cards = hand & order.masks[s]
        if not cards:
            continue
        low = lowest(order, cards)
        theirs = target & order.masks[s]
        if not theirs:
            key = (1000.0, low & 15)  # void there: it would only shed a card
        else:
            floor = lowest(order, theirs)
            key = ((theirs & order.below[low]).bit_count() - 0.1 * theirs.bit_count(), low & 15)
            for d in before:
                held = sight.could[d] & order.masks[s]
                if sight.known[d] and held and not held & order.below[floor]:
                    key = (key[0] + 5, key[1])  # that defender has to go over the contractor's cards
        if key < best_key:
            best, best_key = low, key
    return best if best != NOTHING else C.JOKER


def _force_follow(world: FiveHundred, order: Order, sight: Sight, legal: int, led: int) -> int:
    """A defender following against misère: keep the trick under the contractor's cards,
    and shed high cards (never the joker, which would win) whenever it is free to."""
    trick = world.trick
    seats = world._order
    lead = winning(order, trick)
    best = trick[lead]
    played = seats.index(world.contractor) < len(trick)
    cards = sorted((c for c in C.cards_in(legal) if c != C.JOKER), key=order.power.__getitem__)
    if not cards:
        return C.JOKER
    if (played and seats[lead] != world.contractor) or not legal & order.masks[led]:
        return cards[-1]  # it escaped this trick, or this seat is void: shed the highest
    under = [c for c in cards if not beats(order, c, best)]
    if played:
        return under[-1] if under else cards[-1]  # stay under it, keeping the low cards for later
    # It plays later: keep the trick low, but a card over the best one costs nothing when the
    # contractor has no card between the two (it ducks with the same card): keep the low ones.
    theirs = sight.could[world.contractor] & order.above[best]
    free = [c for c in cards if not beats(order, c, best) or not theirs & order.below[c]]
    return free[-1] if free else cards[0]
