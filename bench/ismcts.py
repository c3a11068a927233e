"""``python -m bench players --against ismcts``: duplicate Oh Hell against OpenSpiel's C++ ISMCTS.

Each deal is made by OpenSpiel's chance actions (the dealer, every card, the
turned-up trump), copied into this project's engine, and played twice: our
level at seats 0 and 2 and ISMCTS at 1 and 3, then the seats swapped, so each
hand of cards is played once by each. Both engines step side by side and must
name the same player on turn and the same legal actions at every step (a
difference stops the run: it would measure rules, not players). The figure is
the mean point difference per seat-deal (our level's points on a seat's cards
less ISMCTS's on the same cards, averaged over the four seats) with a 95%
interval over the deals, the exact-bid rates and the decision times.

ISMCTS (Cowling, Powley and Whitehouse 2012) is OpenSpiel's ``ISMCTSBot`` with
random rollouts; it gets a number of simulations calibrated before the run so
that its median decision takes as long as our level's median decision.

OpenSpiel is an optional bench extra, never a dependency of the bot:
``pip install 'open_spiel==1.6.1'`` (or ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.games import cards as C
from bot.games import new_game
from bot.games.oh_hell import DECK_MASK, NO_TRUMPS, OhHell

INSTALL = "OpenSpiel is needed for --against ismcts: pip install 'open_spiel==1.6.1' (or pip install -e '.[bench]')"
PLAYERS = 4
SIZES = (5, 7, 9)  # the deals' sizes, in turn
OS_SUITS = "CDSH"  # OpenSpiel's card action: rank * 4 + suit, suits in this order, ranks 2 to A
OS_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
BID_BASE = 52  # OpenSpiel's bid action: 52 + the bid
UCT_C = 10.0  # exploration: the returns of a deal span about 0 to 20 points
PROBE_SIMULATIONS = 400
FIXED_SIMULATIONS = 1000  # ISMCTS's simulations a decision when our level's deals are fixed (--samples)


def pyspiel_module() -> Any:
    """OpenSpiel's module, or SystemExit saying how to install it."""
    try:
        import pyspiel
    except ImportError as error:
        raise SystemExit(INSTALL) from error
    return pyspiel


def openspiel_ismcts(pyspiel: Any, rng: random.Random, simulations: int) -> Any:
    """OpenSpiel's ISMCTS as this bench plays it: random rollouts, ``UCT_C``, ``simulations`` a decision, the
    max-visit final policy, seeded from ``rng``."""
    return pyspiel.ISMCTSBot(
        rng.getrandbits(31),
        pyspiel.RandomRolloutEvaluator(1, rng.getrandbits(31)),
        UCT_C,
        simulations,
        -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,
        False,
    )


def our_code(action: int) -> int:
    """This project's card code of OpenSpiel's card action."""
    code = C.parse(OS_RANKS[action // 4] + OS_SUITS[action % 4])
    assert code is not None
    return code


OUR_TO_OS = {our_code(a): a for a in range(52)}


@dataclass(frozen=True)
class DealPlan:
    index: int
    size: int
    chance: tuple[int, ...]  # OpenSpiel's chance actions that make the deal
    ours: str  # our level: "strong", "baseline" or "ismcts-weighted"
    budget_ms: int
    simulations: int
    seed: int
    samples: int | None = None  # our level's deals a decision, fixed (then ISMCTS's simulations are fixed too)


@dataclass
class DealOutcome:
    index: int
    difference: float  # our points less ISMCTS's per seat-deal, over the two plays of the deal
    made: tuple[int, int]  # exact bids made: ours, ISMCTS's (of 4 each)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # seconds: ours, ISMCTS's
    worlds: list[tuple[int, int]] = field(default_factory=list)  # our searches: deals tried, deals drawn
    simulations: list[int] = field(default_factory=list)  # ISMCTS's, a decision
    misses: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))  # bids missed over, under: ours, ISMCTS's


def make_deal(pyspiel: Any, size: int, rng: random.Random) -> tuple[int, ...]:
    """A deal drawn through OpenSpiel's chance actions (with their probabilities)."""
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": size})
    state = game.new_initial_state()
    chosen = []
    while state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        action = rng.choices(actions, weights)[0]
        chosen.append(action)
        state.apply_action(action)
    return tuple(chosen)


def our_state(os_state: Any, size: int, seed: int) -> OhHell:
    """This project's engine holding the same deal as OpenSpiel's state just dealt: trick-plus-ten with the
    hook (OpenSpiel's scoring), one deal of ``size`` cards, the same dealer, hands and trump."""
    state = new_game("oh-hell", players=PLAYERS, options={"start_cards": size, "scoring": "trick-plus-ten"}, seed=seed)
    assert isinstance(state, OhHell)
    text = str(os_state)
    dealer = int(text.split("Dealer: ")[1].split()[0])
    hands = [0] * PLAYERS
    trump_card = -1
    history = [a for a in os_state.history()]
    cards = history[2:]  # the first two chance actions: the number of tricks and the dealer
    for j, action in enumerate(cards[: PLAYERS * size]):
        hands[j % PLAYERS] |= 1 << our_code(action)
    if len(cards) > PLAYERS * size:
        trump_card = our_code(cards[PLAYERS * size])
    state.first_dealer = state.dealer = dealer
    state.hands = hands
    state.turn_up = trump_card
    state.trump = trump_card >> 4 if trump_card >= 0 else NO_TRUMPS
    used = trump_card if trump_card >= 0 else 0
    state.unused = DECK_MASK & ~(hands[0] | hands[1] | hands[2] | hands[3]) & ~((1 << used) if trump_card >= 0 else 0)
    state.bidder = state.leader = (dealer + 1) % PLAYERS
    return state


def os_action(action: str) -> int:
    kind, value = action.split()
    if kind == "bid":
        return BID_BASE + int(value)
    code = C.parse(value)
    assert code is not None
    return OUR_TO_OS[code]


Played = tuple[list[int], list[int], tuple[list[float], list[float]], list[tuple[int, int]]]


def play_once(plan: DealPlan, ours_at: tuple[int, ...], pyspiel: Any) -> Played:
    """One play of the deal with our level at ``ours_at``: each seat's points, its tricks less its bid, the
    decision times (ours, ISMCTS's) of decisions with a choice, and how many deals each of our searches tried
    and drew (the weighted-away ones included)."""
    from bench.baseline import baseline_decide
    from bench.own_ismcts import ismcts_decide
    from bench.players import WEIGHTED_ISMCTS
    from bot.players import ComputerPlayer

    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": plan.size})
    os_state = game.new_initial_state()
    for dealt in plan.chance:
        os_state.apply_action(dealt)
    state = our_state(os_state, plan.size, plan.seed)
    rng = random.Random(f"{plan.seed}/{ours_at}")
    times: tuple[list[float], list[float]] = ([], [])
    worlds: list[tuple[int, int]] = []
    while not os_state.is_terminal():
        seat = state.to_act()[0]
        legal = state.legal(seat)
        if os_state.current_player() != seat or sorted(os_action(a) for a in legal) != sorted(os_state.legal_actions()):
            raise RuntimeError(f"the engines disagree at deal {plan.index}: {os_state.history()} {legal}")
        started = time.perf_counter()
        if seat in ours_at:
            seed = rng.getrandbits(32)
            if plan.ours == "baseline":
                decision = baseline_decide(state, seat, seed, plan.budget_ms, plan.samples)
            elif plan.ours == WEIGHTED_ISMCTS:
                decision = ismcts_decide(state, seat, seed, plan.budget_ms, plan.samples)
            else:
                player = ComputerPlayer(plan.ours, seed=seed, budget_ms=plan.budget_ms, samples=plan.samples)
                decision = player.decide(state, seat)
            action = decision.action
            spent, mine = time.perf_counter() - started, 0
            if decision.samples:
                worlds.append((decision.samples, decision.drawn or decision.samples))
            chosen = os_action(action)
        else:
            if len(legal) > 1:
                simulations = plan.simulations if plan.samples else PACE.simulations(plan.simulations)
                bot = openspiel_ismcts(pyspiel, rng, simulations)
                started = time.perf_counter()
                chosen = bot.step(os_state)
                PACE.theirs(simulations, time.perf_counter() - started)
            else:
                chosen = os_state.legal_actions()[0]
            spent, mine = time.perf_counter() - started, 1
            action = next(a for a in legal if os_action(a) == chosen)
        if len(legal) > 1:
            times[mine].append(spent)
            if mine == 0:
                PACE.ours(spent)
        state.act(seat, action)
        os_state.apply_action(chosen)
    if not state.sheets:
        raise RuntimeError(f"deal {plan.index}: OpenSpiel ended the deal, this engine did not")
    rows = state.sheets[-1]["rows"]
    returns = os_state.returns()
    points = [int(row["points"]) for row in rows]
    if [float(p) for p in points] != list(returns):
        raise RuntimeError(f"deal {plan.index}: the engines score differently: {points} against {returns}")
    return points, [int(row["tricks"]) - int(row["bid"]) for row in rows], times, worlds


class Pace:
    """ISMCTS's simulations a decision, kept so that its decisions take our level's median time as the run
    goes (the machine's load changes under a long run; one calibration at the start does not hold): ISMCTS's
    speed in simulations a second is followed decision by decision, and our level's median over its last
    decisions is the target."""

    WINDOW = 200

    def __init__(self) -> None:
        self.our_times: list[float] = []
        self.rate: float | None = None  # ISMCTS simulations a second, a running average
        self.used: list[int] = []

    def ours(self, seconds: float) -> None:
        self.our_times = [*self.our_times[-self.WINDOW + 1 :], seconds]

    def theirs(self, simulations: int, seconds: float) -> None:
        rate = simulations / max(seconds, 1e-4)
        self.rate = rate if self.rate is None else 0.8 * self.rate + 0.2 * rate
        self.used.append(simulations)

    def simulations(self, start: int) -> int:
        if self.rate is None or len(self.our_times) < 5:
            return start
        return max(10, round(self.rate * statistics.median(self.our_times)))


PACE = Pace()  # one a process: a worker plays its deals one after another


def play_deal(plan: DealPlan) -> DealOutcome:
    """The deal played twice, seats swapped (in a worker)."""
    pyspiel = pyspiel_module()
    first = play_once(plan, (0, 2), pyspiel)
    second = play_once(plan, (1, 3), pyspiel)
    ours = [first[0][s] if s in (0, 2) else second[0][s] for s in range(PLAYERS)]
    theirs = [second[0][s] if s in (0, 2) else first[0][s] for s in range(PLAYERS)]
    our_off = [first[1][s] if s in (0, 2) else second[1][s] for s in range(PLAYERS)]
    their_off = [second[1][s] if s in (0, 2) else first[1][s] for s in range(PLAYERS)]
    made = (our_off.count(0), their_off.count(0))
    misses = tuple((sum(d > 0 for d in off), sum(d < 0 for d in off)) for off in (our_off, their_off))
    times = (first[2][0] + second[2][0], first[2][1] + second[2][1])
    difference = (sum(ours) - sum(theirs)) / PLAYERS
    outcome = DealOutcome(plan.index, difference, made, times, first[3] + second[3], PACE.used)
    outcome.misses = (misses[0], misses[1])
    PACE.used = []
    return outcome


def calibrate(pyspiel: Any, ours: str, budget_ms: int, seed: int) -> tuple[int, float, float]:
    """ISMCTS's simulations a decision for the same median time as our level's: two deals with a probe
    count, then scaled. Returns the simulations and the two medians measured (seconds)."""
    rng = random.Random(f"calibrate/{seed}")
    mine: list[float] = []
    theirs: list[float] = []
    for index in range(2):
        size = SIZES[index % len(SIZES)]
        plan = DealPlan(-1 - index, size, make_deal(pyspiel, size, rng), ours, budget_ms, PROBE_SIMULATIONS, seed)
        _, _, times, _ = play_once(plan, (0, 2), pyspiel)
        mine += times[0]
        theirs += times[1]
    ours_median, probe_median = statistics.median(mine), statistics.median(theirs)
    return max(10, round(PROBE_SIMULATIONS * ours_median / probe_median)), ours_median, probe_median


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1] if ordered else math.nan


def bench_ismcts(
    deals: int,
    budget_ms: int,
    seed: int,
    jobs: int,
    ours: str = "strong",
    simulations: int | None = None,
    samples: int | None = None,
) -> list[str]:
    """Run the duplicate match; the report as lines to print. With ``samples`` our level tries that many deals a
    decision and ISMCTS runs ``simulations`` (1,000 if not given) a decision: neither player's strength then
    depends on the machine's speed or load, so two versions of a player compare on the same footing (the
    figures still vary by chance: OpenSpiel's ISMCTS does not play the same twice even with its seeds fixed)."""
    if samples is not None and simulations is None:
        simulations = FIXED_SIMULATIONS
    pyspiel = pyspiel_module()
    load_before = "/".join(f"{v:.2f}" for v in os.getloadavg())
    started = time.perf_counter()
    lines = []
    if simulations is None:
        simulations, ours_median, probe_median = calibrate(pyspiel, ours, budget_ms, seed)
        lines.append(
            f"Calibration: {ours} median {1000 * ours_median:.0f} ms; ISMCTS {PROBE_SIMULATIONS} simulations median "
            f"{1000 * probe_median:.0f} ms → {simulations} simulations a decision."
        )
    rng = random.Random(f"deals/{seed}")
    plans = []
    for index in range(deals):
        size = SIZES[index % len(SIZES)]
        chance = make_deal(pyspiel, size, rng)
        plans.append(DealPlan(index, size, chance, ours, budget_ms, simulations, seed + index, samples))
    outcomes: list[DealOutcome] = []
    report: Callable[[DealOutcome], None] = lambda o: print(  # noqa: E731
        f"deal {o.index}: {o.difference:+.2f} a seat, made {o.made[0]}/4 vs {o.made[1]}/4", flush=True
    )
    if jobs <= 1:
        for plan in plans:
            outcomes.append(play_deal(plan))
            report(outcomes[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for outcome in pool.map(play_deal, plans):
                outcomes.append(outcome)
                report(outcome)
    diffs = [o.difference for o in outcomes]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    made_ours = sum(o.made[0] for o in outcomes) / (PLAYERS * len(outcomes))
    made_theirs = sum(o.made[1] for o in outcomes) / (PLAYERS * len(outcomes))
    over = [sum(o.misses[k][0] for o in outcomes) / (PLAYERS * len(outcomes)) for k in (0, 1)]
    under = [sum(o.misses[k][1] for o in outcomes) / (PLAYERS * len(outcomes)) for k in (0, 1)]
    t_ours = [t for o in outcomes for t in o.times[0]]
    t_theirs = [t for o in outcomes for t in o.times[1]]
    load_after = "/".join(f"{v:.2f}" for v in os.getloadavg())
    tried = sorted(w[0] for o in outcomes for w in o.worlds)
    simulated = sorted(n for o in outcomes for n in o.simulations)
    drawn = sorted(w[1] for o in outcomes for w in o.worlds)
    pace = (
        f"{ours} {samples} deals a decision and ISMCTS {simulations} simulations, fixed (whatever the machine's load)"
        if samples
        else f"its simulations a decision following {ours}'s running median time (started at {simulations}; "
        f"median {percentile(simulated, 0.5):.0f}, p10 {percentile(simulated, 0.1):.0f}, p90 "
        f"{percentile(simulated, 0.9):.0f})"
    )
    fixed = f" --samples {samples} --simulations {simulations}" if samples else ""
    lines += [
        f"| {ours} vs ISMCTS | duplicate deals | points per seat-deal (95%) | exact bids {ours} / ISMCTS "
        f"| {ours} ms p50 / p99 | ISMCTS ms p50 / p99 |",
        "|---|---|---|---|---|---|",
        f"| Oh Hell 4p, {'/'.join(map(str, SIZES))} cards, {budget_ms} ms | {len(outcomes)} "
        f"| {mean:+.2f} ± {half:.2f} [{mean - half:+.2f}, {mean + half:+.2f}] "
        f"| {100 * made_ours:.0f}% / {100 * made_theirs:.0f}% "
        f"| {1000 * percentile(t_ours, 0.5):.0f} / {1000 * percentile(t_ours, 0.99):.0f} ({len(t_ours)}) "
        f"| {1000 * percentile(t_theirs, 0.5):.0f} / {1000 * percentile(t_theirs, 0.99):.0f} ({len(t_theirs)}) |",
        "",
        f"Bids missed: {ours} {100 * over[0]:.0f}% over (more tricks than bid), {100 * under[0]:.0f}% under; "
        f"ISMCTS {100 * over[1]:.0f}% over, {100 * under[1]:.0f}% under.",
        f"Run: `python -m bench players --against ismcts --level {ours} --matches {deals} "
        f"--budget-ms {budget_ms} --seed {seed} --jobs {jobs}{fixed}`: ISMCTS with uct_c {UCT_C}, random rollouts, "
        f"the max-visit final policy, {pace}.",
        f"{ours}'s searches ({len(tried)}): deals tried a decision median {percentile(tried, 0.5):.0f}, mean "
        f"{statistics.fmean(tried) if tried else math.nan:.0f}, p90 {percentile(tried, 0.9):.0f}; deals drawn "
        f"(weighted away included) median {percentile(drawn, 0.5):.0f}, "
        f"mean {statistics.fmean(drawn) if drawn else math.nan:.0f}.",
        f"{time.perf_counter() - started:.0f} s wall on {os.cpu_count()} cores; load average {load_before} → "
        f"{load_after}. Each deal played twice (seats 0 and 2, then 1 and 3); scoring trick-plus-ten with the hook "
        "(OpenSpiel's oh_hell).",
    ]
    return lines
