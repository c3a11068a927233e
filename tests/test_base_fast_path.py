"""The searches' fast path of every engine (``GameState.moves`` and the rest, docs/engines.md): the same
game as the contract, moves as ints.

Named for ``base``, so tests/test_compiled.py also runs it on the pure Python when the engines are compiled.
"""

from __future__ import annotations

import random

import pytest

from bot.games import GAMES, GameState, new_game
from bot.games import cards as C
from bot.games.ninety_nine import NinetyNine
from bot.games.oh_hell import BID, DECK_MASK, OhHell

# Short matches of every game, so that every phase comes round in a few seconds.
SHORT: dict[str, dict[str, object]] = {
    "ninety-nine": {"format": "nine-deals"},
    "five-hundred": {},
    "just-make": {"target": 3},
    "oh-hell": {"start_cards": 3},
}
CASES = [(game, players) for game in GAMES for players in GAMES[game].players]


def _steps(state: GameState, rng: random.Random, limit: int) -> None:
    """Play on by moves; at every step the moves are the contract's legal actions, in its order, and a
    move does exactly what its action does."""
    for _ in range(limit):
        seat = state.to_move()
        moves = state.moves()
        if seat < 0:
            assert moves == [] and state.to_act() == []
            return
        assert seat in state.to_act()
        assert [state.move_action(m) for m in moves] == state.legal(seat)
        move = moves[rng.randrange(len(moves))]
        by_contract = state.clone()
        by_contract.act(seat, state.move_action(move))
        state.move(move)
        assert state.to_json() == by_contract.to_json()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_moves_are_the_legal_actions_and_do_what_they_do(game: str, players: int) -> None:
    rng = random.Random(f"{game}{players}")
    for seed in range(2):
        _steps(new_game(game, players=players, options=SHORT[game], seed=seed), rng, 400)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_state_stopped_at_the_deal_end_deals_no_more(game: str, players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        state = new_game(game, players=players, options=SHORT[game], seed=seed)
        state.random_playout(random.Random(seed))  # to the match's end: nothing stops it
        assert state.is_over() and state.moves() == [] and state.to_move() == -1
        state = new_game(game, players=players, options=SHORT[game], seed=seed).stop_at_deal_end()
        _steps(state, rng, 3)
        sheets = len(state.sheets)
        twin = state.clone()  # a clone stops too
        for world in (state, twin):
            world.random_playout(rng)
            assert len(world.sheets) == sheets + 1 or (world.is_over() and len(world.sheets) == sheets)
            assert world.phase == world.OVER and world.to_act() == [] and world.moves() == []
            assert world.to_move() == -1 and world.legal(0) == []


def test_oh_hells_playout_inside_the_engine_is_the_same_as_move_by_move() -> None:
    for seed in range(20):
        start = new_game("oh-hell", players=3 + seed % 5, options={"start_cards": 1 + seed % 7}, seed=seed)
        start.stop_at_deal_end()
        inside, outside = start.clone(), start.clone()
        inside.random_playout(random.Random(seed))
        pick = random.Random(seed).random
        while moves := outside.moves():  # a forced card draws nothing
            outside.move(moves[int(pick() * len(moves))] if len(moves) > 1 or outside.phase == BID else moves[0])
        assert inside.to_json() == outside.to_json() and inside.sheets[-1]["rows"]


@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_oh_hell_deals_afresh_the_whole_pack(players: int) -> None:
    state = new_game("oh-hell", players=players, options={"start_cards": 5}, seed=1)
    assert isinstance(state, OhHell)
    deals = set()
    for seed in range(5):
        state.deal_afresh(random.Random(seed))
        held = [hand.bit_count() for hand in state.hands]
        everything = state.unused | (1 << state.turn_up)
        for hand in state.hands:
            assert not everything & hand
            everything |= hand
        assert held == [5] * players and everything == DECK_MASK
        assert state.trump == state.turn_up >> 4 and state.decks == []
        deals.add(tuple(state.hands))
    assert len(deals) == 5
    state.move(state.moves()[0])
    with pytest.raises(ValueError, match="deal has started"):
        state.deal_afresh(random.Random(1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ninety_nine_deals_afresh_the_hands(players: int) -> None:
    state = new_game("ninety-nine", players=players, options={"format": "nine-deals"}, seed=1)
    assert isinstance(state, NinetyNine)
    sizes = [hand.bit_count() for hand in state.hands]
    pool = state.bid_cards[2] if players == 2 else 0  # the dummy's bid cards, dealt with the hands
    for hand in state.hands:
        pool |= hand
    for seed in range(5):
        state.deal_afresh(random.Random(seed))
        assert [hand.bit_count() for hand in state.hands] == sizes
        dealt = 0
        for hand in [*state.hands, state.bid_cards[2] if players == 2 else 0]:
            assert not dealt & hand
            dealt |= hand
        assert dealt == pool
        if players == 2:
            assert state.bids[2] >= 0 and state.bid_cards[2].bit_count() == 3
        _steps(state.clone(), random.Random(seed), 60)
    state.move(state.moves()[-1])
    with pytest.raises(ValueError, match="deal has started"):
        state.deal_afresh(random.Random(1))


def test_the_other_games_number_their_legal_actions() -> None:
    state = new_game("just-make", players=4, seed=3)
    assert state.moves() == list(range(len(state.legal(state.to_move()))))
    with pytest.raises(NotImplementedError):
        state.deal_afresh(random.Random(1))


def test_a_bids_move_names_its_three_cards_in_ninety_nine() -> None:
    state = new_game("ninety-nine", players=3, options={"format": "nine-deals"}, seed=5)
    assert isinstance(state, NinetyNine)
    seat, cards = state.to_move(), C.cards_in(state.hands[state.to_move()])
    assert state.move_action(0) == "bid " + " ".join(C.NAMES[c] for c in cards[:3])
    assert state.move_action(len(state.moves()) - 1) == "bid " + " ".join(C.NAMES[c] for c in cards[-3:])
    state.move(0)
    assert state.bid_cards[seat] == C.mask_of(cards[:3]) and state.hands[seat] == C.mask_of(cards[3:])
