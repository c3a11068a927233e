"""What /settings says of the turn timer is true of every setting, in English and Japanese."""

from __future__ import annotations

import pytest

from bot.tables import MIN_ABSENT_TURN_SECONDS, GuildSettings
from cogs.i18n import duration
from cogs.settings.cog import GRACE_TIMES, TURN_TIMES, home_message, turn_text

SETTINGS = sorted({*TURN_TIMES, *range(0, 20)}), sorted({*GRACE_TIMES, *range(0, 20)})


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_time_someone_away_has_is_told_by_the_rule_that_gives_it(language: str) -> None:
    """A server turn timer of 1 to 14 s with a grace of 0 gave someone away the whole turn, 10 s, and /settings
    said they had 10 s, "the grace, but 15 s at least"; a timer turned off still told of their time."""
    least = duration(MIN_ABSENT_TURN_SECONDS, language)
    floor_words = {"en": f"{least} at least", "ja": f"最低でも{least}"}[language]
    for turn in SETTINGS[0]:
        for grace in SETTINGS[1]:
            settings = GuildSettings(1, turn, grace, True, None)
            words = turn_text(settings, language)
            if turn == 0:  # off: nobody's time runs out
                assert settings.absent_basis == "off" and duration(grace, language) not in words, (turn, grace)
                continue
            absent = settings.absent_seconds
            assert duration(absent, language) in words, (turn, grace, words)
            floor = absent == MIN_ABSENT_TURN_SECONDS > grace
            assert (floor_words in words) == floor, (turn, grace, words)  # the floor is named only where it applies
            assert settings.absent_basis == ("least" if floor else "grace" if absent == grace else "turn")
            if settings.absent_basis == "turn":
                assert absent == turn < MIN_ABSENT_TURN_SECONDS and grace < turn


def test_the_panel_with_a_short_timer_and_no_grace() -> None:
    embed = home_message(GuildSettings(1, 10, 0, True, None), "en")["embed"]
    timer = embed.fields[0].value
    assert "has 10 s on each later turn" in timer and "15 s at least" not in timer and "whole turn time" in timer
