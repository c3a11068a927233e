"""One registry: each game is one entry of ``bot.games.GAMES``, and every caller finds the game's engine,
presentation and computer players through it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bot.games import GAMES, IllegalAction, InvalidGame, game_of, new_game, presentation_of
from bot.players import knowledge_of

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", list(GAMES))
def test_each_entry_holds_its_games_engine_presentation_and_computer_players(name: str) -> None:
    game = GAMES[name]
    assert game.name == name and game_of(name) is game
    assert type(new_game(name, seed=1)) is game.state and name == game.state.NAME
    assert presentation_of(name) is game.shown
    assert game.shown is importlib.import_module(f"bot.games.shown.{name.replace('-', '_')}").PRESENTATION
    assert knowledge_of(name) is importlib.import_module(game.computer).KNOWLEDGE
    assert game.computer.startswith("bot.players.")


def test_every_games_modules_have_an_entry() -> None:
    """A game's presentation and computer players are found through its entry only: no module of either
    folder is left without one."""
    named = {name.replace("-", "_") for name in GAMES}
    shown = {path.stem for path in (ROOT / "bot/games/shown").glob("*.py") if path.stem != "__init__"}
    computers = {GAMES[name].computer.rpartition(".")[2] for name in GAMES}
    assert shown == named
    assert computers == named


def test_an_unknown_game_is_refused_with_the_games_there_are() -> None:
    for find in (game_of, presentation_of, knowledge_of):
        with pytest.raises(InvalidGame) as refused:
            find("whist")
        assert refused.value.key == "unknown_game" and "oh-hell" in str(refused.value)


@pytest.mark.parametrize("name", list(GAMES))
def test_options_and_stacked_decks_of_the_wrong_shape_are_refused_with_the_games_error(name: str) -> None:
    """Options are names with values, and stacked decks lists of cards: anything else (a list, a word, a deck
    that is no list) is the game's own error, compiled or not, never a bare TypeError or AttributeError."""
    for options in (["hook"], "hook", 3):
        with pytest.raises(InvalidGame) as refused:
            new_game(name, seed=1, options=options)  # type: ignore[arg-type]
        assert refused.value.key == "bad_options"
    for decks in ([["AS", 3]], [None], [["AS"], 3]):
        with pytest.raises(InvalidGame) as refused:
            new_game(name, seed=1, decks=decks)  # type: ignore[arg-type]
        assert refused.value.key == "bad_decks"
    for decks in ("AS KS", {"0": []}, 3):
        with pytest.raises(InvalidGame) as refused:
            new_game(name, seed=1, decks=decks)  # type: ignore[arg-type]
        assert refused.value.key == "bad_decks_shape"


@pytest.mark.parametrize("name", list(GAMES))
def test_a_new_match_refuses_counts_seeds_and_dealers_that_are_not_whole_numbers(name: str) -> None:
    """A bool is an int to Python, but True is no player count, seed or seat; a dealer given as text or a
    fraction is refused with the game's own error, compiled or not (never a bare TypeError)."""
    players = GAMES[name].default_players
    for bad in ({"players": True}, {"players": float(players)}, {"seed": True}, {"seed": 1.5}):
        with pytest.raises(InvalidGame):
            new_game(name, **bad)  # type: ignore[arg-type]
    for dealer in (True, "0", 1.0, -1, players):
        with pytest.raises(InvalidGame) as refused:
            new_game(name, seed=1, first_dealer=dealer)  # type: ignore[arg-type]
        assert refused.value.key == "bad_first_dealer"
    state = new_game(name, seed=1, first_dealer=0)
    seat = state.to_act()[0]
    before = state.to_json()
    for wrong in (True, False, float(seat), str(seat)):
        with pytest.raises(IllegalAction) as illegal:
            state.act(wrong, state.legal(seat)[0])  # type: ignore[arg-type]
        assert illegal.value.key == "bad_seat"
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ({}, {"format", "trump_style", "premium_bids", "declarer_may_raise"}),
        ({"format": "target"}, {"format", "target", "trump_style", "premium_bids", "declarer_may_raise"}),
        ({"format": "nine-deals", "target": 300}, {"format", "trump_style", "premium_bids", "declarer_may_raise"}),
        ({"format": "oxford"}, {"format"}),  # its own trumps, no premium bids (the rules)
        ({"premium_bids": False}, {"format", "trump_style", "premium_bids"}),
    ],
)
def test_a_table_shows_only_the_options_that_change_its_game(given: dict[str, object], shown: set[str]) -> None:
    """Ninety-Nine's target counts only when played to a target; with Oxford's format its trumps and premium
    bids are its own; a declarer may raise only where premium bids are played."""
    assert set(GAMES["ninety-nine"].options_that_count(3, given)) == shown  # type: ignore[arg-type]
    two = shown - {"declarer_may_raise"}  # with two players nobody may reveal: there is no raise to allow
    assert set(GAMES["ninety-nine"].options_that_count(2, given)) == two  # type: ignore[arg-type]
    # the others' options depend on no other option, only on the player count
    assert set(GAMES["five-hundred"].options_that_count(4, {})) == {
        spec.name for spec in GAMES["five-hundred"].options if spec.applies(4)
    }


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("key", [1, None, ("target",), 2.5])
def test_an_option_named_by_anything_but_text_is_an_unknown_option(name: str, key: object) -> None:
    """Options come from JSON and Discord as text, but the engine's promise is that any bad option is refused
    with a clear reason: a name of another type is an unknown option, in the compiled engines too (where
    unpacking it as text raised a TypeError)."""
    given: dict[object, object] = {key: 3}
    with pytest.raises(InvalidGame) as refused:
        new_game(name, options=given, seed=1)  # type: ignore[arg-type]
    assert refused.value.key == "unknown_option"
    with pytest.raises(InvalidGame) as refused:
        GAMES[name].options_in_play(min(GAMES[name].players), given)  # type: ignore[arg-type]
    assert refused.value.key == "unknown_option"
