"""What every game's computer player must do, whatever the game: legal choices at both levels,
no peeking (a choice depends only on what the seat may know), the same choice for the same seed,
and the engine contract the players rest on (``determinize`` keeps what the seat saw)."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from bot.games import GAMES, GameState, InvalidGame, new_game
from bot.games.options import Option
from bot.players import LEVELS, ComputerPlayer, knowledge_of

SETUPS = [(game, players) for game, info in GAMES.items() for players in info.players]


def option_sets(game: str, players: int) -> list[dict[str, Any]]:
    """The defaults, then every option away from its default (its last other value, then its
    first), leaving out what this number of players does not allow."""
    out: list[dict[str, Any]] = [{}]
    for pick in (-1, 0):
        chosen: dict[str, Any] = {}
        for option in GAMES[game].options:
            value = away_from_default(option, pick)
            if value is not None and allowed(game, players, {**chosen, option.name: value}):
                chosen[option.name] = value
        out.append(chosen)
    return out


def away_from_default(option: Option, pick: int) -> bool | int | str | None:
    if isinstance(option.default, bool):
        return not option.default
    if isinstance(option.default, int):
        return option.low if pick == 0 and option.default != option.low else option.high
    others = [choice for choice in option.choices if choice != option.default]
    return others[pick] if others else None


def allowed(game: str, players: int, options: dict[str, Any]) -> bool:
    try:
        new_game(game, players, options)
    except InvalidGame:
        return False
    return True


def random_state(game: str, players: int, options: dict[str, Any], seed: int) -> GameState:
    """A state met at a random moment of the first deals of a match, with someone to act."""
    rng = Random(seed)
    state = new_game(game, players, options, seed=seed)
    for _ in range(rng.randrange(0, 40)):
        if state.is_over() or len(state.sheets) > 1:
            break
        seat = rng.choice(state.to_act())
        state.act(seat, rng.choice(state.legal(seat)))
    if state.is_over():  # rare: start again from a new match
        state = new_game(game, players, options, seed=seed + 1000)
    return state


def test_every_game_has_a_computer_player() -> None:
    for game in GAMES:
        knowledge = knowledge_of(game)  # fails, not skips, for a game without one
        assert knowledge.win_value > 0
        for method in ("easy", "rollout", "shortlist", "cards_left", "units", "aim"):
            assert callable(getattr(knowledge, method))


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_both_levels_choose_legal_actions(game: str, players: int) -> None:
    for index, options in enumerate(option_sets(game, players)):
        state = new_game(game, players, options, seed=players * 7 + index)
        computers = [ComputerPlayer(LEVELS[(seat + index) % 2], seed=seat, samples=2) for seat in range(players)]
        for _ in range(2000):
            if state.is_over() or len(state.sheets) >= 1 + index % 2:
                break
            seat = state.to_act()[0]
            action = computers[seat % players].choose(state, seat)
            assert action in state.legal(seat), (game, players, options, action)
            state.act(seat, action)
        else:
            raise AssertionError("the deal did not end")


@pytest.mark.parametrize(("game", "players"), SETUPS)
@pytest.mark.parametrize("level", LEVELS)
def test_a_choice_depends_only_on_what_the_seat_knows(game: str, players: int, level: str) -> None:
    computer = ComputerPlayer(level, seed=3, samples=4)
    for index, options in enumerate(option_sets(game, players)[:2]):
        state = random_state(game, players, options, seed=players + 10 * index)
        seat = state.to_act()[0]
        chosen = computer.choose(state, seat)
        for k in range(2):
            twin = state.determinize(seat, Random(k))  # the same to the seat, other hidden cards
            assert computer.choose(twin, seat) == chosen, (options, k)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_the_same_seed_and_state_give_the_same_choice(game: str, players: int) -> None:
    state = random_state(game, players, {}, seed=players)
    seat = state.to_act()[0]
    for level in LEVELS:
        assert ComputerPlayer(level, seed=5, samples=3).choose(state, seat) == ComputerPlayer(
            level, seed=5, samples=3
        ).choose(state, seat)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_determinize_keeps_what_the_seat_saw_and_hides_the_rest(game: str, players: int) -> None:
    moved = 0
    for index in range(6):
        state = random_state(game, players, option_sets(game, players)[index % 3], seed=index * 31 + players)
        for seat in range(players):
            world = state.determinize(seat, Random(index))
            assert world.view(seat) == state.view(seat)
            assert world.record(seat) == state.record(seat)
            assert type(world) is type(state) and world.legal(seat) == state.legal(seat)
            hands = [world.view(s)["hand"] for s in range(players)]
            assert [len(hand) for hand in hands] == [len(state.view(s)["hand"]) for s in range(players)]
            played = [play["card"] for play in world.record(seat)["plays"]]
            seen = Counter(card for hand in hands for card in hand) + Counter(played)
            assert max(seen.values(), default=1) == 1, f"cards twice: {[c for c, n in seen.items() if n > 1]}"
            moved += any(hands[s] != state.view(s)["hand"] for s in range(players) if s != seat)
    assert moved, "determinize never dealt the hidden cards anew"


def test_a_computer_refuses_an_unknown_level_and_a_seat_with_nothing_to_do() -> None:
    with pytest.raises(ValueError, match="level"):
        ComputerPlayer("grandmaster")
    for game, info in GAMES.items():
        state = new_game(game, info.default_players, {}, seed=1)
        idle = [seat for seat in range(state.players) if not state.legal(seat)]
        rng = Random(1)
        while not idle:  # simultaneous turns: act until some seat waits
            seat = state.to_act()[0]
            state.act(seat, rng.choice(state.legal(seat)))
            idle = [seat for seat in range(state.players) if not state.legal(seat)]
        for level in LEVELS:
            with pytest.raises(ValueError, match="nothing to do"):
                ComputerPlayer(level).choose(state, idle[0])


def test_a_computer_refuses_a_bool_for_a_seat() -> None:
    """True is no seat (the engines refuse it): a computer asked to play for True answered for seat 1, while the
    engines' ``legal(True)`` listed seat 1's actions."""
    for game, info in GAMES.items():
        state = new_game(game, info.default_players, {}, seed=1)
        rng = Random(1)
        while 1 not in state.to_act():
            seat = state.to_act()[0]
            state.act(seat, rng.choice(state.legal(seat)))
        assert state.legal(1) and state.legal(True) == []
        for level in LEVELS:
            with pytest.raises(ValueError, match="no seat"):
                ComputerPlayer(level).choose(state, True)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_refine_moves_only_what_the_seat_has_not_seen(game: str, players: int) -> None:
    refine = getattr(knowledge_of(game), "refine", None)
    if refine is None:
        return  # optional: this game's determinizations are used as dealt
    for index in range(4):
        state = random_state(game, players, option_sets(game, players)[index % 3], seed=index * 17 + players)
        seat = state.to_act()[0]
        dealt = state.determinize(seat, Random(index))
        world = refine(dealt, seat, Random(index)) or dealt  # refined in place, or replaced
        assert world.view(seat) == state.view(seat) and world.record(seat) == state.record(seat)
        assert world.legal(seat) == state.legal(seat)
        twin_dealt = state.determinize(seat, Random(index + 100)).determinize(seat, Random(index))
        twin = refine(twin_dealt, seat, Random(index)) or twin_dealt
        assert twin.to_json() == world.to_json()
