"""Reading the auction: deals made up for the search that fit what the other seats bid.

A determinization deals the unseen cards at random, so in it an opponent who
bid eight hearts holds an average hand, and a partner who passed an average
one too. Searched on such deals, every contract looks easier than it is, and
the search overbids. :func:`refine_by_auction` draws several deals of the
unseen cards and keeps one with a chance in proportion to how likely the
rule-based bidder (:mod:`.bidding`) would have made the other seats' calls
holding them (importance resampling, as ``just_make.refine_by_bids`` does for
face-up bid cards). The calls are read softly: people and searching players
bid differently from the rule-based bidder, so a call it would not have made
only makes a deal less likely, never impossible.
"""

from __future__ import annotations

import random
from math import exp, log1p

from bot.games.five_hundred import MISERE, FiveHundred

from .bidding import MISERES, contract_value, estimates, misere_danger, partners_of, suit_bid

DRAWS = 8  # deals drawn per determinization, besides the one given
SHARPNESS = 2.0  # per trick: how surely a seat bids what its hand's estimate supports
MISERE_SHARPNESS = 1.5  # per card that could be forced to win


def hand_at_auction(world: FiveHundred, seat: int) -> int:
    """The cards ``seat`` held when it bid: its hand now and what it has played this hand,
    less the kitty it picked up and with its discards, if it is the contractor."""
    hand = world.hands[seat]
    for s, code, _ in world.plays:
        if s == seat:
            hand |= 1 << code
    if seat == world.contractor and world.picked_up:
        hand = (hand | world.discards) & ~world.picked_up
    return hand


def _log_sigmoid(z: float) -> float:
    return z - log1p(exp(z)) if z < 0 else -log1p(exp(-z))


def call_fit(scratch: FiveHundred, bidder: int, rank: int, high: int, high_bidder: int) -> float:
    """The log-likelihood that ``bidder``, holding ``scratch.hands[bidder]`` with the auction so
    far in ``scratch.auction``, makes the call ``rank`` (-1: pass) over the standing bid ``high``."""
    hand = scratch.hands[bidder]
    if rank in MISERES:
        limit = 1.0 if rank == MISERE else 0.0
        return _log_sigmoid(MISERE_SHARPNESS * (limit + 0.5 - misere_danger(hand, scratch.players)))
    estimate = estimates(scratch, bidder)
    margin = 0.5 if high_bidder in partners_of(scratch, bidder) else 0.0
    if rank >= 0:
        suit, level = (rank // 2) % 5, (rank // 2) // 5 + 6
        return _log_sigmoid(SHARPNESS * (estimate[suit] - margin - level))
    # A pass: no contract above the standing bid was worth bidding.
    spare = None
    for suit in range(5):
        for level in range(6, 11):
            bid = suit_bid(level, suit)
            if bid > high and (high < 0 or contract_value(bid, scratch) > contract_value(high, scratch)):
                room = estimate[suit] - margin - level
                spare = room if spare is None else max(spare, room)
                break
    return 0.0 if spare is None else _log_sigmoid(-SHARPNESS * spare)


def auction_fit(world: FiveHundred, seat: int, scratch: FiveHundred) -> float:
    """The log-likelihood of the other seats' calls if they held the cards ``world`` gives them."""
    scratch.hands = [hand_at_auction(world, s) for s in range(world.players)]
    fit = 0.0
    high, high_bidder = -1, -1
    for i, (bidder, rank) in enumerate(world.auction):
        if bidder != seat:
            scratch.auction = world.auction[:i]
            fit += call_fit(scratch, bidder, rank, high, high_bidder)
        if rank >= 0:
            high, high_bidder = rank, bidder
    return fit


def refine_by_auction(world: FiveHundred, seat: int, rng: random.Random) -> FiveHundred | None:
    """``world``, or another deal of the cards ``seat`` has not seen, chosen with a chance in
    proportion to how well it explains the other seats' calls (None: no call to read).
    Depends only on what ``seat`` knows of ``world`` and on ``rng``."""
    if not any(bidder != seat for bidder, _ in world.auction):
        return None
    scratch = world.clone()
    deals = [world, *(world.determinize(seat, rng) for _ in range(DRAWS))]
    fits = [auction_fit(deal, seat, scratch) for deal in deals]
    top = max(fits)
    return rng.choices(deals, [exp(fit - top) for fit in fits])[0]
