"""Numbers people type into a free-text option ("target=--5" once raised inside the bot: "something went wrong"),
and a setting's range said in the reader's language (a Japanese reader was told "0 to 86400 seconds")."""

from __future__ import annotations

import pytest

from bot.games.options import whole_number
from bot.tables import BadOptions
from bot.tables.game_nights import parse_options as night_options
from bot.words import error_text
from cogs.settings.cog import decode
from cogs.tournaments.cog import parse_options as tournament_options


@pytest.mark.parametrize("typed", ["--5", "-", "٣", "1e3", "+-1", "1234567890"])
def test_a_number_that_is_not_one_is_refused_politely_everywhere_it_is_typed(typed: str) -> None:
    assert whole_number(typed) is None
    assert tournament_options("just-make", f"target={typed}") == "tournament.bad_options_text"
    assert night_options("just-make", f"target={typed}") == {"target": typed}  # a word, refused by the game's own check
    assert decode(f"i:{typed}") == typed


def test_a_number_that_is_one_is_taken() -> None:
    assert [whole_number(t) for t in ("7", "-3", "0", "123456789")] == [7, -3, 0, 123456789]
    assert tournament_options("just-make", "target=7") == {"target": 7}
    assert night_options("just-make", "target=-3") == {"target": -3}
    assert decode("i:-3") == -3


@pytest.mark.parametrize(
    ("error", "japanese"),
    [
        (BadOptions("bad_setting", setting="turn_seconds", value=-5, allowed="", low=0, high=86_400, unit="seconds"),
         "0〜86400秒"),
        (BadOptions("bad_setting", setting="top", value=99, allowed="", low=1, high=10, unit="places"), "1〜10位"),
    ],
)  # fmt: skip
def test_a_setting_out_of_range_says_its_range_in_the_readers_language(error: BadOptions, japanese: str) -> None:
    shown = error_text(error, "ja")
    assert japanese in shown and " to " not in shown
