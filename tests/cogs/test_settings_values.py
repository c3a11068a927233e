"""What /settings offers for each option: only values the engine allows, the default among them."""

from __future__ import annotations

import pytest

from bot.games import GAMES, new_game
from cogs.i18n import t
from cogs.settings.cog import values_of
from cogs.tables.render import all_options
from tests.cogs.test_limits import table_of


def test_settings_offer_only_values_each_option_allows() -> None:
    for info in GAMES.values():
        for option in info.options:
            offered = values_of(option)
            assert offered and len(offered) <= 25, option.name
            assert all(option.permits(value) for value in offered), (info.name, option.name, offered)
            assert option.default in offered
            if option.values:
                assert offered == list(option.values)  # 500 or 520, never a number between


def test_an_option_of_listed_values_refuses_the_numbers_between() -> None:
    spec = next(o for o in GAMES["five-hundred"].options if o.name == "open_misere_value")
    assert spec.permits(500) and spec.permits(520)
    assert not any(spec.permits(value) for value in (510, 501, 519, True, "500", 500.0))
    assert spec.allowed() == "500, 520"


@pytest.mark.parametrize(("players", "dealt"), [(4, 10), (5, 10), (6, 8), (7, 7)])
def test_oh_hells_biggest_deal_is_shown_as_the_engine_deals_it_at_every_table_size(players: int, dealt: int) -> None:
    """The default ``start_cards`` is 10, or 51 // players when smaller: a table of seven showed 10 and dealt 7."""
    table = table_of("oh-hell", players, {}, [0])
    state = new_game("oh-hell", players, {}, seed=1)
    assert state.options["start_cards"] == dealt
    assert all_options(table)["start_cards"] == dealt
    assert GAMES["oh-hell"].options_in_play(players, {})["start_cards"] == dealt
    assert GAMES["oh-hell"].options_in_play(players, {"start_cards": 3})["start_cards"] == 3
    assert GAMES["oh-hell"].options_in_play(None, {})["start_cards"] == 10  # a lobby of no size yet: the rules' 10
    game = GAMES["oh-hell"]
    assert game.expected_length(players, {}) == game.expected_length(players, {"start_cards": dealt})


@pytest.mark.parametrize(
    ("options", "players", "english", "japanese"),
    [
        ({"start_cards": 99}, 4, "a whole number from 1 to 13 with 4 players", "1から13までの整数（4人の場合）"),
        ({"start_cards": 99}, 3, "a whole number from 1 to 17 with 3 players", "1から17までの整数（3人の場合）"),
        ({"start_cards": 17}, 4, "a whole number from 1 to 13 with 4 players", "1から13までの整数（4人の場合）"),
        ({"sequence": "sideways"}, 4, "Down to 1 (down), Up from 1 (up)", "1枚まで減らす（down）、1枚から増やす（up）"),
        ({"hook": 3}, 4, "on, off", "あり（on）、なし（off）"),
    ],
)
def test_an_option_refused_by_the_engine_names_the_option_and_its_values_in_the_readers_language(
    options: dict[str, object], players: int, english: str, japanese: str
) -> None:
    """The Activity's table set-up passes the engine's refusal on: a Japanese screen was told the allowed values
    in English ("このオプションにその値は使えません: a whole number from 1 to 17"), and not which option."""
    from bot.games import InvalidGame
    from bot.words import error_text

    with pytest.raises(InvalidGame) as refused:
        new_game("oh-hell", players, options, seed=1)
    name = next(iter(options))
    assert english in error_text(refused.value, "en-US") and t("en-US", f"option.{name}") in error_text(
        refused.value, "en-US"
    )
    shown = error_text(refused.value, "ja")
    assert japanese in shown and t("ja", f"option.{name}") in shown and "whole number" not in shown
