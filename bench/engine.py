"""``python -m bench engine``: the speed of the rules engines, random matches through the engine contract;
``--against openspiel``: random deals side by side with OpenSpiel's ``oh_hell`` (C++), in one process."""

from __future__ import annotations

import importlib
import importlib.metadata
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from bot.games import GAMES, GameState, compiled, new_game
from bot.games.ninety_nine import NinetyNine
from bot.games.ninety_nine import PlayoutDeal as NinetyNineDeal
from bot.games.oh_hell import OhHell
from bot.games.oh_hell import PlayoutDeal as OhHellDeal

# The formats that keep each game's matches short and even, so a figure is deals per second.
BENCH_OPTIONS: dict[str, dict[str, object]] = {"ninety-nine": {"format": "nine-deals"}}


def play_random_match(game: str, players: int, seed: int, options: dict[str, object] | None = None) -> int:
    """Play one match choosing uniformly among ``legal()``; return the deals played."""
    state = new_game(game, players=players, options=options or BENCH_OPTIONS.get(game, {}), seed=seed)
    pick = random.Random(seed).random
    while not state.is_over():
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else seats[int(pick() * len(seats))]
        actions = state.legal(seat)
        state.act(seat, actions[int(pick() * len(actions))])
    result = state.result()
    deals: int = result.get("hands", result["deals"])  # Five Hundred: hands played, not thrown in
    return deals


def bench_engine(game: str, players: int, seconds: float) -> tuple[int, float, float]:
    """Deals played, the wall time and this process's CPU time taken, over at least ``seconds``.

    The CPU time tells what the engine costs when other work shares the cores.
    """
    play_random_match(game, players, seed=-1)  # warm the lookup tables
    deals, seed, elapsed = 0, 0, 0.0
    start, cpu_start = time.perf_counter(), time.process_time()
    while seed == 0 or elapsed < seconds:  # one match at least, however short the time
        deals += play_random_match(game, players, seed)
        seed += 1
        elapsed = time.perf_counter() - start
    return deals, elapsed, time.process_time() - cpu_start


def engine_figures(games: list[str], seconds: float) -> Iterator[str]:
    """Each game at each of its player counts for ``seconds``: deals a second of wall and of CPU time,
    a line as soon as it is measured."""
    yield f"engines: {'compiled by mypyc' if compiled() else 'pure Python'}"
    for game in games:
        for players in GAMES[game].players:
            deals, elapsed, cpu = bench_engine(game, players, seconds)
            yield (
                f"{game} players={players} deals={deals} seconds={elapsed:.2f} deals/s={deals / elapsed:.0f} "
                f"cpu_seconds={cpu:.2f} deals/cpu_s={deals / cpu:.0f}"
            )


# Side by side with OpenSpiel's Oh Hell (``--against openspiel``) -------------------------------

OPENSPIEL_INSTALL = "pip install 'open_spiel==1.6.1' (or pip install -e '.[bench]')"
ROLLOUTS_PER_CALL = 1_000  # OpenSpiel's C++ playouts per call into it: the call's own cost is lost in them

Playout = Callable[[], None]


def default_tricks(players: int) -> int:
    """The deal's tricks for a player count: Ninety-Nine's (9, or 10 with four) where the pack allows."""
    return 10 if players == 4 else min(9, 51 // players)


def _timed(playout: Playout, seconds: float) -> tuple[int, float, float]:
    """Playouts made, wall seconds and CPU seconds, over at least ``seconds`` (at least one playout)."""
    done, start, cpu_start = 0, time.perf_counter(), time.process_time()
    while True:
        playout()
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done, elapsed, time.process_time() - cpu_start


def _per_move(start: GameState, rng: random.Random, deal: bool) -> Playout:
    """Ours, driven one move at a time from Python (the loop OpenSpiel's side runs too): a clone of the
    dealt deal (or a clone dealt afresh), then ``moves()`` and ``move()`` until the deal is scored."""
    pick = rng.random

    def playout() -> None:
        state = start.clone()
        if deal:
            state.deal_afresh(rng)
        while True:
            moves = state.moves()
            if not moves:
                return
            state.move(moves[int(pick() * len(moves))])

    return playout


def _contract(start: GameState, rng: random.Random) -> Playout:
    """Ours through the table's contract: ``legal()`` strings and ``act()``, from a clone of the dealt deal."""
    pick = rng.random

    def playout() -> None:
        state = start.clone()
        while True:
            seats = state.to_act()
            if not seats:
                return
            seat = seats[0]
            actions = state.legal(seat)
            state.act(seat, actions[int(pick() * len(actions))])

    return playout


def _in_engine(start: GameState, rng: random.Random) -> Playout:
    """Ours, the whole playout inside the engine (``random_playout``, compiled where the engines are)."""

    def playout() -> None:
        start.clone().random_playout(rng)

    return playout


def _compact(start: GameState, rng: random.Random) -> Playout:
    """Ours, the game's compact deal (``PlayoutDeal.mean_points``): ROLLOUTS_PER_CALL copies of the dealt
    deal played out inside the engine a call, every seat's points summed, as OpenSpiel's evaluator does."""
    dealt: OhHellDeal | NinetyNineDeal
    if isinstance(start, OhHell):
        dealt = OhHellDeal.of(start)
    else:
        assert isinstance(start, NinetyNine)
        dealt = NinetyNineDeal.of(start)

    def playouts() -> None:
        dealt.mean_points(rng, ROLLOUTS_PER_CALL)

    return playouts


def our_start(game: str, players: int, tricks: int) -> GameState:
    """A dealt deal of ``game`` with ``tricks`` tricks, that stops when the deal is scored."""
    if game == "oh-hell":
        return new_game(game, players=players, options={"start_cards": tricks}, seed=1).stop_at_deal_end()
    return new_game(game, players=players, options=BENCH_OPTIONS.get(game, {}), seed=1).stop_at_deal_end()


class OpenSpiel:
    """OpenSpiel's ``oh_hell`` (C++, from PyPI's ``open_spiel``) with the same table and tricks."""

    def __init__(self, players: int, tricks: int, rng: random.Random) -> None:
        pyspiel: Any = importlib.import_module("pyspiel")  # an optional benchmark dependency, never the bot's

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks})
        self.rng = rng
        dealt = self.game.new_initial_state()
        while dealt.is_chance_node():
            self._random_move(dealt)
        self.dealt = dealt
        self.bot: Any = None

    def _random_move(self, state: Any) -> bool:
        actions = state.legal_actions()  # at a chance node its outcomes, all equally likely in oh_hell
        if not actions:
            return False
        state.apply_action(actions[int(self.rng.random() * len(actions))])
        return True

    def per_move(self, deal: bool) -> Playout:
        """Driven one move at a time from Python: a new game dealt through its chance nodes (the tricks,
        the dealer, each card, the trump card) or a clone of a dealt one; then ``legal_actions()`` and
        ``apply_action()`` until the deal is scored."""
        game, dealt, pick = self.game, self.dealt, self.rng.random

        def playout() -> None:  # the same loop as ours (``_per_move``)
            state = game.new_initial_state() if deal else dealt.clone()
            while True:
                actions = state.legal_actions()  # at a chance node its outcomes, all equally likely
                if not actions:
                    return
                state.apply_action(actions[int(pick() * len(actions))])

        return playout

    def in_engine(self) -> tuple[Playout, int]:
        """OpenSpiel's own C++ random playouts (``RandomRolloutEvaluator``, as its MCTS and ISMCTS use
        them: a clone of the dealt deal played out), ROLLOUTS_PER_CALL a call through one simulation of
        ``MCTSBot``; returns the call and the playouts it makes."""
        pyspiel = self.pyspiel
        evaluator = pyspiel.RandomRolloutEvaluator(ROLLOUTS_PER_CALL, self.rng.getrandbits(31))
        bot = pyspiel.MCTSBot(self.game, evaluator, 2.0, 1, 1000, False, self.rng.getrandbits(31), False)
        self.bot = (evaluator, bot)  # the bot keeps no reference to its evaluator
        dealt = self.dealt

        def playouts() -> None:
            bot.step(dealt)

        return playouts, ROLLOUTS_PER_CALL


def _line(round_no: int, side: str, game: str, driver: str, dealing: str, done: int, wall: float, cpu: float) -> str:
    return (
        f"round={round_no} side={side} game={game} driver={driver} dealing={dealing} deals={done} "
        f"seconds={wall:.2f} deals/s={done / wall:.0f} cpu_seconds={cpu:.2f} deals/cpu_s={done / cpu:.0f}"
    )


def openspiel_figures(
    players: int, tricks: int | None, seconds: float, rounds: int, games: list[str] | None = None
) -> Iterator[str]:
    """Random deals a second, ours and OpenSpiel's ``oh_hell`` measured in turn in this process, the
    same table and tricks, ``rounds`` times; each ratio is ours over OpenSpiel's deals per CPU second."""
    tricks = tricks or default_tricks(players)
    wanted = games or ["oh-hell", "ninety-nine"]
    ours = [g for g in wanted if g == "oh-hell" or (g == "ninety-nine" and players in (3, 4))]
    rng = random.Random(2026)
    yield f"engines: {'compiled by mypyc' if compiled() else 'pure Python'}"
    try:
        other: OpenSpiel | None = OpenSpiel(players, tricks, rng)
        release = importlib.metadata.version("open_spiel")
        yield f"openspiel: {release} oh_hell players={players} num_tricks_fixed={tricks}"
    except ImportError:
        other = None
        yield f"openspiel: not installed, only our side runs; to compare: {OPENSPIEL_INSTALL}"
    yield (
        f"shape: {players} players, {tricks} tricks a deal, every move uniformly random among the legal ones "
        "(bids included); a playout ends when the deal is scored"
    )
    for round_no in range(1, rounds + 1):
        for driver, dealing in (("per-move", "included"), ("per-move", "excluded"), ("in-engine", "excluded")):
            theirs: float | None = None
            if other is not None:
                if driver == "in-engine":
                    call, each = other.in_engine()
                    calls, wall, cpu = _timed(call, seconds)
                    done = calls * each
                else:
                    done, wall, cpu = _timed(other.per_move(dealing == "included"), seconds)
                theirs = done / cpu
                yield _line(round_no, "openspiel", "oh_hell", driver, dealing, done, wall, cpu)
            for game in ours:
                start = our_start(game, players, tricks)
                if driver == "in-engine":
                    playout = _in_engine(start, rng)
                else:
                    playout = _per_move(start, rng, dealing == "included")
                done, wall, cpu = _timed(playout, seconds)
                ratio = f" ratio={done / cpu / theirs:.2f}" if theirs else ""
                yield _line(round_no, "ours", game, driver, dealing, done, wall, cpu) + ratio
                if driver == "in-engine":
                    calls, wall, cpu = _timed(_compact(start, rng), seconds)
                    done = calls * ROLLOUTS_PER_CALL
                    ratio = f" ratio={done / cpu / theirs:.2f}" if theirs else ""
                    yield _line(round_no, "ours", game, "in-engine-compact", dealing, done, wall, cpu) + ratio
        for game in ours:  # the table's own contract, for the record (no counterpart)
            done, wall, cpu = _timed(_contract(our_start(game, players, tricks), rng), seconds)
            yield _line(round_no, "ours", game, "contract", "excluded", done, wall, cpu)
