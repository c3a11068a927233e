"""The order tests are handed to pytest-xdist's workers: the longest first.

``-n auto`` deals tests out to the workers in collection order, so a long test
collected last (the engines' random matches, in files named after their game)
runs alone at the end while the other workers idle. Dealt longest first, the
quick ones fill in at the end and every worker finishes at about the same time.
The ranks below are rough (measured with ``pytest --durations=60``); a test not
named keeps its place after them, in collection order.
"""

from __future__ import annotations

import os
import zlib

import pytest

# Path prefixes of a test's node id, longest-running first.
LONGEST_FIRST = (
    "tests/e2e/test_shards.py",
    "tests/e2e/test_crash_lobby.py",
    "tests/test_ninety_nine_properties.py",
    "tests/test_just_make_properties.py",
    "tests/e2e/test_computers.py",
    "tests/e2e/test_rest_budget.py",
    "tests/e2e/test_tournaments.py",
    "tests/browser/test_discord_games.py",
    "tests/browser/test_local_match.py",
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


# End-to-end tests whose point is the database itself (a kill, a restart, a cold start over many stored
# tables, forged ids read back, stopping, several processes): these run on SQLite and on PostgreSQL.
ON_BOTH_DATABASES = (
    "tests/e2e/test_restart.py",
    "tests/e2e/test_crash_lobby.py",
    "tests/e2e/test_cold_start.py",
    "tests/e2e/test_fuzz.py",
    "tests/e2e/test_stop.py",
    "tests/e2e/test_shards.py",  # PostgreSQL only: its SQLite variant skips, saying why
    "tests/e2e/test_seasons.py",  # a season that ended while the bot was down; nights claimed in the database
)


def one_database_each(items: list[pytest.Item]) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """Every other end-to-end test runs once, on one of the two databases, alternating.

    The Discord side of a test does not depend on the database; the storage layer is checked on both by
    tests/service (every repository and service test runs on SQLite and PostgreSQL) and by the tests named
    in ``ON_BOTH_DATABASES``. So the variants of one test function (its games, its player counts) are
    dealt out to SQLite and PostgreSQL in turn, starting on a side chosen by the function's name: each
    function, and half of the whole suite, still runs on each database. Without ``TEST_POSTGRES_URL``
    everything runs on SQLite (the PostgreSQL variants skip as before); ``E2E_BOTH_DATABASES=1`` runs
    every end-to-end test on both."""
    if not os.environ.get("TEST_POSTGRES_URL") or os.environ.get("E2E_BOTH_DATABASES") == "1":
        return items, []
    groups: dict[tuple[str, str], list[pytest.Item]] = {}
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "database_url" not in params or item.nodeid.startswith(ON_BOTH_DATABASES):
            continue
        rest = tuple(sorted((key, repr(value)) for key, value in params.items() if key != "database_url"))
        groups.setdefault((item.nodeid.split("[")[0], repr(rest)), []).append(item)
    dropped: set[int] = set()
    for index, ((function, _), variants) in enumerate(sorted(groups.items(), key=lambda kv: kv[0])):
        keep = ("sqlite", "postgresql")[(zlib.crc32(function.encode()) + index) % 2]
        for item in variants:
            if item.callspec.params["database_url"] != keep:  # type: ignore[attr-defined]
                dropped.add(id(item))
    return [item for item in items if id(item) not in dropped], [item for item in items if id(item) in dropped]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept, deselected = one_database_each(items)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept
    items.sort(key=lambda item: rank(item.nodeid))  # stable: collection order within a rank


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. Most of an end-to-end test is waiting (for a bot process in another
    process, its timers, its computers thinking): measured on 2 cores, a run's processes used the CPU about
    a third of its time with one worker a core."""
    return 2 * (os.cpu_count() or 1)
