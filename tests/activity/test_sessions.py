"""Local players' ids: one per name (in any case or width) while a session holds it, never a name's id given to
another, freed when its last session ends (dropped, expired or pushed out), found without reading every
session; checked against the rule read from all sessions, over random sign-ins and ends."""

from __future__ import annotations

import random

import pytest

from activity import sessions as module
from activity.sessions import Sessions, same_name


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def held_by_scan(sessions: Sessions) -> dict[int, str]:
    """The ids local sessions hold, read from every session (the rule, as it was computed before)."""
    return {s.user_id: same_name(s.name) for s in sessions._by_key.values() if s.local}


def test_a_name_keeps_its_id_and_another_name_never_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module, "LOCAL_USERS", 4)  # three ids: names must share out
    sessions = Sessions(Ticks())
    ann = sessions.local_user_id("Ann")
    first = sessions.make(ann, "Ann", 1, 1, local=True)
    assert sessions.local_user_id("ＡＮＮ") == ann  # the same player, in another case and width
    others = {sessions.local_user_id(name) for name in ("Bob", "Cy", "Di", "Ed")}
    assert ann not in others
    bob = sessions.local_user_id("Bob")
    sessions.make(bob, "Bob", 1, 1, local=True)
    cy = sessions.local_user_id("Cy")
    assert len({ann, bob, cy}) == 3
    sessions.drop(first.key)  # Ann's only session ends: her id is free for anyone
    assert not any(user == ann for user in held_by_scan(sessions))


def test_the_kept_index_agrees_with_every_session_over_random_sign_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module, "LOCAL_USERS", 6)
    monkeypatch.setattr(module, "MAX_SESSIONS", 12)  # sessions pushed out too
    clock = Ticks()
    sessions = Sessions(clock)
    rng = random.Random(7)
    names = ["Ann", "ann", "ＡＮＮ", "Bob", "Cy", "Ｇｕｙ"]  # four players for five ids: one is always free
    keys: list[str] = []
    for _ in range(3000):
        roll = rng.random()
        if roll < 0.5:
            name = rng.choice(names)
            held = held_by_scan(sessions)
            user = sessions.local_user_id(name)
            assert held.get(user, same_name(name)) == same_name(name)  # never another held name's id
            if same_name(name) in held.values():
                assert held[user] == same_name(name)  # a held name keeps its id
            keys.append(sessions.make(user, name, 1, 1, local=True).key)
        elif roll < 0.7 and keys:
            sessions.drop(keys.pop(rng.randrange(len(keys))))
        elif roll < 0.8:
            sessions.make(10**17 + rng.randrange(5), "Discord user", 2, 2, local=False)
        elif keys:
            clock.now += rng.choice([1.0, 3600.0, 13 * 3600.0])
            sessions.get(rng.choice(keys))  # an expired one is forgotten as it is read
        index = {user: name for user, (name, _) in sessions._local.items()}
        assert index == held_by_scan(sessions)
        assert sessions._local_ids == {name: user for user, name in index.items()}
        counts = {}
        for s in sessions._by_key.values():
            if s.local:
                counts[s.user_id] = counts.get(s.user_id, 0) + 1
        assert {user: count for user, (_, count) in sessions._local.items()} == counts
