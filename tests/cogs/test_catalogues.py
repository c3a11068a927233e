"""The English and Japanese catalogues: complete, with the same placeholders, and nothing in them unused."""

from __future__ import annotations

import ast
import re
import string
import unicodedata
from pathlib import Path

import pytest

from bot.games import GAMES, presentation_of
from cogs.i18n import DEFAULT, catalogue, languages, t
from cogs.tables.play_commands import parameters_of
from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *ROOT.joinpath("cogs").rglob("*.py"),
    *ROOT.joinpath("bot").rglob("*.py"),
    *ROOT.joinpath("activity").glob("*.py"),  # the Activity's server (its page's keys: test_page_catalogues)
]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def is_command(node: ast.AST) -> bool:
    """A slash command's callback (decorated ``@….command(…)``): its parameters are the command's options."""
    decorators = getattr(node, "decorator_list", [])
    return any("command" in ast.unparse(decorator) for decorator in decorators)


def strings_in_code() -> tuple[set[str], set[str]]:
    """Every string literal in the bot's code and every slash-command option name (their translations are
    keyed ``name.<option>``), and the constant starts of its f-strings (``error.``)."""
    literals: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        tree = parsed(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.AsyncFunctionDef) and is_command(node):
                literals |= {arg.arg for arg in node.args.args}
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values:
                first = node.values[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and "." in first.value:
                    prefixes.add(first.value)
    return literals, prefixes


def test_both_languages_are_there() -> None:
    assert languages() == ("en", "ja")


@pytest.mark.parametrize("language", ["ja"])
def test_every_key_is_in_every_language(language: str) -> None:
    english, other = catalogue(DEFAULT), catalogue(language)
    assert sorted(set(english) - set(other)) == [], "missing from the translation"
    assert sorted(set(other) - set(english)) == [], "missing from English"


@pytest.mark.parametrize("language", ["ja"])
def test_placeholders_agree(language: str) -> None:
    english, other = catalogue(DEFAULT), catalogue(language)
    differ = {key: (placeholders(english[key]), placeholders(other[key])) for key in english if key in other}
    assert {key: pair for key, pair in differ.items() if pair[0] != pair[1]} == {}


def generated_keys() -> set[str]:
    """The keys of what is made for every game of the registry: its /play subcommand, described
    parameter by parameter, its name and rules, its options' names and choices."""
    keys = set()
    for game, info in GAMES.items():
        keys |= {f"game.{game}", f"rules.{game}", f"name.{game}", f"command.{game}"}
        keys.add(f"stats.{presentation_of(game).aims}")
        for parameter in parameters_of(game):
            keys |= {f"describe.{game}.{parameter.name}", f"name.{parameter.name}"}
        for option in info.options:
            keys |= {f"option.{option.name}", f"name.{option.name}", *(f"choice.{c}" for c in option.choices)}
    return keys


PAGE_SOURCES = sorted(ROOT.joinpath("activity", "page", "src").glob("*.ts"))


def page_keys() -> set[str]:
    """The keys the Activity's page names (``t("screen.…")``): its words come from these catalogues too."""
    keys = set()
    for path in PAGE_SOURCES:
        keys |= set(re.findall(r'\bt\(\s*"([a-z_]+\.[a-zA-Z0-9_.]+)"', path.read_text()))
    return keys


def test_the_page_names_keys_every_catalogue_has() -> None:
    named = page_keys()
    assert {"screen.your_turn", "screen.tap_again"} <= named  # the page's sources were read
    for language in languages():
        assert sorted(named - set(catalogue(language))) == [], language


def test_no_key_is_unused() -> None:
    """A key is used when the code names it, or names its prefix in an f-string and its rest anywhere."""
    literals, prefixes = strings_in_code()
    literals |= page_keys()
    literals |= set(languages())  # language names are keyed by the catalogues' own file names
    literals |= generated_keys()
    unused = [
        key
        for key in catalogue(DEFAULT)
        if key not in literals
        and not any(key.startswith(prefix) and key[len(prefix) :] in literals for prefix in prefixes)
    ]
    assert unused == []


def test_every_key_the_code_names_exists() -> None:
    """Literal keys handed to ``t``, ``text`` or ``say``, and the keys made for every game of the registry."""
    named = set()
    for path in SOURCES:
        for node in ast.walk(parsed(path.read_text(), str(path))):
            called = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if isinstance(node, ast.Call) and called in ("t", "text", "say"):  # say: a game's words (bot.games.shown)
                key = node.args[-1] if called == "text" else node.args[0] if called == "say" else node.args[1]
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    named.add(key.value)
    named |= generated_keys()
    assert sorted(named - set(catalogue(DEFAULT))) == []


def test_japanese_command_names_are_names_discord_accepts() -> None:
    for key, name in catalogue("ja").items():
        if key.startswith("name."):
            assert 1 <= len(name) <= 32 and name == name.lower(), name
            assert all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name), name


def test_cards_and_suits_read_naturally() -> None:
    from bot.words import card_label, suit_label

    assert suit_label("S", "ja") == "♠ スペード" and suit_label("H", "en-US") == "♥ Hearts"
    assert card_label("JK", "ja") == "🃏 ジョーカー" and card_label("10D", "ja") == "10♦"
    assert t("ja", "bid.no_trumps", tricks=7) == "7 切り札なし"


def test_a_language_we_lack_falls_back_to_the_server_then_english() -> None:
    from types import SimpleNamespace
    from typing import Any

    from cogs.i18n import ServerLanguages, reader

    bot = SimpleNamespace(languages=ServerLanguages({77: "ja"}))

    def asks(locale: str, guild_id: int) -> Any:
        return SimpleNamespace(locale=locale, guild_id=guild_id, client=bot)

    assert reader(asks(locale="fr", guild_id=77)) == "ja"
    assert reader(asks(locale="en-GB", guild_id=77)) == "en"
    assert reader(asks(locale="fr", guild_id=78)) == "en"
    assert reader(asks(locale="ja", guild_id=78)) == "ja"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_engine_refusal_has_its_text_in_every_catalogue(language: str) -> None:
    """A forged or stale Oh Hell bid (the hook's bid, a bid past the deal) fell back to the engine's English
    for a Japanese player: every reason an engine gives has its ``error.`` text, with the same placeholders."""
    from bot.games.errors import ENGLISH

    texts = catalogue(language)
    for key, english in ENGLISH.items():
        assert f"error.{key}" in texts, key
        assert placeholders(texts[f"error.{key}"]) <= placeholders(english), key


def test_a_japanese_text_names_commands_as_a_japanese_client_shows_them() -> None:
    """A Japanese client lists /シーズン 終了, not /season stop: a text that tells the reader to run a command names
    it in the reader's language (``/season stop`` and ``/rules`` were left in English in five texts)."""
    english = catalogue(DEFAULT)
    commands = {english[key] for key in english if key.startswith("name.")}
    slash = re.compile(r"(?<![\w/:.])/([a-z][a-z_-]*)")
    left = {key: text for key, text in catalogue("ja").items() if any(m in commands for m in slash.findall(text))}
    assert left == {}


def test_a_rating_change_adds_up_as_shown() -> None:
    """Before, after and the change were each rounded on their own: 24.14 → 26.26 read "24.1 → 26.3 (+2.1)"."""
    from bot.words.texts import rating_text

    assert rating_text(24.14, 26.26, "en-US") == "rating 24.1 → 26.3 (+2.2)"
    assert rating_text(24.16, 24.14, "en-US") == "rating 24.2 → 24.1 (-0.1)"
    assert rating_text(3.0, 3.04, "en-US") == "rating 3.0 → 3.0 (+0.0)"
    assert rating_text(None, 3.0, "en-US") == ""
