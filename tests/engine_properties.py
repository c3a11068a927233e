"""Properties every engine keeps, checked over random matches.

``check_random_match`` plays one match choosing uniformly among legal actions.
At every step it checks that the acting seat has legal actions and that a seat
picked at random has some exactly when it is on turn. Every ``deep_every``
steps (0: only at the end) it checks the costlier properties: no hidden card
in any view, every legal action accepted, a rejected action changing nothing,
and ``from_json(to_json())`` giving the same state.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

from bot.games import GameState, IllegalAction, from_json, new_game
from bot.games import cards as C
from bot.games.views import DealSheet, LastTrick, Played, Record, SheetRow, View

from .helpers import strings_in

HiddenOracle = Callable[[GameState, int | None], set[str]]


def check_no_leak(state: GameState, hidden: HiddenOracle) -> None:
    for viewer in [None, *range(state.players)]:
        secret = hidden(state, viewer)
        shown = set(strings_in(state.view(viewer)))
        leaked = secret & shown
        assert not leaked, f"view({viewer}) shows hidden cards {sorted(leaked)}"


def check_core_view(state: GameState) -> None:
    """Every view has the core every game shares (``bot.games.views``), with the same meanings."""
    for viewer in [None, *range(state.players)]:
        view = state.view(viewer)
        assert set(View.__required_keys__) <= set(view), set(View.__required_keys__) - set(view)
        assert view["game"] == state.NAME and view["players"] == state.players and view["seat"] == viewer
        assert view["to_act"] == state.to_act() and view["scores"]["total"] == state.scores()["total"]
        assert len(view["tricks"]) == len(view["cards_left"]) >= state.players
        assert sorted(seat for side in view["sides"] for seat in side) == list(range(state.players))
        assert ("hand" in view) == (viewer is not None)
        for played in view["trick"]:
            assert set(played) >= set(Played.__required_keys__)
        last = view["last_trick"]
        if last is not None:
            assert set(last) >= set(LastTrick.__required_keys__) and last["cards"]
        if view["winners"] is not None:
            assert state.is_over() and set(view["winners"]) <= set(range(state.players))
        sheet = view["last_deal"]
        if sheet is not None:
            check_core_sheet(sheet)
        if viewer is not None:
            record = state.record(viewer)
            assert set(Record.__required_keys__) <= set(record)
            assert len(record["voids"]) == len(view["tricks"])


def check_core_sheet(sheet: DealSheet) -> None:
    assert set(DealSheet.__required_keys__) <= set(sheet) and sheet["deal"] >= 1
    for row in sheet["rows"]:
        assert set(SheetRow.__required_keys__) <= set(row)
        assert isinstance(row["change"], int) and isinstance(row["total"], int)


def _scrawl(value: Any) -> None:
    """Change every dict and list inside ``value`` in place, as a careless caller of a view might."""
    if isinstance(value, dict):
        for item in value.values():
            _scrawl(item)
        value["scrawled"] = True
    elif isinstance(value, list):
        for item in value:
            _scrawl(item)
        value.append("scrawled")


def check_handed_out_copies(state: GameState) -> None:
    """A view, a record and a result are the caller's own: changing them in place changes nothing of the game."""
    text = state.to_json()
    for viewer in [None, *range(state.players)]:
        _scrawl(state.view(viewer))
        if viewer is not None:
            _scrawl(state.record(viewer))
    if state.is_over():
        _scrawl(state.result())
    assert state.to_json() == text, "changing what the state handed out changed the state"


def check_round_trip(state: GameState) -> None:
    text = state.to_json()
    copy = from_json(text)
    assert copy == state and copy.to_json() == text
    for viewer in [None, *range(state.players)]:
        assert copy.view(viewer) == state.view(viewer)
        if viewer is not None:
            assert copy.legal(viewer) == state.legal(viewer)
    assert copy.scores() == state.scores() and copy.to_act() == state.to_act()
    check_clone(state)


def attributes(state: GameState) -> set[str]:
    """The names of the attributes an object has, compiled by mypyc (no ``__dict__``) or not."""
    fields = state.__getstate__()
    assert isinstance(fields, dict)
    return set(fields)


def check_clone(state: GameState) -> None:
    """A clone is the same state, and playing on in it leaves the original as it was."""
    text = state.to_json()
    twin = state.clone()
    assert type(twin) is type(state) and twin.to_json() == text
    native = state._clone_native()  # what a compiled engine's clone runs: every attribute, none added
    assert native.to_json() == text and attributes(native) == attributes(state)
    if not twin.is_over():
        seat = twin.to_act()[0]
        twin.act(seat, twin.legal(seat)[-1])
        assert state.to_json() == text, "playing on in a clone changed the original"


def saved_fields(state: GameState) -> dict[str, Any]:
    """What ``to_json`` writes, as the objects themselves (compared without encoding them)."""
    return {name: getattr(state, name) for name in state.SAVED}


def check_refusals(state: GameState, rng: random.Random) -> None:
    """Wrong seats, nonsense and cards not held are refused without a trace."""
    before = state.to_json()
    # Each refusal is compared with a copy of everything the snapshot holds (a deep copy: a refusal that
    # changed a list in place shows); the snapshot itself once more at the end.
    fields = pickle.loads(pickle.dumps(saved_fields(state)))
    on_turn = state.to_act()
    attempts: list[tuple[Any, str]] = [(state.players, "pass"), (0, "fly away"), (on_turn[0], "play ZZ")]
    others = [s for s in range(state.players) if s not in on_turn]
    if others:
        seat = rng.choice(on_turn)
        attempts.append((rng.choice(others), rng.choice(state.legal(seat))))
    seat = rng.choice(on_turn)
    legal = set(state.legal(seat))
    for code in rng.sample(C.ALL_CODES, 6):
        for action in (f"play {C.NAMES[code]}", f"bid {C.NAMES[code]}"):
            if action not in legal:
                attempts.append((seat, action))
    for seat, action in attempts:
        try:
            state.act(seat, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"seat {seat} was allowed {action!r}")
        assert saved_fields(state) == fields, f"refusing {action!r} changed the state"
    assert state.to_json() == before, "refusing changed the state"


def check_legal_accepted(state: GameState, seat: int, rng: random.Random, most: int = 8) -> None:
    actions = state.legal(seat)
    text = state.to_json()
    for action in rng.sample(actions, min(most, len(actions))):
        from_json(text).act(seat, action)


def check_random_match(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    hidden: HiddenOracle,
    deep_every: int = 40,
    on_step: Callable[[GameState], None] | None = None,
    limit: int = 200_000,
    choose: Callable[[list[str], random.Random], str] | None = None,
) -> GameState:
    state = new_game(game, players=players, options=options, seed=seed)
    rng = random.Random(seed)
    for step in range(limit):
        if state.is_over():
            break
        on_turn = state.to_act()
        assert on_turn, "nobody may act in an unfinished match"
        other = rng.randrange(state.players)
        assert bool(state.legal(other)) == (other in on_turn), f"seat {other}: legal() disagrees with to_act()"
        seat = rng.choice(on_turn)
        actions = state.legal(seat)
        assert actions, f"seat {seat} is on turn with no legal action"
        if deep_every and step % deep_every == 0:
            check_core_view(state)
            check_no_leak(state, hidden)
            check_round_trip(state)
            check_handed_out_copies(state)
            check_refusals(state, rng)
            check_legal_accepted(state, seat, rng)
        state.act(seat, choose(actions, rng) if choose else rng.choice(actions))
        if on_step:
            on_step(state)
    else:
        raise AssertionError("the match did not end")
    assert state.to_act() == [] and all(state.legal(s) == [] for s in range(state.players))
    check_core_view(state)
    check_no_leak(state, hidden)
    check_round_trip(state)
    check_handed_out_copies(state)
    totals = [0] * len(state.view()["tricks"])
    for sheet in state.sheets:  # each row's change is what moved its total
        for row in sheet["rows"]:
            assert row["total"] - totals[row["seat"]] == row["change"], (sheet["deal"], row)
            totals[row["seat"]] = row["total"]
    result = state.result()  # every deal's sheet, as the table's chart and /history read them
    assert result["sheets"] == state.sheets and result["scores"] == state.view()["scores"]
    assert set(result["winners"]) == set(state.view()["winners"] or [])
    return state
