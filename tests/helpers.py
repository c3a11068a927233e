"""Helpers for engine tests: stacked decks that deal exactly the hands a test wants."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from bot.games import GameState


def hands_deck(hands: dict[int, str], dealer: int, order: Iterable[int] | None = None, rest: str = "") -> list[str]:
    """The deck (top first) that, dealt one card at a time starting at the dealer's
    left, gives each hand the cards written for it, in the order written."""
    written = {h: text.split() for h, text in hands.items()}
    count = len(written)
    seats = list(order) if order is not None else [(dealer + 1 + i) % count for i in range(count)]
    size = len(written[seats[0]])
    assert all(len(cards) == size for cards in written.values()), "every hand needs the same number of cards"
    return [written[h][j] for j in range(size) for h in seats] + rest.split()


def play_out(
    state: GameState, choose: Callable[[GameState, int, list[str]], str] | None = None, limit: int = 100_000
) -> None:
    """Act until the match is over, with ``choose`` (default: the first legal action)."""
    for _ in range(limit):
        if state.is_over():
            return
        seat = state.to_act()[0]
        actions = state.legal(seat)
        state.act(seat, choose(state, seat, actions) if choose else actions[0])
    raise AssertionError("the match did not end")


def random_player(seed: int) -> Callable[[GameState, int, list[str]], str]:
    rng = random.Random(seed)
    return lambda _state, _seat, actions: rng.choice(actions)


def strings_in(data: Any) -> list[str]:
    """Every string anywhere in a JSON-like structure (keys included), in order."""
    found: list[str] = []
    _collect_strings(data, found)
    return found


def _collect_strings(data: Any, found: list[str]) -> None:
    # Into one list (the leak checks read every view of every step: no list per level)
    if isinstance(data, str):
        found.append(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            _collect_strings(key, found)
            _collect_strings(value, found)
    elif isinstance(data, (list, tuple)):
        for item in data:
            _collect_strings(item, found)
