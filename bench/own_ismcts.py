"""The level ``ismcts-weighted`` of ``python -m bench players --against ismcts``: Information Set MCTS over
strong's weighted determinizations, to decide by measurement which search the time is best spent on.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): one tree of the searching seat's information
sets; each iteration deals one determinization (strong's ``Sampler``: weighted by how likely it makes the
others' bids and plays), walks down the tree choosing among the actions legal in that deal by UCB with
availability counts, adds one node, plays the rest of the deal out with strong's rollout (the easy policy, the
searching seat with the made-up deal in sight) and backs up each seat's value (strong's: its points less the
others' average) to the edges that seat chose. The move is the root's most visited. Everything but the search
is strong's, so the two differ only in how they spend the same time: PIMC (every candidate on each deal,
common random numbers) against a tree over information sets (no strategy fusion, fewer rollouts a candidate).
Not a level of the bot: a bench measurement.
"""

from __future__ import annotations

import random
import time
from math import log, sqrt

from bot.games import GameState
from bot.players import SEARCH_SHARE, knowledge_of
from bot.players.inference import Sampler
from bot.players.search import Decision, values_of

EXPLORATION = 10.0  # UCB's constant, in the values' units (points): a deal's values span about -20 to +20


class _Node:
    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0  # the value to the seat that chose this edge, summed over its visits


def _pick(node: _Node, legal: list[str], rng: random.Random) -> tuple[str, bool]:
    """The edge to follow among ``legal``: one never tried (at random), else the best by UCB over the
    iterations in which it was available; and whether it is new."""
    untried = [action for action in legal if action not in node.children]
    for action in legal:
        child = node.children.get(action)
        if child is not None:
            child.available += 1
    if untried:
        return rng.choice(untried), True
    best, best_score = legal[0], float("-inf")
    for action in legal:
        child = node.children[action]
        score = child.total / child.visits + EXPLORATION * sqrt(log(child.available) / child.visits)
        if score > best_score:
            best, best_score = action, score
    return best, False


def ismcts_decide(state: GameState, seat: int, seed: int, budget_ms: int, samples: int | None = None) -> Decision:
    """The seat's move after ISMCTS iterations until the budget's search share is spent (or ``samples``
    iterations); ``Decision.samples`` counts the iterations."""
    legal = state.legal(seat)
    if len(legal) == 1:
        return Decision(legal[0])
    knowledge = knowledge_of(state.NAME)
    rng = random.Random(seed)
    sampler = Sampler(state, seat, knowledge, rng)
    first = sampler.draw()
    root_actions = knowledge.shortlist(first, seat, legal, rng)
    if len(root_actions) == 1:
        return Decision(root_actions[0])
    values = values_of(knowledge, list(first.scores()["total"]))
    deal = len(first.sheets)
    deadline = time.perf_counter() + budget_ms / 1000 * SEARCH_SHARE
    root = _Node()
    iterations = 0
    world: GameState | None = first
    while (samples is None and time.perf_counter() < deadline) or (samples is not None and iterations < samples):
        world = sampler.draw() if world is None else world
        node, path = root, []
        while not world.is_over() and len(world.sheets) == deal:
            actor = world.to_act()[0]
            moves = root_actions if node is root else world.legal(actor)
            if len(moves) == 1:
                world.act(actor, moves[0])
                continue
            action, new = _pick(node, moves, rng)
            if new:
                node.children[action] = _Node()
                node.children[action].available = 1
            node = node.children[action]
            path.append((node, actor))
            world.act(actor, action)
            if new:
                break
        if not world.is_over() and len(world.sheets) == deal:
            knowledge.rollout(world, rng, seat)
        scored = values(world)
        for visited, actor in path:
            visited.visits += 1
            visited.total += scored[actor]
        iterations += 1
        world = None
    chosen = max(root_actions, key=lambda a: root.children[a].visits if a in root.children else -1)
    return Decision(chosen, iterations, (), None, sampler.drawn)
