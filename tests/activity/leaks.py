"""The leak check of the end-to-end tests, applied to WebSocket frames: a screen never receives a card
its seat (or, for a watcher, the public) may not see at that move."""

from __future__ import annotations

from typing import Any

from bot.storage import repository as repo
from bot.storage.database import Database
from tests.e2e.leaks import card_codes, replayed


async def sight_by_move(database: Database, table_id: int, seat: int | None) -> list[set[str]]:
    """For every move N of the stored match: the cards ``seat`` (None: the public) may see then."""
    async with database.engine.connect() as connection:
        stored = await repo.load_table(connection, table_id)
    assert stored is not None
    return [card_codes(state.view(seat)) | deal_end for state, deal_end in replayed(stored)]


def leaks(frames: list[dict[str, Any]], table_id: int, sight: list[set[str]]) -> list[tuple[int, set[str]]]:
    """The frames of ``table_id`` in play that name a card the screen's seat could not see at that move.

    ``frames`` must have been received before ``sight`` was read from the log (take a copy first while the
    table is still in play): a frame of a later move could not be checked."""
    found = []
    for frame in frames:
        table = frame.get("table") if frame.get("type") == "state" else None
        if not table or table["id"] != table_id or "actions" not in table or "lobby" in table:
            continue
        # The seat's own legal actions are checked by what they name: a card played, or cards picked (a
        # Five Hundred bid such as "bid 7C" only looks like a card; design.md warns of it).
        rest = {key: value for key, value in table.items() if key != "choices"}
        named = card_codes(rest)
        for choice in table.get("choices") or []:
            named |= {entry["card"] for entry in choice.get("cards") or []}
            for action in choice["actions"]:
                verb, *words = action["action"].split()
                if verb in ("play", "discard"):
                    named |= card_codes(words)
        moves = len(sight) - 1
        assert table["actions"] <= moves, f"a frame of move {table['actions']}, past the log read ({moves} moves)"
        extra = named - sight[table["actions"]]
        if extra:
            found.append((table["actions"], extra))
    return found


async def played_cards(database: Database, table_id: int) -> set[str]:
    """Every card played at the table so far (face up on the felt, so public, once its trick is shown)."""
    async with database.engine.connect() as connection:
        stored = await repo.load_table(connection, table_id)
    assert stored is not None
    return {action.action.split()[1] for action in stored.actions if action.action.startswith("play ")}


def review_leaks(frames: list[dict[str, Any]], played: set[str]) -> list[set[str]]:
    """The deal reviews (received while the match goes on) naming a card that was never played, or any hand."""
    found = []
    for frame in frames:
        if frame.get("type") != "review":
            continue
        review = frame["review"]
        extra = card_codes(review) - played
        if extra or review["hands"]:
            found.append(extra | card_codes(review["hands"]))
    return found
