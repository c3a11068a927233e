"""Judging a hand: bids, the kitty's discards and the five-player call."""

from __future__ import annotations

from collections.abc import Iterable
from math import ceil

from bot.games import cards as C
from bot.games.five_hundred import BID_SUIT_CARD, KITTY, MISERE, NT, OPEN_MISERE, OPEN_MISERE_HIGHEST, FiveHundred

from .sight import NOTHING, Order, order_for, order_of

MISERES = (MISERE, OPEN_MISERE, OPEN_MISERE_HIGHEST)
NO_TRUMPS = 4  # the bid suit index of no trumps (♠ ♣ ♦ ♥ NT)
MOST_BIDS = 5  # bids a search compares
MOST_CALLS = 6  # calls a search compares
TARGET = 500  # the score that ends the match

# The tricks a contractor's side takes, from its hand's own count (``hand_tricks``):
# ``intercept + slope * count``, by (players, partners) and suit or no trumps, fitted
# on deals played out by this player (the kitty and the partners' hands are in the
# intercept). The spread around it is wide (1.5 to 2 tricks), so a bid keeps a margin,
# set so that easy players make about seven contracts in ten (no trumps, which a hand
# judges worst, more); less would be overbidding, more would throw in too many hands.
CALIBRATION: dict[tuple[int, int, bool], tuple[float, float, float]] = {  # intercept, slope, margin
    (2, 0, False): (4.89, 0.47, 0.1),
    (2, 0, True): (4.85, 0.55, 0.75),
    (3, 0, False): (2.96, 0.67, 0.1),
    (3, 0, True): (2.68, 0.70, 0.75),
    (4, 1, False): (4.98, 0.46, 0.1),
    (4, 1, True): (5.04, 0.45, 0.75),
    (5, 1, False): (4.82, 0.32, 0.0),
    (5, 1, True): (4.83, 0.46, 0.75),
    (6, 1, False): (3.25, 0.63, -0.25),
    (6, 1, True): (3.78, 0.47, 0.75),
    (6, 2, False): (4.77, 0.53, 0.25),
    (6, 2, True): (5.39, 0.37, 0.75),
}


# What a hand is worth -------------------------------------------------------------


def trump_tricks(order: Order, hand: int, players: int) -> tuple[float, int]:
    """Tricks from trumps (those that survive the higher ones out, then long ones once the
    others' are drawn), and how many trumps are left over for ruffing."""
    trumps = hand & order.masks[order.trump]
    length = trumps.bit_count()
    if not length:
        return 0.0, 0
    top = 0.0
    mine_above = missing_above = 0
    for c in order.trumps:
        if trumps >> c & 1:
            spare = length - mine_above - 1  # my trumps below this one, to feed the higher ones out
            if spare >= missing_above:
                top += 1
            elif spare == missing_above - 1:
                top += 0.4
            mine_above += 1
        else:
            missing_above += 1
    outside = order.masks[order.trump].bit_count() - length
    per_hand = outside * 10 / (order.deck.bit_count() - 10)
    rounds = ceil(per_hand * (1.0 if players == 2 else 1.5) - 0.25)  # to draw the longest other holding
    sure = int(top)
    long = max(0, length - max(sure, rounds))
    return top + long, max(0, length - sure - long)


def side_tricks(order: Order, hand: int) -> tuple[float, int, int]:
    """Tricks from the side suits' aces, kings and queens (and long suits at no trumps),
    and the number of voids and singletons."""
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


def open_suits(order: Order, hand: int) -> int:
    """The suits the opponents could run at no trumps (no ace, guarded king or queen)."""
    count = 0
    for s in range(4):
        cards = hand & order.masks[s]
        k = cards.bit_count()
        ace, king, queen = (cards >> (s * 16 + r) & 1 for r in (C.ACE, C.KING, C.QUEEN))
        count += not (ace or (king and k >= 2) or (queen and k >= 3))
    return count


_HAND_TRICKS: dict[tuple[int, int, int], float] = {}  # the search judges the same hands over and over
CACHE_SIZE = 100_000


def hand_tricks(hand: int, players: int, trump: int) -> float:
    """The tricks ``hand`` alone should take as contractor with ``trump`` (a card suit or NT)."""
    key = (hand, players, trump)
    cached = _HAND_TRICKS.get(key)
    if cached is None:
        if len(_HAND_TRICKS) >= CACHE_SIZE:
            _HAND_TRICKS.clear()
        cached = _HAND_TRICKS[key] = _hand_tricks(hand, players, trump)
    return cached


def _hand_tricks(hand: int, players: int, trump: int) -> float:
    order = order_of(players, trump)
    tricks, spare = trump_tricks(order, hand, players)
    side, voids, singles = side_tricks(order, hand)
    tricks += side
    if order.real_trumps:
        tricks += 0.7 * min(spare, voids + 0.5 * singles)  # ruffs with trumps not otherwise winning
    else:
        tricks -= 0.75 * max(0, open_suits(order, hand) - (hand >> C.JOKER & 1))  # the joker stops one
    return tricks


def misere_danger(hand: int, players: int, others: int | None = None, leading: bool = True) -> float:
    """How many of ``hand``'s cards could be forced to win a trick at misère (0: none can),
    against ``others`` (the cards the defenders may hold; by default every other card).

    A card is safe when the other cards of its suit below it are no more than
    the hand's own cards below it: each time the defenders play under it, the
    hand has a lower card to play under them. The joker always wins. When
    ``leading``, the hand needs a first lead the defenders must beat, that
    leaves the rest of its suit safe: the lowest card of a suit, with the
    others safe one card short (else a danger more).
    """
    order = order_of(players, NT)
    if others is None:
        others = order.deck & ~hand
    danger = float(hand >> C.JOKER & 1)
    safe_lead = False
    for s in range(4):
        mine = C.cards_in(hand & order.masks[s])
        if not mine:
            continue
        lowers = [(others & order.below[c]).bit_count() for c in mine]
        danger += sum(lower > j for j, lower in enumerate(lowers))
        if lowers[0] == 0 and all(lower <= j - 1 for j, lower in enumerate(lowers) if j):
            safe_lead = True
    return danger + (1.0 if leading and not safe_lead else 0.0)


# The auction ---------------------------------------------------------------------


def partners_of(world: FiveHundred, seat: int) -> list[int]:
    """The seat's partners for the whole match (none with five players: the call comes later)."""
    if world.players == 5:
        return []
    return [s for s in next(side for side in world.sides if seat in side) if s != seat]


def estimates(world: FiveHundred, seat: int) -> list[float]:
    """The tricks ``seat``'s side can count on as contractor at each bid suit (♠ ♣ ♦ ♥ NT),
    from its hand, the kitty and partners it has not seen, and the auction so far."""
    hand = world.hands[seat]
    players = world.players
    partners = partners_of(world, seat)
    helpers = 1 if players == 5 else len(partners)
    out = []
    for b in range(5):
        intercept, slope, margin = CALIBRATION[players, helpers, b == NO_TRUMPS]
        out.append(intercept + slope * hand_tricks(hand, players, BID_SUIT_CARD[b]) - margin)
    shown: dict[int, int] = {}  # each other seat's highest suit bid
    passed: set[int] = set()
    for s, rank in world.auction:
        if s == seat:
            continue
        if rank < 0:
            passed.add(s)
        elif rank not in MISERES:
            shown[s] = max(shown.get(s, rank), rank)
    for s in partners:
        if s in passed and s not in shown:
            for b in range(5):
                out[b] -= 0.4 / len(partners)  # a partner who passed has little
    for s, rank in shown.items():
        suit = (rank // 2) % 5
        if s in partners:
            for b in range(5):
                out[b] += (1.0 if b == suit else 0.4) / len(partners)  # the strength a partner showed
        else:
            out[suit] -= 1.0  # the opponents hold these trumps
            if suit != NO_TRUMPS:
                out[NO_TRUMPS] -= 0.4  # and a long suit against no trumps
    return out


def contract_value(rank: int, world: FiveHundred) -> int:
    if rank == MISERE:
        return 250
    if rank in (OPEN_MISERE, OPEN_MISERE_HIGHEST):
        return int(world.options["open_misere_value"])
    step = rank // 2
    return 40 + 100 * (step // 5) + 20 * (step % 5)


def suit_bid(level: int, suit: int) -> int:
    """The rank of a bid of ``level`` tricks in bid suit ``suit`` (♠ ♣ ♦ ♥ NT = 0…4)."""
    return 2 * ((level - 6) * 5 + suit)


def bid_choice(world: FiveHundred, seat: int, allowed: list[int]) -> int:
    """The bid to make (NOTHING: pass): the most valuable contract the side expects to make.

    Taking a partner's contract away needs half a trick more; misère needs a
    hand that cannot be forced (after laying aside its worst cards), open
    misère one that cannot be forced as it is.

    The strong player bids this too: a search comparing it with passing and
    the contracts a trick either side chose worse, measured hand by hand
    (its sampled deals ignore the auction, and the likeliest-looking of a few
    noisy candidates is more often a lucky one: it made fewer contracts).
    """
    if not allowed:
        return NOTHING
    estimate = estimates(world, seat)
    partner_high = world.high_bidder in partners_of(world, seat)
    margin = 0.5 if partner_high else 0.0
    allowed_set = set(allowed)
    best, best_key = NOTHING, (0, 0)
    for b in range(5):
        for level in range(6, min(int(estimate[b] - margin), 10) + 1):
            rank = suit_bid(level, b)
            if rank in allowed_set and (contract_value(rank, world), -rank) > best_key:
                best, best_key = rank, (contract_value(rank, world), -rank)
    if not partner_high:
        danger = misere_danger(world.hands[seat], world.players)
        for rank, limit in ((MISERE, 1.0), (OPEN_MISERE, 0.0), (OPEN_MISERE_HIGHEST, 0.0)):
            if rank in allowed_set and danger <= limit and (contract_value(rank, world), -rank) > best_key:
                best, best_key = rank, (contract_value(rank, world), -rank)
    return best


def winning_bid(world: FiveHundred, seat: int, allowed: list[int]) -> int:
    """:func:`bid_choice`, reading the score: when a contract made would win the match (the side
    reaches the target), the contract it expects to make by the most tricks among those that
    would, rather than the most valuable. Never more than :func:`bid_choice` bids."""
    best = bid_choice(world, seat, allowed)
    if best < 0 or best in MISERES:
        return best
    need = TARGET - world.totals[seat]
    if contract_value(best, world) < need:
        return best
    estimate = estimates(world, seat)
    margin = 0.5 if world.high_bidder in partners_of(world, seat) else 0.0
    allowed_set = set(allowed)
    choice, choice_key = best, (-1e9, 0)
    for b in range(5):
        for level in range(6, min(int(estimate[b] - margin), 10) + 1):
            rank = suit_bid(level, b)
            if rank in allowed_set and contract_value(rank, world) >= need:
                key = (estimate[b] - margin - level, -rank)
                if key > choice_key:
                    choice, choice_key = rank, key
    return choice


def bid_candidates(world: FiveHundred, seat: int, allowed: list[int], easy: int) -> list[int]:
    """Bids worth comparing in a search, ``easy`` and pass first, then a few contracts the side
    could just make, and misère when the hand is close to one. Few: a search has little time
    at the auction, and the more candidates, the likelier a lucky one looks best."""
    estimate = estimates(world, seat)
    allowed_set = set(allowed)
    scored: list[tuple[float, int]] = []
    for b in range(5):
        for level in range(6, 11):
            rank = suit_bid(level, b)
            if rank in allowed_set and level <= estimate[b] + 0.75:
                scored.append((abs(estimate[b] - level), rank))
    danger = misere_danger(world.hands[seat], world.players)
    for rank in MISERES:
        if rank in allowed_set and danger <= (2.0 if rank == MISERE else 1.0):
            scored.append((danger / 2, rank))
    out = [easy, NOTHING] if easy != NOTHING else [NOTHING]
    out += [rank for _, rank in sorted(scored) if rank != easy]
    return out[:MOST_BIDS]


# The kitty ---------------------------------------------------------------------------


def keep_value(order: Order, hand: int, card: int) -> float:
    """How much a card is worth keeping, before play: trumps, then aces and guarded kings,
    then length (more at no trumps, where long suits run)."""
    s = order.suit[card]
    if s == order.trump:
        return 100.0 + order.power[card]
    length = (hand & order.masks[s]).bit_count()
    rank = card & 15
    value = float(rank)
    if rank == C.ACE:
        value += 20
    elif rank == C.KING:
        value += 15 if hand >> (card + 1) & 1 else (4 if length >= 2 else 0)
    return value + (1.5 if not order.real_trumps else 0.5) * length


def discard_plans(world: FiveHundred, seat: int) -> list[int]:
    """Good sets of cards to lay aside (bitmasks), best first: the least worth keeping, and
    whole short suits (no ace among them) to trump later."""
    hand = world.hands[seat]
    need = KITTY[world.players]
    if world._misere:
        return misere_discards(world.players, hand, need)
    order = order_for(world)
    trumps = hand & order.masks[order.trump]

    def cheapest(pool: int, count: int) -> int:
        return C.mask_of(sorted(C.cards_in(pool), key=lambda c: keep_value(order, hand, c))[:count])

    plans = [cheapest(hand, need)]
    if order.real_trumps and trumps:
        shorts = [
            hand & order.masks[s]
            for s in range(4)
            if s != order.trump and 0 < (hand & order.masks[s]).bit_count() <= need and not hand >> (s * 16 + C.ACE) & 1
        ]
        for i, short in enumerate(shorts):
            for other in [0, *shorts[i + 1 :]]:
                voided = short | other
                if voided.bit_count() <= need and (hand & ~trumps & ~voided).bit_count() >= need - voided.bit_count():
                    plans.append(voided | cheapest(hand & ~trumps & ~voided, need - voided.bit_count()))
    scored = sorted((-hand_tricks(hand & ~plan, world.players, world._trump), i, plan) for i, plan in enumerate(plans))
    return _unique(plan for *_, plan in scored)


def misere_discards(players: int, hand: int, need: int) -> list[int]:
    """For misère: the most dangerous cards (the joker, high cards), or a short suit whole."""
    order = order_of(players, NT)
    plans = []
    shorts = [hand & order.masks[s] for s in range(4) if 0 < (hand & order.masks[s]).bit_count() <= need]
    for plan in [0, *shorts]:
        while plan.bit_count() < need:
            rest = hand & ~plan
            plan |= 1 << min(C.cards_in(rest), key=lambda c: (misere_danger(rest & ~(1 << c), players), -(c & 15)))
        plans.append(plan)
    scored = sorted(
        (misere_danger(hand & ~plan, players), -sum(c & 15 for c in C.cards_in(plan)), i, plan)
        for i, plan in enumerate(plans)
    )
    return _unique(plan for *_, plan in scored)


def _unique(plans: Iterable[int]) -> list[int]:
    out: list[int] = []
    for plan in plans:
        if plan not in out:
            out.append(plan)
    return out


# The five-player call ---------------------------------------------------------------


def call_choices(world: FiveHundred, seat: int) -> list[int]:
    """Cards worth calling, best first (NOTHING: play alone, first when the hand needs no help):
    the ace of a long side suit, then the king to an ace held."""
    order = order_for(world)
    hand = world.hands[seat]
    level = (world.contract // 2) // 5 + 6
    scored = []
    for c in world._callable():
        rank = c & 15
        length = (hand & order.masks[order.suit[c]]).bit_count()
        if rank == C.ACE:
            score = 30 + 2 * length
        elif rank == C.KING and hand >> (c + 1) & 1:
            score = 25 + 2 * length
        else:
            score = rank + length
        scored.append((-score, c))
    calls = [c for _, c in sorted(scored)]
    if hand_tricks(hand, world.players, world._trump) >= level + 1.0:
        return [NOTHING, *calls][:MOST_CALLS]
    return [*calls[:1], NOTHING, *calls[1:]][:MOST_CALLS]
