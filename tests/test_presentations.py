"""Every game describes itself (bot.games.shown): each part, from views alone, in keys the catalogue has."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.games import GAMES, GameState, new_game, presentation_of
from bot.games.shown import (
    CARD,
    CARDS,
    LIST,
    NUMBER,
    WORD,
    Card,
    Cards,
    Cell,
    Joined,
    Param,
    Seat,
    Suit,
    SuitSymbol,
    Text,
)
from cogs.i18n import DEFAULT, catalogue
from tests.source_trees import parsed

from .helpers import strings_in

SUITS = {"S", "H", "D", "C"}


def check_text(text: Text, view: dict[str, Any], players: int) -> None:
    assert text.key in catalogue(DEFAULT), f"no catalogue entry {text.key!r}"
    for value in text.params.values():
        check_param(value, view, players)


def check_param(value: Param, view: dict[str, Any], players: int) -> None:
    shown = set(strings_in(view))
    if isinstance(value, Text):
        check_text(value, view, players)
    elif isinstance(value, Seat):
        assert 0 <= value.index < max(players, 3)  # the two-player Ninety-Nine dummy is seat 2
    elif isinstance(value, Card):
        assert value.name in shown, f"{value.name} is not in the view it was made from"
    elif isinstance(value, Cards):
        assert set(value.names) <= shown
    elif isinstance(value, Suit):
        assert value.letter is None or value.letter in SUITS | {"NT"}
    elif isinstance(value, SuitSymbol):
        assert value.letter in SUITS
    elif isinstance(value, Joined):
        for item in value.items:
            check_text(item, view, players)
    else:
        assert isinstance(value, (int, str)) and not isinstance(value, bool)


def check_description(state: GameState) -> None:
    shown = presentation_of(state.NAME)
    for viewer in [None, *range(state.players)]:
        view = state.view(viewer)
        for line in shown.header(view):
            assert line
            for text in line:
                check_text(text, view, state.players)
        rows = shown.seat_rows(view)
        assert sorted(row.seat for row in rows) == list(range(len(rows))) and len(rows) >= state.players
        assert {row.seat for row in rows if row.acting} <= set(view["to_act"]) | {view.get("to_play")}
        for row in rows:
            for text in row.parts:
                check_text(text, view, state.players)
        for face_up in shown.face_up(view):
            check_text(face_up.title, view, state.players)
            check_param(face_up.cards, view, state.players)
        if viewer is not None:
            check_hand(state, viewer, view)
        if view.get("last_deal"):
            sheet = shown.sheet(view["last_deal"])
            check_text(sheet.title, view, state.players)
            assert sheet.head in catalogue(DEFAULT)
            assert [seat for seat, _ in sheet.rows] == [row["seat"] for row in view["last_deal"]["rows"]]
            widths = {tuple(cell.width for cell in cells) for _, cells in sheet.rows}
            assert len(widths) == 1, "the columns line up"
            assert all(isinstance(cell, Cell) for _, cells in sheet.rows for cell in cells)


def check_hand(state: GameState, seat: int, view: dict[str, Any]) -> None:
    """A seat's notes and extra hands from its own view, and each legal action in exactly one choice,
    each with a label."""
    shown = presentation_of(state.NAME)
    for note in shown.hand_notes(view):
        check_text(note, view, state.players)
    for beside in shown.beside(view):
        check_text(beside.title, view, state.players)
        check_param(beside.cards, view, state.players)
    legal = state.legal(seat)
    choices = shown.choices(view, legal)
    placed = [action for choice in choices for action in choice.actions]
    assert sorted(placed) == sorted(legal), "every legal action in exactly one choice"
    for choice in choices:
        assert choice.kind in (CARD, CARDS, NUMBER, WORD, LIST) and choice.actions
        if choice.prompt is not None:
            check_text(choice.prompt, view, state.players)
        if choice.kind == CARD:
            assert {a.split()[1] for a in choice.actions} <= set(choice.cards)
        if choice.kind == CARDS:
            assert all(len(a.split()) == choice.count + 1 for a in choice.actions)
        if choice.kind == NUMBER:
            numbers = {n for n, _ in choice.numbers}
            assert all(int(a.split()[1].rstrip("SHDCNT")) in numbers for a in choice.actions)
    for action in legal:
        check_text(shown.label(view, action), view, state.players)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_describes_every_moment_from_its_views(game: str) -> None:
    for players in GAMES[game].players:
        state = new_game(game, players, seed=players)
        rng = Random(players)
        steps = 0
        while not state.is_over() and len(state.sheets) < 3 and steps < 400:
            if steps % 3 == 0:
                check_description(state)
            seat = rng.choice(state.to_act())
            state.act(seat, rng.choice(state.legal(seat)))
            steps += 1
        check_description(state)


def test_every_registered_game_has_a_description() -> None:
    for game in GAMES:
        shown = presentation_of(game)  # fails, not skips, for a game without one
        for part in ("header", "seat_rows", "face_up", "sheet", "hand_notes", "beside", "choices", "label"):
            assert callable(getattr(shown, part))


def test_no_game_is_named_outside_its_own_files() -> None:
    """The cogs, the table service and storage render, run and store any game: no string or name in their
    code names one (comments and docstrings may give an example)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    names = {spelling for game in GAMES for spelling in (game, game.replace("-", "_"))}
    found = []
    for folder in ("cogs", "bot/tables", "bot/storage"):
        for path in sorted((root / folder).rglob("*.py")):
            tree = parsed(path.read_text())
            docstrings = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and node.body
                and isinstance(node.body[0], ast.Expr)
            }
            for node in ast.walk(tree):
                words = []
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                    words.append(node.value.lower())
                elif isinstance(node, ast.Name):
                    words.append(node.id.lower())
                elif isinstance(node, ast.Attribute):
                    words.append(node.attr.lower())
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    words.append(node.name.lower())
                found += [f"{path.relative_to(root)}:{node.lineno}: {w!r}" for w in words if any(n in w for n in names)]  # type: ignore[attr-defined]
    assert found == []


def test_playing_for_the_dummy_shows_its_whole_hand_beside_the_seats_own() -> None:
    """With two players of Ninety-Nine, the seat that plays for the dummy gets a button for each of the
    dummy's cards (those it may not play disabled by the cog) and the dummy's hand shown apart."""
    shown = presentation_of("ninety-nine")
    rng = Random(3)
    seen = 0
    for seed in range(6):
        state = new_game("ninety-nine", 2, seed=seed)
        for _ in range(300):
            if state.is_over():
                break
            seat = state.to_act()[0]
            view = state.view(seat)
            legal = state.legal(seat)
            if view.get("dummy_controller") == seat and legal[0].startswith("play "):
                dummy = view["hands"][view["dummy"]]["cards"]
                plays = next(c for c in shown.choices(view, legal) if c.kind == CARD)
                if not {a.split()[1] for a in legal} <= set(view["hand"]):
                    assert sorted(plays.cards) == sorted(dummy)
                    assert plays.prompt is not None and plays.prompt.key == "hand.pick_play_dummy"
                    assert "hand.play_for_dummy" in [note.key for note in shown.hand_notes(view)]
                    assert [b.cards.names for b in shown.beside(view)] == [tuple(dummy)]
                    seen += 1
            state.act(seat, rng.choice(legal))
    assert seen > 5


def test_five_players_count_the_called_partners_tricks_with_the_contractors_once_the_seat_knows_the_partner() -> None:
    """The contractor, the partner and the defence each saw the partner's tricks on the wrong side ("The defence has
    6 tricks: 0 more to defeat" with 3); while the partner is secret only the partner itself can count."""
    from bot.games.five_hundred import FiveHundred
    from bot.games.shown.five_hundred import PRESENTATION
    from bot.words.texts import said

    state = new_game("five-hundred", players=5, seed=1)
    assert isinstance(state, FiveHundred)
    rng = Random(3)
    while state.view(None)["phase"] != "playing":
        seat = state.to_act()[0]
        legal = state.legal(seat)
        calls = [a for a in legal if a.startswith("call")]
        contracts = [a for a in legal if a.startswith("bid") and "misere" not in a]
        choice = calls[0] if calls else ("pass" if "pass" in legal and state.view(None)["standing_bid"] else
                                         contracts[0] if contracts else rng.choice(legal))  # fmt: skip
        state.act(seat, choice)
    contractor, partner = state.contractor, state.partner
    assert contractor >= 0 and partner >= 0 and partner != contractor
    defender = next(s for s in range(5) if s not in (contractor, partner))
    wanted = state.view(None)["contract"]["tricks"]
    state.tricks = [0] * 5
    state.tricks[contractor], state.tricks[partner], state.tricks[defender] = 2, 3, 1

    def notes(seat: int) -> list[str]:
        return [said(n, "en-US", lambda i: f"seat{i}") for n in PRESENTATION.hand_notes(state.view(seat))]

    to_make = f"Your side has 5 tricks: {wanted - 5} more to make the contract."
    assert to_make in notes(partner)
    assert not any("Your side has" in n or "defence has" in n for n in notes(contractor) + notes(defender))
    state.partner_known = True  # the called card played (or announced): now everyone can count
    assert to_make in notes(contractor) and to_make in notes(partner)
    assert any(n.startswith("The defence has 1 trick:") for n in notes(defender))
    assert any("everyone knows it" in n for n in notes(partner))


def test_a_hand_played_at_no_trumps_after_all_passed_says_so_on_the_table_in_the_hand_and_on_its_sheet() -> None:
    """With all_pass=play-no-trumps the table and the hand said nothing of a contract-less hand, and its
    score sheet read "Hand 1: ? failed ?"."""
    from bot.words.texts import said

    shown = presentation_of("five-hundred")
    state = new_game("five-hundred", players=4, options={"all_pass": "play-no-trumps"}, seed=2)
    for _ in range(4):
        state.act(state.to_act()[0], "pass")
    public, seat = state.view(None), state.to_act()[0]
    assert public["phase"] == "playing" and public["contract"] is None
    line = "All passed: played at no trumps, every side scoring 10 points a trick"
    header = [[said(text, "en-US", str) for text in row] for row in shown.header(public)]
    assert [line] in header
    assert line in [said(note, "en-US", str) for note in shown.hand_notes(state.view(seat))]
    rng = Random(0)
    while state.view(None)["last_deal"] is None:
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    sheet = shown.sheet(state.view(None)["last_deal"])
    assert said(sheet.title, "en-US", str) == "Hand 1: all passed, played at no trumps"
    assert [said(note, "en-US", str) for note in sheet.notes] == ["+10 a trick: every side"]
    assert all(note.key != "table.all_passed_500" for note in shown.hand_notes(state.view(0)))  # the next hand
