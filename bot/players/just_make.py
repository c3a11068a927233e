"""What a computer player knows of Just Make (../shared/rules/just-make.md).

The policy rests on one model of a trick: the cards still to come are drawn
from the cards the seat has not seen, so each rank turns up among them about
as a Poisson count, and a card wins when no later card shares its rank, every
rank that would beat it ends up cancelled or absent, and the jokers fall the
right way (none: high wins; one: low wins; two: the first joker wins). From it
come each card's chance in the trick on the table and in a later trick; a
card is then chosen to give the best chance of ending the deal on exactly the
bid, and a bid is the card whose suit best matches what the other five should
win, weighed by what making it is worth at this score.

Bids and tricks won are face up, so every seat's aim is public: a seat that can
no longer make its bid plays to spoil the aims of the others.

The same policy plays every seat in the search's rollouts, straight on the
engine's bitmasks and its internal bid and play (no action strings).
"""

from __future__ import annotations

import random
from math import comb, exp

from bot.games import GameState
from bot.games import cards as C
from bot.games.just_make import (
    BID,
    DECK_MASK,
    JOKER_BID,
    OVER,
    PLAY,
    TRICKS,
    JustMake,
    bid_value,
    trick_winner,
)

from .knowledge import BID as AIM_BID

RANKS_LOW_TO_HIGH = (0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15)  # 2 … 10, J, Q, K, A
ONE_PER_SUIT = 0x0001_0001_0001_0001  # shifted by a rank: that rank's bit in every suit
WIN_VALUE = 15.0  # a match win, in points: more than any deal can bring
OTHERS_MAKE = 0.35  # how often another seat makes its bid, for weighing what a made bid is worth
EPSILON = 1e-9
FLEXIBILITY = 0.25  # how much choosing the moment to play a card kept for later helps (see plan_chance)


# The trick model ---------------------------------------------------------------


def win_odds(trick: list[int], followers: int, unseen: int) -> tuple[list[float], float]:
    """The chance that a card played now wins ``trick``, by rank (a list indexed by rank),
    and for a joker, with ``followers`` cards still to come from the ``unseen`` cards."""
    size = unseen.bit_count()
    rate = followers / size if size else 0.0
    in_trick = [0] * 16
    trick_jokers = 0
    for code in trick:
        if code >= 64:
            trick_jokers += 1
        else:
            in_trick[code & 15] += 1
    joker_rate = (unseen >> 64).bit_count() * rate
    no_joker = exp(-joker_rate)
    one_joker = joker_rate * no_joker
    absent = []  # the chance a card of this rank is not cancelled by a later card
    harmless = []  # the chance this rank ends up cancelled or absent, so beats nobody
    for rank in RANKS_LOW_TO_HIGH:
        expected = ((unseen >> rank) & ONE_PER_SUIT).bit_count() * rate
        none = exp(-expected)
        shown = in_trick[rank]
        if shown == 0:
            absent.append(none)
            harmless.append(1.0 - expected * none)
        else:
            absent.append(0.0)
            harmless.append(1.0 - none if shown == 1 else 1.0)
    odds = [0.0] * 16
    if trick_jokers < 2:
        below = 1.0
        lows = []
        for value in harmless:
            lows.append(below)
            below *= value
        above = 1.0
        for i in range(len(RANKS_LOW_TO_HIGH) - 1, -1, -1):
            normal, reverse = absent[i] * above, absent[i] * lows[i]
            if trick_jokers == 0:
                odds[RANKS_LOW_TO_HIGH[i]] = no_joker * normal + one_joker * reverse
            else:
                odds[RANKS_LOW_TO_HIGH[i]] = no_joker * reverse
            above *= harmless[i]
    joker = 1.0 - no_joker if trick_jokers == 0 else 0.0  # the first joker wins only beside the second
    return odds, joker


def odds_of(code: int, odds: tuple[list[float], float]) -> float:
    return odds[1] if code >= 64 else odds[0][code & 15]


def later_odds(code: int, odds: tuple[list[float], float]) -> float:
    """A card's chance in a later trick, where a joker is first of two about half the time."""
    return odds[1] * 0.5 if code >= 64 else odds[0][code & 15]


def tricks_distribution(chances: list[float]) -> list[float]:
    """The chance of winning exactly k of independent tricks, for k = 0 … len(chances)."""
    dist = [1.0]
    for p in chances:
        q = 1.0 - p
        new = [d * q for d in dist]
        new.append(0.0)
        for k, d in enumerate(dist):
            new[k + 1] += d * p
        dist = new
    return dist


def chance_of(dist: list[float], need: int, at_least: bool) -> float:
    if need < 0 or need >= len(dist):
        return 1.0 if at_least and need < 0 else 0.0
    return sum(dist[need:]) if at_least else dist[need]


def plan_chance(chances: list[float], need: int, at_least: bool) -> float:
    """The chance of winning exactly ``need`` (or at least, for a joker bid) of later tricks
    with cards of these ``chances``, trying to win with the best ``need`` and lose the rest.

    Cards kept for later are played when it suits them: with r tricks to choose from, a
    card meant to win wins more often than at random (1 - (1 - q)^a), and a card meant to
    lose wins less often (q^a), with a = 1 + FLEXIBILITY (r - 1).
    """
    if need < 0:
        return 1.0 if at_least else 0.0
    if need > len(chances):
        return 0.0
    power = 1.0 + FLEXIBILITY * (len(chances) - 1)
    ordered = sorted(chances, reverse=True)
    attempts = [1.0 - (1.0 - q) ** power if i < need or at_least else q**power for i, q in enumerate(ordered)]
    return chance_of(tricks_distribution(attempts), need, at_least)


# Aims -------------------------------------------------------------------------------


def need_of(world: JustMake, seat: int) -> tuple[int, bool]:
    """Tricks the seat still needs, and whether more is fine (a joker bid)."""
    value = bid_value(world.bids[seat])
    if value == JOKER_BID:
        return JOKER_BID - world.tricks[seat], True
    return value - world.tricks[seat], False


def desire(world: JustMake, seat: int, left: int) -> float:
    """How much ``seat`` wants the trick being played: 1 must win it, -1 must not, 0 does not care."""
    need, at_least = need_of(world, seat)
    if at_least:
        return 1.0 if need >= left else (0.0 if need <= 0 else need / left)
    if need < 0 or need > left:
        return 0.0
    return 2.0 * need / left - 1.0


# Playing a card -------------------------------------------------------------------------


def choose_play(world: JustMake, seat: int, unseen: int) -> int:
    """The card ``seat`` plays to the current trick, from what the seat may know:
    its hand, the cards it has not seen (``unseen``) and the public table."""
    hand = world.hands[seat]
    held = C.cards_in(hand)
    if len(held) == 1:
        return held[0]
    trick = world.trick
    n = world.players
    followers = n - 1 - len(trick)
    left = TRICKS - world.tricks_played
    need, at_least = need_of(world, seat)
    if need > left or (need < 0 and not at_least):
        return spoil(world, seat, held)
    now = win_odds(trick, followers, unseen)
    later = win_odds([], n - 1, unseen)
    chances_now = [odds_of(c, now) for c in held]
    chances_later = [later_odds(c, later) for c in held]
    best, best_score = held[0], -1.0
    for i, code in enumerate(held):
        rest = chances_later[:i] + chances_later[i + 1 :]
        p = chances_now[i]
        make = p * plan_chance(rest, need - 1, at_least) + (1.0 - p) * plan_chance(rest, need, at_least)
        # Equal chances: a joker bid takes what it can, others keep their options (stronger later).
        score = make + (EPSILON * p if at_least else EPSILON * chances_later[i])
        if score > best_score + EPSILON * EPSILON:
            best, best_score = code, score
    return best


def spoil(world: JustMake, seat: int, held: list[int]) -> int:
    """A seat that can no longer make its bid: see the trick go where it hurts the others most
    (as the trick stands after this card; later cards may change it)."""
    n = world.players
    order = [(world.leader + i) % n for i in range(len(world.trick) + 1)]
    left = TRICKS - world.tricks_played
    best, best_score = held[0], -2.0
    for code in held:
        winner, _, _ = trick_winner([*world.trick, code])
        taker = None if winner is None else order[winner]
        score = 0.0 if taker is None or taker == seat else -desire(world, taker, left)
        if score > best_score:
            best, best_score = code, score
    return best


# Bidding ---------------------------------------------------------------------------------


def outcome_value(world: JustMake, seat: int, makers: int, made: bool, tricks: int, doubled: bool) -> float:
    """What a deal ending so is worth to ``seat``: its change of total, a match win counted."""
    options = world.options
    n, target = world.players, options["target"]
    total = world.totals[seat]
    if makers == 0:
        if not options["all_fail_reverse"]:
            return 0.0
        ranks = sorted(set(world.totals), reverse=True)
        return float(dict(zip(ranks, reversed(ranks), strict=True))[total] - total)
    if options["scoring"] == "tricks":
        points = max(tricks, 1) if made else 0
    elif makers == n:
        points = tricks
    elif makers == n - 1:
        points = 1 if made else 0
    else:
        points = {1: 3, 2: 2}.get(makers, 1) if made else 0
    if not made and makers == n - 1:
        return float(-1 - total) if options["lone_loser_minus_one"] else -3.0
    if doubled and made:
        points *= 2
    new = total - points if total + points > target else total + points
    wins = new == target or (
        made and ((options["sweep_wins"] and tricks == TRICKS) or (options["joker_make_wins"] and tricks >= JOKER_BID))
    )
    return new - total + (WIN_VALUE if wins else 0.0)


def choose_bid(world: JustMake, seat: int, unseen: int) -> tuple[int, bool]:
    """The bid card (and whether to double it) with the best expected worth this deal."""
    hand = world.hands[seat]
    held = C.cards_in(hand)
    n = world.players
    later = win_odds([], n - 1, unseen)
    chances = {c: later_odds(c, later) for c in held}
    others = [comb(n - 1, j) * OTHERS_MAKE**j * (1 - OTHERS_MAKE) ** (n - 1 - j) for j in range(n)]
    fail_value = sum(others[j] * outcome_value(world, seat, j, False, 0, False) for j in range(n))
    may_double = world.options["double_hard_bids"]
    best: tuple[int, bool] = (held[0], False)
    best_value = -1e9
    for code in held:
        value = bid_value(code)
        at_least = value == JOKER_BID
        make = plan_chance([chances[c] for c in held if c != code], value, at_least)
        tricks = value
        for doubled in (False, True) if may_double and value >= 3 else (False,):
            made_value = sum(others[j] * outcome_value(world, seat, j + 1, True, tricks, doubled) for j in range(n))
            worth = make * made_value + (1.0 - make) * fail_value
            if worth > best_value + EPSILON:
                best, best_value = (code, doubled), worth
    return best


# The knowledge the search uses -----------------------------------------------------------


def unseen_by(world: JustMake, seat: int, shown: int) -> int:
    """The cards ``seat`` has not seen, given every face-up card (bids and plays) in ``shown``."""
    return DECK_MASK & ~(world.hands[seat] | shown)


def shown_cards(world: JustMake) -> int:
    shown = 0
    for code in world.bids:
        if code >= 0:
            shown |= 1 << code
    for _, code in world.plays:
        shown |= 1 << code
    return shown


def action_of(world: JustMake, seat: int) -> str:
    shown = shown_cards(world)
    unseen = unseen_by(world, seat, shown)
    if world.phase == BID:
        code, doubled = choose_bid(world, seat, unseen)
        return "bid " + C.NAMES[code] + (" double" if doubled else "")
    return "play " + C.NAMES[choose_play(world, seat, unseen)]


class JustMakeKnowledge:
    win_value = WIN_VALUE

    def easy(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> str:
        assert isinstance(world, JustMake)
        action = action_of(world, seat)
        return action if action in legal else legal[0]

    def rollout(self, world: GameState, rng: random.Random) -> None:
        assert isinstance(world, JustMake)
        deal = len(world.sheets)
        shown = shown_cards(world)
        while world.phase != OVER and len(world.sheets) == deal:
            if world.phase == BID:
                seat = world.bid_order[world.bidder]
                code, doubled = choose_bid(world, seat, unseen_by(world, seat, shown))
                world._bid(seat, code, doubled)
            else:
                seat = (world.leader + len(world.trick)) % world.players
                code = choose_play(world, seat, unseen_by(world, seat, shown))
                world._play(seat, code)
            shown |= 1 << code

    def shortlist(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> list[str]:
        first = self.easy(world, seat, legal, rng)
        return [first, *(a for a in legal if a != first)]

    def cards_left(self, world: GameState) -> list[int] | None:
        assert isinstance(world, JustMake)
        if world.phase != PLAY:
            return None
        return [hand.bit_count() for hand in world.hands]

    def units(self, world: GameState) -> list[list[int]]:
        return [[seat] for seat in range(world.players)]

    def aim(self, world: GameState, seat: int) -> tuple[str, bool] | None:
        if not world.sheets:
            return None
        return AIM_BID, bool(world.sheets[-1]["rows"][seat]["made"])


KNOWLEDGE = JustMakeKnowledge()
