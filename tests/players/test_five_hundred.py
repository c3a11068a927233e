"""The Five Hundred computer player: legal choices, no peeking, and sound play in set positions."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import cards as C
from bot.games import new_game
from bot.games.five_hundred import DECKS, FiveHundred
from bot.players import ComputerPlayer
from bot.players.five_hundred import KNOWLEDGE

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"misere_after_seven": True, "open_misere_highest": True, "all_pass": "play-no-trumps"},
    {"passed_may_rebid": True, "all_pass": "move-after-two", "joker_lead_any_suit": True},
    {"open_misere_spread": "after-first-trick", "misere_tricks_score": True, "open_misere_value": 520},
    {"win_by_contract_only": True, "called_partner": "announce", "six_sides": "two-threes"},
]


def new_match(players: int, options: dict[str, Any], seed: int, decks: list[list[str]] | None = None) -> FiveHundred:
    state = new_game("five-hundred", players, options, seed=seed, decks=decks, first_dealer=players - 1)
    assert isinstance(state, FiveHundred)
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_both_levels_choose_legal_actions_in_every_phase_and_option(players: int) -> None:
    phases: set[str] = set()
    for index, options in enumerate(OPTION_SETS):
        state = new_match(players, options, seed=players * 10 + index)
        computers = [
            ComputerPlayer("strong" if (seat + index) % 3 == 0 else "easy", seed=seat, budget_ms=100, samples=2 + seat % 3)
            for seat in range(players)
        ]
        while not state.is_over() and state.hands_played < 1 + index % 2 and len(state.sheets) < 4:
            seat = state.to_act()[0]
            action = computers[seat].choose(state, seat)
            assert action in state.legal(seat)
            phases.add(state.view()["phase"])
            state.act(seat, action)
    assert phases == {"bidding", "discarding", "playing"} | ({"calling"} if players == 5 else set())


def test_rollout_plays_exactly_to_the_end_of_the_hand() -> None:
    for players in (2, 3, 4, 5, 6):
        for index, options in enumerate(OPTION_SETS):
            state = new_match(players, options, seed=players + index)
            world = state.determinize(0, Random(1))
            KNOWLEDGE.rollout(world, Random(2))
            assert len(world.sheets) == 1
            assert world.is_over() or (world.phase == 0 and world.plays == [] and world.hand_no == 1)


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_choice_depends_only_on_what_the_seat_knows(level: str) -> None:
    rng = Random(5)
    for players in (2, 3, 4, 5, 6):
        for index in range(3):
            options = OPTION_SETS[(players + index) % len(OPTION_SETS)]
            state = new_match(players, options, seed=players * 3 + index)
            for _ in range(rng.randrange(0, 12 * players)):
                seat = state.to_act()[0]
                legal = state.legal(seat)
                state.act(seat, "pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal))
            seat = state.to_act()[0]
            computer = ComputerPlayer(level, seed=3, samples=4)
            chosen = computer.choose(state, seat)
            for k in range(3):
                assert computer.choose(state.determinize(seat, Random(k)), seat) == chosen
