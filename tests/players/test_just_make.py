"""The Just Make computer player: legal choices, no peeking, and sound play in set positions."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import new_game
from bot.games.just_make import JustMake
from bot.players import ComputerPlayer
from bot.players.just_make import KNOWLEDGE

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"double_hard_bids": True, "target": 3},
    {"scoring": "tricks", "all_fail_reverse": True, "lone_loser_minus_one": True},
    {"sweep_wins": True, "joker_make_wins": True, "tie_break": "final-bid"},
]


def new_match(players: int, options: dict[str, Any], seed: int, decks: list[list[str]] | None = None) -> JustMake:
    state = new_game("just-make", players, options, seed=seed, decks=decks, first_dealer=0 if decks else None)
    assert isinstance(state, JustMake)
    return state


@pytest.mark.parametrize("players", range(4, 10))
def test_both_levels_choose_legal_actions_in_every_phase_and_option(players: int) -> None:
    for index, options in enumerate(OPTION_SETS):
        state = new_match(players, options, seed=players * 10 + index)
        computers = [
            ComputerPlayer("strong" if seat % 2 else "easy", seed=seat, budget_ms=200, samples=2 + seat % 3)
            for seat in range(players)
        ]
        while not state.is_over() and len(state.sheets) < 1 + index % 2:
            seat = state.to_act()[0]
            action = computers[seat].choose(state, seat)
            assert action in state.legal(seat)
            state.act(seat, action)


def test_rollout_plays_exactly_to_the_end_of_the_deal() -> None:
    for players in range(4, 10):
        state = new_match(players, {}, seed=players)
        world = state.determinize(0, Random(1))
        KNOWLEDGE.rollout(world, Random(2))
        assert len(world.sheets) == 1
        assert all(row["bid"] >= 0 for row in world.sheets[0]["rows"])
        assert world.is_over() or (world.phase == 0 and world.plays == [])


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_choice_depends_only_on_what_the_seat_knows(level: str) -> None:
    rng = Random(5)
    for players in (4, 6, 9):
        state = new_match(players, OPTION_SETS[players % 4], seed=players)
        for _ in range(rng.randrange(0, 6 * players)):
            seat = state.to_act()[0]
            state.act(seat, rng.choice(state.legal(seat)))
        seat = state.to_act()[0]
        computer = ComputerPlayer(level, seed=3, samples=4)
        chosen = computer.choose(state, seat)
        for k in range(3):
            assert computer.choose(state.determinize(seat, Random(k)), seat) == chosen
