"""One translation function for everything a person reads, and the translator of the slash commands.

Catalogues are gettext ``.po`` files in ``cogs/locales/`` read with Babel; a
message id is a dotted key (``lobby.join``) and its text uses ``str.format``
placeholders. A text missing from a language falls back to English.

Whom a reply is for decides its language: the person's Discord language when
we have it, else their server's chosen language, else English (``reader``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import discord
from babel.messages.pofile import read_po
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT = "en"


@cache
def catalogue(language: str) -> dict[str, str]:
    """The texts of one language, by key (empty when there is no such catalogue)."""
    path = LOCALES_DIR / f"{language}.po"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        po = read_po(handle, locale=language)
    return {str(message.id): str(message.string) for message in po if message.id and message.string}


@cache
def languages() -> tuple[str, ...]:
    """The languages we have a catalogue for (read once: every translated string asks)."""
    return tuple(sorted(path.stem for path in LOCALES_DIR.glob("*.po")))


def language_of(locale: Any, fallback: str = DEFAULT) -> str:
    """A Discord locale (``ja``, ``en-US``, a ``discord.Locale``) as one of our languages, else ``fallback``."""
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in languages() else fallback


class ServerLanguages:
    """Each server's chosen language for its public messages: one object, owned by the bot (loaded when
    it starts, changed by /settings)."""

    def __init__(self, chosen: Mapping[int, str] | None = None) -> None:
        self._chosen: dict[int, str] = dict(chosen or {})

    def of(self, guild_id: int | None) -> str:
        """The server's language, English when it chose none (or for a direct message)."""
        return language_of(self._chosen.get(guild_id or 0, DEFAULT))

    def choose(self, guild_id: int, language: str | None) -> None:
        """A server's new choice (None: back to the default)."""
        if language is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = language

    def load(self, chosen: Mapping[int, str]) -> None:
        self._chosen.update(chosen)


def reader(interaction: discord.Interaction[Any]) -> str:
    """The language to answer this person in: theirs, else their server's, else English."""
    languages = getattr(interaction.client, "languages", None)
    server = languages.of(interaction.guild_id) if isinstance(languages, ServerLanguages) else DEFAULT
    return language_of(interaction.locale, server)


def t(locale: Any, key: str, /, **params: Any) -> str:
    """The text for ``key`` in the reader's language, with ``params`` filled in."""
    language = language_of(locale)
    text = catalogue(language).get(key) or catalogue(DEFAULT).get(key)
    if text is None:
        log.error("no text for %r", key)
        return key
    return text.format(**params) if params else text


def text(key: str) -> app_commands.locale_str:
    """A command's description (or a choice's name) in English, with the key its translations have."""
    return app_commands.locale_str(t(DEFAULT, key), key=key)


class Translator(app_commands.Translator):
    """Slash commands in every language we have a catalogue for.

    Descriptions and choices carry their key (``text``); command, group and
    parameter names are keyed by their English name (``name.play``), since
    Discord sends commands back by their default names.
    """

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = language_of(locale, "")
        if not language or language == DEFAULT:
            return None
        joined = string.extras.get("joined")
        if joined:  # a name made of names (/play-<game>): each translated, joined the same way
            parts = [catalogue(language).get(f"name.{part}") for part in joined]
            return "-".join(p for p in parts if p) if all(parts) else None
        key = string.extras.get("key")
        if key is None and context.location in (Where.command_name, Where.group_name, Where.parameter_name):
            key = f"name.{string.message}"
        return None if key is None else catalogue(language).get(key)
