"""The translation catalogues every presentation reads: gettext ``.po`` files by language, read with Babel.

They live in ``cogs/locales/`` (the chat presentation came first); the chat presentation
(``cogs/i18n.py``) and the Activity both read them through this module, so both say
everything in the same words. A message id is a dotted key (``lobby.join``) and its text
uses ``str.format`` placeholders. A text missing from a language falls back to English.

A text that names a number of things has plural forms (``1 pt``, ``2 pts``; Japanese has
one form): its ``msgid_plural`` is the placeholder whose number picks the form
(``"{score}"``), and the form is picked by gettext's ``ngettext`` with the catalogue's own
plural rule (Babel compiles it).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent.parent / "cogs" / "locales"
DEFAULT = "en"


@cache
def _read(language: str) -> Catalog | None:
    path = LOCALES_DIR / f"{language}.po"
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


@cache
def catalogue(language: str) -> dict[str, str]:
    """The texts of one language, by key (empty when there is no such catalogue); a text with plural
    forms by its last form (see :func:`plural_forms`)."""
    po = _read(language)
    texts: dict[str, str] = {}
    for message in po or ():
        if isinstance(message.id, tuple):
            forms = _forms(message.string)
            if message.id[0] and any(forms):
                texts[str(message.id[0])] = forms[-1]
        elif message.id and message.string:
            texts[str(message.id)] = str(message.string)
    return texts


@cache
def plural_forms(language: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The texts of one language that have plural forms: key → (the placeholder that counts, the forms)."""
    po = _read(language)
    return {
        str(message.id[0]): (str(message.id[1]).strip("{}"), _forms(message.string))
        for message in po or ()
        if isinstance(message.id, tuple) and any(_forms(message.string))
    }


def _forms(string: object) -> tuple[str, ...]:
    return tuple(str(form) for form in string) if isinstance(string, tuple | list) else (str(string or ""),)


@cache
def translations(language: str) -> Translations:
    """The catalogue as gettext translations (compiled by Babel, with the catalogue's plural rule)."""
    po = _read(language)
    compiled = io.BytesIO()
    write_mo(compiled, po if po is not None else Catalog(locale=DEFAULT))
    compiled.seek(0)
    return Translations(compiled)


@cache
def languages() -> tuple[str, ...]:
    """The languages we have a catalogue for (read once: every translated string asks)."""
    return tuple(sorted(path.stem for path in LOCALES_DIR.glob("*.po")))


def language_of(locale: Any, fallback: str = DEFAULT) -> str:
    """A locale (``ja``, ``en-US``, a ``discord.Locale``) as one of our languages, else ``fallback``."""
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in languages() else fallback


def _counted(language: str, key: str, params: Mapping[str, Any]) -> str | None:
    """The plural form of ``key`` for the number it counts in ``params`` (None: not a plural text)."""
    for tongue in dict.fromkeys((language, DEFAULT)):
        plural = plural_forms(tongue).get(key)
        if plural is not None and isinstance(params.get(plural[0]), int):
            return str(translations(tongue).ngettext(key, "{" + plural[0] + "}", params[plural[0]]))
    return None


def translate(locale: Any, key: str, /, **params: Any) -> str:
    """The text for ``key`` in the reader's language, with ``params`` filled in (in the plural form
    for the number it counts, where it has plural forms)."""
    language = language_of(locale)
    text = _counted(language, key, params) or catalogue(language).get(key) or catalogue(DEFAULT).get(key)
    if text is None:
        log.error("no text for %r", key)
        return key
    return text.format(**params) if params else text
