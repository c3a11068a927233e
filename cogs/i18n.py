"""One translation function for everything a person reads.

Catalogues are gettext ``.po`` files in ``cogs/locales/`` read with Babel; a
message id is a dotted key (``lobby.join``) and its text uses ``str.format``
placeholders. A text missing from a language falls back to English.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

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


def languages() -> list[str]:
    return sorted(path.stem for path in LOCALES_DIR.glob("*.po"))


def language_of(locale: Any) -> str:
    """A Discord locale (``ja``, ``en-US``, a ``discord.Locale``) as one of our languages."""
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in languages() else DEFAULT


def t(locale: Any, key: str, /, **params: Any) -> str:
    """The text for ``key`` in the reader's language, with ``params`` filled in."""
    language = language_of(locale)
    text = catalogue(language).get(key) or catalogue(DEFAULT).get(key)
    if text is None:
        log.error("no text for %r", key)
        return key
    return text.format(**params) if params else text
