"""Options typed as ``name=value`` (``/tournament create``, ``/gamenight schedule``) are read by the game's
internal English names only, while ``/rules`` shows translated labels in either language: a refusal of options
that are not the game's names those it has, in English and in Japanese."""

from __future__ import annotations

import pytest

from bot.catalogues import translate
from bot.games import GAMES
from bot.tables import BadOptions
from bot.tables.game_nights import NightRefused
from bot.tables.game_nights import parse_options as night_options
from bot.tables.settings import checked_options
from bot.words import error_text
from cogs.tournaments.cog import parse_options as tournament_options

LANGUAGES = ("en-US", "ja")


def test_a_game_names_its_options_as_they_are_typed() -> None:
    assert GAMES["oh-hell"].option_names == "start_cards, sequence, hook, scoring"
    assert all(GAMES[game].option_names.split(", ")[0] == GAMES[game].options[0].name for game in GAMES)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tournaments_options_refused_name_the_games_own(game: str, language: str) -> None:
    label = translate("ja", f"option.{GAMES[game].options[0].name}")  # the label /rules shows, typed as a name
    key = tournament_options(game, f"{label}=3")
    assert key == "tournament.bad_options_text"
    said = translate(language, key, game=translate(language, f"game.{game}"), names=GAMES[game].option_names)
    assert GAMES[game].option_names in said and translate(language, f"game.{game}") in said, said


@pytest.mark.parametrize("typed", ["start_cards", "=3", "start_cards="])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_nights_options_refused_name_the_games_own(typed: str, language: str) -> None:
    with pytest.raises(NightRefused) as refused:
        night_options("oh-hell", typed)
    said = error_text(refused.value, language)
    assert "start_cards, sequence, hook, scoring" in said and translate(language, "game.oh-hell") in said, said


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_option_the_game_lacks_is_refused_with_those_it_has(language: str) -> None:
    label = translate("ja", "option.start_cards")
    with pytest.raises(BadOptions) as refused:
        checked_options("oh-hell", night_options("oh-hell", f"{label}=3"), None)
    assert refused.value.key == "unknown_option"
    said = error_text(refused.value, language)
    assert "start_cards, sequence, hook, scoring" in said and translate(language, "game.oh-hell") in said, said


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_value_the_option_lacks_is_refused_with_the_values_as_typed(language: str) -> None:
    """A typed value that is not one of the option's: the refusal gives each allowed value as it is typed beside its
    label (the labels alone, ``by the table``, were not what the parser takes: ``table``)."""
    with pytest.raises(BadOptions) as refused:
        checked_options("just-make", night_options("just-make", "scoring=made-up"), None)
    said = error_text(refused.value, language)
    for choice in ("table", "tricks"):
        shown = translate(language, "error.allowed_typed", label=translate(language, f"choice.{choice}"), value=choice)
        assert shown in said and shown.endswith((f"({choice})", f"（{choice}）")), said
    with pytest.raises(BadOptions) as refused:
        checked_options("oh-hell", night_options("oh-hell", "hook=7"), None)
    said = error_text(refused.value, language)
    for word in ("on", "off"):
        label = translate(language, f"option.{word}")
        typed = label if label == word else translate(language, "error.allowed_typed", label=label, value=word)
        assert typed in said, said
