"""People's names as the service keeps them: the name a person goes by, without the characters that would
change how the text around it reads wherever it is shown (a right-to-left override that turns the rest of a
score line round, a zero-width space that makes two names look alike, a line break inside a name)."""

from __future__ import annotations

import unicodedata

# Format characters a name may keep: the joiners that compose emoji (👨‍👩‍👧) and shape some scripts' letters.
_KEPT_FORMAT = frozenset("\u200c\u200d")
NAME_LENGTH = 100  # the longest name kept (Discord's own are at most 32)


def readable_name(name: str) -> str:
    """``name`` with every control character made a space, every invisible format character (bidirectional
    overrides, embeddings and isolates, zero-width spaces, the byte-order mark) but the joiners between two
    characters drawn, and every lone surrogate, left out, spaces run together and trimmed, cut to
    :data:`NAME_LENGTH`; "" if nothing is left (shown as the person's id then)."""
    kept = []
    for character in name:
        category = unicodedata.category(character)
        if category == "Cc" or category in ("Zl", "Zp"):
            kept.append(" ")
        elif category == "Cs":  # half of a surrogate pair, alone: no character at all (it cannot be written out)
            continue
        elif category != "Cf" or character in _KEPT_FORMAT:
            kept.append(character)
    # A joiner joins two characters drawn, of emoji or of a script that shapes its letters by it: one at an end,
    # beside a space or another joiner, or between two plain letters, joins nothing and only makes a name look
    # like another ("alice" and "alice" with a joiner in it), or a blank one. (Cut first: no joiner left at the end.)
    text = " ".join("".join(kept).split())[:NAME_LENGTH]
    joined = [
        c
        for i, c in enumerate(text)
        if c not in _KEPT_FORMAT or _joins(text[i - 1] if i else " ", text[i + 1] if i + 1 < len(text) else " ")
    ]
    return " ".join("".join(joined).split())


def _joins(before: str, after: str) -> bool:
    """Whether a joiner between ``before`` and ``after`` joins something: two characters drawn, not both plain
    (ASCII) ones."""
    drawn = all(not c.isspace() and c not in _KEPT_FORMAT for c in (before, after))
    return drawn and not (before.isascii() and after.isascii())
