"""A refusal that says back what someone typed (a time, a date, a season's name, options) shows it as typed in
Discord: cut short, its markdown and mentions escaped (found by a helper's audit: ``**<@&1…>**`` came back bold,
as a role's mention). The Activity, which shows plain text, gets the words as they are."""

from __future__ import annotations

import pytest

from bot import words
from bot.tables import TableError
from bot.tables.game_nights import NightRefused
from bot.tables.seasons import SeasonRefused
from cogs.i18n import error_text

HOSTILE = "**<@&12345678901234567>** @everyone _x_"


@pytest.mark.parametrize(
    "error",
    [
        NightRefused("night_bad_time", value=HOSTILE),
        NightRefused("night_bad_options", value=HOSTILE, game="oh-hell", names="start_cards, sequence, hook, scoring"),
        SeasonRefused("season_bad_date", value=HOSTILE),
        SeasonRefused("season_unknown", name=HOSTILE, game="oh-hell"),
        TableError("bad_rounds", most=15, value=HOSTILE),
    ],
    ids=lambda error: error.key,
)
@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_what_someone_typed_is_said_back_as_typed(error: TableError, locale: str) -> None:
    said = error_text(error, locale)
    assert "\\*\\*\\<@\u200b&12345678901234567>\\*\\*" in said, said  # no bold, no role's mention
    assert "@everyone" not in said and "@\u200beveryone" in said and "\\_x\\_" in said, said
    plain = words.error_text(error, locale)  # the words themselves (the Activity's page shows text, not markdown)
    assert HOSTILE in plain
    if error.key == "season_unknown":
        assert "Oh Hell" in said or "オーヘル" in said  # the game still named, not escaped
