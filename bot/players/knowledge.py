"""What the generic search needs to know of one game: a small, fast, rule-based player.

Each game's module (``bot/players/<game>.py``) provides one :class:`Knowledge`;
:data:`KNOWLEDGE` maps the engine's name to it. Everything else (sampling deals,
comparing candidates, the exact end-game search, hints) is generic, in
:mod:`bot.players.search`, so a new game gets a computer player by writing
only this.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.games import GameState

# The kinds of aim a hint can name: a seat's own bid, its side's contract, or beating the contract.
BID, CONTRACT, DEFENCE = "bid", "contract", "defence"


class Knowledge(Protocol):
    """One game's rule-based play, the rollout policy of the search and the ``easy`` level."""

    #: What winning the match is worth, in the game's points, on top of the deal's points:
    #: it makes the search prefer a deal that ends the match in its favour.
    win_value: float

    def easy(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> str:
        """The rule-based choice for ``seat`` (one of ``legal``).

        ``world`` is a determinization (the unseen cards dealt at random), and
        this must read only what ``seat`` may know of it: its own hand and bid
        cards, and the public table. The information-set test checks it.
        """
        ...

    def rollout(self, world: GameState, rng: random.Random, sighted: int = -1) -> None:
        """Play ``world`` on, every seat by the rule-based policy playing towards its own
        bid or contract, until the current deal is scored or the match is over.

        ``world`` is a full deal the search made up, so here the policy may read
        any hand of it; it should be fast (the search plays thousands of these).
        ``sighted``: the searching seat (-1: none), which a game may let play the made-up deal with every
        hand of it in sight, since its real play is a search that reads the table better than the rule-based
        policy on its own cards (Oh Hell does; the others play it like every seat).
        """
        ...

    def shortlist(self, world: GameState, seat: int, legal: list[str], rng: random.Random) -> list[str]:
        """The candidates the search compares, the easy choice first.

        Every legal action when there are few; for large choices (Ninety-Nine's
        220 bids, Five Hundred's discards) the sensible ones. Reads only what
        ``seat`` may know, like :meth:`easy`.
        """
        ...

    def cards_left(self, world: GameState) -> list[int] | None:
        """While the cards of a deal are being played: how many each seat still plays this deal
        (0 for a seat out of play); None in any other phase. The search uses it to decide
        when a deal's end is small enough to search exactly."""
        ...

    def units(self, world: GameState) -> list[list[int]]:
        """The seats that score together (partnerships), each seat in exactly one."""
        ...

    # Optional: ``refine(world, seat, rng) -> GameState | None`` makes a determinization
    # likelier (hidden bid cards laid aside as a player would have, hands that fit the
    # auction), changing in place (None) or returning a replacement, and touching only
    # cards ``seat`` has not seen; the search calls it after every ``determinize``.

    # Optional: ``likelihood(world, seat) -> float``, the log of the chance that the others' bids and plays so
    # far came from the hands ``world`` gives them (``bot/players/inference.py`` weights determinizations by
    # it), and ``read(worlds, weights, seat) -> Reading | None``, what that says in one line, for hints.
    # Optional: ``weighty(world, seat) -> bool``, True for a decision worth the whole time budget (no early
    # stop once a candidate leads by one standard error).
    # Optional: ``proposals(world, seat) -> int``, the determinizations drawn for each one the search keeps
    # (``world``: one of them; by default ``inference.PROPOSALS``).

    def aim(self, world: GameState, seat: int) -> tuple[str, bool] | None:
        """Once ``world``'s deal has been scored (its last sheet): what ``seat`` aimed at
        (``BID``, ``CONTRACT`` or ``DEFENCE``) and whether it got it; None if it had no aim."""
        ...


class EverySeatForItself:
    """What games in which each seat plays for its own exact bid share (Just Make, Oh Hell): every seat
    scores alone, and its aim in a deal is its bid, made or not as its sheet row says."""

    def units(self, world: GameState) -> list[list[int]]:
        return [[seat] for seat in range(world.players)]

    # Optional: ``likelihood(world, seat) -> float``, the log of the chance that the others' bids and plays so
    # far came from the hands ``world`` gives them (``bot/players/inference.py`` weights determinizations by
    # it), and ``read(worlds, weights, seat) -> Reading | None``, what that says in one line, for hints.
    # Optional: ``weighty(world, seat) -> bool``, True for a decision worth the whole time budget (no early
    # stop once a candidate leads by one standard error).

    def aim(self, world: GameState, seat: int) -> tuple[str, bool] | None:
        if not world.sheets:
            return None
        return BID, bool(world.sheets[-1]["rows"][seat]["made"])
