"""One translation function for everything a person reads, and the translator of the slash commands.

Catalogues are gettext ``.po`` files in ``cogs/locales/`` read with Babel (``bot/catalogues.py``); a
message id is a dotted key (``lobby.join``) and its text uses ``str.format``
placeholders. A text missing from a language falls back to English.

A text that names a number of things has plural forms (``1 pt``, ``2 pts``;
Japanese has one form): its ``msgid_plural`` is the placeholder whose number
picks the form (``"{score}"``), and the form is picked by gettext's
``ngettext`` with the catalogue's own plural rule (Babel compiles it).

Whom a reply is for decides its language: the person's Discord language when
we have it, else their server's chosen language, else English (``reader``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import words
from bot.catalogues import (
    DEFAULT,
    LOCALES_DIR,
    catalogue,
    language_of,
    languages,
    plural_forms,
    translate,
    translations,
)
from bot.tables import TableError
from bot.words import duration

__all__ = [
    "DEFAULT",
    "LOCALES_DIR",
    "catalogue",
    "duration",
    "language_of",
    "languages",
    "plural_forms",
    "t",
    "translations",
]

log = logging.getLogger(__name__)


class ServerLanguages:
    """Each server's chosen language for its public messages: one object, owned by the bot (loaded when
    it starts, changed by /settings)."""

    def __init__(self, chosen: Mapping[int, str] | None = None) -> None:
        self._chosen: dict[int, str] = dict(chosen or {})

    def of(self, guild_id: int | None) -> str:
        """The server's language, English when it chose none (or for a direct message)."""
        return language_of(self._chosen.get(guild_id or 0, DEFAULT))

    def chosen(self, guild_id: int | None) -> str | None:
        """The language the server chose, None when it chose none."""
        language = self._chosen.get(guild_id or 0)
        return language_of(language) if language else None

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


def server_reader(interaction: discord.Interaction[Any]) -> str:
    """The language a server's own settings are shown in: the one it chose for its tables (so a change
    of language shows at once), else the reader's."""
    languages = getattr(interaction.client, "languages", None)
    chosen = languages.chosen(interaction.guild_id) if isinstance(languages, ServerLanguages) else None
    return chosen or reader(interaction)


def t(locale: Any, key: str, /, **params: Any) -> str:
    """The text for ``key`` in the reader's language, with ``params`` filled in (in the plural form
    for the number it counts, where it has plural forms)."""
    return translate(locale, key, **params)


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


ECHO_MAX = 40  # the most of a refused value said back to its sender


def as_typed(text: str) -> str:
    """Someone's words put in a message's text (a name, a value they sent): markdown and mentions escaped, so
    Discord shows them as typed (no italics, no masked link, no mention)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text)).replace("<", "\\<")


def echoed(value: object) -> str:
    """A value someone sent, said back in a refusal: cut to ``ECHO_MAX`` (a forged option may hold thousands of
    letters, which would take the answer past Discord's 2,000), as typed (:func:`as_typed`)."""
    shown = str(value)
    return as_typed(shown if len(shown) <= ECHO_MAX else shown[: ECHO_MAX - 1] + "…")


def error_text(error: TableError, locale: Any) -> str:
    """A service refusal as Discord shows it: in the reader's language (:func:`bot.words.error_text`), with
    what someone typed said back :func:`echoed` (cut short, its markdown and mentions shown as typed)."""
    return words.error_text(error, locale, typed=echoed)
