"""No peeking, checked against twins built without ``determinize`` (see ``twins.py``).

The no-peek tests of ``test_all_games`` build their twin with ``determinize``, the function they check, so
what it wrongly kept the twin kept too. Here the twin is made by moving the hidden cards about between the
places they may be (respecting shown voids and the called card) and by drawing a new seed and new decks
for the later deals. For random matches of every game and table size with random options, and for matches
steered into the rare phases, at random moments of every phase, a seat must find its twin (1) the same to
look at (view, record, legal moves), (2) the same to sample (the same worlds for the same generator), and
(3) the same to decide on: the easy and the strong player's whole decision and the hint the service shows.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.games import GAMES, GameState, new_game
from bot.players import ComputerPlayer
from bot.tables.thinking import Job, think

from .twins import random_options, twin_of

SETUPS = [(game, players) for game, info in GAMES.items() for players in info.players]
DECIDE = 0.12  # the share of checked moments where the (slower) decisions are compared too
PREFER = ("bid open-misere", "bid misere", "reveal", "declare", "call", "bid JK double", "alone")
STEERED = [
    ("five-hundred", 4, {"misere_after_seven": False}),
    ("five-hundred", 3, {"open_misere_spread": "after-first-trick"}),
    ("five-hundred", 5, {"called_partner": "secret"}),
    ("five-hundred", 5, {"called_partner": "announce"}),
    ("five-hundred", 6, {"six_sides": "two-threes"}),
    ("five-hundred", 2, {"all_pass": "play-no-trumps"}),
    ("ninety-nine", 2, {"trump_style": "turn-up"}),
    ("ninety-nine", 3, {"format": "oxford"}),
    ("ninety-nine", 3, {"trump_style": "turn-up", "declarer_may_raise": True}),
    ("ninety-nine", 4, {"declarer_may_raise": False}),
    ("just-make", 4, {"double_hard_bids": True}),
    ("oh-hell", 4, {"start_cards": 13, "sequence": "down"}),
    ("oh-hell", 7, {"start_cards": 7, "hook": False}),
]


def same_to_the_seat(state: GameState, seat: int, rng: random.Random, decide: bool) -> None:
    twin = twin_of(state, seat, rng)
    assert twin.view(seat) == state.view(seat)
    assert twin.record(seat) == state.record(seat)
    assert twin.legal(seat) == state.legal(seat)
    for k in range(2):
        one = json.loads(state.determinize(seat, random.Random(k)).to_json())
        two = json.loads(twin.determinize(seat, random.Random(k)).to_json())
        assert one == two, {key: (one[key], two.get(key)) for key in one if one[key] != two.get(key)}
    if decide and state.legal(seat):
        for level in ("easy", "strong"):
            mine = ComputerPlayer(level, seed=11, samples=2).decide(state, seat)
            theirs = ComputerPlayer(level, seed=11, samples=2).decide(twin, seat)
            assert mine == theirs, (level, mine, theirs)
        job: dict[str, Any] = {"seat": seat, "level": "strong", "seed": 5, "budget_ms": 1000, "samples": 2}
        assert think(Job(state.to_json(), **job)) == think(Job(twin.to_json(), **job))


def steer(state: GameState, legal: list[str], rng: random.Random, match: int) -> str:
    """Mostly towards the rare phases: misère after a seven (Five Hundred), a declare that stands or a reveal
    (Ninety-Nine), a call, a double."""
    prefer = PREFER if match % 2 == 0 else tuple(p for p in PREFER if p != "reveal")
    for wanted in prefer:
        hits = [action for action in legal if action.startswith(wanted)]
        if hits and rng.random() < 0.85:
            return rng.choice(hits)
    if state.NAME == "five-hundred":
        sevens = [action for action in legal if action.startswith(("bid 7", "bid 6"))]
        if sevens and rng.random() < 0.7:
            return sevens[0]
    return rng.choice(legal)


def play_checking(state: GameState, rng: random.Random, match: int, steered: bool) -> set[str]:
    """Two deals of ``state``, every seat to act (and now and then one not to act) checked; the phases met."""
    mover = ComputerPlayer("easy", seed=1)
    phases: set[str] = set()
    steps = 0
    while not state.is_over() and len(state.sheets) < 2 and steps < 400:
        steps += 1
        seats = state.to_act()
        for seat in seats:
            phases.add(str(state.view(seat)["phase"]))
            same_to_the_seat(state, seat, rng, decide=rng.random() < DECIDE)
        idle = [seat for seat in range(state.players) if seat not in seats]
        if idle and rng.random() < 0.5:  # a seat not to act: what a hint asked later would read
            same_to_the_seat(state, rng.choice(idle), rng, decide=False)
        seat = seats[0]
        legal = state.legal(seat)
        if steered:
            action = steer(state, legal, rng, match)
        else:
            action = mover.choose(state, seat) if rng.random() < 0.5 else rng.choice(legal)
        state.act(seat, action)
    return phases


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_twins_a_seat_cannot_tell_apart_get_the_same_worlds_decisions_and_hints(game: str, players: int) -> None:
    phases: set[str] = set()
    for match in range(2):
        rng = random.Random(f"{game}:{players}:{match}")
        options = random_options(game, players, rng)
        phases |= play_checking(new_game(game, players, options, seed=rng.getrandbits(32)), rng, match, False)
    assert len(phases) >= 2, phases  # bids (or a discard) and play at the least


@pytest.mark.parametrize(("game", "players", "options"), STEERED)
def test_twins_in_the_rare_phases(game: str, players: int, options: dict[str, Any]) -> None:
    for match in range(2):
        rng = random.Random(f"{game}{players}{options}{match}")
        play_checking(new_game(game, players, options, seed=rng.getrandbits(32)), rng, match, True)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_a_twin_differs_where_the_seat_cannot_see(game: str, players: int) -> None:
    """The check has teeth: at the first bid, a twin's other hands differ from the real ones (a twin that
    moved nothing would let any leak through)."""
    state = new_game(game, players, {}, seed=7)
    seat = state.to_act()[0]
    twin = twin_of(state, seat, random.Random(3))
    real, other = json.loads(state.to_json()), json.loads(twin.to_json())
    assert real["hands"] != other["hands"] and real["seed"] != other["seed"]
    assert real["hands"][seat] == other["hands"][seat]
