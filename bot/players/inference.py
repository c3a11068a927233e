"""Reading the table: determinizations drawn in proportion to how likely they make what was seen.

A determinization consistent with the voids shown is not yet a likely one: a
player who bid 0 rarely holds the ace of trumps. Where a game's knowledge can
score a deal by how likely its bids and plays were (``likelihood``: the log of
the chance that players bidding and playing like the rule-based player, read
softly, would have done what the table saw), :class:`Sampler` draws several
determinizations for each one the search uses and keeps one in proportion to
that likelihood (sampling-importance-resampling, Rubin 1988; the same idea as
Kermit's inference in Skat, Buro et al. 2009). The likelihood reads only the
determinization: the seat's own hand, the public history (bids, cards played,
voids) and cards the seat has not seen dealt at random, so the reading cannot
peek (``tests/players/test_hidden.py``).

The worlds drawn are kept with their weights (up to a few hundred): unweighted
they are what the voids alone allow, weighted what the bids and plays make
likely; a game's ``read`` turns the difference into one line a person
understands, for hints ("the player on your left bid 0: likely no spade above
the 9").
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import exp, inf, isnan

from bot.games import GameState

from .knowledge import Knowledge

PROPOSALS = 4  # determinizations drawn for each one kept, unless the game says otherwise (``proposals``)
KEPT = 384  # worlds kept, with their weights, for the reading


@dataclass(frozen=True)
class Reading:
    """What the bids and plays say of one other seat: ``seat`` bid ``bid`` and likely holds no card of
    ``suit`` (a letter of ``SHCD``) above ``rank`` (a rank name such as ``9``)."""

    seat: int
    bid: int
    suit: str
    rank: str
    chance: float  # share of the weighted deals in which it is so
    before: float  # the same share among deals only consistent with the voids shown


Likelihood = Callable[[GameState, int], float]


class Sampler:
    """Determinizations for one decision of ``seat``, weighted by the game's ``likelihood`` when it has one."""

    def __init__(
        self,
        state: GameState,
        seat: int,
        knowledge: Knowledge,
        rng: random.Random,
        deadline: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.state, self.seat, self.knowledge, self.rng = state, seat, knowledge, rng
        # A timed decision's end (on ``clock``): the proposals past it are not drawn, the first always is.
        self.deadline, self.clock = deadline, clock
        self.likelihood: Likelihood | None = getattr(knowledge, "likelihood", None)
        self.refine: Callable[[GameState, int, random.Random], GameState | None] | None = getattr(
            knowledge, "refine", None
        )
        self.worlds: list[GameState] = []  # drawn, for the reading
        self.weights: list[float] = []  # each one's chance to be kept among those drawn with it
        self.drawn = 0  # determinizations dealt, kept or not
        self.proposals: int | None = None  # determinizations drawn for each one kept (known at the first draw)

    def _one(self) -> GameState:
        world = self.state.determinize(self.seat, self.rng).stop_at_deal_end()  # searched to the deal's end only
        self.drawn += 1
        if self.refine is not None:
            return self.refine(world, self.seat, self.rng) or world
        return world

    def draw(self) -> GameState:
        """A deal the seat cannot tell from the real one, as likely as the table makes it."""
        if self.likelihood is None:
            return self._one()
        first = self._one()
        if self.proposals is None:
            # How many to draw a world for is the game's call on a determinization (public: the phase), where
            # the likelihood is cheap (Oh Hell's bids) more proposals follow what was seen more closely.
            count: Callable[[GameState, int], int] | None = getattr(self.knowledge, "proposals", None)
            self.proposals = PROPOSALS if count is None else count(first, self.seat)
        worlds, logs = [first], [self.likelihood(first, self.seat)]
        while len(worlds) < self.proposals and (self.deadline is None or self.clock() < self.deadline):
            worlds.append(self._one())
            logs.append(self.likelihood(worlds[-1], self.seat))
        weights = _weights(logs)
        chosen = self.rng.choices(worlds, weights)[0]
        if len(self.worlds) < KEPT:
            total = sum(weights)
            self.worlds += worlds
            self.weights += [weight / total for weight in weights]
        return chosen

    def reading(self) -> Reading | None:
        """The one line the game's ``read`` makes of the worlds kept, if it says anything."""
        read: Callable[[list[GameState], list[float], int], Reading | None] | None = getattr(
            self.knowledge, "read", None
        )
        if read is None or len(self.worlds) < 16 * PROPOSALS:
            return None
        return read(self.worlds, self.weights, self.seat)


def _weights(logs: list[float]) -> list[float]:
    """Each proposal's chance to be kept, from the logs of its likelihood: in proportion to the likelihood,
    the likeliest scaled to 1 so none underflows beside it. A log that is not a number counts as impossible;
    when every proposal is impossible (a table no model explains: every log -inf) they are kept alike, as
    the voids alone would have them, and when some are certain (+inf) only those."""
    logs = [-inf if isnan(value) else value for value in logs]
    top = max(logs)
    if top == -inf:
        return [1.0] * len(logs)
    if top == inf:
        return [1.0 if value == inf else 0.0 for value in logs]
    return [exp(value - top) for value in logs]
