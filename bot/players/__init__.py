"""Computer players: pure Python, standard library and ``bot.games`` only.

    from bot.players import ComputerPlayer
    player = ComputerPlayer(level="strong", seed=1, budget_ms=1000)   # levels: "easy", "strong"
    action = player.choose(state, seat)   # always one of state.legal(seat)

A computer decides only from what its seat may know: it reads the state
through ``legal(seat)`` and ``determinize(seat, rng)`` alone (see
``docs/engines.md``), so it cannot peek by construction.

- ``easy``: each game's rule-based player (:mod:`bot.players.knowledge`), on
  one deal of the unseen cards.
- ``strong``: determinized search (:mod:`bot.players.search`) with the
  rule-based player as its rollout policy and exact search of a deal's end.
"""

from __future__ import annotations

import importlib
import random
from typing import cast

from bot.games import GameState, game_of

from .knowledge import Knowledge
from .search import Candidate, Decision, decide

__all__ = ["LEVELS", "Candidate", "ComputerPlayer", "Decision", "knowledge_of"]

LEVELS = ("easy", "strong")
DEFAULT_BUDGET_MS = 1000
# The search stops sampling at this share of the budget: the deal under way, the
# state's transfer to a worker process and the answer's way back fit in the rest.
SEARCH_SHARE = 0.85


def knowledge_of(game: str) -> Knowledge:
    """The rule-based knowledge of a game: the ``KNOWLEDGE`` of the module its entry in
    ``bot.games.GAMES`` names (``computer``). The entry names it and this is where it is imported:
    the engines below never import their computer players."""
    module = importlib.import_module(game_of(game).computer)
    return cast(Knowledge, module.KNOWLEDGE)


class ComputerPlayer:
    """A computer seat of one level.

    The same seed, state and settings give the same choice when ``samples``
    fixes the search's size; with only ``budget_ms`` the search also stops when
    its time is spent, so the choice can vary with the machine's speed.
    """

    def __init__(
        self,
        level: str = "strong",
        seed: int = 0,
        budget_ms: int | None = None,
        *,
        samples: int | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        if budget_ms is not None and budget_ms <= 0:
            raise ValueError("budget_ms must be positive")
        if samples is not None and samples <= 0:
            raise ValueError("samples must be positive")
        self.level = level
        self.seed = seed
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        self.samples = samples

    def choose(self, state: GameState, seat: int) -> str:
        """One of ``state.legal(seat)``."""
        return self.decide(state, seat).action

    def decide(self, state: GameState, seat: int) -> Decision:
        """The choice, and for ``strong`` what the search found of each candidate (for hints)."""
        if type(seat) is not int:  # a bool is no seat, as the engines say: named so, not "nothing to do now"
            raise ValueError(f"{seat!r} is no seat")
        legal = state.legal(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        knowledge = knowledge_of(state.NAME)
        rng = random.Random(self.seed)
        if self.level == "easy" or len(legal) == 1:
            if len(legal) == 1:
                return Decision(legal[0])
            return Decision(knowledge.easy(state.determinize(seat, rng), seat, legal, rng))
        return decide(
            state,
            seat,
            knowledge,
            rng,
            budget_s=self.budget_ms / 1000 * SEARCH_SHARE,
            samples=self.samples,
            legal=legal,
        )
