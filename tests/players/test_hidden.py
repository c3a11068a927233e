"""Dealing unseen cards into slots: sizes, constraints, and a result that depends only on what is known."""

from __future__ import annotations

import random

import pytest

from bot.games import hidden
from bot.games.hidden import Inconsistent, Slot, deal_unseen


def cards(mask: int) -> set[int]:
    return {c for c in range(mask.bit_length()) if mask >> c & 1}


def test_every_card_once_in_slots_of_the_right_size_and_never_where_forbidden() -> None:
    pool = (1 << 40) - 1
    slots = [Slot(10, forbidden=0xFF), Slot(10, forbidden=0xFF00), Slot(10), Slot(10, forbidden=1 << 39)]
    for seed in range(200):
        dealt = deal_unseen(pool, slots, random.Random(seed))
        assert [len(cards(m)) for m in dealt] == [10, 10, 10, 10]
        assert set().union(*map(cards, dealt)) == cards(pool)
        for mask, slot in zip(dealt, slots, strict=True):
            assert mask & slot.forbidden == 0


def test_the_deal_depends_on_the_pool_slots_and_generator_only() -> None:
    pool = sum(1 << c for c in (3, 9, 17, 21, 33, 40, 41, 50))
    slots = [Slot(3, forbidden=1 << 3), Slot(5)]
    first = deal_unseen(pool, slots, random.Random(7))
    assert deal_unseen(pool, slots, random.Random(7)) == first
    assert len({tuple(deal_unseen(pool, slots, random.Random(s))) for s in range(50)}) > 10  # really random


def test_a_deal_only_an_exact_matching_finds_is_still_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cards 0-3 fit only slot 0, 4-5 only slot 1: the greedy pass is made to fail so the matching must work.
    pool = 0b111111
    slots = [Slot(4, forbidden=0b110000), Slot(2, forbidden=0b001111)]
    monkeypatch.setattr(hidden, "_greedy", lambda *args: None)
    dealt = deal_unseen(pool, slots, random.Random(1))
    assert dealt == [0b001111, 0b110000]


def test_sizes_that_do_not_add_up_or_constraints_nothing_fits_are_refused() -> None:
    with pytest.raises(Inconsistent):
        deal_unseen(0b111, [Slot(2)], random.Random(1))
    with pytest.raises(Inconsistent):
        deal_unseen(0b11, [Slot(1, forbidden=0b11), Slot(1)], random.Random(1))
