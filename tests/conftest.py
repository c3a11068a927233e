"""The order tests are handed to pytest-xdist's workers: the longest first.

``-n auto`` deals tests out to the workers in collection order, so a long test
collected last (the engines' random matches, in files named after their game)
runs alone at the end while the other workers idle. Dealt longest first, the
quick ones fill in at the end and every worker finishes at about the same time.
The ranks below are rough (measured with ``pytest --durations=60``); a test not
named keeps its place after them, in collection order.
"""

from __future__ import annotations

import pytest

# Path prefixes of a test's node id, longest-running first.
LONGEST_FIRST = (
    "tests/test_ninety_nine_properties.py",
    "tests/test_just_make_properties.py",
    "tests/e2e/test_computers.py",
    "tests/e2e/test_rest_budget.py",
    "tests/e2e/test_crash_lobby.py",
    "tests/e2e/test_shards.py",
    "tests/e2e/test_matches.py",
    "tests/e2e/test_cold_start.py",
    "tests/e2e/test_game_nights.py",
    "tests/e2e/test_fuzz.py",
    "tests/e2e/test_stress.py",
    "tests/e2e/test_restart.py",
    "tests/e2e/test_picture.py",
    "tests/test_presentations.py",
    "tests/test_compiled.py",
    "tests/test_oh_hell_properties.py",
    "tests/test_five_hundred_properties.py",
    "tests/service/test_durability.py",
    "tests/e2e/",
    "tests/service/",
)


def rank(nodeid: str) -> int:
    return next((index for index, prefix in enumerate(LONGEST_FIRST) if nodeid.startswith(prefix)), len(LONGEST_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: rank(item.nodeid))  # stable: collection order within a rank
