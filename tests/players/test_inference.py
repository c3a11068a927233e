"""Reading the table (``bot/players/inference.py``): weighted determinizations that see only what the seat may
know, and that make the others' bids and plays likelier than deals merely consistent with the voids."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import GAMES, GameState
from bot.games import cards as C
from bot.players import ComputerPlayer, knowledge_of, search
from bot.players.inference import PROPOSALS, Sampler
from bot.players.oh_hell import BID_PROPOSALS, KNOWLEDGE, deal_likelihood, read_table

from ..test_oh_hell import bid_all, game
from .test_all_games import random_state

READING_GAMES = [(game, players) for game, info in GAMES.items() for players in info.players
                 if getattr(knowledge_of(game), "likelihood", None) is not None]  # fmt: skip


class OnlyDeterminize:
    """A state the sampler may ask for determinizations only: any other look at it fails the test."""

    def __init__(self, state: GameState) -> None:
        self._state = state

    def determinize(self, seat: int, rng: Random) -> GameState:
        return self._state.determinize(seat, rng)

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the inference read state.{name}")


def test_some_game_reads_the_table() -> None:
    assert ("oh-hell", 4) in READING_GAMES


@pytest.mark.parametrize(("name", "players"), READING_GAMES)
def test_the_inference_sees_only_the_public_history_and_its_own_hand(name: str, players: int) -> None:
    """The sampler touches the real state only through ``determinize`` (the seat's hand, the public history,
    the rest dealt at random), and two states the seat cannot tell apart give the same weighted deals."""
    knowledge = knowledge_of(name)
    for index in range(4):
        state = random_state(name, players, {}, seed=index * 13 + players)
        seat = state.to_act()[0]
        guarded = Sampler(OnlyDeterminize(state), seat, knowledge, Random(index))  # type: ignore[arg-type]
        worlds = [guarded.draw().to_json() for _ in range(6)]
        twin = state.determinize(seat, Random(index + 50))  # the same to the seat, other hidden cards
        again = Sampler(twin, seat, knowledge, Random(index))
        assert [again.draw().to_json() for _ in range(6)] == worlds
        assert again.reading() == guarded.reading()


def test_a_zero_bid_makes_high_trumps_in_that_hand_unlikely() -> None:
    """West (seat 1) bid 0 with hearts trumps: the weighted deals give it the ace or king of hearts far less
    often than deals consistent with the voids alone (a bid of 0 says "no high cards")."""
    state = game(
        {0: "2S 3S 4C 5D 6D", 1: "AH KH 7C 8S 9D", 2: "7S 8C 9C 10D JD", 3: "QS KS 2C 3C 4H"}, dealer=3, turn_up="9H"
    )
    for seat, bid in ((0, 1), (1, 0), (2, 1)):
        state.act(seat, f"bid {bid}")
    seat = 3  # the dealer, bidding last, reads the three bids before it
    high = C.mask_of([C.CODES["AH"], C.CODES["KH"]])
    sampler = Sampler(state, seat, KNOWLEDGE, Random(1))
    weighted = [sampler.draw() for _ in range(200)]
    plain = [state.determinize(seat, Random(1000 + k)) for k in range(200)]

    def share(worlds: list[GameState]) -> float:
        return sum(bool(w.hands[1] & high) for w in worlds) / len(worlds)  # type: ignore[attr-defined]

    assert share(weighted) < 0.6 * share(plain)  # about 0.12 against 0.26
    reading = read_table(sampler.worlds, sampler.weights, seat)
    assert reading is not None and reading.chance >= 0.7 and reading.chance > reading.before


def test_a_bid_draws_more_deals_for_each_one_kept_than_a_play_and_reads_only_determinizations() -> None:
    """Oh Hell's bids weigh BID_PROPOSALS deals for each one kept (their likelihood reads only the bids), its
    plays PROPOSALS; the count comes from a determinization, so the sampler still sees only what the seat may
    know, and the more proposals make the bids' reading sharper (West's zero bid: fewer high hearts)."""
    state = game(
        {0: "2S 3S 4C 5D 6D", 1: "AH KH 7C 8S 9D", 2: "7S 8C 9C 10D JD", 3: "QS KS 2C 3C 4H"}, dealer=3, turn_up="9H"
    )
    for seat, bid in ((0, 1), (1, 0), (2, 1)):
        state.act(seat, f"bid {bid}")
    guarded = Sampler(OnlyDeterminize(state), 3, KNOWLEDGE, Random(4))  # type: ignore[arg-type]
    for _ in range(5):
        guarded.draw()
    assert guarded.proposals == BID_PROPOSALS > PROPOSALS and guarded.drawn == 5 * BID_PROPOSALS
    state.act(3, "bid 1")
    playing = Sampler(state, 0, KNOWLEDGE, Random(4))
    playing.draw()
    assert playing.proposals == PROPOSALS and playing.drawn == PROPOSALS


def test_a_timed_draw_stops_proposing_at_the_deadline_and_a_fixed_one_is_unchanged_by_it() -> None:
    """A bid's draw weighs BID_PROPOSALS deals for the one it keeps, each with its likelihood: in a timed decision
    none past the deadline (the first always), so a decision's start cannot run far over its budget; without a
    deadline (a fixed number of deals) the deals are the same, whatever the clock says."""
    state = game(
        {0: "2S 3S 4C 5D 6D", 1: "AH KH 7C 8S 9D", 2: "7S 8C 9C 10D JD", 3: "QS KS 2C 3C 4H"}, dealer=3, turn_up="9H"
    )
    for seat, bid in ((0, 1), (1, 0), (2, 1)):
        state.act(seat, f"bid {bid}")
    now = [0.0]

    def clock() -> float:  # each reading is a millisecond later
        now[0] += 0.001
        return now[0]

    timed = Sampler(state, 3, KNOWLEDGE, Random(4), deadline=0.0035, clock=clock)
    timed.draw()
    assert timed.drawn == 4 < BID_PROPOSALS  # three clock readings before the deadline: three more proposals
    timed.draw()
    assert timed.drawn == 5  # past it: the first alone
    plain, clocked = Sampler(state, 3, KNOWLEDGE, Random(4)), Sampler(state, 3, KNOWLEDGE, Random(4), clock=clock)
    assert [plain.draw().to_json() for _ in range(3)] == [clocked.draw().to_json() for _ in range(3)]
    assert plain.drawn == 3 * BID_PROPOSALS


def test_a_play_away_from_the_easy_card_is_less_likely_than_the_easy_card() -> None:
    """Seat 1 bid 0 and holds KS 5S under the led ace: the easy player throws the king (the highest card that
    loses), so a deal in which it did is likelier than one in which it kept the king."""
    state = game({0: "AS 2D", 1: "KS 5S", 2: "QS 4D"}, dealer=2, turn_up="9H", hook=False)
    bid_all(state, {0: 2, 1: 0, 2: 0})
    state.act(0, "play AS")
    easy, other = state.clone(), state.clone()
    easy.act(1, "play KS")
    other.act(1, "play 5S")
    assert deal_likelihood(easy, 2) > deal_likelihood(other, 2)


def test_a_hint_says_what_the_bids_read() -> None:
    state = game(
        {0: "2S 3S 4C 5D 6D", 1: "AH KH 7C 8S 9D", 2: "7S 8C 9C 10D JD", 3: "QS KS 2C 3C 4H"}, dealer=3, turn_up="9H"
    )
    for seat, bid in ((0, 1), (1, 0), (2, 1)):
        state.act(seat, f"bid {bid}")
    decision = ComputerPlayer("strong", seed=2, samples=120).decide(state, 3)
    assert decision.reading is not None and decision.reading.seat in (0, 1, 2)
    assert decision.drawn >= decision.samples


class _Explains:
    """Oh Hell's knowledge with a likelihood that gives every proposal the same log (``value``)."""

    def __init__(self, value: float) -> None:
        self.value = value

    def likelihood(self, world: GameState, seat: int) -> float:
        return self.value

    def __getattr__(self, name: str) -> Any:
        return getattr(KNOWLEDGE, name)


@pytest.mark.parametrize("value", [float("-inf"), float("nan"), float("inf"), -1e308])
def test_a_table_no_model_explains_still_draws_deals_with_finite_weights(value: float) -> None:
    """Every proposal impossible (a log of -inf), not a number, certain or far below 0: the sampler still
    keeps one of them, and the weights the reading sees are finite and add up to one a draw (they were
    ``nan``, and ``random.choices`` refused them: the decision, or the hint, failed)."""
    state = random_state("oh-hell", 4, {}, seed=5)
    seat = state.to_act()[0]
    sampler = Sampler(state, seat, _Explains(value), Random(3))
    for _ in range(20):
        assert sampler.draw().players == 4
    assert all(weight == weight and 0.0 <= weight <= 1.0 for weight in sampler.weights)
    per_draw = sampler.proposals or PROPOSALS
    for start in range(0, len(sampler.weights), per_draw):
        assert sum(sampler.weights[start : start + per_draw]) == pytest.approx(1.0)
    sampler.reading()  # reads the weighted worlds without failing
    stub = _Explains(value)
    decision = search.decide(state, seat, stub, Random(2), budget_s=None, samples=3)
    assert decision.action in state.legal(seat) and decision.samples == 3
