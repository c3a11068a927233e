"""Determinized search: Perfect Information Monte Carlo over the engine contract.

For a decision of one seat: deal the cards it cannot see at random,
consistently with what it saw (``state.determinize``), many times; in each
such deal try every candidate action and play the deal out, every seat by the
game's rule-based policy (or, once few cards remain, by exact search); score
the deal with the game's real scoring; choose the candidate with the best
average. This is how GIB played Bridge (Ginsberg 2001) and Kermit Skat (Buro,
Long, Furtak and Sturtevant 2009); its known weakness, "strategy fusion"
(Frank and Basin 1998), matters little in trick games with this many samples
(Long, Sturtevant, Buro and Furtak 2010).

Every candidate is played out on the same deals with the same random choices
afterwards (common random numbers), so differences between candidates are not
drowned by the luck of the deal, and the search stops early once the best is
clearly ahead. The deals are drawn by :class:`~bot.players.inference.Sampler`: in
proportion to how likely they make the others' bids and plays, where the game
can say (``likelihood``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from math import sqrt

from bot.games import GameState

from . import endgame
from .inference import Reading, Sampler
from .knowledge import Knowledge

MIN_SAMPLES = 12  # deals tried before a candidate may be dropped
CLEAR_LEAD = 3.0  # standard errors behind the best at which a candidate is dropped
KEEP_RULE = 1.0  # standard errors by which a candidate must beat the rule-based choice to replace it
SOFT_STOP = 0.4  # share of the budget after which a lead of one standard error ends the search


@dataclass(frozen=True)
class Candidate:
    """What the search found of one action."""

    action: str
    value: float  # average value for the seat (its side's points less the others', match win counted)
    # What the seat aims at ("bid", "contract", "defence"): None if some deal tried had no aim, or another one
    # (Five Hundred's auction: a hand thrown in, the side contracting in one deal and defending in the next).
    aim: str | None
    aim_rate: float | None  # share of the deals tried in which the aim was reached (None with no aim)


@dataclass(frozen=True)
class Decision:
    action: str
    samples: int = 0  # deals tried (0: no search was needed)
    candidates: tuple[Candidate, ...] = field(default=())
    reading: Reading | None = None  # what the others' bids and plays say, where the game reads them
    drawn: int = 0  # determinizations dealt, those weighted away included

    @property
    def chosen(self) -> Candidate | None:
        return next((c for c in self.candidates if c.action == self.action), None)


@dataclass
class _Tally:
    total: float = 0.0
    aims: int = 0
    reached: int = 0
    kind: str | None = None
    # Some deal tried had no aim (Five Hundred's hand thrown in) or another kind of it (the side contracting in
    # one deal, defending in the next): no one aim and rate then say what the deals did.
    mixed: bool = False


def values_of(knowledge: Knowledge, before: list[int]) -> endgame.Values:
    """Each seat's value of a world at the end of a deal: its side's points in the deal
    less the other sides' average, plus the match win (or loss) when the match is over."""

    def values(world: GameState) -> list[float]:
        total = world.scores()["total"]
        units = knowledge.units(world)
        gained = [total[unit[0]] - before[unit[0]] for unit in units]
        out = [0.0] * world.players
        winners = set(world.result()["winners"]) if world.is_over() else None
        spread = sum(gained)
        others = len(units) - 1 or 1
        for index, unit in enumerate(units):
            value = gained[index] - (spread - gained[index]) / others
            if winners is not None:
                won = any(s in winners for s in unit)
                value += knowledge.win_value if won else -knowledge.win_value / others
            for s in unit:
                out[s] = value
        return out

    return values


def decide(
    state: GameState,
    seat: int,
    knowledge: Knowledge,
    rng: random.Random,
    *,
    budget_s: float | None,
    samples: int | None,
    legal: list[str] | None = None,
) -> Decision:
    """The search's choice for ``seat``. It reads ``state`` only through ``legal`` and ``determinize``.

    ``samples`` fixes the number of deals tried, every candidate on every deal
    (then the result depends on nothing but the seat's knowledge and ``rng``).
    Otherwise deals are tried until ``budget_s`` is spent, dropping candidates
    that fall clearly behind (successive rejection) so the rest get the deals;
    the search ends when one is left, or after SOFT_STOP of the budget once the best
    leads the second by a standard error (a close call gains little from more).
    """
    started = time.perf_counter()
    legal = state.legal(seat) if legal is None else legal
    if len(legal) == 1:
        return Decision(legal[0])
    timed = samples is None and budget_s is not None
    deadline = started + budget_s if timed and budget_s is not None else None
    sampler = Sampler(state, seat, knowledge, rng, deadline)
    world = sampler.draw()
    candidates = knowledge.shortlist(world, seat, legal, rng)
    if len(candidates) == 1:
        return Decision(candidates[0])
    before = list(world.scores()["total"])
    values = values_of(knowledge, before)
    deal = len(world.sheets)
    tallies = [_Tally() for _ in candidates]
    scores: list[list[float]] = [[] for _ in candidates]  # each candidate's value on each deal it was tried on
    active = list(range(len(candidates)))
    # A decision the game calls worth the whole budget (every decision of Oh Hell's: measured against ISMCTS at
    # the same median time, PIMC gained more from its deals than ISMCTS from its simulations) has no soft stop.
    weighty: Callable[[GameState, int], bool] | None = getattr(knowledge, "weighty", None)
    soft = timed and budget_s is not None and not (weighty is not None and weighty(world, seat))
    soft_stop_at = started + budget_s * SOFT_STOP if soft and budget_s is not None else None
    limit = samples if samples is not None else 10_000
    tried = 0
    while tried < limit:
        row = _try_deal(world, seat, [candidates[i] for i in active], knowledge, values, deal,
                        [tallies[i] for i in active], rng, deadline)  # fmt: skip
        if row is None:
            break
        for i, value in zip(active, row, strict=True):
            scores[i].append(value)
        tried += 1
        if timed:
            active = _still_in_contention(scores, active)
            now = time.perf_counter()
            if len(active) == 1 or (deadline is not None and now > deadline):
                break
            if soft_stop_at is not None and now > soft_stop_at and _leads_by(scores, active, 1.0):
                break
        world = sampler.draw()
    if not tried:  # the budget ran out inside the first deal: trust the rule-based choice
        return Decision(candidates[0])
    means = [sum(row) / len(row) if row else float("-inf") for row in scores]
    best = _final_choice(scores, active)
    found = tuple(
        Candidate(
            action,
            means[i],
            None if tallies[i].mixed else tallies[i].kind,
            tallies[i].reached / tallies[i].aims if tallies[i].aims and not tallies[i].mixed else None,
        )
        for i, action in enumerate(candidates)
    )
    return Decision(candidates[best], tried, found, sampler.reading(), sampler.drawn)


def _try_deal(
    world: GameState,
    seat: int,
    candidates: list[str],
    knowledge: Knowledge,
    values: endgame.Values,
    deal: int,
    tallies: list[_Tally],
    rng: random.Random,
    deadline: float | None,
) -> list[float] | None:
    """Every candidate's value on one deal (None if the time ran out before the deal was done)."""
    if endgame.small_enough(knowledge.cards_left(world)):
        # The exact search of a deal's end can take longer than a small budget (nine seats of two cards):
        # it is stopped at the deadline, and the deal counts for nothing, like a rollout cut short.
        out_of_time = None if deadline is None else (lambda: time.perf_counter() > deadline)
        results = []
        for action in candidates:
            child = world.clone()
            child.act(seat, action)
            try:
                results.append(endgame.best_line(child, values, deal, out_of_time)[1])
            except endgame.OutOfTime:
                return None
    else:
        luck = rng.getrandbits(32)
        results = []
        for action in candidates:
            child = world.clone()
            child.act(seat, action)
            knowledge.rollout(child, random.Random(luck), seat)
            results.append(child)
            if deadline is not None and time.perf_counter() > deadline and len(results) < len(candidates):
                return None
    row = []
    for child, tally in zip(results, tallies, strict=True):
        row.append(values(child)[seat])
        aim = knowledge.aim(child, seat) if len(child.sheets) > deal else None
        if aim is None or (tally.kind is not None and aim[0] != tally.kind):
            tally.mixed = True
        if aim is not None:
            tally.kind, tally.aims, tally.reached = aim[0], tally.aims + 1, tally.reached + aim[1]
    for value, tally in zip(row, tallies, strict=True):
        tally.total += value
    return row


def _final_choice(scores: list[list[float]], active: list[int]) -> int:
    """The best average, except that the rule-based choice (candidate 0) stands unless the best
    beats it by more than KEEP_RULE standard errors on the deals both were tried on."""
    best = _best(scores, active)
    if best != 0 and scores[0]:
        lead, error = _lead(scores, best, 0)
        if lead < KEEP_RULE * error:
            return 0
    return best


def _lead(scores: list[list[float]], best: int, other: int) -> tuple[float, float]:
    """The best's mean lead over ``other`` on the deals both were tried on, and its standard error."""
    n = len(scores[other])
    diffs = [a - b for a, b in zip(scores[best][:n], scores[other], strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, float("inf")
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, sqrt(variance / n)


def _best(scores: list[list[float]], active: list[int]) -> int:
    return max(active, key=lambda i: (sum(scores[i]) / len(scores[i]), -i))


def _still_in_contention(scores: list[list[float]], active: list[int]) -> list[int]:
    """Drop the candidates the best leads by CLEAR_LEAD standard errors (after MIN_SAMPLES deals)."""
    if len(scores[active[0]]) < MIN_SAMPLES:
        return active
    best = _best(scores, active)
    kept = []
    for i in active:
        if i != best:
            mean, error = _lead(scores, best, i)
            if (mean > 0 and mean >= CLEAR_LEAD * error) or (mean == 0 and error == 0):
                continue  # clearly worse, or the same on every deal (equal cards): the best stands for it
        kept.append(i)
    return kept


def _leads_by(scores: list[list[float]], active: list[int], errors: float) -> bool:
    """The best leads every other candidate still in contention by ``errors`` standard errors."""
    best = _best(scores, active)
    for i in active:
        if i != best:
            mean, error = _lead(scores, best, i)
            if (mean <= 0 or mean < errors * error) and not (mean == 0 and error == 0):
                return False
    return True
