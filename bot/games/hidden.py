"""Dealing the cards a seat cannot see, at random, consistently with what it saw.

A computer player decides on *determinizations*: full deals that the seat
cannot tell from the real one. Each engine lists the places hidden cards may
be (another hand, bid cards laid aside, a kitty, the undealt rest), each with
its size and the cards it cannot hold (a suit its owner has shown void in, a
card known to be elsewhere), and :func:`deal_unseen` fills them.

The result depends only on the pool *as a set*, the slots and the generator,
never on where the cards really are: two states a seat cannot tell apart give
the same deal for the same generator, which is what makes a computer player
unable to peek.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import shuffle_codes


@dataclass(frozen=True)
class Slot:
    """A place for ``size`` hidden cards that holds none of the cards in ``forbidden`` (a bitmask)."""

    size: int
    forbidden: int = 0


class Inconsistent(ValueError):
    """No deal fits the slots: the engine's record of what was seen is wrong."""


def deal_unseen(pool: int, slots: Sequence[Slot], rng: random.Random) -> list[int]:
    """Deal the cards of ``pool`` (a bitmask) into ``slots``; return each slot's cards as a bitmask.

    The sizes must add up to the pool. Cards are placed most-constrained first,
    each to a slot chosen at random in proportion to the room it has left; a
    dead end (rare: only with several shown voids) starts again, and after a
    few tries an exact matching settles it.
    """
    cards = []
    rest = pool
    while rest:
        low = rest & -rest
        cards.append(low.bit_length() - 1)
        rest ^= low
    if sum(slot.size for slot in slots) != len(cards):
        raise Inconsistent(f"{len(cards)} hidden cards for slots of {[slot.size for slot in slots]}")
    shuffle_codes(cards, rng.random)  # random.shuffle's pure Python was most of a determinization's time
    if not any(slot.forbidden for slot in slots):
        return _cut(cards, slots)
    accepting = {c: [i for i, slot in enumerate(slots) if not slot.forbidden >> c & 1] for c in cards}
    cards.sort(key=lambda c: len(accepting[c]))  # stable: ties keep the shuffled order
    for _ in range(8):
        dealt = _greedy(cards, slots, accepting, rng)
        if dealt is not None:
            return dealt
    return _matching(cards, slots, accepting)


def _cut(cards: list[int], slots: Sequence[Slot]) -> list[int]:
    out, at = [], 0
    for slot in slots:
        mask = 0
        for c in cards[at : at + slot.size]:
            mask |= 1 << c
        out.append(mask)
        at += slot.size
    return out


def _greedy(
    cards: list[int], slots: Sequence[Slot], accepting: dict[int, list[int]], rng: random.Random
) -> list[int] | None:
    room = [slot.size for slot in slots]
    out = [0] * len(slots)
    for c in cards:
        choices = [i for i in accepting[c] if room[i]]
        if not choices:
            return None
        total = sum(room[i] for i in choices)
        pick = rng.random() * total
        for i in choices:
            pick -= room[i]
            if pick < 0:
                break
        room[i] -= 1
        out[i] |= 1 << c
    return out


def _matching(cards: list[int], slots: Sequence[Slot], accepting: dict[int, list[int]]) -> list[int]:
    """An exact assignment (Kuhn's augmenting paths over slot places), in the cards' shuffled order."""
    places = [i for i, slot in enumerate(slots) for _ in range(slot.size)]
    holder: list[int | None] = [None] * len(places)  # place -> card

    def place(c: int, seen: set[int]) -> bool:
        for p, owner in enumerate(places):
            if p in seen or owner not in accepting[c]:
                continue
            seen.add(p)
            other = holder[p]
            if other is None or place(other, seen):
                holder[p] = c
                return True
        return False

    for c in cards:
        if not place(c, set()):
            raise Inconsistent(f"card {c} fits no slot")
    out = [0] * len(slots)
    for p, held in enumerate(holder):
        assert held is not None  # every place is filled: the sizes add up to the cards
        out[places[p]] |= 1 << held
    return out
