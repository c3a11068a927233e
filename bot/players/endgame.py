"""Exact search of a deal's last tricks on a full deal (one determinization).

Every seat plays to maximise its own value at the end of the deal (max-n,
Luckhardt and Irani 1986): partners share a value, so they play together;
opponents are not assumed to play against us alone, which suits games where
everyone chases their own exact bid.
"""

from __future__ import annotations

from collections.abc import Callable
from math import factorial

from bot.games import GameState

Values = Callable[[GameState], list[float]]

LEAF_LIMIT = 720  # deals whose remaining play has at most this many orders are searched exactly


class OutOfTime(Exception):
    """The exact search was stopped: its caller's time ran out (``out_of_time`` said so)."""


def small_enough(cards_left: list[int] | None) -> bool:
    """True when every order of play of the remaining cards is few enough to search them all."""
    if cards_left is None:
        return False
    leaves = 1
    for k in cards_left:
        leaves *= factorial(k)
        if leaves > LEAF_LIMIT:
            return False
    return True


def best_line(
    world: GameState, values: Values, deal: int, out_of_time: Callable[[], bool] | None = None
) -> tuple[list[float], GameState]:
    """The value vector of ``world`` with perfect play to the end of deal ``deal`` (a sheet count),
    and the position that line of play ends in.

    ``out_of_time``, asked at every position searched, stops the search (:class:`OutOfTime`) when it says
    so: up to LEAF_LIMIT orders of play of many seats' cards (nine players holding two cards each) take
    longer than a small time budget."""
    if world.is_over() or len(world.sheets) != deal:
        return values(world), world
    if out_of_time is not None and out_of_time():
        raise OutOfTime
    seat = world.to_act()[0]
    best: tuple[list[float], GameState] | None = None
    for action in world.legal(seat):
        child = world.clone()
        child.act(seat, action)
        got = best_line(child, values, deal, out_of_time)
        if best is None or got[0][seat] > best[0][seat]:
            best = got
    assert best is not None
    return best
