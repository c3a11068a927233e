"""``python -m bench players``: strength and speed of the computer players.

A pairing "A vs B" seats one unit of level A (a seat, or in Five Hundred with
partnerships a whole side) and level B everywhere else. Each deal seed is
played once per unit with A moved round the table, so over a rotation both
levels hold the same cards and the luck of the deal evens out.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TypedDict

from bot.games import GAMES, GameState, InvalidGame, new_game
from bot.games.views import BidRow
from bot.players import LEVELS, ComputerPlayer

WEIGHTED_ISMCTS = "ismcts-weighted"  # with --against ismcts only: bench/own_ismcts.py
RANDOM = "random"  # uniformly random legal actions: the floor every level must clear
BASELINE = "baseline"  # strong as it was before it read the table (bench/baseline.py), at the same budget
BENCH_LEVELS = (*LEVELS, BASELINE, RANDOM)
PAIRINGS: tuple[tuple[str, str], ...] = (("strong", "easy"), ("easy", RANDOM), ("strong", RANDOM))
# Short formats where a game has them, so a match is quick enough to measure many;
# Five Hundred plays a full game to 500 and Just Make to its default target.
MATCH_OPTIONS: dict[str, dict[str, object]] = {"ninety-nine": {"format": "nine-deals"}}
FIRST, SECOND = 0, 1  # roles: the pairing's first level (one unit) and its second (the rest)


@dataclass(frozen=True)
class MatchPlan:
    """One match to play: which deals, who sits where, how long a decision may take."""

    game: str
    players: int
    pairing: tuple[str, str]
    deal_seed: int  # the same for every rotation, so the rotations share their cards
    rotation: int  # the unit the first level holds
    options: dict[str, object]
    deals: int | None  # stop after this many deals; the leader on total wins
    budget_ms: int


@dataclass
class Aims:
    """Bids (Ninety-Nine, Just Make) or contracts won at auction (Five Hundred), and how many were made."""

    tried: int = 0
    made: int = 0


@dataclass
class MatchOutcome:
    plan: MatchPlan
    first_share: float  # the first level's share of the match win (a shared win counts fractionally)
    capped: bool  # ended by the deal cap, not by the rules
    hands: int  # deals played to a score (Five Hundred: not thrown in)
    units: list[list[int]]  # the seats that win together; the first level held units[plan.rotation]
    contracts: bool  # the sheets name a contractor (Five Hundred): aims are contracts, not bids
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # seconds, by role
    aims: tuple[Aims, Aims] = field(default_factory=lambda: (Aims(), Aims()))  # by role
    points: float = 0.0  # the first level's unit's total less the other units' average, a hand played


def units_of(state: GameState) -> list[list[int]]:
    """The seats that win together: the public sides where a game has them, else each seat alone."""
    sides = state.view(None).get("sides")
    return [list(side) for side in sides] if sides else [[seat] for seat in range(state.players)]


def seat_roles(units: list[list[int]], rotation: int, players: int) -> list[int]:
    """Each seat's role: the first level holds the unit ``rotation``, the second every other seat."""
    return [FIRST if seat in units[rotation] else SECOND for seat in range(players)]


class SheetRead(TypedDict, total=False):
    """What the benchmark reads of any game's deal sheet: the core's rows (as the games where each seat
    bids have them), and Five Hundred's hand thrown in and its contract."""

    rows: list[BidRow]
    thrown_in: bool
    contractor: int | None
    made: bool | None


def hands_played(sheets: list[SheetRead]) -> int:
    return sum(1 for sheet in sheets if not sheet.get("thrown_in"))


def leaders(state: GameState, units: list[list[int]]) -> list[int]:
    """The seats of the units highest on total: the winners when the deal cap is hit."""
    total = state.scores()["total"]
    best = max(total[unit[0]] for unit in units)
    return [seat for unit in units if total[unit[0]] == best for seat in unit]


def first_share(winners: Iterable[int], units: list[list[int]], first_unit: int) -> float:
    """The first level's share of a match win: one over the winning units if its unit is among them."""
    won = set(winners)
    winning = [index for index, unit in enumerate(units) if won & set(unit)]
    return 1 / len(winning) if first_unit in winning else 0.0


def tally_aims(sheets: list[SheetRead], role: list[int]) -> tuple[Aims, Aims]:
    """Each role's bids made exactly, or (where sheets name a contractor) contracts made."""
    aims = (Aims(), Aims())
    for sheet in sheets:
        if "contractor" in sheet:
            contractor = sheet["contractor"]
            if sheet.get("thrown_in") or contractor is None:
                continue
            aim = aims[role[contractor]]
            aim.tried += 1
            aim.made += bool(sheet["made"])
            continue
        for row in sheet["rows"]:
            if row["seat"] < len(role):  # not the two-player Ninety-Nine dummy, which nobody bids for
                aim = aims[role[row["seat"]]]
                aim.tried += 1
                aim.made += bool(row["made"])
    return aims


def play_match(plan: MatchPlan) -> MatchOutcome:
    """Play one match; runs in a worker, one decision at a time, timing each computer decision."""
    state = new_game(plan.game, players=plan.players, options=plan.options, seed=plan.deal_seed)
    units = units_of(state)
    role = seat_roles(units, plan.rotation, plan.players)
    # The n-th decision gets the same seed in every rotation: random:random rotations replay one match.
    seeds = random.Random(f"decisions/{plan.deal_seed}")
    times: tuple[list[float], list[float]] = ([], [])
    while not state.is_over() and (plan.deals is None or hands_played(state.sheets) < plan.deals):
        seat = state.to_act()[0]
        legal = state.legal(seat)
        level = plan.pairing[role[seat]]
        decision_seed = seeds.getrandbits(32)
        if level == RANDOM:
            action = random.Random(decision_seed).choice(legal)
        else:
            started = time.perf_counter()
            action = choose(level, state, seat, decision_seed, plan.budget_ms)
            if len(legal) > 1:  # a forced move is no decision; it would only flatter the times
                times[role[seat]].append(time.perf_counter() - started)
        state.act(seat, action)
    capped = not state.is_over()
    winners = leaders(state, units) if capped else state.result()["winners"]
    hands = hands_played(state.sheets)
    return MatchOutcome(
        plan,
        first_share(winners, units, plan.rotation),
        capped,
        hands,
        units,
        any("contractor" in sheet for sheet in state.sheets),
        times,
        tally_aims(state.sheets, role),
        points_margin(state.scores()["total"], units, plan.rotation) / max(1, hands),
    )


def choose(level: str, state: GameState, seat: int, seed: int, budget_ms: int) -> str:
    """A computer level's choice: ``bot.players``' levels, or the bench's ``baseline``."""
    if level == BASELINE:
        from bench.baseline import baseline_decide

        return baseline_decide(state, seat, seed, budget_ms).action
    return ComputerPlayer(level, seed=seed, budget_ms=budget_ms).choose(state, seat)


def points_margin(total: Sequence[float], units: list[list[int]], first_unit: int) -> float:
    """The first level's unit's total less the average of the other units' totals."""
    mine = total[units[first_unit][0]]
    others = [total[unit[0]] for index, unit in enumerate(units) if index != first_unit]
    return mine - sum(others) / len(others)


@dataclass(frozen=True)
class BenchConfig:
    games: tuple[str, ...]
    players: tuple[int, ...]  # empty: each game's default count
    pairings: tuple[tuple[str, str], ...]
    matches: int  # per game, player count and pairing, rounded up to whole rotations
    budget_ms: int
    seed: int
    options: dict[str, dict[str, object]]  # per game, over MATCH_OPTIONS
    deals: int | None
    jobs: int


def deal_seed(seed: int, game: str, players: int, index: int) -> int:
    """The seed of a set of deals, shared by every pairing and rotation of that game and count."""
    return random.Random(f"{seed}/{game}/{players}/{index}").getrandbits(31)


def player_counts(config: BenchConfig, game: str) -> list[int]:
    allowed = GAMES[game].players
    return [n for n in config.players if n in allowed] if config.players else [GAMES[game].default_players]


def unavailable(game: str, players: int, options: dict[str, object], levels: Iterable[str]) -> str | None:
    """Why a level cannot play this game (it has no knowledge module yet), or None."""
    state = new_game(game, players=players, options=options, seed=0)
    for level in sorted(set(levels) - {RANDOM, BASELINE}):
        try:
            ComputerPlayer(level, seed=0, samples=1).choose(state, state.to_act()[0])
        except ImportError as error:
            return f"{level}: {type(error).__name__}: {error}"
    return None


def plan_matches(config: BenchConfig) -> tuple[list[MatchPlan], list[str]]:
    """Every match of the run, and a note for each game, count or pairing left out and why."""
    plans: list[MatchPlan] = []
    notes: list[str] = []
    for game in config.games:
        counts = player_counts(config, game)
        notes += [f"skipped {game} {n}p: not a player count of {game}" for n in config.players if n not in counts]
        options = {**MATCH_OPTIONS.get(game, {}), **config.options.get(game, {})}
        for players in counts:
            units = len(units_of(new_game(game, players=players, options=options, seed=0)))
            rounds = math.ceil(config.matches / units)
            for pairing in config.pairings:
                why = unavailable(game, players, options, pairing)
                if why is not None:
                    notes.append(f"skipped {game} {players}p {pairing[0]} vs {pairing[1]}: {why}")
                    continue
                for index in range(rounds):
                    seed = deal_seed(config.seed, game, players, index)
                    plans.extend(
                        MatchPlan(game, players, pairing, seed, rotation, options, config.deals, config.budget_ms)
                        for rotation in range(units)
                    )
    return plans, notes


GroupKey = tuple[str, int, tuple[str, str]]


def group_of(plan: MatchPlan) -> GroupKey:
    return plan.game, plan.players, plan.pairing


def run(
    plans: list[MatchPlan], jobs: int, on_group_done: Callable[[list[MatchOutcome]], None] | None = None
) -> list[MatchOutcome]:
    """Play every plan, in a pool of ``jobs`` processes (in this process when 1); the outcomes in plan order."""
    left: dict[GroupKey, int] = defaultdict(int)
    for plan in plans:
        left[group_of(plan)] += 1
    done: dict[GroupKey, list[MatchOutcome]] = defaultdict(list)
    outcomes: dict[int, MatchOutcome] = {}

    def finished(index: int, outcome: MatchOutcome) -> None:
        outcomes[index] = outcome
        key = group_of(outcome.plan)
        done[key].append(outcome)
        if len(done[key]) == left[key] and on_group_done is not None:
            on_group_done(done[key])

    if jobs <= 1:
        for index, plan in enumerate(plans):
            finished(index, play_match(plan))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play_match, plan): index for index, plan in enumerate(plans)}
            for future in as_completed(futures):
                finished(futures[future], future.result())
    return [outcomes[index] for index in range(len(plans))]


@dataclass(frozen=True)
class Row:
    """The figures of one game, player count and pairing."""

    game: str
    players: int
    pairing: tuple[str, str]
    side_size: int  # seats of the first level's unit
    units: int
    matches: int
    capped: int
    win_share: float
    margin: float  # two standard errors of the share, over the deal seeds (nan with one seed)
    times: tuple[list[float], list[float]]  # sorted seconds, by role
    aims: tuple[Aims, Aims]
    hands: int
    contracts: bool  # Five Hundred: aims are contracts won at auction
    points: float = 0.0  # the first level's points a hand over the other units' average
    points_margin: float = math.nan  # two standard errors of it, over the deal seeds

    @property
    def fair(self) -> float:
        return 1 / self.units


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (the smallest value with at least ``fraction`` of them at or below it)."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def summarize(outcomes: list[MatchOutcome]) -> list[Row]:
    """One row per game, player count and pairing, in the order the outcomes come."""
    groups: dict[GroupKey, list[MatchOutcome]] = {}
    for outcome in outcomes:
        groups.setdefault(group_of(outcome.plan), []).append(outcome)
    rows = []
    for (game, players, pairing), group in groups.items():
        units = group[0].units
        share = sum(o.first_share for o in group) / len(group)
        margin = two_errors_over_seeds(group, lambda o: o.first_share)
        points = sum(o.points for o in group) / len(group)
        times = tuple(sorted(t for o in group for t in o.times[role]) for role in (FIRST, SECOND))
        aims = tuple(
            Aims(sum(o.aims[role].tried for o in group), sum(o.aims[role].made for o in group))
            for role in (FIRST, SECOND)
        )
        rows.append(
            Row(
                game,
                players,
                pairing,
                len(units[0]),
                len(units),
                len(group),
                sum(o.capped for o in group),
                share,
                margin,
                (times[0], times[1]),
                (aims[0], aims[1]),
                sum(o.hands for o in group),
                any(o.contracts for o in group),
                points,
                two_errors_over_seeds(group, lambda o: o.points),
            )
        )
    return rows


def two_errors_over_seeds(group: list[MatchOutcome], figure: Callable[[MatchOutcome], float]) -> float:
    """Two standard errors of a figure's mean, over the deal seeds (each seed's rotations averaged
    first, so the luck of the cards cancels out); nan with a single seed."""
    by_seed: dict[int, list[float]] = defaultdict(list)
    for outcome in group:
        by_seed[outcome.plan.deal_seed].append(figure(outcome))
    seed_means = [sum(values) / len(values) for values in by_seed.values()]
    if len(seed_means) < 2:
        return math.nan
    mean = sum(seed_means) / len(seed_means)
    variance = sum((m - mean) ** 2 for m in seed_means) / (len(seed_means) - 1)
    return 2 * math.sqrt(variance / len(seed_means))


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "—"


def _ms(times: list[float]) -> str:
    if not times:
        return "—"

    def ms(seconds: float) -> str:  # the rule-based level takes well under 10 ms: keep a decimal there
        return f"{seconds * 1000:.1f}" if seconds < 0.01 else f"{seconds * 1000:.0f}"

    return f"{ms(percentile(times, 0.5))} / {ms(percentile(times, 0.99))} ({len(times)})"


def render_row(row: Row) -> str:
    first, second = row.pairing
    label = f"{first} (one side) vs {second}" if row.side_size > 1 else f"{first} vs {second}"
    share = _pct(row.win_share, 1) + ("" if math.isnan(row.margin) else f" ±{100 * row.margin:.0f}")
    made = " / ".join(_pct(a.made, a.tried) for a in row.aims)
    contractor = " / ".join(_pct(a.tried, row.hands) for a in row.aims) if row.contracts else "—"
    points = f"{row.points:+.1f}" + ("" if math.isnan(row.points_margin) else f" ±{row.points_margin:.1f}")
    return (
        f"| {row.game} | {row.players} | {label} | {row.matches} | {share} | {_pct(row.fair, 1)} | "
        f"{row.win_share / row.fair:.2f} | {points} | {_ms(row.times[0])} | {_ms(row.times[1])} | {made} "
        f"| {contractor} |"
    )


HEADER = (
    "| game | players | pairing (1st vs 2nd) | matches | 1st wins | fair | ratio to fair | 1st points a hand "
    "| 1st ms p50 / p99 (decisions) | 2nd ms p50 / p99 (decisions) | made 1st / 2nd | contractor 1st / 2nd |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
)


def command_line(config: BenchConfig) -> str:
    """The command that repeats this run, every setting spelled out."""
    parts = ["python -m bench players"]
    parts += [f"--game {game}" for game in config.games]
    parts += [f"--players {n}" for n in config.players]
    parts += [f"--pairing {a}:{b}" for a, b in config.pairings]
    parts += [f"--matches {config.matches}", f"--budget-ms {config.budget_ms}", f"--seed {config.seed}"]
    if config.deals is not None:
        parts.append(f"--deals {config.deals}")
    for game, options in config.options.items():
        parts += [f"--options {game}:{key}={str(value).lower()}" for key, value in options.items()]
    parts.append(f"--jobs {config.jobs}")
    return " ".join(parts)


def render(rows: list[Row], config: BenchConfig, notes: list[str], wall_s: float, loads: list[str]) -> list[str]:
    lines = [*HEADER, *(render_row(row) for row in rows), ""]
    lines.append(f"Run: `{command_line(config)}`")
    lines.append(
        f"{wall_s:.0f} s wall on {os.cpu_count()} cores ({platform.python_implementation()} "
        f"{platform.python_version()}); load average {' → '.join(loads)}."
    )
    lines.append(
        "Each deal seed is replayed with the 1st level moved over every seat (Five Hundred with partners: "
        "over every side, both partners of that level). Wins: the 1st level's share of match wins, a shared "
        "win split, ±2 standard errors over the deal seeds; fair = 1 / seats (or sides). Points a hand: the "
        "1st level's total less the other seats' (or sides') average, over the hands played, ±2 standard errors "
        "over the deal seeds (with --deals 1, a hand-by-hand comparison on the same cards). Decision times: "
        "decisions with more than one legal action, timed in a worker process playing one decision at a time. "
        "Made: bids made exactly (Ninety-Nine, Just Make) or contracts made of those the level won at auction "
        "(Five Hundred); contractor: share of the hands played that the level won the auction."
    )
    defaults = ", ".join(
        f"{game} " + " ".join(f"{key}={value}" for key, value in options.items())
        for game, options in MATCH_OPTIONS.items()
    )
    lines.append(f"Formats: {defaults}; Five Hundred to 500, Just Make to its target, unless --options says otherwise.")
    if config.deals is not None:
        capped = sum(row.capped for row in rows)
        total = sum(row.matches for row in rows)
        lines.append(
            f"Matches capped at {config.deals} deals ({capped} of {total} hit the cap): then the leader on total wins."
        )
    lines += notes
    return lines


# The command line ----------------------------------------------------------------


def _pairing(text: str) -> tuple[str, str]:
    first, _, second = text.partition(":")
    if first not in BENCH_LEVELS or second not in BENCH_LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r}: write FIRST:SECOND, levels {', '.join(BENCH_LEVELS)}")
    return first, second


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="one game (repeatable); all by default")
    parser.add_argument(
        "--players", type=int, action="append", help="a player count (repeatable); each game's default by default"
    )
    parser.add_argument(
        "--pairing",
        type=_pairing,
        action="append",
        help="FIRST:SECOND levels (strong, easy, baseline, random; repeatable); default strong:easy, easy:random, "
        "strong:random",
    )
    parser.add_argument(
        "--matches", type=_positive, default=12, help="matches per pairing, rounded up to whole seat rotations"
    )
    parser.add_argument("--budget-ms", type=_positive, default=1000, help="the strong level's time per decision")
    parser.add_argument("--seed", type=int, default=1, help="every deal and decision seed comes from it")
    parser.add_argument("--deals", type=_positive, help="cap a match at this many deals (the leader on total wins)")
    parser.add_argument(
        "--options",
        action="append",
        default=[],
        metavar="[GAME:]KEY=VALUE",
        help="a game option (rules/*.md names) for every game that has it, or for GAME only; repeatable",
    )
    parser.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument(
        "--against",
        choices=("ismcts",),
        help="ismcts: duplicate four-player Oh Hell deals against OpenSpiel's ISMCTS (--matches deals, "
        "--level plays them); needs pip install 'open_spiel==1.6.1'",
    )
    parser.add_argument(
        "--level",
        choices=("strong", BASELINE, WEIGHTED_ISMCTS),
        default="strong",
        help="with --against: the level that plays (ismcts-weighted: an ISMCTS over strong's weighted deals and "
        "rollouts, bench/own_ismcts.py)",
    )
    parser.add_argument(
        "--samples",
        type=_positive,
        help="with --against: our level tries this many deals a decision and ISMCTS runs --simulations (default "
        "1000), both fixed whatever the machine's load (to compare versions of a player on a loaded machine)",
    )
    parser.add_argument("--simulations", type=_positive, help="with --against and --samples: ISMCTS's a decision")


def parse_options(given: list[str], games: Sequence[str]) -> dict[str, dict[str, object]]:
    """``[GAME:]KEY=VALUE`` strings as typed option values per game; ValueError if one fits no game."""
    out: dict[str, dict[str, object]] = {}
    for text in given:
        target, key, value = _split_option(text)
        matched = False
        for game in games:
            spec = next((o for o in GAMES[game].options if o.name == key), None)
            if spec is None or (target is not None and target != game):
                continue
            typed: object = value
            if isinstance(spec.default, bool):
                typed = {"true": True, "false": False}.get(value.lower(), value)
            elif isinstance(spec.default, int):
                typed = int(value) if value.lstrip("-").isdigit() else value
            try:
                out.setdefault(game, {})[key] = spec.check(typed)
            except InvalidGame as error:
                raise ValueError(f"--options {text}: {key} must be {spec.allowed()}") from error
            matched = True
        if not matched:
            raise ValueError(f"--options {text}: no game of this run has the option {key!r}")
    return out


def _split_option(text: str) -> tuple[str | None, str, str]:
    setting, equals, value = text.partition("=")
    if not equals:
        raise ValueError(f"--options {text}: write KEY=VALUE or GAME:KEY=VALUE")
    game, colon, key = setting.rpartition(":")
    return (game if colon else None), key, value


def config_from(args: argparse.Namespace) -> BenchConfig:
    games = tuple(args.game or GAMES)
    return BenchConfig(
        games=games,
        players=tuple(args.players or ()),
        pairings=tuple(args.pairing or PAIRINGS),
        matches=args.matches,
        budget_ms=args.budget_ms,
        seed=args.seed,
        options=parse_options(args.options, games),
        deals=args.deals,
        jobs=args.jobs,
    )


def bench_players(config: BenchConfig) -> list[str]:
    """Run the benchmark; the table and how it was run, as lines to print."""
    loads = [_load()]
    started = time.perf_counter()
    plans, notes = plan_matches(config)

    def report(group: list[MatchOutcome]) -> None:  # a long run shows each row as soon as it is done
        print(render_row(summarize(group)[0]), file=sys.stderr, flush=True)

    outcomes = run(plans, config.jobs, report)
    loads.append(_load())
    return render(summarize(outcomes), config, notes, time.perf_counter() - started, loads)


def _load() -> str:
    return "/".join(f"{value:.2f}" for value in os.getloadavg())
