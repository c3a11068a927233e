"""What was hidden at each move of a stored match: the truth a public message is checked against."""

from __future__ import annotations

import re
from typing import Any

from bot.games import new_game
from bot.storage import repository as repo
from bot.storage.database import Database

CARD_CODE = re.compile(r"^(10|11|12|13|[2-9JQKA])[SHDC]$|^JK2?$")


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a view (lists, dicts, and action-like strings)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= card_codes(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_codes(item)
    elif isinstance(value, str):
        found |= {token for token in value.split() if CARD_CODE.match(token)}
    return found


async def _stored(database_url: str, table_id: int) -> repo.StoredTable:
    database = Database(database_url)
    try:
        async with database.engine.connect() as connection:
            stored = await repo.load_table(connection, table_id)
    finally:
        await database.close()
    assert stored is not None
    return stored


async def hidden_by_move(database_url: str, table_id: int) -> tuple[list[set[str]], list[set[str]]]:
    """For every move N of the table: the cards some seat holds that the public may not see, and the public ones."""
    stored = await _stored(database_url, table_id)
    row = stored.table
    seats = [seat for seat in stored.seats if seat.left_at is None]
    state = new_game(row.game, players=len(seats), options=dict(row.options), seed=row.seed)
    hidden, public = [], []

    def snapshot() -> None:
        shown = card_codes(state.view(None))
        known: set[str] = set()
        for seat in range(len(seats)):
            known |= card_codes(state.view(seat))
        public.append(shown)
        hidden.append(known - shown)

    snapshot()
    for action in stored.actions:
        state.act(action.seat, action.action)
        snapshot()
    return hidden, public


async def logged_actions(database_url: str, table_id: int) -> list[str]:
    """The table's action log as stored."""
    stored = await _stored(database_url, table_id)
    return [action.action for action in stored.actions]
