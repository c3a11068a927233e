"""A game's description (:mod:`bot.games.shown`) in words for the Activity: the shared words of
:mod:`bot.words` (the chat table says everything through them too), with the Activity's own way of
naming a seat.

Names are plain text here, and the page draws them with ``textContent``, never as HTML. A text worded from a
game's description (:func:`said`) is the catalogue's, written for Discord: it may carry Discord's inline
markdown (``**Declare**: …``), which the page draws as bold and italic (``markup.ts``, DOM nodes, never HTML);
the names in such a text are escaped (``\\*``), so a name is read as it is, never as markdown.
"""

from __future__ import annotations

import re

from bot.catalogues import translate
from bot.games.shown import Text
from bot.tables import TableInfo
from bot.words import computer_name
from bot.words import said as said_words

NAME_MAX = 32  # a display name is cut to this on the table


def seat_name(table: TableInfo | None, seat: int, language: str) -> str:
    """A seat's player's name, a computer's number, or the dummy (the Ninety-Nine dummy has no seat row)."""
    if table is None:
        return str(seat + 1)
    for info in table.seats:
        if info.index == seat:
            if info.computer:  # by its level and seat, as in chat: 🤖 Strong 2
                return computer_name(seat + 1, info.level, language)
            name = info.name or str(info.user_id)
            return name if len(name) <= NAME_MAX else name[: NAME_MAX - 1] + "…"
    return translate(language, "seat.dummy")


MARKS = re.compile(r"([\\*])")  # what the page reads as marks in such a text: * (bold, italic) and the escape


def escaped(name: str) -> str:
    """A name put in a text that may carry markdown: each mark escaped, so it reads as it is."""
    return MARKS.sub(r"\\\1", name)


def said(table: TableInfo | None, text: Text, language: str) -> str:
    """``text`` in the reader's language, each seat by :func:`seat_name`: the catalogue's markdown kept, for
    the page to draw, and each name escaped (see the module's docstring)."""
    return said_words(text, language, lambda seat: escaped(seat_name(table, seat, language)))
