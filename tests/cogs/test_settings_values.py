"""What /settings offers for each option: only values the engine allows, the default among them."""

from __future__ import annotations

from bot.games import GAMES
from cogs.settings.cog import values_of


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
