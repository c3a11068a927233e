"""``python -m bench reading``: how well Oh Hell's model of the others' bids and plays fits a player's real ones.

Strong reads the table through a model of how players bid and play (``bot.players.oh_hell``: a bid drawn
from a normal curve of ``BID_SPREAD`` tricks around the hand's estimate, a card the easy player's with the
chance ``PLAY_FOLLOWS``). This plays four-player deals (5, 7 and 9 cards in turn, OpenSpiel's scoring) with
one player at every seat and records each bid against the estimate of the hand it was made with, and each
card played with a choice against the easy player's card in the same position. It prints the bids' offset
from the estimate and its spread, the model's log-likelihood a bid as it is and at the best fit of an offset
and a spread, and the share of the plays that were the easy card against the model's chance.

``--level ismcts`` plays OpenSpiel's C++ ISMCTS at every seat (its deals made by OpenSpiel's chance actions,
as ``bench players --against ismcts`` does; needs ``open_spiel``); ``easy``, ``strong`` and ``baseline``
play on this project's engine alone.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games import new_game
from bot.games.oh_hell import PLAY_TEXT, OhHell
from bot.players.oh_hell import BID_SPREAD, PLAY_FOLLOWS, bid_estimate, bid_log_chance_given, choose_card

from . import ismcts

LEVELS = ("ismcts", "easy", "strong", "baseline")
BIASES = tuple(round(-0.6 + 0.05 * i, 2) for i in range(17))  # -0.60 to +0.20 tricks
SPREADS = tuple(round(0.3 + 0.05 * i, 2) for i in range(25))  # 0.30 to 1.50 tricks


@dataclass(frozen=True)
class Bid:
    estimate: float
    bid: int
    cards: int
    hooked: int


@dataclass
class Record:
    bids: list[Bid] = field(default_factory=list)
    plays: int = 0  # cards played with a choice
    easy_plays: int = 0  # ... that were the easy player's card


Chooser = Callable[[OhHell, int, list[str]], str]


def _ours(level: str, budget_ms: int, samples: int | None, rng: random.Random) -> Chooser:
    from bench.baseline import baseline_decide
    from bot.players import ComputerPlayer

    def choose(state: OhHell, seat: int, legal: list[str]) -> str:
        seed = rng.getrandbits(32)
        if level == "baseline":
            return baseline_decide(state, seat, seed, budget_ms, samples).action
        return ComputerPlayer(level, seed=seed, budget_ms=budget_ms, samples=samples).decide(state, seat).action

    return choose


def _note(record: Record, state: OhHell, seat: int, legal: list[str], action: str) -> None:
    if len(legal) < 2:
        return
    if action.startswith("bid "):
        record.bids.append(Bid(bid_estimate(state, seat), int(action.split()[1]), state.cards, state.hooked()))
    else:
        record.plays += 1
        record.easy_plays += PLAY_TEXT[choose_card(state, seat)] == action


def play_ours(level: str, deals: int, seed: int, budget_ms: int, samples: int | None) -> Record:
    """``deals`` deals of this project's engine with ``level`` at every seat."""
    rng = random.Random(seed)
    choose = _ours(level, budget_ms, samples, rng)
    record = Record()
    for index in range(deals):
        size = ismcts.SIZES[index % len(ismcts.SIZES)]
        options = {"start_cards": size, "scoring": "trick-plus-ten"}
        state = new_game("oh-hell", players=ismcts.PLAYERS, options=options, seed=rng.getrandbits(32))
        assert isinstance(state, OhHell)
        while not state.sheets:
            seat = state.to_act()[0]
            legal = state.legal(seat)
            action = legal[0] if len(legal) == 1 else choose(state, seat, legal)
            _note(record, state, seat, legal, action)
            state.act(seat, action)
    return record


def play_ismcts(deals: int, seed: int, simulations: int) -> Record:
    """``deals`` deals dealt by OpenSpiel with its ISMCTS at every seat, both engines stepped side by side."""
    pyspiel = ismcts.pyspiel_module()
    rng = random.Random(seed)
    record = Record()
    for index in range(deals):
        size = ismcts.SIZES[index % len(ismcts.SIZES)]
        chance = ismcts.make_deal(pyspiel, size, rng)
        os_state: Any = pyspiel.load_game("oh_hell", {"players": ismcts.PLAYERS, "num_tricks_fixed": size})
        os_state = os_state.new_initial_state()
        for dealt in chance:
            os_state.apply_action(dealt)
        state = ismcts.our_state(os_state, size, index)
        while not os_state.is_terminal():
            seat = state.to_act()[0]
            legal = state.legal(seat)
            if sorted(ismcts.os_action(a) for a in legal) != sorted(os_state.legal_actions()):
                raise RuntimeError(f"the engines disagree: {os_state.history()} {legal}")
            if len(legal) == 1:
                chosen = os_state.legal_actions()[0]
            else:
                bot = ismcts.openspiel_ismcts(pyspiel, rng, simulations)
                chosen = bot.step(os_state)
            action = next(a for a in legal if ismcts.os_action(a) == chosen)
            _note(record, state, seat, legal, action)
            state.act(seat, action)
            os_state.apply_action(chosen)
    return record


def log_likelihood(bids: list[Bid], bias: float, spread: float) -> float:
    """The bid model's mean log-likelihood a bid, its curve moved by ``bias`` tricks and of ``spread``."""
    total = sum(bid_log_chance_given(b.estimate + bias, b.bid, b.cards, b.hooked, spread) for b in bids)
    return total / len(bids)


def best_fit(bids: list[Bid]) -> tuple[float, float, float]:
    """The offset and spread (on a grid) under which the bids are likeliest, and that log-likelihood a bid."""
    fits = ((log_likelihood(bids, bias, spread), bias, spread) for bias in BIASES for spread in SPREADS)
    likeliest, bias, spread = max(fits)
    return bias, spread, likeliest


def report(level: str, deals: int, record: Record) -> list[str]:
    lines = [f"Oh Hell, 4 players, {deals} deals (5, 7 and 9 cards in turn), {level} at every seat:", ""]
    bids = record.bids
    if len(bids) >= 2:
        offsets = [b.bid - b.estimate for b in bids]
        mean, sd = statistics.fmean(offsets), statistics.stdev(offsets)
        half = 1.96 * sd / math.sqrt(len(offsets))
        bias, spread, likeliest = best_fit(bids)
        lines += [
            "| bids with a choice | bid less the hand's estimate (95%) | its spread | log-likelihood a bid: "
            f"the model (offset 0, spread {BID_SPREAD}) | best fit: offset, spread (log-likelihood) |",
            "|---|---|---|---|---|",
            f"| {len(bids)} | {mean:+.2f} ± {half:.2f} | {sd:.2f} | {log_likelihood(bids, 0.0, BID_SPREAD):.3f} "
            f"| {bias:+.2f}, {spread:.2f} ({likeliest:.3f}) |",
            "",
        ]
    if record.plays:
        share = record.easy_plays / record.plays
        half = 1.96 * math.sqrt(share * (1 - share) / record.plays)
        lines.append(
            f"Cards played with a choice: {record.plays}; the easy player's card {share:.1%} ± {half:.1%} "
            f"(the model's chance: {PLAY_FOLLOWS:.0%})."
        )
    return lines


def bench_reading(
    level: str, deals: int, seed: int, budget_ms: int, samples: int | None, simulations: int
) -> list[str]:
    if level == "ismcts":
        record = play_ismcts(deals, seed, simulations)
    else:
        record = play_ours(level, deals, seed, budget_ms, samples)
    return report(level, deals, record)
