"""What the table's picture shows, from TableInfo and ``view(None)`` only (and the last trick of a deal just
scored, which every player saw played), in the server's language.

The picture (:mod:`cogs.picture`) draws these words and cards and nothing
else, so it can show no more than the text does.
"""

from __future__ import annotations

from typing import Any

from bot.games import presentation_of
from bot.games.views import View
from bot.tables import TableInfo, TrickReview
from bot.tables.deal_ends import last_trick_shown

from ..i18n import t
from ..picture import CardRow, SeatPlate, TablePicture
from .render import said, seat_name, trick_text

ALT_MAX = 1024  # Discord's longest attachment description
DEALER_MARK = "table.dealer_mark"  # drawn as the dealer button instead


def table_picture(table: TableInfo, public: View, locale: Any, deal_end: TrickReview | None = None) -> TablePicture:
    shown = presentation_of(table.game)
    header = tuple(" ".join(said(table, text, locale, marked=False) for text in line) for line in shown.header(public))
    rows = sorted(shown.seat_rows(public), key=lambda row: row.seat)
    place = {row.seat: index for index, row in enumerate(rows)}
    seats = tuple(
        SeatPlate(
            seat_name(table, row.seat, locale, marked=False),
            tuple(said(table, part, locale, marked=False) for part in row.parts if part.key != DEALER_MARK),
            dealer=public["dealer"] == row.seat,
            acting=row.acting,
        )
        for row in rows
    )
    trick = tuple((place[played["seat"]], played["card"]) for played in public["trick"] if played["seat"] in place)
    cards: list[CardRow] = []
    last = last_trick_shown(public, deal_end)
    if last is not None:
        title = t(locale, "table.last_trick")
        if last["winner"] is not None:
            title += " · " + t(locale, "table.won_by", name=seat_name(table, last["winner"], locale, marked=False))
        played_by = tuple(seat_name(table, played["seat"], locale, marked=False) for played in last["cards"])
        cards.append(CardRow(title, tuple(played["card"] for played in last["cards"]), played_by))
    for face_up in shown.face_up(public):
        cards.append(CardRow(said(table, face_up.title, locale, marked=False), face_up.cards.names))
    alt = " · ".join([*header, trick_text(table, public["trick"], locale, marked=False)] if public["trick"] else header)
    note = t(locale, "picture.undrawn")  # said on the picture only if no font here draws some letters
    return TablePicture(header, seats, trick, public["trump"], tuple(cards), alt[:ALT_MAX], note)
