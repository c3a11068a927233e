"""The last trick of the deal a table just scored, for every presentation that shows the table.

A deal is scored as its last card is played, so that card is in no view: the new deal's ``last_trick`` is
empty and the old deal's last trick would be seen by nobody but the players who watched it fall. Until the
new deal's first card, the chat table and the Activity show it as the last trick, read once from the table's
log as "Last deal" reads it, and never before "Last deal" may show it (a duplicate night's other tables
must have played the deal first: its tricks name cards they still hold).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import SQLAlchemyError

from bot.games.views import LastTrick, Played, View
from bot.storage.models import TableStatus

from .errors import TableError
from .records import TableInfo
from .review import DealReview, TrickReview

log = logging.getLogger(__name__)

KEPT = 4096  # tables remembered (one entry a table between its deal's end and its new deal's first card)

Reviews = Callable[[int], Awaitable[tuple[TableInfo, list[DealReview]]]]


class DealEnds:
    """``await deal_ends(table, public)``: the last trick of the deal ``public`` shows the sheet of, while the
    table is played and its new deal has no card down yet; None otherwise, or while "Last deal" may not show it.
    Read once a deal and table (a refusal once a move: asked again at the next)."""

    def __init__(self, reviews: Reviews) -> None:
        self._reviews = reviews
        # table -> (the deal scored, its last trick, the table's moves when refused: None, not refused)
        self._known: OrderedDict[int, tuple[int, TrickReview | None, int | None]] = OrderedDict()

    async def __call__(self, table: TableInfo, public: View) -> TrickReview | None:
        sheet = public["last_deal"]
        if table.status != TableStatus.PLAYING or sheet is None or public["trick"] or public["tricks_played"]:
            self._known.pop(table.id, None)  # the new deal is under way (or the match over): nothing to keep
            return None
        known = self._known.get(table.id)
        if known is not None and known[0] == sheet["deal"] and known[2] in (None, table.actions):
            self._known.move_to_end(table.id)
            return known[1]
        try:
            _, deals = await self._reviews(table.id)
        except TableError:  # "Last deal" may not show it yet (a duplicate night's other tables): nor may this
            self._remember(table.id, (sheet["deal"], None, table.actions))
            return None
        except (SQLAlchemyError, OSError, TimeoutError):  # the database away: the table shown without it this time
            log.warning("the last trick of table %s's deal %s was not read", table.id, sheet["deal"], exc_info=True)
            return None
        last = deals[-1] if deals else None
        end = last.tricks[-1] if last is not None and last.deal == sheet["deal"] and last.tricks else None
        self._remember(table.id, (sheet["deal"], end, None))
        return end

    def _remember(self, table_id: int, entry: tuple[int, TrickReview | None, int | None]) -> None:
        self._known[table_id] = entry
        self._known.move_to_end(table_id)
        while len(self._known) > KEPT:
            self._known.popitem(last=False)


def last_trick_shown(public: View, deal_end: TrickReview | None = None) -> LastTrick | None:
    """The last trick a presentation shows: the view's own, else the deal just scored's (``DealEnds``) while the new
    deal has no card down yet; None: none."""
    last = public["last_trick"]
    if last and last["cards"]:
        return last
    if deal_end is not None and deal_end.cards and not public["trick"]:
        return LastTrick(cards=[Played(seat=seat, card=card) for seat, card in deal_end.cards], winner=deal_end.winner)
    return None
