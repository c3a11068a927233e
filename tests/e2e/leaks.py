"""What was hidden at each move of a stored match: the truth a public message is checked against."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from bot.games import GameState, new_game
from bot.storage import repository as repo
from bot.storage.database import Database
from tests.double import DiscordDouble

from .driver import MOVE, cards_named, public_versions

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


async def stored_table(database_url: str, table_id: int) -> repo.StoredTable:
    database = Database(database_url)
    try:
        async with database.engine.connect() as connection:
            stored = await repo.load_table(connection, table_id)
    finally:
        await database.close()
    assert stored is not None
    return stored


def replayed(stored: repo.StoredTable) -> Iterator[tuple[GameState, set[str]]]:
    """The stored match at its start and after each move, with the last trick of the deal just scored (played
    face up: both presentations show it until the new deal's first card, though its last card is in no view)."""
    row = stored.table
    seats = [seat for seat in stored.seats if seat.left_at is None]
    state = new_game(row.game, players=len(seats), options=dict(row.options), seed=row.seed)
    deal_end: set[str] = set()
    yield state, deal_end
    for action in stored.actions:
        before = state.view(None)
        state.act(action.seat, action.action)
        after = state.view(None)
        verb, *words = action.action.split()
        if after["deal"] != before["deal"] and verb == "play":
            deal_end = card_codes([played["card"] for played in before["trick"]]) | card_codes(words)
        elif after["trick"] or after["tricks_played"]:
            deal_end = set()
        yield state, deal_end


async def hidden_by_move(database_url: str, table_id: int) -> tuple[list[set[str]], list[set[str]]]:
    """For every move N of the table: the cards some seat holds that the public may not see, and the public ones."""
    stored = await stored_table(database_url, table_id)
    players = len([seat for seat in stored.seats if seat.left_at is None])
    hidden, public = [], []
    for state, deal_end in replayed(stored):
        shown = card_codes(state.view(None)) | deal_end
        known: set[str] = set()
        for seat in range(players):
            known |= card_codes(state.view(seat))
        public.append(shown)
        hidden.append(known - shown)
    return hidden, public


async def logged_actions(database_url: str, table_id: int) -> list[str]:
    """The table's action log as stored."""
    stored = await stored_table(database_url, table_id)
    return [action.action for action in stored.actions]


def _new_match(stored: repo.StoredTable, user_id: int) -> tuple[GameState, int]:
    """The stored table's match at its start, and the seat ``user_id`` holds in it."""
    row = stored.table
    seats = [seat for seat in stored.seats if seat.left_at is None]
    position = next(seat.position for seat in seats if seat.user_id == user_id)
    assert position is not None
    return new_game(row.game, players=len(seats), options=dict(row.options), seed=row.seed), position


async def seat_at_move(
    database_url: str, table_id: int, user_id: int, move: int
) -> tuple[dict[str, Any], set[str], list[str]]:
    """A person's seat after ``move`` actions: its view, every card code in it, and its legal actions."""
    stored = await stored_table(database_url, table_id)
    state, position = _new_match(stored, user_id)
    for action in stored.actions[:move]:
        state.act(action.seat, action.action)
    view = state.view(position)
    return dict(view), card_codes(view), state.legal(position) if position in state.to_act() else []


async def check_public_messages(double: DiscordDouble, database_url: str, table_id: int) -> set[int]:
    """Every version of every public message names no card hidden at its move (the table's footer says
    which move); anything that is not the table names no card at all. Returns the moves checked."""
    hidden, public = await hidden_by_move(database_url, table_id)
    checked: set[int] = set()
    for message, _version, text in public_versions(double):
        found = MOVE.search(text)
        if found is None:
            assert not cards_named(text), f"a card in a message that is not the table: {text}"
            continue
        move = int(found.group(1))
        leaked = cards_named(text) & hidden[move]
        assert not leaked, f"message {message.id} at move {move} shows hidden {leaked}:\n{text}"
        assert cards_named(text) <= public[move], text
        checked.add(move)
    assert len(hidden) - 1 in checked, "the final table was checked"
    return checked


async def stored_location(database_url: str, table_id: int) -> tuple[int | None, int | None]:
    """Where the database says the table's message and thread are."""
    stored = await stored_table(database_url, table_id)
    return stored.table.message_id, stored.table.thread_id


async def ever_visible_to(database_url: str, table_id: int, user_id: int) -> set[str]:
    """Every card a person's seat could see at some moment of the match (its own hands, and whatever was
    public): a card outside this set was never theirs to see."""
    stored = await stored_table(database_url, table_id)
    state, position = _new_match(stored, user_id)
    seen = card_codes(state.view(position))
    for action in stored.actions:
        state.act(action.seat, action.action)
        seen |= card_codes(state.view(position))
    return seen


async def check_private_messages(double: DiscordDouble, database_url: str, table_id: int, user: Any) -> int:
    """Every version of every message only ``user`` sees names only cards their seat could see at some
    moment of the match. Returns how many versions were read."""
    allowed = await ever_visible_to(database_url, table_id, user.id)
    read = 0
    for message in double.ephemerals(user):
        for version in message.versions or [{"content": message.content, "embeds": message.embeds}]:
            shown = [version.get("embeds", []), version.get("components", [])]
            text = version["content"] + json.dumps(shown, ensure_ascii=False)
            leaked = cards_named(text) - allowed
            assert not leaked, f"{user.name} was shown {sorted(leaked)}, never theirs to see:\n{text}"
            read += 1
    return read
