"""The words that tell players the rules say the rules we play (docs/rules/): /rules' summaries, the options'
descriptions and labels."""

from __future__ import annotations

import pytest

from cogs.i18n import t

LOCALES = ("en-US", "ja")


@pytest.mark.parametrize("locale", LOCALES)
def test_five_hundreds_misere_trick_option_says_who_scores_what(locale: str) -> None:
    """After a misère nobody scores 10 a trick; the option (Parlett) gives every other side 10 for each trick
    the contractor took. The texts said the misère's opponents score their own tricks."""
    label = t(locale, "option.misere_tricks_score")
    described = t(locale, "describe.five-hundred.misere_tricks_score")
    rules = t(locale, "rules.five-hundred", players="2–6")
    contractor = "contractor" if locale == "en-US" else "コントラクター"
    for text in (label, described, rules):
        assert contractor in text and "10" in text, text
    assert len(label) <= 100 and len(described) <= 100  # a select option's label, a command option's description
    if locale == "en-US":
        assert "score their tricks" not in described and "opponents score tricks" not in label.lower()
        assert "after a misère nobody does" in rules


@pytest.mark.parametrize("locale", LOCALES)
def test_five_hundreds_called_partner_is_for_five_players_alone(locale: str) -> None:
    described = t(locale, "describe.five-hundred.called_partner")
    assert "5" in described or "Five" in described
    assert "3" not in described and "three" not in described.lower()


@pytest.mark.parametrize("locale", LOCALES)
def test_five_hundreds_summary_has_the_two_player_kitty_and_the_six_player_sides(locale: str) -> None:
    rules = t(locale, "rules.five-hundred", players="2–6")
    if locale == "en-US":
        assert "five with two players" in rules and "discards as many" in rules
        assert "two sides of three in alternate seats" in rules
        assert "With four or six, partners sit opposite" not in rules
    else:
        assert "2人なら5枚" in rules and "同じ枚数を捨て" in rules
        assert "一人おきに座る三人ずつの二組" in rules
