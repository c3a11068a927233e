"""The translation catalogues every presentation reads: gettext ``.po`` files by language, read with Babel.

They live in ``cogs/locales/`` (the chat presentation came first); the Activity reads
the same files through this module, so both say everything in the same words. A message
id is a dotted key (``lobby.join``) and its text uses ``str.format`` placeholders.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent.parent / "cogs" / "locales"
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
    return tuple(sorted(path.stem for path in LOCALES_DIR.glob("*.po")))


def language_of(code: Any, fallback: str = DEFAULT) -> str:
    """A locale code (``ja``, ``en-US``) as one of our languages, else ``fallback``."""
    head = str(code or "").split("-")[0].lower()
    return head if head in languages() else fallback


def translate(language: str, key: str, /, **params: Any) -> str:
    """The text for ``key`` in ``language`` (English when that language lacks it), ``params`` filled in."""
    text = catalogue(language).get(key) or catalogue(DEFAULT).get(key)
    if text is None:
        log.error("no text for %r", key)
        return key
    return text.format(**params) if params else text
