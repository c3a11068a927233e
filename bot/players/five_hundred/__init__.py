"""What a computer player knows of Five Hundred (docs/rules/five-hundred.md).

The rule-based player reads a seat's *sight* (:mod:`.sight`): for every seat,
the cards it could hold. For the seat itself and an exposed open-misère hand
that is the hand; for another seat, every card the seat has not seen (not in
its hand, not played, not its own discards) less the suits that seat has
shown void in. In the search's rollouts every seat plays the made-up deal on its
own sight too: rollouts in which every seat saw every card judged moves by a
play no one can make, and searched worse than the rule-based player itself.

- :mod:`.bidding`: what a hand should take at each trump and at no trumps,
  calibrated on played-out deals, and the auction read for a partner's
  strength and the opponents' suits; the most valuable contract the side
  expects to make, or a pass (with four players the strong player's bid too,
  away from the target: searching that auction measured worse). Misère only with a hand that cannot be forced to
  win a trick, open misère only with one that cannot be beaten face up. The
  kitty's discards keep trumps and winners and make voids; the five-player
  call names the ace (or the king to an ace) that best completes the hand.
- :mod:`.play`: see there.

The rollouts play straight on the engine's bitmasks and its internal play (no
action strings for the cards), with a faster equivalent of the seat's sight.
"""

from __future__ import annotations

import random

from bot.games import GameState
from bot.games import cards as C
from bot.games.five_hundred import BID, CALL, DISCARD, OVER, PLAY, PLAY_TEXT, FiveHundred, bid_rank, bid_text

from ..knowledge import CONTRACT, DEFENCE
from .bidding import bid_candidates, bid_choice, call_choices, discard_plans, winning_bid
from .play import needless, play_choice
from .sight import NOTHING, order_for, rollout_sight, sight_of

__all__ = ["KNOWLEDGE", "FiveHundredKnowledge"]

WIN_VALUE = 500.0  # a match win, in points: as much as a big contract
MOST_CANDIDATES = 12
SEARCHED_AUCTIONS = frozenset({2, 3, 5, 6})  # player counts at which strong searches every auction
NEAR_THE_END = 250  # a side's total (either sign) from which strong searches the auction


class FiveHundredKnowledge:
    win_value = WIN_VALUE

    def easy(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> str:
        assert isinstance(world, FiveHundred)
        return self._choices(world, seat, legal, strong=False)[0]

    def shortlist(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> list[str]:
        assert isinstance(world, FiveHundred)
        choices = self._choices(world, seat, legal, strong=True)
        if len(choices) > MOST_CANDIDATES:
            # Leading the joker at no trumps with a full hand: its easy naming, and one other.
            namings = [a for a in choices[1:] if a.startswith("play JK ")]
            choices = [a for a in choices if a not in namings[1:]]
        return choices[:MOST_CANDIDATES]

    def _choices(self, world: FiveHundred, seat: int, legal: list[str], strong: bool) -> list[str]:
        """The rule-based choice first, then the others worth comparing (for the search: ``strong``)."""
        if world.phase == BID:
            allowed = [rank for rank in map(bid_rank, (a[4:] for a in legal if a != "pass")) if rank is not None]
            if not strong:
                return [_bid_action(bid_choice(world, seat, allowed))]
            bid = winning_bid(world, seat, allowed)
            if not searches_auction(world):
                return [_bid_action(bid)]  # the calibrated bid: a search chose worse here
            return [_bid_action(rank) for rank in bid_candidates(world, seat, allowed, bid)]
        if world.phase == DISCARD:
            return [_discard_action(plan) for plan in discard_plans(world, seat)]
        if world.phase == CALL:
            return [_call_action(card) for card in call_choices(world, seat)]
        sight = sight_of(world, seat)
        first = _play_action(*play_choice(world, sight))
        left_out = needless(world, sight)
        return [first, *(a for a in legal if a != first and not left_out >> C.CODES[a.split()[1]] & 1)]

    def rollout(self, world: GameState, rng: random.Random, sighted: int = -1) -> None:
        assert isinstance(world, FiveHundred)
        deal = len(world.sheets)
        while world.phase != OVER and len(world.sheets) == deal:
            seat = world.turn
            phase = world.phase
            if phase == PLAY:
                code, named = play_choice(world, rollout_sight(world, seat, order_for(world)))
                world._play_card(seat, code, named)
            elif phase == BID:
                world.act(seat, _bid_action(bid_choice(world, seat, world._bid_choices())))
            elif phase == DISCARD:
                world.act(seat, _discard_action(discard_plans(world, seat)[0]))
            else:
                world.act(seat, _call_action(call_choices(world, seat)[0]))

    def cards_left(self, world: GameState) -> list[int] | None:
        assert isinstance(world, FiveHundred)
        if world.phase != PLAY:
            return None
        return [0 if s in world.sitting_out else world.hands[s].bit_count() for s in range(world.players)]

    def units(self, world: GameState) -> list[list[int]]:
        assert isinstance(world, FiveHundred)
        if world.players == 5:
            return [[s] for s in range(5)]  # the called partner's share is already in the totals
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


def searches_auction(world: FiveHundred) -> bool:
    """Whether the strong player's search compares bids here, where it measured better than the
    calibrated bid alone: at the player counts in SEARCHED_AUCTIONS, and wherever a side is near
    enough the target (or the floor) for this hand to decide the match."""
    return world.players in SEARCHED_AUCTIONS or any(abs(total) >= NEAR_THE_END for total in world.totals)


def _bid_action(rank: int) -> str:
    return "pass" if rank == NOTHING else "bid " + bid_text(rank)


def _discard_action(plan: int) -> str:
    return "discard " + " ".join(C.NAMES[c] for c in C.cards_in(plan))


def _call_action(card: int) -> str:
    return "alone" if card == NOTHING else "call " + C.NAMES[card]


def _play_action(card: int, named: int) -> str:
    return PLAY_TEXT[card] + (" " + C.SUITS[named] if named != NOTHING else "")


KNOWLEDGE = FiveHundredKnowledge()
