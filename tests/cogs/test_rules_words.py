"""The words that tell players the rules say the rules we play (docs/rules/): /rules' summaries, the options'
descriptions and labels, and the options /rules lists for a new table of the server."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.tables import GuildSettings
from cogs.i18n import t
from cogs.rules import cog as rules_cog

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


@pytest.mark.parametrize("locale", LOCALES)
def test_ninety_nines_target_is_passed_not_reached(locale: str) -> None:
    """The match ends when someone has more than the target: exactly 200 does not win."""
    described = t(locale, "describe.ninety-nine.target")
    assert ("more than" in described) if locale == "en-US" else ("超えたら" in described)


@pytest.mark.parametrize("locale", LOCALES)
def test_ninety_nines_summary_has_the_first_trump_oxfords_bonus_and_two_players_declares(locale: str) -> None:
    rules = t(locale, "rules.ninety-nine", players="2–4")
    if locale == "en-US":
        assert "first deal is at no trumps" in rules and "at diamonds" in rules
        assert "Oxford format a flat 10" in rules
        assert "With two players both may declare, and nobody may reveal" in rules
    else:
        assert "最初のディールは切り札なし" in rules and "ダイヤ" in rules
        assert "オックスフォード形式では一律10" in rules
        assert "2人のときは二人とも宣言でき、公開はできません" in rules


class Service:
    def __init__(self, defaults: dict[str, dict[str, Any]]) -> None:
        self.defaults = defaults

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings(guild_id, 60, 30, True, None, default_options=self.defaults)


async def rules_here(monkeypatch: pytest.MonkeyPatch, defaults: dict[str, dict[str, Any]]) -> str:
    """The options field /rules shows for Ninety-Nine in a channel with no table."""
    sent: list[discord.Embed] = []

    async def no_table(service: Any, interaction: Any) -> None:
        return None

    async def send(interaction: Any, text: str | None = None, **kwargs: Any) -> None:
        sent.append(kwargs["embed"])

    monkeypatch.setattr(rules_cog, "table_here", no_table)
    monkeypatch.setattr(rules_cog, "send", send)
    cog = rules_cog.Rules(SimpleNamespace(service=Service(defaults)))  # type: ignore[arg-type]
    interaction: Any = SimpleNamespace(guild_id=1, locale="en-US", client=None)
    await cog._rules(interaction, SimpleNamespace(value="ninety-nine"))  # type: ignore[arg-type]
    [embed] = sent
    assert embed.fields[0].name == "Options of a new Ninety-Nine table on this server"
    return str(embed.fields[0].value)


async def test_rules_with_no_table_lists_the_servers_options_that_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the default format there is no target: /rules in a channel with no table listed "Target: 200"."""
    shown = await rules_here(monkeypatch, {})
    assert "Format: three bonuses" in shown and "Target" not in shown
    shown = await rules_here(monkeypatch, {"ninety-nine": {"format": "target", "target": 300}})
    assert "Target: 300" in shown
    shown = await rules_here(monkeypatch, {"ninety-nine": {"format": "oxford"}})
    assert "Target" not in shown and "Trumps" not in shown and "Declare and reveal" not in shown
